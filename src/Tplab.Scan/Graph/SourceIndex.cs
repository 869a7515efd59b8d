using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// The solution's own source: its syntax trees and their semantic models, its types, the code nodes of its method
/// bodies, and which of its methods implement or override a given method. Library code is outside it. Made of
/// compilations and a root folder, so that scan (its MSBuild load, <c>Scanner.Index</c>) and the analyzer (one
/// compilation in a build) read code through the same index.
/// </summary>
internal sealed class SourceIndex
{
    private readonly Dictionary<SyntaxTree, Compilation> _compilationOf = [];
    // A semantic model holds every body bound through it: kept for the whole scan, the models were most of its memory
    // (BENCHMARKS.md, "Scan speed"). Held weakly, a model lives while anything still reads through it (an operation
    // of its tree, a walk in progress) and the collector takes it once nothing does; the most recently asked are also
    // held, so that the questions of one stage to one file share a model. A body read again after its model went is
    // bound again, to the same symbols: what the scan keeps of a body are its facts, never its operations.
    private readonly ConcurrentDictionary<SyntaxTree, WeakReference<SemanticModel>> _models = new();
    private readonly SemanticModel?[] _recent = new SemanticModel?[64];
    private int _asked;
    private readonly ConcurrentDictionary<SyntaxNode, CodeNode?> _nodes = new();
    private readonly Lazy<(List<INamedTypeSymbol> Classes, HashSet<string>[] Names, Dictionary<string, List<int>> ByName)> _declaring;
    private readonly ConcurrentDictionary<string, IReadOnlyList<IMethodSymbol>> _implementations = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<int, List<(string Of, IMethodSymbol Implementation)>> _pairs = new();
    private readonly Lazy<List<INamedTypeSymbol>> _types;
    private readonly Lazy<ServiceRegistry> _services;
    private readonly Lazy<Callers> _callers;
    private readonly Lazy<HashSet<string>> _extended;

    public SourceIndex(IEnumerable<Compilation> compilations, string root)
    {
        ArgumentNullException.ThrowIfNull(compilations);
        Root = root;
        foreach (var compilation in compilations)
        {
            foreach (var tree in compilation.SyntaxTrees)
            {
                // Generated files of one project (obj/...) are part of its source; a tree shared by two projects is read once.
                _compilationOf.TryAdd(tree, compilation);
            }
        }
        Trees = [.. _compilationOf.Keys.Where(t => t.FilePath.Length > 0)];
        _types = new(ListTypes);
        _declaring = new(IndexDeclaring);
        _services = new(() => new ServiceRegistry(this));
        _callers = new(() => new Callers(this));
        _extended = new(() => [.. Types.Select(t => t.BaseType).OfType<INamedTypeSymbol>().Select(SymbolNames.MetadataName)]);
    }

    /// <summary>Per-solution memo of facts the rules compute about a method once (whether it runs a delegate parameter, what it returns).</summary>
    internal ConcurrentDictionary<(CodeNode Node, string Fact), object?> Memo { get; } = new();

    /// <summary>The folder paths are reported relative to.</summary>
    public string Root { get; }

    public IReadOnlyList<SyntaxTree> Trees { get; }

    /// <summary>How many threads the walks use at most (scan: one per core; the analyzer: the compiler's own thread).</summary>
    public int Workers { get; init; } = 1;

    /// <summary><paramref name="read"/> of every tree, in the trees' order (<see cref="Each"/>: scan's syntax passes over the whole solution).</summary>
    public T[] PerTree<T>(Func<SyntaxTree, T> read, CancellationToken cancellationToken) => Each(Trees, read, cancellationToken);

