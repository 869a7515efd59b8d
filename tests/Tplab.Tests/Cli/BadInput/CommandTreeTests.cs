using System.CommandLine;
using System.CommandLine.Completions;
using System.CommandLine.Parsing;
using System.Globalization;
using Tplab.Cli;
using Tplab.Cli.Binding;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli.BadInput;

/// <summary>
/// The bad-input tables cannot fall behind the command tree: every option and argument of every command has a row,
/// every numeric option reads the invariant culture and refuses generated bad values in one line, and every choice
/// word binds in any case under tr-TR. A command or option added without rows fails here.
/// </summary>
[ParallelSafe]
public sealed class CommandTreeTests
{
    private static readonly CultureInfo Turkish = CultureInfo.GetCultureInfo("tr-TR");

    /// <summary>Every row of the five families' tables.</summary>
    private static IEnumerable<string> AllRows() =>
        new[] { LoadBadInputTests.Rows, LabBadInputTests.Rows, WatchBadInputTests.Rows, ServeBadInputTests.Rows, ScanBadInputTests.Rows, FixBadInputTests.Rows, RootBadInputTests.Rows }
            .SelectMany(t => t).Select(r => (string)r[0]);

    [Fact]
    public void EveryOptionAndArgument_HasABadInputRow()
    {
        var covered = new HashSet<string>(StringComparer.Ordinal);
        foreach (var row in AllRows())
        {
            var parsed = TplabCommand.Create().Parse(BadInputTable.Split(row.Replace("{tmp}", "/tmp/x", StringComparison.Ordinal)));
            for (SymbolResult? r = parsed.CommandResult; r is not null; r = r.Parent)
            {
                if (r is CommandResult c)
                {
                    var path = UsageMessage.Path(c);
                    covered.Add(path);
                    foreach (var child in c.Children)
                    {
                        if (child is OptionResult { Implicit: false } o)
                        {
                            covered.Add($"{path} {o.Option.Name}");
                        }
                        else if (child is ArgumentResult { Tokens.Count: > 0 } a)
                        {
                            covered.Add($"{path} <{a.Argument.Name}>");
                        }
                    }
                }
            }
        }
        var missing = Symbols(TplabCommand.Create()).Where(s => !covered.Contains(s)).ToList();
        Assert.True(missing.Count == 0, "no bad-input row for: " + string.Join("; ", missing));
    }

    public static TheoryData<string, string, string> GeneratedBadValues()
    {
        var rows = new TheoryData<string, string, string>();
        foreach (var (command, option) in Options(TplabCommand.Create()))
        {
            var type = Nullable.GetUnderlyingType(option.ValueType) ?? option.ValueType;
            string[] bad = type == typeof(int) || type == typeof(long) ? ["abc", "1.5", "1,5", "1,000", "99999999999999999999", "0x10"]
                : type == typeof(double) ? ["abc", "2,5", "1.000,5", "NaN", "Infinity", "1e400"]
                : Choices(option).Count > 0 ? ["bogus", "", "j son"]
                : [];
            foreach (var value in bad)
            {
                rows.Add(command, option.Name, value);
            }
        }
        return rows;
    }

    [Theory]
    [MemberData(nameof(GeneratedBadValues))]
    public void GeneratedBadValue_ForEachOptionType_OneLineNamingOptionAndValue(string command, string option, string value)
    {
        foreach (var culture in InProcessCli.Cultures)
        {
            var parsed = InCulture(culture, () => TplabCommand.Create().Parse([.. command.Split(' ').Skip(1), option, value]));
            Assert.NotEmpty(parsed.Errors);
            var message = UsageMessage.For(parsed);
            var where = $"{command} {option} '{value}' [{culture.Name}]: {message}";
            Assert.DoesNotContain('\n', message);
            Assert.True(message.Contains(option, StringComparison.Ordinal) && message.Contains($"'{value}'", StringComparison.Ordinal), where);
            Assert.DoesNotContain("System.", message, StringComparison.Ordinal);
        }
    }

