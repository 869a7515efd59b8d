using System.Text;
using System.Text.Json;
using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>The summary as JSON (<see cref="LoadJson"/>; schema in docs/load.md).</summary>
public sealed class JsonFormat : ISummaryFormat
{
    /// <inheritdoc />
    public string Name => "json";

    /// <inheritdoc />
    public string Description => "the summary as JSON (schema in docs/load.md)";

    /// <inheritdoc />
    public void Write(LoadSummary summary, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        using var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer, new JsonWriterOptions { Indented = true }))
        {
            LoadJson.Write(json, summary);
        }
        writer.Write(Encoding.UTF8.GetString(buffer.ToArray()).ReplaceLineEndings("\n"));
        writer.Write('\n');
    }
}
