using Tplab.Load.Engine;
using Tplab.Load.Summary;

namespace Tplab.Load;

/// <summary>What a run returns: the summary and, unless turned off, every request record in completion order.</summary>
public sealed record LoadResult(LoadSummary Summary, IReadOnlyList<RequestRecord> Records, DateTimeOffset StartedAt);
