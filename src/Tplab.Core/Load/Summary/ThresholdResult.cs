namespace Tplab.Load.Summary;

/// <summary>One threshold's outcome, kept in the summary: the figure the run measured and whether it met the objective.</summary>
public sealed record ThresholdResult(string Threshold, string Metric, double Actual, bool Passed);
