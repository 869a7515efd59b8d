namespace Tplab.Scan.Graph;

/// <summary>
/// <c>Monitor.Enter(x) … Monitor.Exit(x)</c> in one body: the calls between them run under that lock. Enters and exits
/// are noted as the walk meets them; once the body is walked, the edges and blocking calls inside each region that hold
/// no other lock are marked as held under it.
/// </summary>
internal sealed class MonitorRegions
{
    private readonly List<(int Id, string Key, int Start)> _enters = [];
    private readonly List<(string Key, int Start)> _exits = [];

    /// <summary>Lock <paramref name="id"/> on <paramref name="key"/> taken, ending at source position <paramref name="end"/> of the Enter call.</summary>
    public void Enter(int id, string key, int end) => _enters.Add((id, key, end));

    /// <summary>The lock on <paramref name="key"/> released by a call starting at <paramref name="start"/>.</summary>
    public void Exit(string key, int start) => _exits.Add((key, start));

    /// <summary>Marks what <paramref name="facts"/> holds inside each region.</summary>
    public void Apply(NodeFacts facts)
    {
        foreach (var (id, key, start) in _enters)
        {
            var end = _exits.Where(e => e.Key == key && e.Start > start).Select(e => e.Start).DefaultIfEmpty(int.MaxValue).Min();
            bool Inside(Microsoft.CodeAnalysis.Location l) => l.SourceSpan.Start > start && l.SourceSpan.Start < end;
            for (var i = 0; i < facts.Edges.Count; i++)
            {
                if (facts.Edges[i].LockId is null && facts.Edges[i].Kind is not (EdgeKind.TaskRun or EdgeKind.Continuation) && Inside(facts.Edges[i].Site))
                {
                    facts.Edges[i] = facts.Edges[i] with { LockId = id };
                }
            }
            for (var i = 0; i < facts.Blocking.Count; i++)
            {
                if (facts.Blocking[i].LockId is null && Inside(facts.Blocking[i].Site))
                {
                    facts.Blocking[i] = facts.Blocking[i] with { LockId = id };
                }
            }
        }
    }
}
