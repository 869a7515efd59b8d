using System.Text.RegularExpressions;

namespace Tplab.Processes;

/// <summary>
/// The .NET runtime version of a process, read from the path of the libcoreclr.so it mapped
/// (…/Microsoft.NETCore.App/10.0.0/libcoreclr.so). Null when unknown: self-contained and single-file apps
/// carry no version in the path, and another user's maps are unreadable. The one place tplab tells versions.
/// </summary>
public static partial class RuntimeVersion
{
    /// <summary>The oldest runtime with EventPipe attach (diagnostic IPC): .NET Core 3.0.</summary>
    public static readonly Version EventPipe = new(3, 0);

    /// <summary>The oldest runtime that honours DOTNET_DiagnosticPorts with suspend (watching from start-up): .NET 5.</summary>
    public static readonly Version StartupSuspend = new(5, 0);

    /// <summary>The oldest runtime with CooperativeBlocking injections (reason 8): .NET 6.</summary>
    public static readonly Version CooperativeBlocking = new(6, 0);

    /// <summary>The runtime version of <paramref name="processId"/>, or null when it cannot be told.</summary>
    public static Version? Of(int processId) => ProcessFiles.Maps(processId) is { } maps ? FromMaps(maps) : null;

    /// <summary>The version in the first mapped libcoreclr.so path, or null.</summary>
    public static Version? FromMaps(IEnumerable<string> mapsLines)
    {
        foreach (var line in mapsLines)
        {
            if (!line.EndsWith("libcoreclr.so", StringComparison.Ordinal))
            {
                continue;
            }
            var match = VersionInPath().Match(line);
            return match.Success && Version.TryParse(match.Groups[1].Value, out var v) ? v : null;
        }
        return null;
    }

    /// <summary>Whether the process has a CoreCLR mapped at all (null when the maps cannot be read).</summary>
    public static bool? HasCoreClr(int processId) =>
        ProcessFiles.Maps(processId) is { } maps ? maps.Any(l => l.EndsWith("libcoreclr.so", StringComparison.Ordinal)) : null;

    [GeneratedRegex(@"/Microsoft\.NETCore\.App/(\d+\.\d+\.\d+)[^/]*/libcoreclr\.so$")]
    private static partial Regex VersionInPath();
}
