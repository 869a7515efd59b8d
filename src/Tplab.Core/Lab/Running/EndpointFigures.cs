using Tplab.Lab.Experiments;
using Tplab.Load;

namespace Tplab.Lab.Running;

/// <summary>
/// One endpoint of a scenario's request mix: how many requests it got, how many failed, and their latency. Computed
/// from the load's records by their template index (RequestRecord.Target); percentiles are exact (nearest rank).
/// </summary>
public sealed record EndpointFigures(string Label, string Method, string Path, int Weight, int BodyBytes, long Requests, long Failed, double? MeanMs, double? P50Ms, double? P99Ms, double? MaxMs, double RequestsPerSecond)
{
    /// <summary>Per endpoint, in the plan's order (zero requests when the load did not run); empty without a request mix.</summary>
    public static IReadOnlyList<EndpointFigures> Of(Scenario scenario, LoadResult? load)
    {
        var seconds = load?.Summary.DurationSeconds ?? 0;
        var byTarget = (load?.Records ?? []).ToLookup(r => r.Target);
        return [.. scenario.Requests.Select((q, i) =>
        {
            var records = byTarget[i].ToList();
            var sorted = records.Select(r => r.Latency.TotalMilliseconds).Order().ToArray();
            double? At(double p) => sorted.Length == 0 ? null : sorted[Math.Max(0, (int)Math.Ceiling(p * sorted.Length) - 1)];
            return new EndpointFigures(
                q.Label, q.Method, q.Path, q.Weight, q.Body.Length, records.Count, records.Count(r => !r.Succeeded),
                sorted.Length == 0 ? null : sorted.Average(), At(0.5), At(0.99), At(1), seconds > 0 ? records.Count / seconds : 0);
        })];
    }
}
