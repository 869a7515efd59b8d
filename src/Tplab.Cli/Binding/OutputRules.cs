using System.CommandLine;
using System.CommandLine.Parsing;
using System.Runtime.CompilerServices;
using Tplab.Common;

namespace Tplab.Cli.Binding;

/// <summary>
/// What each command writes and reads, declared beside its options, and checked once for every command before its
/// action runs (<see cref="CommandRunner"/>), so no output is forgotten: each output is a file in a folder that exists
/// (or a folder where a folder can be), not one of the command's inputs, not the same file as another output
/// (<see cref="OutputPaths"/>).
/// </summary>
internal static class OutputRules
{
    private sealed class Rules
    {
        public List<(Symbol Symbol, Func<string, string?> Map)> Files { get; } = [];
        public List<Symbol> Folders { get; } = [];
        public List<(Symbol Symbol, string What, Func<string, string?> Map)> Inputs { get; } = [];
        public List<Symbol> Projects { get; } = [];
    }

    private static readonly ConditionalWeakTable<Command, Rules> Table = [];

    /// <summary>The command writes the file named by <paramref name="symbol"/> (<paramref name="map"/> picks the path out of a value; null: no file).</summary>
    public static Command Writes(this Command command, Symbol symbol, Func<string, string?>? map = null)
    {
        Of(command).Files.Add((symbol, map ?? Stdout));
        return command;
    }

    /// <summary>The command writes into the folder named by <paramref name="symbol"/>.</summary>
    public static Command WritesFolder(this Command command, Symbol symbol)
    {
        Of(command).Folders.Add(symbol);
        return command;
    }

    /// <summary>The command reads the file named by <paramref name="symbol"/>, described as <paramref name="what"/> in errors.</summary>
    public static Command Reads(this Command command, Symbol symbol, string what, Func<string, string?>? map = null)
    {
        Of(command).Inputs.Add((symbol, what, map ?? (v => v)));
        return command;
    }

    /// <summary>The command reads the project (file or folder) named by <paramref name="symbol"/>, and its sources.</summary>
    public static Command ReadsProject(this Command command, Symbol symbol)
    {
        Of(command).Projects.Add(symbol);
        return command;
    }

    /// <summary>Checks the outputs of the parsed command; throws a <see cref="TplabException"/> (exit 2 or 8) naming the one at fault.</summary>
    public static void Check(ParseResult parsed)
    {
        ArgumentNullException.ThrowIfNull(parsed);
        if (!Table.TryGetValue(parsed.CommandResult.Command, out var rules))
        {
            return;
        }
        foreach (var folder in rules.Folders)
        {
            foreach (var path in Values(parsed, folder))
            {
                OutputPaths.CheckFolder(Name(folder), path);
            }
        }
        var outputs = rules.Files.SelectMany(f => Values(parsed, f.Symbol).Select(f.Map).OfType<string>().Select(p => (Name(f.Symbol), p))).ToList();
        var inputs = rules.Inputs.SelectMany(i => Values(parsed, i.Symbol).Select(i.Map).OfType<string>().Select(p => (i.What, p))).ToList();
        var projects = rules.Projects.SelectMany(p => Values(parsed, p)).ToList();
        OutputPaths.Check(outputs, inputs, projects);
    }

    // '-' is standard output, not a file.
    private static string? Stdout(string value) => value == "-" ? null : value;

    private static Rules Of(Command command) => Table.GetOrCreateValue(command);

    private static string Name(Symbol symbol) => symbol.Name;

    private static IEnumerable<string> Values(ParseResult parsed, Symbol symbol)
    {
        var value = symbol switch
        {
            Option o => parsed.GetResult(o)?.GetValueOrDefault<object>(),
            Argument a => parsed.GetResult(a)?.GetValueOrDefault<object>(),
            _ => null,
        };
        return value switch
        {
            string s => [s],
            string[] many => many,
            _ => [],
        };
    }
}
