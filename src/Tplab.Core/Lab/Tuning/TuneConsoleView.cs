using System.Globalization;
using Tplab.Load;
using Tplab.Watch;
using Tplab.Reports.Terminal;

namespace Tplab.Lab.Tuning;

/// <summary>
/// tune's progress display: a line when each trial starts and ends; during a trial's load, a line rewritten in place
/// on a terminal, or one every 5 s in a log.
/// </summary>
public sealed class TuneConsoleView(TextWriter writer, bool interactive) : ITuneObserver
{
    private static readonly CultureInfo C = CultureInfo.InvariantCulture;
    private readonly Lock _gate = new();
    private TimeSpan? _lastLogged;
    private bool _progressShown;

    public void Noticed(string message)
    {
        lock (_gate)
        {
            writer.WriteLine(Common.TerminalText.Escape(message));
        }
    }

    public void TrialStarted(int number, TrialPurpose purpose, int? minThreads, string? knob)
    {
        lock (_gate)
        {
            _lastLogged = null;
            writer.WriteLine($"trial {number.ToString(C)} ({Purpose(purpose)}): {Settings(minThreads, knob)} — starting a fresh process…");
        }
    }

    public void TrialProgress(LoadProgress progress, ThreadPoolSample? pool)
    {
        var line = $"  {progress.Done.ToString(C)} done · {progress.Elapsed.TotalSeconds.ToString("0", C)} s · in flight {progress.InFlight.ToString(C)} · p99 {Cells.Ms(progress.P99Ms)}" +
            (pool is null ? "" : $" · pool {pool.ThreadCount.ToString(C)} threads, queue {pool.QueueLength.ToString(C)}");
        lock (_gate)
        {
            if (interactive)
            {
                writer.Write("\r" + line.PadRight(100));
                _progressShown = true;
            }
            else if (_lastLogged is not { } last || progress.Elapsed - last >= TimeSpan.FromSeconds(5))
            {
                _lastLogged = progress.Elapsed;
                writer.WriteLine(line);
            }
        }
    }

    public void TrialFinished(TuneTrial trial)
    {
        var f = trial.Figures;
        lock (_gate)
        {
            if (_progressShown)
            {
                writer.Write("\r" + new string(' ', 100) + "\r");
                _progressShown = false;
            }
            writer.WriteLine($"trial {trial.Number.ToString(C)}: {Settings(trial.MinThreads, trial.Knob)} {(trial.Meets ? "MEETS" : "fails")} — {trial.Why} · threads peak {f.ThreadsPeak?.ToString(C) ?? "–"} · RSS {f.PeakRssMb?.ToString("0", C) ?? "–"} MB · CPU {f.CpuSeconds?.ToString("0.00", C) ?? "–"} s");
        }
    }

    public void Estimated(MinThreadsEstimate estimate)
    {
        lock (_gate)
        {
            writer.WriteLine($"estimate: {estimate.Threads.ToString(C)} threads ({estimate.Explanation})");
        }
    }

    private static string Settings(int? min, string? knob) =>
        knob is not null ? $"default minimum with {knob}" : min is int m ? $"minimum {m.ToString(C)}" : "default pool";

    private static string Purpose(TrialPurpose p) => p switch
    {
        TrialPurpose.Baseline => "the default",
        TrialPurpose.Estimate => "Little's-law estimate",
        TrialPurpose.Knob => "a knob",
        _ => "search",
    };
}
