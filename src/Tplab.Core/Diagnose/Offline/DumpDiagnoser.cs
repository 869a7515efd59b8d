using System.Diagnostics;
using System.Globalization;
using Microsoft.Diagnostics.Runtime;
using Tplab.Blocking;
using Tplab.Common;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Requests;
using Tplab.Processes;

namespace Tplab.Diagnose.Offline;

/// <summary>
/// <c>tplab diagnose --dump FILE</c>: the pool threads of a process dump (createdump, dotnet-dump, a core file) and
/// their managed stacks at that moment, through ClrMD, classified, grouped and advised exactly as live stacks are.
/// A dump is one moment: each thread counts once, so "threads" is how many pool threads each culprit held then.
/// The pool's state is what the runtime's PortableThreadPool held (min/max, working and idle threads, CPU, the
/// hill-climbing log). Needs the dump's runtime installed here: ClrMD reads it with that runtime's libmscordaccore.so.
/// </summary>
public static class DumpDiagnoser
{
    // One moment is counted as one second held, so a group's "threads" is its thread count.
    private const double MomentMs = 1000;

    /// <summary>Diagnoses the dump at <paramref name="path"/>; exit 2 for a file that is not a readable dump, 5 for a dump without a runtime this machine can read.</summary>
    public static Diagnosis Diagnose(string path, DiagnoseOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var started = Stopwatch.GetTimestamp();
        // A regular file, never a folder, a FIFO or a device: ClrMD would wait on a pipe forever.
        InputFile.Open(path, "--dump").Dispose();
        DataTarget target;
        try
        {
            target = DataTarget.LoadDump(path);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            throw TplabException.Usage($"{path} is not a readable process dump: {e.Message.ReplaceLineEndings(" ")}");
        }
        using (target)
        {
            try
            {
                return Read(target, path, options, started);
            }
            catch (Exception e) when (e is not TplabException and not OutOfMemoryException)
            {
                // ClrMD reports a cut-off or damaged core in many ways (IOException, InvalidDataException, ...).
                throw TplabException.Usage($"{path} is not a readable process dump (truncated or damaged?): {e.Message.ReplaceLineEndings(" ").TrimEnd('.')}");
            }
        }
    }

    private static Diagnosis Read(DataTarget target, string path, DiagnoseOptions options, long started)
    {
        var clr = target.ClrVersions.FirstOrDefault()
            ?? throw TplabException.Usage($"{path} is a dump of a process without a .NET runtime (no libcoreclr in it)");
        var version = RuntimeVersion.FromMaps([clr.ModuleInfo.FileName ?? ""]);
        using var runtime = CreateRuntime(clr, version, path);
        var samples = new List<RawSample>();
        var requests = new List<RequestEvent>();
        var reader = new DumpFrames();
        foreach (var thread in runtime.Threads.Where(t => t.IsAlive && t.OSThreadId != 0))
        {
            var frames = reader.Of(thread, 500);
            if (frames.Any(f => f.TypeName.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal)))
            {
                requests.AddRange(DumpRequests.Of(thread));
            }
            if (frames.Count > 0)
            {
                // Managed (not External): counted as a thread seen, while the wait below carries the held moment.
                samples.Add(new RawSample((int)thread.OSThreadId, 0, External: false, frames));
            }
        }
        var waits = samples.Select(s => new RawWait(s.ThreadId, 0, MomentMs, s.Frames)).ToList();
        // The application's assemblies, as the process loaded them: their IL is followed like a live capture's.
        var modules = runtime.EnumerateModules().Select(m => m.Name).OfType<string>().Where(n => n.Length > 0).Distinct(StringComparer.Ordinal).ToList();
        var stacks = new CapturedStacks(samples, waits, 0, MomentMs, waits.Count) { Modules = modules, Requests = requests };
        var facts = new TargetFacts(target.DataReader.ProcessId, NameOf(target), version);
        var diagnosis = BlockingDiagnoser.Analyse(facts, new StackCaptureResult(stacks, TimeSpan.FromMilliseconds(MomentMs)), options, Stopwatch.GetElapsedTime(started));
        var pool = DumpPool.Describe(runtime);
        return diagnosis with
        {
            CaptureDuration = TimeSpan.Zero,
            Evidence = diagnosis.Evidence with { Samples = samples.Count, WaitEvents = 0, SamplingIntervalMs = 0, Fallback = null, Requests = requests.Count(r => r.Kind == RequestEventKind.Start) },
            PoolUnavailable = "a dump is one moment, not a timeline: " + pool,
            Source = new DiagnosisSource("dump", path, null),
            AnswerTime = Stopwatch.GetElapsedTime(started),
        };
    }

    private static ClrRuntime CreateRuntime(ClrInfo clr, Version? version, string path)
    {
        // The runtime reads itself through the DAC of exactly its version: use the one installed here rather than let
        // ClrMD fetch one from a symbol server (no network in many places where dumps are read).
        var local = LocalDac(clr, version);
        if (local is null)
        {
            throw new TplabException(ExitCodes.NoProcess,
                $"{path} is from .NET {version?.ToString() ?? clr.Version.ToString()}, which is not installed here: reading it needs that runtime's {DacName()} (install that runtime, or read the dump where it is installed)");
        }
        try
        {
            // A minidump may not carry the runtime's version resource (ClrMD then reads 0.0); the DAC was chosen by the
            // version in libcoreclr's path, so the check is already made.
            return clr.CreateRuntime(local, ignoreMismatch: true);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            throw new TplabException(ExitCodes.NoProcess, $"{path}: the .NET {version} runtime in the dump could not be read ({e.Message.ReplaceLineEndings(" ")})", e);
        }
    }

    private static string? LocalDac(ClrInfo clr, Version? version)
    {
        var beside = clr.ModuleInfo.FileName is { Length: > 0 } coreclr ? Path.Combine(Path.GetDirectoryName(coreclr) ?? "", DacName()) : null;
        if (beside is not null && File.Exists(beside))
        {
            return beside;
        }
        if (version is null)
        {
            return null;
        }
        // Same version, another install root (the dump came from a container with /usr/share/dotnet elsewhere).
        var shared = Path.GetDirectoryName(Path.GetDirectoryName(Path.GetDirectoryName(typeof(object).Assembly.Location)));
        var candidate = shared is null ? null : Path.Combine(shared, "Microsoft.NETCore.App", version.ToString(3), DacName());
        return candidate is not null && File.Exists(candidate) ? candidate : null;
    }

    private static string DacName() => OperatingSystem.IsWindows() ? "mscordaccore.dll" : OperatingSystem.IsMacOS() ? "libmscordaccore.dylib" : "libmscordaccore.so";

    private static string NameOf(DataTarget target)
    {
        // A core file does not name the app; the entry assembly is the module with a runtimeconfig.json beside it
        // (readable when the dump is read where the app is installed). Otherwise "?" rather than a guess.
        var app = target.EnumerateModules().Select(m => m.FileName).FirstOrDefault(f => f is not null && f.EndsWith(".dll", StringComparison.OrdinalIgnoreCase)
            && File.Exists(Path.ChangeExtension(f, ".runtimeconfig.json")));
        return app is not null ? Path.GetFileNameWithoutExtension(app) : "?";
    }
}
