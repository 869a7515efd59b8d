using Tplab.Common;
using Tplab.Diagnose;
using Tplab.Diagnose.Offline;
using Tplab.Lab.Comparing;
using Tplab.Lab.Plans;
using Tplab.Load.Histograms;
using Tplab.Load.Requests;
using Tplab.Scan.Config;
using Tplab.Scan.Fix;
using Tplab.Scan.Findings;
using Tplab.Scan.Incremental;
using Tplab.Watch.Output;
using Tplab.Scan.Fix.Selecting;

namespace Tplab.Fuzz;

/// <summary>
/// Every reader of outside input, by name, as the fuzzer and the replay test call it: the bytes are written to a file
/// with the extension the reader expects, and the reader runs on it as the CLI would. A reader may refuse the input
/// with a <see cref="TplabException"/> of one line and a documented code; anything else (another exception, a second
/// line, an internal error) is a defect and is thrown as <see cref="FuzzDefect"/>.
/// </summary>
public static class Readers
{
    public static readonly IReadOnlyDictionary<string, (string Extension, Action<string> Read)> All = new Dictionary<string, (string, Action<string>)>
    {
        ["plan-yaml"] = (".yaml", path => PlanReader.Read(path)),
        ["plan-json"] = (".json", path => PlanReader.Read(path)),
        ["targets"] = (".txt", path => TargetsFile.Load(path, [])),
        ["hlog"] = (".hlog", path => HistogramLog.Merge([path])),
        ["watch-jsonl"] = (".jsonl", path =>
        {
            using var reader = new StreamReader(path);
            JsonlWatchReader.Read(reader);
        }),
        ["compare"] = (".json", path => ResultsFile.Read(path)),
        ["scan-config"] = (".json", path => ScanConfig.Read(path)),
        ["baseline"] = (".json", path => Baseline.Read(path)),
        ["nettrace"] = (".nettrace", path => TraceDiagnoser.Diagnose(path, new DiagnoseOptions())),
        // tplab fix --from: a scan report (JSON or SARIF) of the solution being fixed, read before anything loads.
        ["from-json"] = (".json", path => FixSelection.ReadReport(path, "Shop.slnx", Path.GetDirectoryName(path)!)),
        ["from-sarif"] = (".sarif", path => FixSelection.ReadReport(path, "Shop.slnx", Path.GetDirectoryName(path)!)),
        // the scan cache (obj/tplab-scan/scan-cache.json): its JSON sealed with the fuzzer's key, then the whole file as found.
        ["scan-cache"] = (".json", path => ScanCacheReader.CheckPayload(path)),
        ["scan-cache-seal"] = (".json", path => ScanCacheReader.Check(path)),
    };

    /// <summary>The exit codes a reader may refuse an input with (docs/exit-codes.md: a bad input file is 2).</summary>
    private static readonly int[] Refusals = [ExitCodes.Usage];

    /// <summary>Runs <paramref name="reader"/> on <paramref name="bytes"/> written to a file in <paramref name="folder"/>.</summary>
    public static void Run(string reader, byte[] bytes, string folder)
    {
        var (extension, read) = All[reader];
        var path = Path.Combine(folder, "input" + extension);
        File.WriteAllBytes(path, bytes);
        try
        {
            read(path);
        }
        catch (TplabException e)
        {
            // The CLI prints every message through TerminalText.Line (a key "a\nb" is shown as a\nb): one line after it.
            var shown = TerminalText.Line(e.Message);
            if (shown.Contains('\n', StringComparison.Ordinal) || shown.Contains('\r', StringComparison.Ordinal))
            {
                throw new FuzzDefect($"{reader}: an error of more than one line: {e.Message}", e);
            }
            if (!Refusals.Contains(e.ExitCode))
            {
                throw new FuzzDefect($"{reader}: exit code {e.ExitCode} for a bad input file: {e.Message}", e);
            }
        }
    }
}

/// <summary>A reader's answer that breaks the bad-input rule (docs/exit-codes.md).</summary>
public sealed class FuzzDefect(string message, Exception inner) : Exception(message, inner);
