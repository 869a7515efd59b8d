using Tplab.Scan.Config;
using Tplab.Scan.Incremental;
using Tplab.Scan.Loading;

namespace Tplab.Scan;

/// <summary>
/// What scan and fix load the one same way (<see cref="Scanner.LoadAsync"/>): the config (<c>--config</c>, else
/// <c>tplab-scan.json</c> at the root) and the solution's code, its outputs already held against what was read.
/// </summary>
internal sealed class ScanLoad(ScanConfig config, LoadedCode code) : IDisposable
{
    public ScanConfig Config { get; } = config;

    public LoadedCode Code { get; } = code;

    /// <summary>The projects' facts when the code was rebuilt from the cache (what the cache records of it), else null.</summary>
    public IReadOnlyList<CachedProjectFacts>? Facts { get; init; }

    /// <summary>A rebuild from the cache whose edits were all inside bodies (<see cref="WarmLoaded.BodiesOnly"/>).</summary>
    public bool BodiesOnly { get; init; }

    public void Dispose() => Code.Dispose();
}
