namespace FixProbes.Reports;

/// <summary>The day's report, built off the request thread (or so its author thought).</summary>
public sealed class DailyReport
{
    public string Build()
    {
        Thread.Sleep(20);
        return "daily report: 3 orders";
    }
}