    /// <summary>
    /// <paramref name="read"/> of every item, results in the items' order: one item per worker at a time (each file or
    /// call on its own; a single worker reads them in turn on the caller's thread).
    /// </summary>
    public TOut[] Each<TIn, TOut>(IReadOnlyList<TIn> items, Func<TIn, TOut> read, CancellationToken cancellationToken)
    {
        var results = new TOut[items.Count];
        if (Workers <= 1)
        {
            for (var i = 0; i < results.Length; i++)
            {
                cancellationToken.ThrowIfCancellationRequested();
                results[i] = read(items[i]);
            }
            return results;
        }
        Parallel.For(0, results.Length, new ParallelOptions { CancellationToken = cancellationToken, MaxDegreeOfParallelism = Workers }, i => results[i] = read(items[i]));
        return results;
    }

    /// <summary>
    /// The first lines of a file beside the source that is not C# (a Razor page's <c>@page</c> line), by full path, or
    /// null when there is none: scan reads the disk, the analyzer its <c>AdditionalFiles</c> (it may not read files).
    /// </summary>
    public Func<string, IEnumerable<string>?> OtherFile { get; init; } = _ => null;

    /// <summary>Every type declared in the source, nested ones included, each once.</summary>
    public IReadOnlyList<INamedTypeSymbol> Types => _types.Value;

    /// <summary>Whether a class of the source derives from <paramref name="type"/> (compared by name: another project's twin counts).</summary>
    public bool IsExtended(INamedTypeSymbol type) => _extended.Value.Contains(SymbolNames.MetadataName(type));

    /// <summary>
    /// The tree's semantic model, without nullable flow analysis: the scan reads calls, types and symbols, never
    /// nullability, and that analysis was four fifths of binding a body (Roslyn's own IDE features read models so).
    /// </summary>
    public SemanticModel Model(SyntaxTree tree)
    {
        var slot = _models.GetOrAdd(tree, t => new WeakReference<SemanticModel>(NewModel(t)));
        SemanticModel? model;
        lock (slot)
        {
            if (!slot.TryGetTarget(out model))
            {
                model = NewModel(tree);
                slot.SetTarget(model);
            }
        }
        _recent[(int)((uint)Interlocked.Increment(ref _asked) % (uint)_recent.Length)] = model;
        return model;
    }

#pragma warning disable RSEXPERIMENTAL001 // an experimental flag of a public API, shipped since Roslyn 4.9
    private SemanticModel NewModel(SyntaxTree tree) => _compilationOf[tree].GetSemanticModel(tree, SemanticModelOptions.DisableNullableAnalysis);
#pragma warning restore RSEXPERIMENTAL001

    public Compilation CompilationOf(SyntaxTree tree) => _compilationOf[tree];

    /// <summary>What dependency injection can hand out per service type (read on first use).</summary>
    public ServiceRegistry Services => _services.Value;

    /// <summary>
    /// The calls of the source's methods, found by name across the solution: one for the whole scan (each reader making
    /// its own walked every tree again, BENCHMARKS.md "Scan speed").
    /// </summary>
    public Callers Callers => _callers.Value;

    /// <summary>Whether <paramref name="symbol"/> is declared in the scanned source (not in a library).</summary>
    public bool IsSource(ISymbol? symbol) =>
        symbol is not null && symbol.DeclaringSyntaxReferences.Any(r => _compilationOf.ContainsKey(r.SyntaxTree));

    /// <summary>The path of <paramref name="tree"/> relative to the scanned root, with '/'.</summary>
    public string RelativePath(SyntaxTree tree) => Path.GetRelativePath(Root, tree.FilePath).Replace('\\', '/');

    /// <summary>The node for a method declared in source with a body, or null (abstract, extern, partial without body, library).</summary>
    public CodeNode? NodeFor(IMethodSymbol method)
    {
        var m = SymbolNames.Definition(method);
        if (m.PartialImplementationPart is { } impl)
        {
            m = impl;
        }
        foreach (var reference in m.DeclaringSyntaxReferences)
        {
            if (!_compilationOf.ContainsKey(reference.SyntaxTree))
            {
                continue;
            }
            var syntax = reference.GetSyntax();
            if (HasBody(syntax))
            {
                return NodeFor(syntax);
            }
        }
        return null;
    }

