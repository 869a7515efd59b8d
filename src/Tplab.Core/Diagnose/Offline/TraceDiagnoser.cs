using System.Diagnostics;
using System.Text;
using Tplab.Common;
using Tplab.Diagnose.Capture;
using Tplab.Processes;

namespace Tplab.Diagnose.Offline;

/// <summary>
/// <c>tplab diagnose --trace FILE.nettrace</c>: the same diagnosis as from a live process (culprits, chain, advice,
/// pool state) from a trace collected elsewhere, by <c>dotnet-trace</c> (<see cref="TraceRecipe"/>) or kept by
/// <c>--keep-trace</c>. What the trace lacks (stacks, rundown, wait events, pool counters) is named in one line.
/// </summary>
public static class TraceDiagnoser
{
    private static readonly byte[] Magic = Encoding.ASCII.GetBytes("Nettrace");

    /// <summary>Diagnoses the trace at <paramref name="path"/>; exit 2 for a file that is not a readable .nettrace or holds no stacks.</summary>
    public static Diagnosis Diagnose(string path, DiagnoseOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var started = Stopwatch.GetTimestamp();
        CheckHeader(path);
        CapturedStacks stacks;
        Watch.PoolTimeline? pool;
        try
        {
            stacks = TraceReader.Read(path);
            pool = PoolReplay.Read(path, Watch.Verdicts.VerdictThresholds.Default);
        }
        catch (Exception e) when (e is not TplabException and not OutOfMemoryException)
        {
            // TraceEvent reports a cut-off or damaged file in many ways (EndOfStream, FormatException, InvalidOperation...).
            // The reader's words only, never its exception's CLR name.
            throw TplabException.Usage($"{path} is not a readable .nettrace (truncated or damaged?): {e.Message.ReplaceLineEndings(" ").TrimEnd('.')}");
        }
        var contents = stacks.Contents;
        if (stacks.Samples.Count == 0 && stacks.Waits.Count == 0)
        {
            throw TplabException.Usage($"{path} holds no stacks to diagnose (no sample-profiler or wait events); collect it with: {TraceRecipe.Command("PID", "trace.nettrace")}");
        }
        var version = contents.RuntimeDllPath is { } dll ? RuntimeVersion.FromMaps([dll]) : null;
        var pid = contents.ProcessId ?? 0;
        var facts = new TargetFacts(pid, NameOf(contents.CommandLine), version);
        var recorded = TimeSpan.FromMilliseconds(Math.Max(0, stacks.EndMs - stacks.StartMs));
        var diagnosis = FrameworkLockGate.Apply(BlockingDiagnoser.Analyse(facts, new StackCaptureResult(stacks, recorded), options, Stopwatch.GetElapsedTime(started)), pool);
        return diagnosis with
        {
            Pool = pool,
            PoolUnavailable = pool is null ? "not in the trace (no System.Runtime counters)" : null,
            Source = new DiagnosisSource("trace", path, Missing(stacks, version, pool is not null)),
            AnswerTime = Stopwatch.GetElapsedTime(started),
        };
    }

    /// <summary>What a trace lacks for a full diagnosis, in one line; null when nothing.</summary>
    public static string? Missing(CapturedStacks stacks, Version? runtime, bool hasPool)
    {
        var missing = new List<string>();
        var contents = stacks.Contents;
        if (contents.EventsWithStacks == 0)
        {
            missing.Add("stacks (the events were collected without stack walks)");
        }
        else if (stacks.Samples.Count == 0)
        {
            missing.Add("sample-profiler stacks (Microsoft-DotNETCore-SampleProfiler; without them Thread.Sleep and sync I/O are not seen)");
        }
        if (contents.RundownMethods == 0)
        {
            missing.Add("rundown (method names stay unresolved; do not pass --rundown false, and let the trace stop normally)");
        }
        if (stacks.WaitStartEvents == 0 && (runtime is null || runtime >= BlockingDiagnoser.WaitEventsSince))
        {
            missing.Add("wait events (Microsoft-Windows-DotNETRuntime keyword 0x40000000000 at level 5)");
        }
        if (!hasPool)
        {
            missing.Add("pool counters (System.Runtime:0x0:4:EventCounterIntervalSec=1)");
        }
        return missing.Count == 0 ? null : "the trace lacks " + string.Join("; ", missing) + ": the diagnosis uses what it has";
    }

    private static void CheckHeader(string path)
    {
        byte[] head = new byte[Magic.Length];
        int read;
        try
        {
            using var file = InputFile.Open(path, "--trace");
            read = file.ReadAtLeast(head, head.Length, throwOnEndOfStream: false);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw TplabException.Usage($"cannot read --trace {path}: {e.Message}");
        }
        if (read < head.Length || !head.AsSpan().SequenceEqual(Magic))
        {
            throw TplabException.Usage($"{path} is not a .nettrace file (it does not start with 'Nettrace'); collect one with dotnet-trace (see docs/diagnose.md)");
        }
    }

    // "dotnet /app/MyApi.dll --urls …" → MyApi; "/app/MyApi …" → MyApi.
    private static string NameOf(string? commandLine)
    {
        if (string.IsNullOrWhiteSpace(commandLine))
        {
            return "?";
        }
        var parts = commandLine.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        var dll = parts.FirstOrDefault(p => p.EndsWith(".dll", StringComparison.OrdinalIgnoreCase));
        return Path.GetFileNameWithoutExtension(dll ?? parts[0]);
    }
}
