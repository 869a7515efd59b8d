using System.Diagnostics;
using System.Globalization;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Scan.Loading;

/// <summary>
/// Whether the .NET SDK the scanned folder asks for (its <c>global.json</c>) is installed, asked of <c>dotnet</c>
/// itself in that folder before anything loads: the restore and MSBuild's build host run <c>dotnet</c> there, and an
/// SDK that cannot be resolved otherwise surfaces as a build host failure deep in Roslyn. The muxer applies
/// <c>global.json</c>'s own rules (<c>rollForward</c>, <c>allowPrerelease</c>), so tplab does not re-implement them.
/// </summary>
internal static class SdkCheck
{
    private const string Requested = "Requested SDK version:";
    private const string GlobalJson = "global.json file:";

    /// <summary>Throws the one-line environment error (exit 3) when <c>dotnet</c> cannot resolve an SDK in <paramref name="folder"/>.</summary>
    public static async Task EnsureResolvableAsync(string folder, CancellationToken cancellationToken)
    {
        var (code, lines) = await RunAsync(folder, "--version", cancellationToken).ConfigureAwait(false);
        if (code == 0)
        {
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
        var last = versionOutput.Where(l => !string.IsNullOrWhiteSpace(l)).Select(l => l.Trim()).LastOrDefault() ?? "no output";
        return string.Create(CultureInfo.InvariantCulture,
            $"dotnet could not resolve a .NET SDK here ({ExitWords.Describe(code)}: {last}; {have}); scan needs one to load the projects");
    }

    private static async Task<(int? Code, IReadOnlyList<string> Lines)> RunAsync(string folder, string argument, CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo("dotnet") { WorkingDirectory = folder, ArgumentList = { argument } };
        info.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        info.Environment["DOTNET_NOLOGO"] = "1";
        await using var child = ChildProcess.Start(info, "dotnet", WhenTplabEnds.Kill);
        await child.Exited.WaitAsync(cancellationToken).ConfigureAwait(false);
        return (child.ExitCode, child.RecentOutput);
    }
}
