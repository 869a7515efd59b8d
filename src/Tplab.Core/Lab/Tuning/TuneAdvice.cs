using System.Globalization;
using Tplab.Blocking;

namespace Tplab.Lab.Tuning;

/// <summary>The closing reminder: a higher minimum is a palliative; the fix is to stop blocking, named from the culprits found.</summary>
public static class TuneAdvice
{
    /// <summary>The reminder in one paragraph, naming the culprits of the default run.</summary>
    public static string RealFix(TuneResult r)
    {
        var palliative = r.RecommendedMinThreads is int n
            ? string.Create(CultureInfo.InvariantCulture, $"A minimum of {n} only lets the pool start with enough threads to block in: each blocked request still holds a thread and its stack, and a busier day needs more. ")
            : "";
        if (r.Culprits.Count == 0)
        {
            return palliative + (r.DefaultMeets
                ? "Nothing blocked the pool under this load."
                : "The real fix is async. Diagnose named no blocking call in the default run; look in the handlers for .Result, .Wait(), Thread.Sleep and synchronous I/O, or run tplab diagnose PID during the load.");
        }
        var named = string.Join("; ", r.Culprits.Take(3).Select(c => $"{c.BlockingCall} in {c.UserFrame}: {c.Advice}"));
        return palliative + "The real fix is async: " + named;
    }
}
