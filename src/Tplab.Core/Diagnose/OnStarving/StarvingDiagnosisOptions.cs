using System.Globalization;
using Tplab.Common;

using Tplab.Watch.Running;

namespace Tplab.Diagnose.OnStarving;

/// <summary>
/// <c>--on-starving diagnose[=OUT]</c>: when the pool turns starving, capture stacks for <see cref="Capture"/> and write
/// the diagnosis, once per episode (until the verdict is healthy again) and at most once per <see cref="Cooldown"/>.
/// </summary>
public sealed record StarvingDiagnosisOptions : IStarvingActionFactory
{
    /// <summary>The file to write; null: <c>tplab-diagnosis-PID-yyyyMMdd-HHmmss.json</c> in the current folder. Later episodes get -2, -3… before the extension.</summary>
    public string? Output { get; init; }

    /// <summary>How long to capture stacks (default 3 s: enough for a starving service, and the file lands within seconds of the onset).</summary>
    public TimeSpan Capture { get; init; } = TimeSpan.FromSeconds(3);

    /// <summary>The least time between the starts of two diagnoses (default 60 s), so a flapping verdict cannot trace the process all day.</summary>
    public TimeSpan Cooldown { get; init; } = TimeSpan.FromSeconds(60);

    // One capture at a time across every process a watch follows: each trigger waits here for its turn, so two
    // instances starving together are diagnosed one after the other, each from its own onset.
    private readonly SemaphoreSlim _oneCapture = new(1, 1);

    /// <summary>Parses the value of <c>--on-starving</c>: <c>diagnose</c> or <c>diagnose=FILE</c>.</summary>
    public static StarvingDiagnosisOptions Parse(string text)
    {
        if (text == "diagnose")
        {
            return new StarvingDiagnosisOptions();
        }
        if (text.StartsWith("diagnose=", StringComparison.Ordinal) && text.Length > "diagnose=".Length)
        {
            return new StarvingDiagnosisOptions { Output = text["diagnose=".Length..] };
        }
        throw TplabException.Usage($"--on-starving must be diagnose or diagnose=FILE, got '{text}'");
    }

    /// <summary>The file for the <paramref name="episode"/>-th diagnosis (1-based) of <paramref name="processId"/>.</summary>
    public string FileFor(int processId, int episode, DateTimeOffset now)
    {
        var path = Output ?? $"tplab-diagnosis-{processId.ToString(CultureInfo.InvariantCulture)}-{now.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)}.json";
        if (episode <= 1)
        {
            return path;
        }
        var extension = Path.GetExtension(path);
        return path[..^extension.Length] + "-" + episode.ToString(CultureInfo.InvariantCulture) + extension;
    }

    /// <summary>The trigger that runs these diagnoses for <paramref name="processId"/>.</summary>
    public IStarvingAction Create(int processId, TimeSpan interval, TextWriter notices, TimeProvider time) =>
        new StarvingDiagnosisTrigger(processId, interval, this, notices, time) { Turn = _oneCapture };

    /// <summary>Throws a usage error for a bad setting.</summary>
    public void Validate() => Validated();

    /// <summary>These options, or a usage error.</summary>
    public StarvingDiagnosisOptions Validated()
    {
        new DiagnoseOptions { Duration = Capture }.Validated();
        if (Cooldown < TimeSpan.Zero)
        {
            throw TplabException.Usage("the cool-down between diagnoses cannot be negative");
        }
        return this;
    }
}
