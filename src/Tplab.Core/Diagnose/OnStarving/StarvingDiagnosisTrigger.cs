using System.Globalization;
using Tplab.Blocking;
using Tplab.Common;
using Tplab.Diagnose.Output;
using Tplab.Watch.Output;
using Tplab.Watch.Verdicts;

using Tplab.Watch;
using Tplab.Watch.Running;

namespace Tplab.Diagnose.OnStarving;

/// <summary>
/// A watch sink that starts a diagnosis when the verdict turns starving, in the background so sampling goes on: once
/// per episode (an episode ends when a sample is healthy again), at most once per cool-down. The diagnosis's pool
/// view is the watch's own samples over the capture. Notices (started, written, failed) go to <c>notices</c>.
/// <c>diagnose</c> replaces the live capture in tests; by default it is <see cref="BlockingDiagnoser.DiagnoseAsync"/>.
/// </summary>
public sealed class StarvingDiagnosisTrigger(
    int processId, TimeSpan interval, StarvingDiagnosisOptions options, TextWriter notices, TimeProvider time, Func<Task<Diagnosis>>? diagnose = null) : IStarvingAction
{
    private readonly Lock _gate = new();
    private readonly List<ThreadPoolSample> _samples = [];
    private readonly List<ThreadPoolInjection> _injections = [];
    private readonly List<string> _written = [];
    private Task _running = Task.CompletedTask;
    private bool _inEpisode;
    private bool _capturing;
    private long? _lastStart;
    private int _episodes;

    /// <summary>The files written so far, in order.</summary>
    public IReadOnlyList<string> Written
    {
        get
        {
            lock (_gate)
            {
                return [.. _written];
            }
        }
    }

    /// <summary>Held while capturing: shared by the triggers of one watch of several processes, so captures take turns.</summary>
    public SemaphoreSlim? Turn { get; init; }

    /// <summary>Completes when no diagnosis is running.</summary>
    public Task Idle => _running;

    /// <inheritdoc />
    public event Action<StarvingCulprit>? CulpritFound;

    public void OnInjection(ThreadPoolInjection injection)
    {
        lock (_gate)
        {
            if (_capturing)
            {
                _injections.Add(injection);
            }
        }
    }

    public void OnSample(ThreadPoolSample sample)
    {
        lock (_gate)
        {
            if (_capturing)
            {
                _samples.Add(sample);
            }
            if (sample.Verdict == PoolVerdict.Healthy)
            {
                _inEpisode = false;
                return;
            }
            if (!sample.Verdict.ThreadsHeld() || _inEpisode || _capturing
                || (_lastStart is { } last && time.GetElapsedTime(last) < options.Cooldown))
            {
                return;
            }
            _inEpisode = true;
            _capturing = true;
            _lastStart = time.GetTimestamp();
            _episodes++;
            _samples.Clear();
            _injections.Clear();
            _samples.Add(sample);
            var file = options.FileFor(processId, _episodes, time.GetLocalNow());
            Notice($"pool starving at {sample.Offset.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture)} s; capturing {options.Capture.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture)} s of stacks for {file}");
            _running = Task.Run(() => DiagnoseAsync(file));
        }
    }

    public void OnCompleted(PoolTimeline timeline)
    {
    }

    private async Task DiagnoseAsync(string file)
    {
        var turn = Turn;
        if (turn is not null && !await turn.WaitAsync(TimeSpan.Zero).ConfigureAwait(false))
        {
            Notice($"another process's capture is under way; pid {processId.ToString(CultureInfo.InvariantCulture)} waits for its turn");
            await turn.WaitAsync().ConfigureAwait(false);
        }
        try
        {
            var diagnosis = diagnose is not null
                ? await diagnose().ConfigureAwait(false)
                // The watch already watches the pool; a second watch session would only change the counters' interval.
                : await BlockingDiagnoser.DiagnoseAsync(processId, new DiagnoseOptions { Duration = options.Capture, WatchPool = false }).ConfigureAwait(false);
            PoolTimeline pool;
            lock (_gate)
            {
                _capturing = false;
                var from = _samples[0].Offset;
                pool = new PoolTimeline(processId, interval, _samples[^1].Offset - from + interval, [.. _samples], [.. _injections], null, false);
            }
            diagnosis = diagnosis with { Pool = pool, PoolUnavailable = null };
            var writer = DiagnosisFormats.ForPath(file);
            AtomicFile.Write(file, w => writer.Write(diagnosis, w));
            lock (_gate)
            {
                _written.Add(file);
            }
            if (diagnosis.Culprits.Count > 0)
            {
                var c = diagnosis.Culprits[0];
                var endpoint = c.Endpoint is { } e ? $"{e.Method} {e.Route}" : "";
                CulpritFound?.Invoke(new StarvingCulprit(processId, endpoint, c.UserFrame?.DisplayName ?? "", c.BlockingCall.Name, c.Threads, file));
            }
            var top = diagnosis.Culprits.Count > 0 ? $"; top: {diagnosis.Culprits[0].BlockingCall.Name} in {diagnosis.Culprits[0].UserFrame?.FullName ?? "(no application frame)"}" : "";
            Notice($"diagnosis written to {file} ({diagnosis.Verdict.ToString().ToLowerInvariant()}, {diagnosis.Culprits.Count.ToString(CultureInfo.InvariantCulture)} culprits{top})");
        }
        catch (Exception e) when (e is TplabException or IOException or UnauthorizedAccessException)
        {
            Notice($"diagnosis for {file} failed: {e.Message}");
        }
        finally
        {
            lock (_gate)
            {
                _capturing = false;
            }
            turn?.Release();
        }
    }

    private void Notice(string line)
    {
        lock (notices)
        {
            notices.WriteLine("tplab watch: " + line);
            notices.Flush();
        }
    }
}
