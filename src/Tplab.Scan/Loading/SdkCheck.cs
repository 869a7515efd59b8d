using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Scan.Loading;

/// <summary>
/// Whether the .NET SDK the scanned folder asks for (its <c>global.json</c>) is installed, asked of <c>dotnet</c>
/// itself in that folder before anything loads: the restore and MSBuild's build host run <c>dotnet</c> there, and an
/// SDK that cannot be resolved otherwise surfaces as a build host failure deep in Roslyn. The muxer applies
/// <c>global.json</c>'s own rules (<c>rollForward</c>, <c>allowPrerelease</c>), so tplab does not re-implement them.
/// A check that passed is not asked again in this process for the same global.json as it was (its path, size and
/// time; or none, where the muxer takes the newest SDK): a rescan (<c>scan --watch</c>) starts no <c>dotnet</c> for it.
/// </summary>
internal static partial class SdkCheck
{
    /// <summary>How long <c>dotnet --version</c> may take: it answers in well under a second; a muxer stuck on its global.json never does.</summary>
    internal static readonly TimeSpan Bound = TimeSpan.FromSeconds(60);

    // The checks that passed in this process, by the global.json the muxer obeyed (KeyOf).
    private static readonly ConcurrentDictionary<string, bool> Passed = new(StringComparer.Ordinal);

    private const string Requested = "Requested SDK version:";
    private const string GlobalJson = "global.json file:";

    /// <summary>Throws the one-line environment error (exit 3) when <c>dotnet</c> cannot resolve an SDK in <paramref name="folder"/>.</summary>
    public static async Task EnsureResolvableAsync(string folder, CancellationToken cancellationToken)
    {
        // The muxer reads the nearest global.json whole before anything else: an endless one (a link to /dev/zero) hangs
        // it and a malformed one crashes it with a stack trace. Read first, as every input is: bounded, one line.
        var globalJson = Nearest(folder);
        if (globalJson is not null)
        {
            CheckReadable(globalJson);
        }
        var key = KeyOf(globalJson);
        if (Passed.ContainsKey(key))
        {
            return;
        }
        var (code, lines) = await RunAsync(folder, "--version", cancellationToken).ConfigureAwait(false);
        if (code == 0)
        {
            Passed[key] = true;
            return;
        }
        var (_, listed) = await RunAsync(folder, "--list-sdks", cancellationToken).ConfigureAwait(false);
        throw new TplabException(ExitCodes.Environment, Describe(lines, listed, code));
    }

    /// <summary>The line for a failed <c>dotnet --version</c>: the global.json and the version it asks for, the SDKs installed.</summary>
    public static string Describe(IReadOnlyList<string> versionOutput, IReadOnlyList<string> listSdks, int? code)
    {
        string? After(string prefix) => versionOutput.Select(l => l.Trim()).FirstOrDefault(l => l.StartsWith(prefix, StringComparison.Ordinal))?[prefix.Length..].Trim();
        // "10.0.401 [/usr/share/dotnet/sdk]": the version is the first word.
        var installed = listSdks.Select(l => l.Trim()).Where(l => l.Length > 0 && char.IsAsciiDigit(l[0])).Select(l => l.Split(' ')[0]).ToList();
        var have = installed.Count > 0 ? "installed: " + string.Join(", ", installed) : "no SDK is installed";
        if (After(GlobalJson) is { } file && After(Requested) is { } version)
        {
            return $"{file} asks for the .NET SDK {version}, which is not installed ({have}): install it, or change global.json's sdk.version "
                + "(or its rollForward) to allow an installed one";
        }
        // The muxer's own message, not its stack: frames ("at X.Y(...)", "--- End of ...") and exception type names left out.
        var last = versionOutput.Select(l => l.Trim()).Where(l => l.Length > 0 && !l.StartsWith("at ", StringComparison.Ordinal) && !l.StartsWith("---", StringComparison.Ordinal))
            .Select(l => ExceptionName().Replace(l, "")).FirstOrDefault(l => l.Length > 0) ?? "no output";
        return string.Create(CultureInfo.InvariantCulture,
            $"dotnet could not resolve a .NET SDK here ({ExitWords.Describe(code)}: {last}; {have}); scan needs one to load the projects");
    }

    /// <summary>The global.json <c>dotnet</c> obeys in <paramref name="folder"/>: the nearest one up the folder chain.</summary>
    internal static string? Nearest(string folder)
    {
        for (var dir = new DirectoryInfo(Path.GetFullPath(folder)); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "global.json");
            if (File.Exists(candidate) || Directory.Exists(candidate))
            {
                return candidate;
            }
        }
        return null;
    }

    /// <summary>What the muxer's answer depends on in a folder: the global.json it obeys there as it is now, or none.</summary>
    private static string KeyOf(string? globalJson)
    {
        if (globalJson is null)
        {
            return "";
        }
        var file = new FileInfo(globalJson);
        return string.Create(CultureInfo.InvariantCulture, $"{file.FullName}|{file.Length}|{file.LastWriteTimeUtc.Ticks}");
    }

    /// <summary>A global.json the muxer can read: a regular JSON file of at most 1 MiB; else one usage line (exit 2) naming it.</summary>
    internal static void CheckReadable(string path)
    {
        var text = InputFile.ReadText(path, "global.json", InputLimit.GlobalJson);
        try
        {
            using var _ = JsonDocument.Parse(text, new JsonDocumentOptions { AllowTrailingCommas = true, CommentHandling = JsonCommentHandling.Skip, MaxDepth = 64 });
        }
        catch (JsonException e)
        {
            throw TplabException.Usage(string.Create(CultureInfo.InvariantCulture,
                $"{path}: not valid JSON at line {(e.LineNumber ?? 0) + 1}, so dotnet cannot start in this folder: correct or remove it"));
        }
    }

    [GeneratedRegex(@"^(?:[\w.]+Exception: )+")]
    private static partial Regex ExceptionName();

    private static async Task<(int? Code, IReadOnlyList<string> Lines)> RunAsync(string folder, string argument, CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo("dotnet") { WorkingDirectory = folder, ArgumentList = { argument } };
        info.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        info.Environment["DOTNET_NOLOGO"] = "1";
        await using var child = ChildProcess.Start(info, "dotnet", WhenTplabEnds.Kill);
        try
        {
            await child.Exited.WaitAsync(Bound, cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            throw new TplabException(ExitCodes.Environment, string.Create(CultureInfo.InvariantCulture,
                $"dotnet {argument} did not answer within {Bound.TotalSeconds:0} s in {folder}; scan needs it to load the projects (check the folder's global.json and the SDK install)"));
        }
        return (child.ExitCode, child.RecentOutput);
    }
}
