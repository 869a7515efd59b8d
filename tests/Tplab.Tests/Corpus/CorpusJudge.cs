using System.Text.RegularExpressions;
using ShopApp.Corpus;
using Tplab.Blocking;
using Tplab.Diagnose.Stacks;
using Tplab.Diagnose;
using Tplab.Watch.Verdicts;
using Tplab.Watch;

namespace Tplab.Tests.Corpus;

/// <summary>Compares diagnose's and watch's answers with what the corpus expects; every difference in words.</summary>
internal static partial class CorpusJudge
{
    /// <summary>
    /// Every way diagnose's and watch's answers differ from the declared ones. With <paramref name="exactPoolWord"/> (the
    /// benchmark) the watch's word over the window must be the declared one; without it (the CI test, on a machine
    /// whose load nobody controls) the watch's behaviour is judged: for a CPU-bound endpoint it saw CPU saturation more
    /// often than threads held, for a healthy one it never saw threads held, for a blocking one it saw them held. How
    /// many of a 2.5 s window's 500 ms samples read which way depends on the CPU the machine leaves the process (a
    /// CPU-bound run beside other tests read starving in 1 of 6 samples, cpu-saturated in 2).
    /// </summary>
    public static IReadOnlyList<string> Differences(CorpusOutcome outcome, bool exactPoolWord = true)
    {
        var expected = outcome.Expected;
        var diagnosis = outcome.Diagnosis;
        var differences = new List<string>();
        switch (expected.Illness)
        {
            case Illness.Blocking when outcome.Top is not { } :
                differences.Add($"expected {expected.BlockingCall} in {expected.UserMethod}, diagnose said {outcome.Said}");
                break;
            case Illness.Blocking:
                var top = outcome.Top!;
                var userMethod = "ShopApp." + expected.UserMethod;
                if (top.UserFrame?.FullName != userMethod)
                {
                    differences.Add($"user method: expected {userMethod}, got {top.UserFrame?.FullName ?? "(no application frame)"}");
                }
                if (top.BlockingCall.Name != expected.BlockingCall && top.BlockingCall.Name != expected.OtherBlockingCall)
                {
                    differences.Add($"blocking call: expected {expected.BlockingCall}, got {top.BlockingCall.Name}");
                }
                // A background service's or a timer's work is no request's: no endpoint.
                var endpoint = expected.Where is Place.BackgroundService or Place.Timer ? null : $"{expected.Method} {Route(expected.Route)}";
                var named = top.Endpoint is { } e ? $"{e.Method} {Route(e.Route)}" : null;
                if (endpoint != named)
                {
                    differences.Add($"endpoint: expected {endpoint ?? "none"}, got {named ?? "none"}");
                }
                if (PlaceOf(expected.Where) != top.Place)
                {
                    differences.Add($"place: expected {PlaceOf(expected.Where)}, got {top.Place}");
                }
                differences.AddRange(ChainDifferences(expected, top));
                break;
            case Illness.CpuBound:
                var hot = diagnosis.HotMethods.Count > 0 ? diagnosis.HotMethods[0].Method.FullName : null;
                if (diagnosis.Verdict != DiagnosisVerdict.CpuBound)
                {
                    differences.Add($"expected CPU-bound in {expected.UserMethod}, diagnose said {outcome.Said}");
                }
                else if (hot != "ShopApp." + expected.UserMethod)
                {
                    differences.Add($"hot method: expected ShopApp.{expected.UserMethod}, got {hot ?? "none"}");
                }
                break;
            default:
                if (diagnosis.Verdict != DiagnosisVerdict.Clear)
                {
                    differences.Add($"expected no culprit, diagnose said {outcome.Said}");
                }
                break;
        }
        // "starving" is met by a watch that saw starvation and then the runtime's compensation catch up (recovering).
        var poolRight = expected.Pool is null || outcome.PoolWord == expected.Pool || (expected.Pool == "starving" && outcome.PoolWord == "recovering")
            || (!exactPoolWord && PoolBehaved(expected.Pool, diagnosis.Pool));
        if (!poolRight)
        {
            differences.Add($"watch: expected {expected.Pool}, got {outcome.PoolWord} ({diagnosis.Pool?.Evidence})");
        }
        return differences;
    }

