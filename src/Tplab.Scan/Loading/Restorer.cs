using System.Globalization;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Scan.Loading;

/// <summary>
/// Restores projects that have no restore output, as a developer would before opening them: MSBuildWorkspace does
/// not restore, and a project without its packages loses every call into them. <c>dotnet restore</c> runs with
/// <c>-nodeReuse:false</c> (no MSBuild node outlives it) in a guarded process group that ends with tplab, even on kill -9.
/// </summary>
internal static class Restorer
{
    /// <summary>The command line, for the one line that says what runs.</summary>
    public static string CommandFor(string target) => $"dotnet restore {Path.GetFileName(target)} -nodeReuse:false";

    /// <summary>Restores <paramref name="target"/> (a solution or project); the last lines of its output when it failed, else null.</summary>
    public static async Task<string?> RestoreAsync(string target, CancellationToken cancellationToken)
    {
        var folder = Path.GetDirectoryName(target)!;
        var commandLine = $"dotnet restore {Quote(target)} -nodeReuse:false --verbosity quiet -clp:ErrorsOnly -nologo";
        // Telemetry and the first-run banner would only add noise to the lines kept for an error message.
        var environment = new Dictionary<string, string>
        {
            ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
            ["DOTNET_NOLOGO"] = "1",
            ["MSBUILDDISABLENODEREUSE"] = "1",
        };
        await using var restore = await GuardedCommand.StartAsync(commandLine, folder, environment, "dotnet restore", cancellationToken).ConfigureAwait(false);
        await restore.Guardian.Exited.WaitAsync(cancellationToken).ConfigureAwait(false);
        var exited = restore.Guardian.RecentOutput.LastOrDefault(l => l.StartsWith(GuardedCommand.ExitedPrefix, StringComparison.Ordinal));
        var code = exited is null ? -1 : int.Parse(exited[GuardedCommand.ExitedPrefix.Length..], CultureInfo.InvariantCulture);
        if (code == 0)
        {
            return null;
        }
        var lines = restore.Guardian.RecentOutput.Where(l => !l.StartsWith("tplab-guardian:", StringComparison.Ordinal) && !string.IsNullOrWhiteSpace(l)).TakeLast(2);
        return $"exit code {code.ToString(CultureInfo.InvariantCulture)}: {string.Join(" | ", lines.Select(l => l.Trim()))}";
    }

    private static string Quote(string path) => "'" + path.Replace("'", "'\\''", StringComparison.Ordinal) + "'";
}
