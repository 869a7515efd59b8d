using Tplab.Common;
using Tplab.Common.Output;
using Tplab.Diagnose.Output;
using Tplab.Lab.Comparing;
using Tplab.Lab.Tuning;
using Tplab.Load.Formats;
using Tplab.Load.Summary;
using Tplab.Watch.Output;
using Tplab.Tests.Support;

namespace Tplab.Tests.Common;

/// <summary>One catalogue per command: found by name in any case, or by the output's extension; anything else one usage line naming the formats.</summary>
[ParallelSafe]
public sealed class FormatCatalogueTests
{
    public static TheoryData<string, IReadOnlyList<string>> Catalogues => new()
    {
        { "load", [.. LoadFormats.Catalogue.All.Select(f => f.Name)] },
        { "load merge", [.. MergeReport.Catalogue.All.Select(f => f.Name)] },
        { "watch", [.. WatchFormats.Catalogue.All.Select(f => f.Name)] },
        { "compare", [.. ComparisonFormats.Catalogue.All.Select(f => f.Name)] },
        { "tune", [.. TuneFormats.Catalogue.All.Select(f => f.Name)] },
        { "diagnose", [.. DiagnosisFormats.Catalogue.All.Select(f => f.Name)] },
    };

    private static IOutputFormat Find(string command, string name) => command switch
    {
        "load" => LoadFormats.Catalogue.Find(name),
        "load merge" => MergeReport.Catalogue.Find(name),
        "watch" => WatchFormats.Catalogue.Find(name),
        "compare" => ComparisonFormats.Catalogue.Find(name),
        "tune" => TuneFormats.Catalogue.Find(name),
        _ => DiagnosisFormats.Catalogue.Find(name),
    };

    [Theory]
    [MemberData(nameof(Catalogues))]
    public void Find_EveryFormat_ByItsNameInAnyCase_AndAnUnknownOne_IsOneUsageLineNamingThemAll(string command, IReadOnlyList<string> names)
    {
        foreach (var name in names)
        {
            Assert.Equal(name, Find(command, name.ToUpperInvariant()).Name);
        }

        var error = Assert.Throws<TplabException>(() => Find(command, "xml"));

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Equal($"--format must be one of {string.Join(", ", names)}, got 'xml'", error.Message);
    }

    [Theory]
    // the output's extension picks the format when --format is not given
    [InlineData("compare", "out.json", "json")]
    [InlineData("compare", "OUT.HTML", "html")]
    [InlineData("compare", "out.log", "text")]
    [InlineData("compare", null, "text")]
    [InlineData("watch", "w.csv", "csv")]
    [InlineData("watch", "w.htm", "html")]
    [InlineData("watch", "w.log", "jsonl")]
    [InlineData("watch", null, "live")]
    public void Resolve_WithoutFormat_TakesTheExtension_ElseTheCommandsDefault(string command, string? output, string expected)
    {
        var format = command == "compare" ? (IOutputFormat)ComparisonFormats.Resolve(null, output) : WatchFormats.Resolve(null, output);

        Assert.Equal(expected, format.Name);
    }

    [Theory]
    // formats and outputs pair by position; a file without a format takes its extension's
    [InlineData("json", "", "json to stdout")]
    [InlineData("", "out.json", "json to out.json")]
    [InlineData("", "out.hlog", "hlog to out.hlog")]
    [InlineData("json,csv", "a.json;b.csv", "json to a.json|csv to b.csv")]
    [InlineData("text,json", "-;out.txt", "text to stdout|json to out.txt")]
    [InlineData("", "", "text to stdout")]
    public void LoadOutputs_PairFormatsAndFiles(string formats, string outputs, string expected)
    {
        var list = LoadFormats.Outputs(Split(formats, ','), Split(outputs, ';'));

        Assert.Equal(expected, string.Join('|', list));
    }

    [Theory]
    [InlineData("", "report.xyz", "cannot tell the format of --output report.xyz")]
    [InlineData("xml", "", "--format must be one of text, ab")]
    [InlineData("json,csv", "", "only one machine-readable format")]
    public void LoadOutputs_AFileOfNoKnownFormat_IsOneUsageLine(string formats, string outputs, string message)
    {
        var error = Assert.Throws<TplabException>(() => LoadFormats.Outputs(Split(formats, ','), Split(outputs, ';')));

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.StartsWith(message, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Fact]
    public void DiagnosisForPath_JsonFileGetsJson_AnyOtherNameText()
    {
        Assert.Equal("json", DiagnosisFormats.ForPath("d.JSON").Name);
        Assert.Equal("text", DiagnosisFormats.ForPath("tplab-diagnosis-42.txt").Name);
        Assert.Equal("text", DiagnosisFormats.ForPath("diagnosis").Name);
    }

    private static string[] Split(string text, char separator) => text.Length == 0 ? [] : text.Split(separator);
}
