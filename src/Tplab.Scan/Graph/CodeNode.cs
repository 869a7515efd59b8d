using Microsoft.CodeAnalysis;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// One piece of the solution's own code that runs as a unit: a method, constructor, accessor, local function or
/// lambda, known by the syntax that holds its body (stable across retargeted symbols of a multi-project solution).
/// </summary>
public sealed class CodeNode
{
    internal CodeNode(SyntaxNode syntax, IMethodSymbol symbol, string relativePath)
    {
        Syntax = syntax;
        Symbol = symbol;
        RelativePath = relativePath;
        (TypeName, MethodName) = SymbolNames.UserMethod(symbol);
        IsLambda = symbol.MethodKind is MethodKind.AnonymousFunction or MethodKind.LocalFunction;
    }

    /// <summary>
    /// A node as a cached scan recorded it (<c>Incremental/ScanCacheFile</c>): its names, file and line only, for the
    /// reports of a result reused without loading the code. It has no syntax or symbol and is never walked.
    /// </summary>
    internal CodeNode(string typeName, string methodName, string displayName, string relativePath, int line, bool isLambda)
    {
        Syntax = null!;
        Symbol = null!;
        RelativePath = relativePath;
        (TypeName, MethodName) = (typeName, methodName);
        IsLambda = isLambda;
        _recorded = (displayName, line);
    }

    private readonly (string DisplayName, int Line)? _recorded;

    /// <summary>The declaration whose body this is (method, accessor, lambda...).</summary>
    public SyntaxNode Syntax { get; }

    public IMethodSymbol Symbol { get; }

    /// <summary>The file, relative to the scanned root, with '/' separators.</summary>
    public string RelativePath { get; }

    /// <summary>The type the developer wrote it in, <c>Namespace.Type+Nested</c> (compiler-generated parts folded away, as diagnose does).</summary>
    public string TypeName { get; }

    /// <summary>The method the developer wrote it in: a lambda or local function is named after the method that holds it.</summary>
    public string MethodName { get; }

    /// <summary>A lambda or local function (named after the method that holds it).</summary>
    public bool IsLambda { get; }

    /// <summary><c>Namespace.Type.Method</c>, the user frame's form in diagnose's JSON.</summary>
    public string FullName => TypeName + "." + MethodName;

    /// <summary><c>Type.Method</c>: the form a developer searches for (<c>Type (constructor)</c> for a constructor).</summary>
    public string ShortName
    {
        get
        {
            var type = TypeName[(TypeName.LastIndexOf('.') + 1)..].Replace('+', '.');
            var tick = type.IndexOf('`', StringComparison.Ordinal);
            type = tick > 0 ? type[..tick] : type;
            return MethodName is ".ctor" or ".cctor" ? $"{type} (constructor)" : type + "." + MethodName;
        }
    }

    /// <summary><c>Type.Method</c>, or <c>Type.Method (lambda)</c>, for text.</summary>
    public string DisplayName
    {
        get
        {
            if (_recorded is { } recorded)
            {
                return recorded.DisplayName;
            }
            var name = ShortName;
            return Symbol.MethodKind switch
            {
                MethodKind.AnonymousFunction => name + " (lambda)",
                MethodKind.LocalFunction => name + "." + Symbol.Name + " (local function)",
                _ => name,
            };
        }
    }

    /// <summary>The 1-based line where the body starts.</summary>
    public int Line => _recorded?.Line ?? Syntax.GetLocation().GetLineSpan().StartLinePosition.Line + 1;

    public override string ToString() => DisplayName;
}
