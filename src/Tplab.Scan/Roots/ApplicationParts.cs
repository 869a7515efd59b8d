using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// Which assemblies MVC looks for controllers in. By default every application part (the app and the projects it
/// references that use MVC); an app that clears the parts (<c>ConfigureApplicationPartManager(m =&gt; m.ApplicationParts.Clear())</c>)
/// and adds its own (<c>AddApplicationPart(typeof(X).Assembly)</c>) has controllers only there.
/// </summary>
internal sealed class ApplicationParts
{
    private readonly HashSet<string>? _only;

    public ApplicationParts(Sites sites)
    {
        var cleared = sites.Invocations("Clear").Any(c => Ops.Unwrap(c.Call.Instance) is IPropertyReferenceOperation { Property.Name: "ApplicationParts" });
        if (!cleared)
        {
            return;
        }
        _only = new HashSet<string>(StringComparer.Ordinal);
        foreach (var (call, _) in sites.Invocations("AddApplicationPart"))
        {
            // typeof(StartupController).Assembly, or an Assembly variable: the type's assembly when source shows it, else every assembly.
            var argument = call.Arguments.Select(a => Ops.Unwrap(a.Value)).LastOrDefault();
            if (argument is IPropertyReferenceOperation { Property.Name: "Assembly", Instance: ITypeOfOperation typeOf } && typeOf.TypeOperand.ContainingAssembly is { } assembly)
            {
                _only.Add(assembly.Name);
            }
            else
            {
                // A plugin's assembly loaded at run time: not one of the solution's, so nothing of ours is excluded by it.
                continue;
            }
        }
        if (_only.Count == 0)
        {
            _only = null;
        }
    }

    /// <summary>Whether MVC would look for controllers in <paramref name="type"/>'s assembly.</summary>
    public bool Contains(INamedTypeSymbol type) => _only is null || _only.Contains(type.ContainingAssembly.Name);
}