    /// <summary>The node for a declaration or lambda syntax, or null when it has no body or no symbol.</summary>
    public CodeNode? NodeFor(SyntaxNode syntax) => _nodes.GetOrAdd(syntax, s =>
    {
        var model = Model(s.SyntaxTree);
        var symbol = s switch
        {
            AnonymousFunctionExpressionSyntax lambda => model.GetSymbolInfo(lambda).Symbol as IMethodSymbol,
            ArrowExpressionClauseSyntax arrow when arrow.Parent is PropertyDeclarationSyntax or IndexerDeclarationSyntax =>
                (model.GetDeclaredSymbol(arrow.Parent) as IPropertySymbol)?.GetMethod,
            CompilationUnitSyntax unit => model.GetDeclaredSymbol(unit) as IMethodSymbol,
            _ => model.GetDeclaredSymbol(s) as IMethodSymbol,
        };
        return symbol is null ? null : new CodeNode(s, symbol, RelativePath(s.SyntaxTree));
    });

    /// <summary>The innermost node whose body holds <paramref name="syntax"/> (a lambda, local function, method, accessor...).</summary>
    public CodeNode? EnclosingNode(SyntaxNode syntax)
    {
        for (var s = syntax.Parent; s is not null; s = s.Parent)
        {
            if (s is AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax or BaseMethodDeclarationSyntax or AccessorDeclarationSyntax
                || (s is ArrowExpressionClauseSyntax && s.Parent is PropertyDeclarationSyntax or IndexerDeclarationSyntax))
            {
                return NodeFor(s);
            }
        }
        return null;
    }

    /// <summary>The Handle methods of the solution's mediator handlers (MediatR-style) for requests or notifications of <paramref name="requestType"/>.</summary>
    public IEnumerable<IMethodSymbol> RequestHandlers(ITypeSymbol requestType) =>
        from type in Types
        where !type.IsAbstract
        from iface in type.AllInterfaces
        where iface.Name is "IRequestHandler" or "INotificationHandler" or "ICommandHandler" or "IQueryHandler"
            && iface.ContainingNamespace?.ToDisplayString() is "MediatR" or "Mediator"
            && iface.TypeArguments.Length > 0 && SymbolEqualityComparer.Default.Equals(iface.TypeArguments[0], requestType)
        from member in iface.GetMembers("Handle").OfType<IMethodSymbol>()
        let impl = type.FindImplementationForInterfaceMember(member) as IMethodSymbol
        where impl is not null && IsSource(impl)
        select impl;

    /// <summary>
    /// The source methods that run when <paramref name="method"/> is called virtually: its overrides and, for an
    /// interface member, the implementations in source types. Asked by name: only the classes and structs that declare
    /// a member of its name (or of its property's) are read, each once, and the list keeps their order.
    /// </summary>
    public IReadOnlyList<IMethodSymbol> Implementations(IMethodSymbol method)
    {
        var key = SymbolNames.Key(method);
        return _implementations.GetOrAdd(key, _ => FindImplementations(method, key));
    }

    private List<IMethodSymbol> FindImplementations(IMethodSymbol method, string key)
    {
        var (classes, names, byName) = _declaring.Value;
        var candidates = new SortedSet<int>(byName.GetValueOrDefault(method.Name) ?? []);
        if (method.AssociatedSymbol is IPropertySymbol property && byName.TryGetValue(property.Name, out var owners))
        {
            candidates.UnionWith(owners);
        }
        var found = new List<IMethodSymbol>();
        foreach (var i in candidates)
        {
            foreach (var (of, implementation) in _pairs.GetOrAdd(i, c => ImplementationsIn(classes[c], names[c])))
            {
                if (of == key && !found.Any(m => SymbolEqualityComparer.Default.Equals(m, implementation)))
                {
                    found.Add(implementation);
                }
            }
        }
        return found;
    }

