using Tplab.Common;

namespace Tplab.Launch.Service;

/// <summary>
/// A command of the form <c>dotnet APP.dll [args]</c>: the one form whose runtime settings tplab can change the way a
/// project does, by launching the same app with <c>dotnet exec --runtimeconfig</c> and a generated runtimeconfig.json.
/// </summary>
public sealed record DotnetCommand(string Host, string Dll, IReadOnlyList<string> Arguments)
{
    /// <summary>The parts of <paramref name="command"/>, or null when it is not a plain <c>dotnet APP.dll</c> line.</summary>
    public static DotnetCommand? TryParse(string? command)
    {
        if (command is null || command.IndexOfAny(['"', '\'', '\\', '$', '`', ';', '&', '|', '<', '>']) >= 0)
        {
            return null;
        }
        var words = command.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return words.Length >= 2 && Path.GetFileName(words[0]) is "dotnet" or "dotnet.exe" && words[1].EndsWith(".dll", StringComparison.OrdinalIgnoreCase)
            ? new DotnetCommand(words[0], words[1], words[2..])
            : null;
    }

    /// <summary>
    /// The same launch with <paramref name="knobs"/> added to the app's runtimeconfig.json (a generated copy; the
    /// app's own file is not touched).
    /// </summary>
    public string WithRuntimeConfig(string workingDirectory, IEnumerable<KeyValuePair<string, string>> knobs)
    {
        var dll = Path.GetFullPath(Dll, workingDirectory);
        var stem = dll[..^".dll".Length];
        var baseConfig = stem + ".runtimeconfig.json";
        if (!File.Exists(baseConfig))
        {
            throw TplabException.Usage($"service: {baseConfig} not found: runtime settings need the app's runtimeconfig.json next to {Dll}");
        }
        var generated = RuntimeConfigWriter.Write(baseConfig, knobs);
        var deps = File.Exists(stem + ".deps.json") ? $" --depsfile {Quote(stem + ".deps.json")}" : "";
        var rest = Arguments.Count > 0 ? " " + string.Join(' ', Arguments) : "";
        return $"{Host} exec --runtimeconfig {Quote(generated)}{deps} {Quote(dll)}{rest}";
    }

    private static string Quote(string s) => "'" + s.Replace("'", "'\\''", StringComparison.Ordinal) + "'";
}
