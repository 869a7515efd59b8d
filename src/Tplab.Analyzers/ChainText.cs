using Tplab.Analyzers.Summaries;
using Tplab.Scan.Findings;

namespace Tplab.Analyzers;

/// <summary>A finding's chain in one line for a diagnostic: <c>OrderService.Find → Repository.Load → Thread.Sleep</c>; long ones keep both ends.</summary>
internal static class ChainText
{
    private const int Shown = 6;

    /// <summary>The chain; a call into a referenced project's blocking method goes on with that project's chain (<paramref name="through"/>).</summary>
    public static string Of(Finding finding, SummaryLine? through)
    {
        var hops = finding.Chain.Select(h => h.Display).Append(finding.Call.Name).ToList();
        if (through is not null)
        {
            hops.AddRange(through.Chain.Skip(1));
        }
        if (hops.Count > Shown)
        {
            hops = [.. hops.Take(2), "…", .. hops.Skip(hops.Count - (Shown - 3))];
        }
        return string.Join(" → ", hops);
    }
}
