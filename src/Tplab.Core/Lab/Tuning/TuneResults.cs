using System.Text.Json;
using Tplab.Common;
using Tplab.Reports.Html;

namespace Tplab.Lab.Tuning;

/// <summary>Writes tune's results folder: tune.json and tune.html (the chart of the objective against the minimum).</summary>
public static class TuneResults
{
    /// <summary>Writes both files whole into <see cref="TuneResult.Folder"/>.</summary>
    public static void Write(TuneResult result)
    {
        var json = TuneJson.Build(result);
        try
        {
            AtomicFile.WriteAllText(Path.Combine(result.Folder, "tune.json"), json.ToJsonString(new JsonSerializerOptions { WriteIndented = true, Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping }));
            AtomicFile.Write(Path.Combine(result.Folder, "tune.html"), w => WritePage(w, json.ToJsonString()));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write results into {result.Folder}: {e.Message}");
        }
    }

    private static void WritePage(TextWriter w, string json) => w.Write(HtmlReport.Asset("tune.html")
        .Replace("/*UPLOT_CSS*/", HtmlReport.Asset("uPlot.min.css"), StringComparison.Ordinal)
        .Replace("/*DATA*/", json.Replace("</", "<\\/", StringComparison.Ordinal), StringComparison.Ordinal)
        .Replace("/*UPLOT_JS*/", HtmlReport.Asset("uPlot.iife.min.js"), StringComparison.Ordinal)
        .Replace("/*TUNE_JS*/", HtmlReport.Asset("tune.js"), StringComparison.Ordinal));
}
