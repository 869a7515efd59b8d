namespace Tplab.Tests.Scan.Truth;

/// <summary>What a static scan of one root must conclude.</summary>
internal enum Verdict
{
    /// <summary>A call on the root's path holds a pool thread: the scan must find it.</summary>
    Blocking,

    /// <summary>Nothing on the path waits: the scan must not flag it (its traps are the calls that tempt a tool).</summary>
    Clean,

    /// <summary>Waste that holds no thread (<c>await Task.Run(() => cheap work)</c>): a note is right, silence is too.</summary>
    Waste,
}

/// <summary>One call on a chain (or a trap): the file (repository-relative), the line the snippet resolved to, the method making the call.</summary>
/// <param name="Call">On the last hop of a chain and on a trap: the call in the catalogue's words (<c>Task.Result</c>).</param>
/// <param name="At">The snippet (or snippets) the line was found by, as written in the truth file.</param>
internal sealed record CallSite(string File, int Line, string Method, string? Call, string At)
{
    public override string ToString() => $"{File}:{Line}";
}

/// <summary>Where the root is: an endpoint (method and route) or a named piece of code (hosted service, timer, factory, middleware...).</summary>
/// <param name="Place">The place word (<c>minimal-api</c>, <c>mvc-action</c>, <c>middleware</c>, <c>di-factory</c>, ...).</param>
/// <param name="Guards">For middleware, filters and handlers: the endpoints whose requests pass through it.</param>
internal sealed record RootPlace(string Place, string? Method, string? Route, string? Name, IReadOnlyList<string> Guards)
{
    public override string ToString() => Method is not null && Route is not null ? $"{Method} {Route}" : $"{Place} {Name}";
}

/// <summary>One root of one app and what a correct scan says about it.</summary>
/// <param name="Chains">For a blocking or waste root: every true path from the root to a blocking call (the first is
/// the one the runtime names); each chain is the call sites from the root's own call to the blocking call.</param>
/// <param name="Traps">Calls near the path that look blocking and are not (or are the antecedent's Result, a memory stream...).</param>
internal sealed record TruthRoot(
    string App,
    string Case,
    RootPlace Root,
    Verdict Verdict,
    string? Severity,
    string Why,
    bool NeedsDatabase,
    IReadOnlyList<IReadOnlyList<CallSite>> Chains,
    IReadOnlyList<CallSite> Traps)
{
    /// <summary>The innermost user method of the first chain (<c>Namespace.Type.Method</c>), or null for a clean root.</summary>
    public string? UserMethod => Chains.Count > 0 ? Chains[0][^1].Method : null;

    /// <summary>The blocking call of the first chain in the catalogue's words, or null for a clean root.</summary>
    public string? BlockingCall => Chains.Count > 0 ? Chains[0][^1].Call : null;

    /// <summary>Every call site of every chain.</summary>
    public IEnumerable<CallSite> ChainSites => Chains.SelectMany(c => c);
}

/// <summary>One corpus app: its project and its roots.</summary>
internal sealed record TruthApp(string Name, string Project, IReadOnlyList<TruthRoot> Roots)
{
    /// <summary>The project's folder, repository-relative, with '/' separators.</summary>
    public string Folder => Path.GetDirectoryName(Project)!.Replace('\\', '/');

    public IEnumerable<TruthRoot> Blocking => Roots.Where(r => r.Verdict == Verdict.Blocking);
}

/// <summary>The truth file (tests/corpus/scan-truth.json) with every snippet resolved to a line.</summary>
/// <param name="Problems">Every way the file disagrees with the sources (a snippet not found or not unique, a method
/// not declared, a missing field); empty when the truth can be used.</param>
internal sealed record ScanTruth(IReadOnlyList<TruthApp> Apps, IReadOnlyList<string> Problems)
{
    /// <summary>The truth file's place in the repository.</summary>
    public const string DefaultPath = "tests/corpus/scan-truth.json";

    public TruthApp App(string name) =>
        Apps.FirstOrDefault(a => string.Equals(a.Name, name, StringComparison.OrdinalIgnoreCase))
        ?? throw new ArgumentException($"no app '{name}' in the truth (known: {string.Join(", ", Apps.Select(a => a.Name))})", nameof(name));
}