    /// <summary>The chain's methods, each hop's file and line, how the code runs (continuation, Task.Run) and a factory's service, against the declared ones.</summary>
    public static IEnumerable<string> ChainDifferences(ExpectedCulprit expected, BlockedStackGroup top)
    {
        if (expected.Chain.Count > 0)
        {
            var want = expected.Chain.Select(h => h.Method).ToList();
            var got = top.Chain.Select(h => h.Name).ToList();
            if (!got.SequenceEqual(want, StringComparer.Ordinal))
            {
                yield return $"chain: expected {string.Join(" → ", want)}, got {(got.Count == 0 ? "none" : string.Join(" → ", got))}";
            }
            else
            {
                for (var i = 0; i < want.Count; i++)
                {
                    var hop = expected.Chain[i];
                    var lines = new[] { hop.Line, hop.OrLine }.OfType<string>().Select(l => $"{hop.File}:{CorpusSource.LineOf(hop.File, l)}").ToList();
                    var at = top.Chain[i].At?.ToString();
                    if (at is null || !lines.Contains(at, StringComparer.Ordinal))
                    {
                        yield return $"line of {hop.Method}: expected {string.Join(" or ", lines)}, got {at ?? "none"}";
                    }
                }
            }
        }
        var runsIn = expected.RunsIn switch
        {
            "continuation" => CallContext.Continuation,
            "task-run" => CallContext.TaskRun,
            _ => CallContext.None,
        };
        if (runsIn != CallContext.None && !top.Context.HasFlag(runsIn))
        {
            yield return $"runs in: expected {expected.RunsIn}, got {top.Context}";
        }
        if (expected.Service is { } service && top.Service?.Split('.', '+')[^1] != service)
        {
            yield return $"service: expected {service}, got {top.Service ?? "none"}";
        }
    }

    /// <summary>
    /// Where the dump's answer differs from the live one on the same app: endpoint, user method, blocking call, chain
    /// methods and lines (thread counts of a moment and of a capture naturally differ). Empty when they agree.
    /// </summary>
    public static IReadOnlyList<string> DumpDifferences(CorpusOutcome outcome)
    {
        if (outcome.Dump is not { } dump || outcome.Top is not { } live)
        {
            return [];
        }
        if (dump.Culprits.Count == 0)
        {
            return ["the dump named no culprit"];
        }
        var top = dump.Culprits[0];
        var differences = new List<string>();
        void Compare(string what, string? a, string? b)
        {
            if (!string.Equals(a, b, StringComparison.Ordinal))
            {
                differences.Add($"{what}: live {a ?? "none"}, dump {b ?? "none"}");
            }
        }
        Compare("endpoint", live.Endpoint is { } le ? $"{le.Method} {Route(le.Route)}" : null, top.Endpoint is { } de ? $"{de.Method} {Route(de.Route)}" : null);
        Compare("user method", live.UserFrame?.FullName, top.UserFrame?.FullName);
        Compare("blocking call", live.BlockingCall.Name, top.BlockingCall.Name);
        Compare("chain", string.Join(" → ", live.Chain.Select(h => h.Name)), string.Join(" → ", top.Chain.Select(h => h.Name)));
        Compare("lines", string.Join(" ", live.Chain.Select(h => h.At?.ToString())), string.Join(" ", top.Chain.Select(h => h.At?.ToString())));
        return differences;
    }

    private static bool PoolBehaved(string expected, PoolTimeline? pool)
    {
        if (pool is not { Samples.Count: > 0 } timeline)
        {
            return false;
        }
        var held = timeline.Samples.Count(s => s.Verdict.ThreadsHeld());
        return expected switch
        {
            "cpu-saturated" => timeline.Samples.Count(s => s.Verdict == PoolVerdict.CpuSaturated) > held,
            "healthy" => held == 0,
            "starving" => timeline.Samples.Any(s => s.Verdict == PoolVerdict.Starving),
            "lock-contention" => timeline.Samples.Any(s => s.Verdict == PoolVerdict.LockContention),
            _ => false,
        };
    }

    /// <summary>A route for comparison: no leading slash, constraints dropped (<c>{id:int}</c> is <c>{id}</c>), lower case.</summary>
    private static string Route(string route) => Constraint().Replace(route.TrimStart('/'), "{$1}").ToLowerInvariant();

    private static CodePlace PlaceOf(Place place) => place switch
    {
        Place.MvcAction => CodePlace.MvcAction,
        Place.RazorPage => CodePlace.RazorPage,
        Place.Middleware => CodePlace.Middleware,
        Place.Filter => CodePlace.Filter,
        Place.BackgroundService => CodePlace.HostedService,
        Place.DiFactory => CodePlace.DiFactory,
        Place.Timer => CodePlace.Timer,
        _ => CodePlace.MinimalApi,
    };

    [GeneratedRegex(@"\{(\w+)(:[^}]*)?\}")]
    private static partial Regex Constraint();
}