    private static bool HasBody(SyntaxNode syntax) => syntax switch
    {
        BaseMethodDeclarationSyntax m => m.Body is not null || m.ExpressionBody is not null,
        AccessorDeclarationSyntax a => a.Body is not null || a.ExpressionBody is not null,
        ArrowExpressionClauseSyntax => true,
        LocalFunctionStatementSyntax l => l.Body is not null || l.ExpressionBody is not null,
        AnonymousFunctionExpressionSyntax => true,
        CompilationUnitSyntax => true,
        // A primary constructor (record or class) runs its parameter assignments and field initialisers: nothing to follow.
        _ => false,
    };

    private List<INamedTypeSymbol> ListTypes()
    {
        var seen = new HashSet<INamedTypeSymbol>(SymbolEqualityComparer.Default);
        foreach (var tree in Trees)
        {
            var model = Model(tree);
            foreach (var declaration in tree.GetRoot().DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or TypeDeclarationSyntax).OfType<BaseTypeDeclarationSyntax>())
            {
                if (model.GetDeclaredSymbol(declaration) is INamedTypeSymbol type)
                {
                    seen.Add(type);
                }
            }
        }
        return [.. seen];
    }

    // The classes and structs by the names of the members they declare (an explicit implementation's IFoo.M as M), in
    // the types' order, read on every worker: a type's overrides and implementations are all among its own members.
    private (List<INamedTypeSymbol>, HashSet<string>[], Dictionary<string, List<int>>) IndexDeclaring()
    {
        var classes = Types.Where(t => t.TypeKind is TypeKind.Class or TypeKind.Struct).ToList();
        var map = new Dictionary<string, List<int>>(StringComparer.Ordinal);
        var names = Each(classes, OwnNames, CancellationToken.None);
        for (var i = 0; i < names.Length; i++)
        {
            foreach (var name in names[i])
            {
                if (!map.TryGetValue(name, out var list))
                {
                    map[name] = list = [];
                }
                list.Add(i);
            }
        }
        return (classes, names, map);
    }

    private static HashSet<string> OwnNames(INamedTypeSymbol type) =>
        type.GetMembers().Select(m => m.Name[(m.Name.LastIndexOf('.') + 1)..]).ToHashSet(StringComparer.Ordinal);

    // What the methods of one type override or implement: each overridden method up the chain, and each interface
    // method (a property's accessors too) the type's own member implements (own: its members' names, OwnNames).
    private List<(string Of, IMethodSymbol Implementation)> ImplementationsIn(INamedTypeSymbol type, HashSet<string> own)
    {
        var pairs = new List<(string, IMethodSymbol)>();
        foreach (var member in type.GetMembers().OfType<IMethodSymbol>())
        {
            for (var overridden = member.OverriddenMethod; overridden is not null; overridden = overridden.OverriddenMethod)
            {
                pairs.Add((SymbolNames.Key(overridden), member));
            }
        }
        // Only a member the type declares counts (its own, not a base type's): an interface member is looked up only
        // when the type declares one of its name, implicitly or explicitly (IFoo.M). A controller's dozens of inherited
        // interface members from its framework base class are then never resolved.
        foreach (var iface in type.AllInterfaces)
        {
            foreach (var member in iface.GetMembers().OfType<IMethodSymbol>().Where(m => own.Contains(m.Name)))
            {
                if (type.FindImplementationForInterfaceMember(member) is IMethodSymbol impl && IsSource(impl) && SymbolEqualityComparer.Default.Equals(impl.ContainingType, type))
                {
                    pairs.Add((SymbolNames.Key(member), impl));
                }
            }
            foreach (var property in iface.GetMembers().OfType<IPropertySymbol>().Where(p => own.Contains(p.Name)))
            {
                if (type.FindImplementationForInterfaceMember(property) is IPropertySymbol impl && SymbolEqualityComparer.Default.Equals(impl.ContainingType, type))
                {
                    if (property.GetMethod is { } g && impl.GetMethod is { } ig)
                    {
                        pairs.Add((SymbolNames.Key(g), ig));
                    }
                    if (property.SetMethod is { } s && impl.SetMethod is { } iset)
                    {
                        pairs.Add((SymbolNames.Key(s), iset));
                    }
                }
            }
        }
        return pairs;
    }
}
