using System.CommandLine;
using System.CommandLine.Parsing;
using System.Text.RegularExpressions;

namespace Tplab.Cli.Binding;

/// <summary>
/// A command line that does not parse, said in one line: the word at fault, what is allowed there, and where the
/// help is. Unknown words come first (a misspelt option usually causes the other errors), then bad values, then
/// what is missing.
/// </summary>
internal static partial class UsageMessage
{
    /// <summary>The one line for a parse result with errors (without the <c>tplab: </c> prefix).</summary>
    public static string For(ParseResult parsed)
    {
        ArgumentNullException.ThrowIfNull(parsed);
        var command = parsed.CommandResult.Command;
        var path = Path(parsed.CommandResult);
        string message;
        var given = parsed.CommandResult.Children.OfType<OptionResult>().Where(o => !o.Implicit).ToList();
        if (parsed.UnmatchedTokens.Count > 0)
        {
            message = Unknown(command, parsed.UnmatchedTokens[0], path);
        }
        else if (given.FirstOrDefault(o => o.Tokens.Count == 0 && o.Option.Arity.MinimumNumberOfValues > 0) is { } empty)
        {
            message = $"{empty.Option.Name} needs a value: {Sentence(empty.Option.Description)}";
        }
        else if (parsed.Errors.FirstOrDefault(e => e.SymbolResult is ArgumentResult { Tokens.Count: > 0 } or OptionResult { Tokens.Count: > 0 }) is { } value)
        {
            message = OneLine(value.Message);
        }
        else if (command is RootCommand && parsed.Errors.Count > 0 && parsed.Tokens.Count == 0)
        {
            return $"give a command: {Names(command)} (tplab --help describes them)";
        }
        else if (command.Options.FirstOrDefault(o => o.Required && !given.Any(g => g.Option == o)) is { } required)
        {
            message = $"{path} needs {required.Name}: {Sentence(required.Description)}";
        }
        else if (command.Arguments.FirstOrDefault(a => a.Arity.MinimumNumberOfValues > 0 && parsed.GetResult(a) is not { Tokens.Count: > 0 }) is { } argument)
        {
            var names = string.Join(' ', command.Arguments.Where(a => a.Arity.MinimumNumberOfValues > 0).Select(a => a.Name));
            message = $"{path} needs {names}: {argument.Name} is missing ({Sentence(argument.Description)})";
        }
        else
        {
            message = parsed.Errors.Count > 0 ? OneLine(parsed.Errors[0].Message) : "bad command line";
        }
        return $"{message} (see {path} --help)";
    }

    private static string Unknown(Command command, string token, string path)
    {
        if (token.StartsWith('-') && token.Length > 1 && !char.IsAsciiDigit(token[1]))
        {
            var name = token.Split('=', 2)[0];
            var options = command.Options.Where(o => !o.Hidden).SelectMany(o => o.Aliases.Prepend(o.Name)).ToList();
            return $"unknown option '{name}' for {path}{Suggest(name, options)}";
        }
        if (command is RootCommand)
        {
            return $"unknown command '{token}' (commands: {Names(command)}){Suggest(token, [.. command.Subcommands.Select(c => c.Name)])}";
        }
        return command.Subcommands.Count > 0 && command.Arguments.Count == 0
            ? $"unknown command '{token}' for {path} (commands: {Names(command)})"
            : $"unexpected argument '{token}' for {path}";
    }

    private static string Sentence(string? description) =>
        string.IsNullOrWhiteSpace(description) ? "see the help" : OneLine(description);

    private static string Names(Command command) => string.Join(", ", command.Subcommands.Where(c => !c.Hidden).Select(c => c.Name));

    // The nearest known word within two edits (a typo, a missing dash, the wrong case), as git and dotnet suggest.
    private static string Suggest(string word, IReadOnlyList<string> known)
    {
        var best = known.Select(k => (Word: k, Distance: Distance(word.ToLowerInvariant(), k.ToLowerInvariant())))
            .Where(c => c.Distance <= 2).OrderBy(c => c.Distance).FirstOrDefault();
        return best.Word is null ? "" : $"; did you mean {best.Word}?";
    }

    private static int Distance(string a, string b)
    {
        var row = Enumerable.Range(0, b.Length + 1).ToArray();
        for (var i = 1; i <= a.Length; i++)
        {
            var diagonal = row[0];
            row[0] = i;
            for (var j = 1; j <= b.Length; j++)
            {
                var above = row[j];
                row[j] = Math.Min(Math.Min(row[j] + 1, row[j - 1] + 1), diagonal + (a[i - 1] == b[j - 1] ? 0 : 1));
                diagonal = above;
            }
        }
        return row[b.Length];
    }

    /// <summary>The command as typed: <c>tplab load merge</c>.</summary>
    internal static string Path(CommandResult result)
    {
        var names = new List<string>();
        for (SymbolResult? r = result; r is not null; r = r.Parent)
        {
            if (r is CommandResult c)
            {
                names.Insert(0, c.Command is RootCommand ? "tplab" : c.Command.Name);
            }
        }
        return string.Join(' ', names);
    }

    // System.CommandLine's messages put a list on several lines: one line, whatever the source.
    private static string OneLine(string message) => Whitespace().Replace(message, " ").Trim().TrimEnd('.');

    [GeneratedRegex(@"\s+")]
    private static partial Regex Whitespace();
}
