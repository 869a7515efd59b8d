namespace Tplab.Tests.Scan.Incremental;

/// <summary>
/// The incremental scan end to end, real MSBuild loads of real projects (<see cref="IncrementalApp"/>): after an edit
/// the cached scan's report is the very report a fresh full scan writes. The rules of which change is a rebuild without
/// MSBuild and which a full scan are <see cref="ScanCacheTests"/>' rows; the rebuild's compilation is
/// <see cref="WarmLoadTests"/>'. Every edit of issue 35's list, each compared with a fresh full scan:
/// bench/scan-incremental-sequence.sh.
/// </summary>
public sealed partial class IncrementalScanTests : IDisposable
{
    private readonly IncrementalApp _app = new();

    public void Dispose() => _app.Dispose();

    [Fact]
    public Task Scan_SequenceOfEdits_CachedReportIsTheFullScans() => IncrementalSequence.RunAsync(_app, every: false);
}
