using Tplab.Common.Json;
using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>The summary as JSON (<see cref="LoadJson"/>; docs/schemas/load.schema.json).</summary>
public sealed class JsonFormat : ISummaryFormat
{
    /// <inheritdoc />
    public string Name => "json";

    /// <inheritdoc />
    public bool MachineReadable => true;

    /// <inheritdoc />
    public string Description => "the summary as JSON (docs/schemas/load.schema.json)";

    /// <inheritdoc />
    public IReadOnlyList<string> Extensions => [".json"];

    /// <inheritdoc />
    public void Write(LoadSummary summary, TextWriter writer) => TplabJson.Write(LoadJson.From(summary), LoadJsonContext.Indented.LoadJson, writer);
}
