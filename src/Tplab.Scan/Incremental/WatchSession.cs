using System.Globalization;
using Tplab.Common;
using Tplab.Scan.Findings;
using Tplab.Scan.Loading;

namespace Tplab.Scan.Incremental;

/// <summary>
/// What <c>scan --watch</c> holds between changes: the load (MSBuild's workspace, disposed with the session), the code
/// as the last edit left it, the inputs polled, the baseline and the last result.
/// </summary>
internal sealed class WatchSession : IDisposable
{
    // An editor or git writes in steps: a moment for them to end before the contents are read (a write after it is
    // seen by the next poll, and scanned again).
    private static readonly TimeSpan Settle = TimeSpan.FromMilliseconds(100);

    private readonly ScanOptions _options;
    private readonly IScanProgress _progress;
    private readonly string[] _others;
    private ScanLoad _load;
    private LoadedCode _code;
    private WatchedInputs _inputs;
    private Baseline _baseline;

    private WatchSession(ScanOptions options, IScanProgress progress, string[] others, ScanLoad load, WatchedInputs inputs, Baseline baseline)
    {
        (_options, _progress, _others, _load, _code, _inputs, _baseline) = (options, progress, others, load, load.Code, inputs, baseline);
        Result = null!;
    }

    /// <summary>The last scan's result.</summary>
    public ScanResult Result { get; private set; }

    /// <summary>How many files are watched, of how many projects.</summary>
    public string Watched => string.Create(CultureInfo.InvariantCulture, $"{_inputs.Count} input file(s) of {_code.Projects.Count} project(s)");

    /// <summary>The first load by MSBuild and its scan.</summary>
    public static async Task<WatchSession> StartAsync(ScanOptions options, IScanProgress progress, CancellationToken cancellationToken)
    {
        var input = ScanInput.Resolve(options.Path);
        string[] others = [options.ConfigFile ?? Path.Combine(input.Root, Config.ScanConfig.DefaultFileName), .. options.BaselineFile is { } b ? [b] : Array.Empty<string>()];
        var started = options.Time.GetTimestamp();
        var startedUtc = options.Time.GetUtcNow().UtcDateTime;
        var load = await LoadAsync(options, input, progress, cancellationToken).ConfigureAwait(false);
        try
        {
            var session = new WatchSession(options, progress, others, load, WatchedInputs.Record(load.Code, others, startedUtc), ReadBaseline(options));
            session.Result = session.Analyse(options.Time.GetElapsedTime(started), cancellationToken);
            return session;
        }
        catch
        {
            load.Dispose();
            throw;
        }
    }

    /// <summary>A rebuild after an edit that changes nothing (<see cref="SourceEdits.WarmUpAsync"/>), its time said with --verbose.</summary>
    public async Task WarmUpAsync(CancellationToken cancellationToken)
    {
        var warming = _options.Time.GetTimestamp();
        _progress.Status("warming up for the first edit...");
        await SourceEdits.WarmUpAsync(_code, cancellationToken).ConfigureAwait(false);
        Verbose($"warmed up in {_options.Time.GetElapsedTime(warming).TotalSeconds:0.00} s (a rebuild after an edit that changes nothing)");
    }

    /// <summary>The changes since the last scan, or null when no input's contents changed (nothing moved, or a touch).</summary>
    public async Task<IReadOnlyList<(string Words, string? Edited)>?> ChangesAsync(CancellationToken cancellationToken)
    {
        if (!_inputs.Moved())
        {
            return null;
        }
        await Task.Delay(Settle, _options.Time, cancellationToken).ConfigureAwait(false);
        var changes = _inputs.Changes();
        return changes.Count == 0 ? null : changes;
    }

    /// <summary>
    /// The scan after <paramref name="changes"/>: the sources rebuilt in place, or a load by MSBuild again; how, or null
    /// when the load failed as a whole (said in one line; <see cref="Result"/> stays the last scan's).
    /// </summary>
    public async Task<string?> RescanAsync(IReadOnlyList<(string Words, string? Edited)> changes, CancellationToken cancellationToken)
    {
        var began = _options.Time.GetTimestamp();
        var (edited, reloadBecause) = SourceEdits.Classify(_code, changes);
        string how;
        if (edited is not null)
        {
            // Recorded before the files are read: an edit made while they are is a change at the next poll.
            _inputs = _inputs.With(edited);
            _code = await SourceEdits.ApplyAsync(_code, edited, cancellationToken).ConfigureAwait(false);
            Verbose($"rebuilt in place in {_options.Time.GetElapsedTime(began).TotalSeconds:0.00} s");
            how = "rebuilt in place";
        }
        else
        {
            _progress.Line($"tplab scan: {reloadBecause}: loading the solution again with MSBuild");
            var reloadedUtc = _options.Time.GetUtcNow().UtcDateTime;
            try
            {
                // The path resolved again: a folder's projects, or a solution's, may be others now.
                var again = await LoadAsync(_options, ScanInput.Resolve(_options.Path), _progress, cancellationToken).ConfigureAwait(false);
                Baseline baseline;
                try
                {
                    baseline = ReadBaseline(_options);
                }
                catch
                {
                    again.Dispose();
                    throw;
                }
                _load.Dispose();
                (_load, _code, _baseline) = (again, again.Code, baseline);
                _inputs = WatchedInputs.Record(_code, _others, reloadedUtc);
            }
            catch (TplabException e) when (e.ExitCode != ExitCodes.Interrupted)
            {
                // The folder deleted, a config or baseline broken mid-edit: said, the last report kept, the next change awaited.
                _progress.Line($"tplab scan: not rescanned: {e.Message}; the report is the last scan's, watching for the next change");
                _inputs = WatchedInputs.Record(_code, _others, reloadedUtc);
                return null;
            }
            how = "loaded again";
        }
        Result = Analyse(_options.Time.GetElapsedTime(began), cancellationToken);
        return how;
    }

    public void Dispose() => _load.Dispose();

    private ScanResult Analyse(TimeSpan loadTime, CancellationToken cancellationToken) =>
        Scanner.Analyse(_code, _options, _load.Config, _baseline, _progress, loadTime, cancellationToken);

    private void Verbose(FormattableString line)
    {
        if (_options.Verbose)
        {
            using var self = System.Diagnostics.Process.GetCurrentProcess();
            _progress.Line($"tplab scan: {line.ToString(CultureInfo.InvariantCulture)}; {Scanner.CpuSinceStart(self)}");
        }
    }

    private static Task<ScanLoad> LoadAsync(ScanOptions options, ScanInput input, IScanProgress progress, CancellationToken cancellationToken) =>
        Scanner.LoadAsync(input, options, "tplab scan", [("--output", options.Output)], [("the --baseline read", options.BaselineFile)], progress, cancellationToken);

    private static Baseline ReadBaseline(ScanOptions options) => options.BaselineFile is { } b ? Baseline.Read(b) : new Baseline();
}
