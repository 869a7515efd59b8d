using System.Text.Json;
using Tplab.Common;
using Tplab.Common.Json;
using Tplab.Reports.Html;

namespace Tplab.Lab.Tuning;

/// <summary>Writes tune's results folder: tune.json and tune.html (the chart of the objective against the minimum).</summary>
public static class TuneResults
{
    /// <summary>Writes both files whole into <see cref="TuneResult.Folder"/>.</summary>
    public static void Write(TuneResult result)
    {
        var json = TuneJson.From(result);
        try
        {
            AtomicFile.Write(Path.Combine(result.Folder, "tune.json"), w => TplabJson.Write(json, TuneJsonContext.Indented.TuneJson, w));
            AtomicFile.Write(Path.Combine(result.Folder, "tune.html"), w => WritePage(w, JsonSerializer.Serialize(json, TuneJsonContext.Indented.TuneJson)));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write results into {result.Folder}: {e.Message}");
        }
    }

    private static void WritePage(TextWriter w, string json) => HtmlPage.Write(w, PageLayout.Tune, json);
}
