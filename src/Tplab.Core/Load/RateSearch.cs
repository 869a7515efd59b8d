using System.Globalization;
using Tplab.Common;
using Tplab.Load.Summary;
using Tplab.Load.Thresholds;

namespace Tplab.Load;

/// <summary>One rate tried by a <see cref="RateSearch"/>.</summary>
public sealed record RateStep(double Rate, LoadSummary Summary, bool Passed);

/// <summary>
/// The highest sustainable rate: open-loop steps of <c>--duration</c> each at START, START+STEP, … up to MAX, stopping at
/// the first rate whose thresholds (p99, error rate, …) fail. The answer is the last rate that passed; every step's
/// figures are kept. Each step is a fresh open-loop run against the same targets, so no step's backlog leaks into the next.
/// </summary>
public static class RateSearch
{
    /// <summary>Most steps one search may take.</summary>
    public const int MaxSteps = 100;

    /// <summary>Runs the search; <paramref name="onStep"/> hears of each finished step.</summary>
    public static async Task<IReadOnlyList<RateStep>> RunAsync(
        LoadOptions options, double start, double max, double step, Action<RateStep>? onStep, CancellationToken ct)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.Thresholds.Count == 0)
        {
            throw TplabException.Usage("--search needs at least one --threshold: it stops at the first rate that breaks one");
        }
        if (!(start > 0 && max >= start && step > 0 && (max - start) / step < MaxSteps && max <= LoadOptions.MaxRate))
        {
            throw TplabException.Usage($"--search START..MAX with 0 < START <= MAX <= {LoadOptions.MaxRate} and at most {MaxSteps} steps of --search-step");
        }
        if (options.Duration is null)
        {
            throw TplabException.Usage("--search needs --duration: how long each rate is held");
        }
        var steps = new List<RateStep>();
        for (var rate = start; rate <= max + 1e-9 && !ct.IsCancellationRequested; rate += step)
        {
            var result = await LoadRunner.RunAsync(options with { Rate = rate, Stages = [], Requests = null }, null, ct).ConfigureAwait(false);
            var passed = result.Summary.ThresholdsPassed && !result.Summary.Interrupted;
            var done = new RateStep(rate, result.Summary, passed);
            steps.Add(done);
            onStep?.Invoke(done);
            if (!passed)
            {
                break;
            }
        }
        return steps;
    }

    /// <summary><c>START..MAX</c> requests per second; a usage error in one line otherwise.</summary>
    public static (double Start, double Max) ParseRange(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var parts = text.Split("..");
        return parts.Length == 2
            && double.TryParse(parts[0], NumberStyles.Float, CultureInfo.InvariantCulture, out var start)
            && double.TryParse(parts[1], NumberStyles.Float, CultureInfo.InvariantCulture, out var max)
            ? (start, max)
            : throw TplabException.Usage($"--search must be START..MAX requests per second (e.g. 100..2000), got '{text}'");
    }

    /// <summary>One line for a finished step (progress on stderr).</summary>
    public static string Describe(RateStep step)
    {
        ArgumentNullException.ThrowIfNull(step);
        return $"{Formats.Num.Fixed(step.Rate, 1)}/s: p99 {Formats.Num.Fixed(step.Summary.LatencyMs.P99, 2)} ms, {(step.Passed ? "pass" : "FAIL")}";
    }

    /// <summary>The search's table: each rate, achieved rate, p99, errors, and the verdict.</summary>
    public static void Write(IReadOnlyList<RateStep> steps, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(steps);
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteLine("rate/s      achieved/s   p99 ms       errors    thresholds");
        foreach (var s in steps)
        {
            var failed = s.Summary.Thresholds.Where(t => !t.Passed).Select(t => t.Threshold).ToList();
            writer.WriteLine($"{Formats.Num.Fixed(s.Rate, 1),-11} {Formats.Num.Fixed(s.Summary.AchievedRate ?? 0, 1),-12} {Formats.Num.Fixed(s.Summary.LatencyMs.P99, 2),-12} {Formats.Num.Fixed(s.Summary.Requests == 0 ? 0 : 100.0 * s.Summary.Failed / s.Summary.Requests, 2) + "%",-9} {(s.Passed ? "pass" : "FAIL " + string.Join(", ", failed))}");
        }
        var best = steps.LastOrDefault(s => s.Passed);
        writer.WriteLine(best is null
            ? "No rate passed: even the first broke a threshold."
            : steps[^1].Passed
                ? $"Every rate up to {Formats.Num.Fixed(best.Rate, 1)}/s passed (the search's maximum)."
                : $"Highest rate that passed: {Formats.Num.Fixed(best.Rate, 1)}/s; {Formats.Num.Fixed(steps[^1].Rate, 1)}/s broke a threshold.");
    }
}