    public static TheoryData<string, string, string, string> NumbersRead()
    {
        var rows = new TheoryData<string, string, string, string>();
        foreach (var (command, option) in Options(TplabCommand.Create()))
        {
            var type = Nullable.GetUnderlyingType(option.ValueType) ?? option.ValueType;
            if (type == typeof(double))
            {
                rows.Add(command, option.Name, "2.5", "2.5");
                rows.Add(command, option.Name, "1.000", "1");
                rows.Add(command, option.Name, "1e3", "1000");
            }
            else if (type == typeof(int) || type == typeof(long))
            {
                rows.Add(command, option.Name, "1000", "1000");
                rows.Add(command, option.Name, "-3", "-3");
            }
        }
        return rows;
    }

    [Theory]
    [MemberData(nameof(NumbersRead))]
    public void Number_UnderEveryCulture_MeansWhatItMeansInvariantly(string command, string option, string text, string expected)
    {
        foreach (var culture in InProcessCli.Cultures)
        {
            var parsed = InCulture(culture, () => TplabCommand.Create().Parse([.. command.Split(' ').Skip(1), option, text]));
            var value = parsed.GetResult(option) is OptionResult r ? r.GetValueOrDefault<object>() : null;
            Assert.True(value is not null && Convert.ToDouble(value, CultureInfo.InvariantCulture) == double.Parse(expected, CultureInfo.InvariantCulture),
                $"{command} {option} {text} [{culture.Name}]: read as {value}, expected {expected}");
        }
    }

    public static TheoryData<string, string, string> ChoiceWords()
    {
        var rows = new TheoryData<string, string, string>();
        foreach (var (command, option) in Options(TplabCommand.Create()))
        {
            foreach (var word in Choices(option))
            {
                rows.Add(command, option.Name, word);
            }
        }
        return rows;
    }

    [Theory]
    [MemberData(nameof(ChoiceWords))]
    public void ChoiceWord_InAnyCaseUnderTurkish_BindsTheListedWord(string command, string option, string word)
    {
        // Turkish upper-cases i to İ and lower-cases I to ı: a culture-bound comparison would miss "JSON" for json.
        foreach (var text in new[] { word, word.ToUpperInvariant(), word.ToUpper(Turkish), " " + word.ToUpperInvariant() })
        {
            var parsed = InCulture(Turkish, () => TplabCommand.Create().Parse([.. command.Split(' ').Skip(1), option, text]));
            // The word's own binding errors; a rule of the command (--otlp-protocol needs --otlp) is another row's matter.
            var errors = parsed.Errors.Where(e => e.SymbolResult is not CommandResult && e.Message.Contains(option, StringComparison.Ordinal)).Select(e => e.Message).ToList();
            Assert.True(errors.Count == 0 && parsed.GetResult(option) is OptionResult r && Equals(r.GetValueOrDefault<object>(), word),
                $"{command} {option} '{text}' under tr-TR: {string.Join("; ", errors)}");
        }
    }

    private static T InCulture<T>(CultureInfo culture, Func<T> run)
    {
        var before = CultureInfo.CurrentCulture;
        try
        {
            CultureInfo.CurrentCulture = culture;
            return run();
        }
        finally
        {
            CultureInfo.CurrentCulture = before;
        }
    }

    private static IReadOnlyList<string> Choices(Option option) =>
        option.ValueType == typeof(string) ? [.. option.GetCompletions(CompletionContext.Empty).Select(c => c.Label)] : [];

    private static IEnumerable<(string Command, Option Option)> Options(Command command, string path = "tplab")
    {
        foreach (var option in command.Options.Where(o => o.ValueType != typeof(void)))
        {
            yield return (path, option);
        }
        foreach (var sub in command.Subcommands)
        {
            foreach (var o in Options(sub, $"{path} {sub.Name}"))
            {
                yield return o;
            }
        }
    }

    private static IEnumerable<string> Symbols(Command command, string path = "tplab")
    {
        yield return path;
        foreach (var option in command.Options.Where(o => o.ValueType != typeof(void)))
        {
            yield return $"{path} {option.Name}";
        }
        foreach (var argument in command.Arguments)
        {
            yield return $"{path} <{argument.Name}>";
        }
        foreach (var sub in command.Subcommands)
        {
            foreach (var s in Symbols(sub, $"{path} {sub.Name}"))
            {
                yield return s;
            }
        }
    }
}
