using System.Globalization;
using System.Text.Json;
using Tplab.Blocking;
using Tplab.Watch;
using Tplab.Watch.Verdicts;

namespace Tplab.Tests.Corpus;

/// <summary>
/// When TPLAB_CORPUS_REPORT names a file, each case appends one JSON line to it (bench/corpus.sh turns them into
/// BENCHMARKS.md's accuracy table). Without it, nothing is written.
/// </summary>
internal static class CorpusReport
{
    public const string Variable = "TPLAB_CORPUS_REPORT";

    public static void Append(CorpusOutcome outcome, IReadOnlyList<string> differences)
    {
        var path = Environment.GetEnvironmentVariable(Variable);
        if (string.IsNullOrEmpty(path))
        {
            return;
        }
        var line = JsonSerializer.Serialize(new
        {
            @case = outcome.Expected.Case,
            illness = outcome.Expected.Illness.ToString(),
            where = outcome.Expected.Where.ToString(),
            expected = outcome.Expected.Illness == ShopApp.Corpus.Illness.Blocking
                ? $"{outcome.Expected.BlockingCall} in {outcome.Expected.UserMethod}"
                : outcome.Expected.Illness.ToString(),
            said = outcome.Said,
            pool = outcome.PoolWord,
            expectedPool = outcome.Expected.Pool ?? "(not checked)",
            right = differences.Count == 0,
            differences,
            // Per part of the answer, for blocking endpoints (null for the others): each right or wrong.
            parts = outcome.Expected.Illness == ShopApp.Corpus.Illness.Blocking ? new
            {
                endpoint = !differences.Any(d => d.StartsWith("endpoint:", StringComparison.Ordinal)),
                method = !differences.Any(d => d.StartsWith("user method:", StringComparison.Ordinal) || d.StartsWith("expected ", StringComparison.Ordinal)),
                call = !differences.Any(d => d.StartsWith("blocking call:", StringComparison.Ordinal) || d.StartsWith("expected ", StringComparison.Ordinal)),
                place = !differences.Any(d => d.StartsWith("place:", StringComparison.Ordinal) || d.StartsWith("runs in:", StringComparison.Ordinal) || d.StartsWith("service:", StringComparison.Ordinal)),
                chain = !differences.Any(d => d.StartsWith("chain:", StringComparison.Ordinal) || d.StartsWith("expected ", StringComparison.Ordinal)),
                line = !differences.Any(d => d.StartsWith("chain:", StringComparison.Ordinal) || d.StartsWith("line of", StringComparison.Ordinal) || d.StartsWith("expected ", StringComparison.Ordinal)),
            } : null,
            chain = outcome.Top is { } top ? string.Join(" → ", top.Chain.Select(h => h.ToString())) : null,
            dumpTaken = outcome.Dump is not null,
            dumpDifferences = CorpusJudge.DumpDifferences(outcome),
            answerPhases = outcome.Diagnosis.Phases is { } phases ? new
            {
                rundown = Math.Round(phases.Rundown.TotalSeconds, 2),
                read = Math.Round(phases.Read.TotalSeconds, 2),
                analyse = Math.Round(phases.Analyse.TotalSeconds, 2),
            } : null,
            machineBusyPercent = Math.Round(outcome.MachineBusyPercent, 0),
            captureSeconds = Math.Round(outcome.Diagnosis.CaptureDuration.TotalSeconds, 2),
            answerSeconds = Math.Round(outcome.Diagnosis.AnswerTime.TotalSeconds, 2),
            throughput = Math.Round(outcome.ThroughputDuringCapture, 1),
            samples = outcome.Diagnosis.Pool?.Samples.Select(SampleText),
        });
        File.AppendAllText(path, line + "\n");
    }

    public static string Describe(CorpusOutcome outcome, IReadOnlyList<string> differences) => string.Create(
        CultureInfo.InvariantCulture,
        $"{outcome.Expected.Case}: diagnose said {outcome.Said}; watch said {outcome.PoolWord}; answered in {outcome.Diagnosis.AnswerTime.TotalSeconds:0.0} s; {outcome.ThroughputDuringCapture:0.0} req/s during the capture; {(differences.Count == 0 ? "right" : "WRONG: " + string.Join("; ", differences) + Samples(outcome))}");

    // On a wrong answer, what the stacks and the watch saw, so that a failure in a CI log can be read.
    private static string Samples(CorpusOutcome outcome) => string.Create(CultureInfo.InvariantCulture,
        $"; busy threads {outcome.Diagnosis.Evidence.BusyThreads:0.0}; pool: {string.Join(", ", outcome.Diagnosis.Pool?.Samples.Select(SampleText) ?? [])}");

    // One pool sample in a few characters: verdict, threads, queue, completed/s, CPU, machine CPU, lock waiters, runnable workers.
    private static string SampleText(ThreadPoolSample p) => string.Create(CultureInfo.InvariantCulture,
        $"{p.Verdict.ToWord()} t{p.ThreadCount} q{p.QueueLength} c{p.CompletedPerSecond:0} cpu{p.CpuPercent:0} m{p.MachineCpuPercent:0} lw{p.LockWaiters:0.0} r{p.RunnableWorkers:0.#}");
}
