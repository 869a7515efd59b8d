using Tplab.Tests.Scan.Incremental;
using Tplab.Tests.Support;

namespace Tplab.Bench.Scan;

/// <summary>
/// Every edit of issue 35's list on a small web app, each step's cached report compared with a fresh full scan's
/// (real MSBuild loads; about 20 of them): the suite keeps one edit of each kind (<c>IncrementalScanTests</c>).
/// Run by bench/scan-incremental-sequence.sh.
/// </summary>
public sealed class IncrementalSequenceBenchmark
{
    [BenchFact]
    public async Task Scan_EveryEditOfTheList_CachedReportIsTheFullScans()
    {
        using var app = new IncrementalApp();
        await IncrementalSequence.RunAsync(app, every: true);
    }
}
