using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;

namespace Tplab.Lab.Plans;

/// <summary>The bounds every builder keeps: depth and the count of values made.</summary>
internal abstract class PlanTreeBuilder(PlanDocument doc)
{
    private int _nodes;

    protected PlanDocument Doc { get; } = doc;

    /// <summary>The values made so far.</summary>
    protected int Made => _nodes;

    protected void Count(int line, int depth, int nodes = 1)
    {
        _nodes += nodes;
        if (_nodes > PlanDocument.MaxNodes)
        {
            throw Doc.Refuse(line, string.Create(System.Globalization.CultureInfo.InvariantCulture, $"the plan holds more than {PlanDocument.MaxNodes:N0} values (aliases counted as expanded); a plan is a short list of scenarios"));
        }
        if (depth > PlanDocument.MaxDepth)
        {
            throw Doc.Refuse(line, $"nested more than {PlanDocument.MaxDepth} levels deep");
        }
    }

    protected void Key(JsonObject o, string key, int line, string at)
    {
        if (o.ContainsKey(key))
        {
            throw Doc.Refuse(line, $"{PlanDocument.Child(at, key)}: the key '{key}' is given twice in the same object");
        }
    }
}
