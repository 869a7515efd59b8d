using Tplab.Common;
using Tplab.Diagnose.Offline;
using Tplab.Processes;

namespace Tplab.Diagnose;

/// <summary>
/// What <c>tplab diagnose</c> diagnoses: a live process (by id or <c>-n</c> name), a trace collected elsewhere
/// (<c>--trace</c>) or a dump (<c>--dump</c>). Exactly one; <c>--keep-trace</c> only with a live process.
/// </summary>
public sealed record DiagnoseTarget(int? ProcessId = null, string? Name = null, string? Trace = null, string? Dump = null)
{
    /// <summary>This target, or a usage error saying what to give.</summary>
    public DiagnoseTarget Validated(DiagnoseOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var given = new object?[] { ProcessId, Name, Trace, Dump }.Count(v => v is not null);
        if (given != 1)
        {
            throw TplabException.Usage(given == 0
                ? "diagnose needs one of: PID, -n NAME, --trace FILE.nettrace, --dump FILE"
                : "give only one of PID, -n NAME, --trace, --dump");
        }
        if (options.KeepTrace is not null && (Trace is not null || Dump is not null))
        {
            throw TplabException.Usage("--keep-trace keeps the trace of a live capture; it does not go with --trace or --dump");
        }
        if (options.KeepTrace is { } keep)
        {
            // Said before the process is even looked up, not after the capture.
            Capture.KeptTrace.Check(keep);
        }
        return this;
    }

    /// <summary>Diagnoses the target; throws a <see cref="TplabException"/> with the documented exit code when it cannot.</summary>
    public async Task<Diagnosis> DiagnoseAsync(DiagnoseOptions options, CancellationToken cancellationToken = default)
    {
        Validated(options);
        if (Trace is { } trace)
        {
            return TraceDiagnoser.Diagnose(trace, options);
        }
        if (Dump is { } dump)
        {
            return DumpDiagnoser.Diagnose(dump, options);
        }
        var pid = ProcessId ?? ProcessFinder.ByName(Name!).ProcessId;
        return await BlockingDiagnoser.DiagnoseAsync(pid, options, cancellationToken).ConfigureAwait(false);
    }
}
