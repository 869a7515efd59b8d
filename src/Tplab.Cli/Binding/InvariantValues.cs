using System.CommandLine;
using System.CommandLine.Parsing;
using Tplab.Common;

namespace Tplab.Cli.Binding;

/// <summary>
/// One way the command line's numbers are read: every numeric option and argument of the tree gets a parser that
/// reads the invariant culture (<see cref="NumberText"/>) and fails in one line naming the option. System.CommandLine's
/// own conversion reads the current culture (under de-DE, <c>--rate 2.5</c> was 25) and, in any culture, takes
/// <c>2,5</c> for 25; its error names CLR types (<c>System.Nullable`1[System.Int64]</c>). Applied once to the whole
/// tree, so an option added later is covered without anyone remembering to; a value type with no parser here fails
/// at start-up (and in the tests), rather than falling back to the culture-bound one.
/// </summary>
internal static class InvariantValues
{
    /// <summary>Sets the parser of every numeric option and argument under <paramref name="command"/>.</summary>
    public static void Apply(Command command)
    {
        foreach (var option in command.Options)
        {
            Apply(option);
        }
        foreach (var argument in command.Arguments)
        {
            Apply(argument);
        }
        foreach (var sub in command.Subcommands)
        {
            Apply(sub);
        }
    }

    private static void Apply(Symbol symbol)
    {
        switch (symbol)
        {
            case Option<int> o when o.CustomParser is null:
                o.CustomParser = r => Int(r) ?? 0;
                break;
            case Option<int?> o when o.CustomParser is null:
                o.CustomParser = Int;
                break;
            case Option<long?> o when o.CustomParser is null:
                o.CustomParser = Long;
                break;
            case Option<double> o when o.CustomParser is null:
                o.CustomParser = r => Double(r) ?? 0;
                break;
            case Option<double?> o when o.CustomParser is null:
                o.CustomParser = Double;
                break;
            case Argument<int?> a when a.CustomParser is null:
                a.CustomParser = Int;
                break;
            case Option<int> or Option<int?> or Option<long?> or Option<double> or Option<double?> or Argument<int?>:
                break;
            case Option o when !IsText(o.ValueType):
                throw new InvalidOperationException($"{o.Name}: no invariant parser for {o.ValueType.Name}; add one to {nameof(InvariantValues)}");
            case Argument a when !IsText(a.ValueType):
                throw new InvalidOperationException($"{a.Name}: no invariant parser for {a.ValueType.Name}; add one to {nameof(InvariantValues)}");
        }
    }

    private static bool IsText(Type type) => type == typeof(string) || type == typeof(string[]) || type == typeof(bool) || type == typeof(void);

    private static int? Int(ArgumentResult r) => Long(r) is long v
        ? v is >= int.MinValue and <= int.MaxValue ? (int)v : Error<int?>(r, $"{Name(r)} is out of range, got '{Text(r)}'")
        : null;

    private static long? Long(ArgumentResult r) =>
        NumberText.TryParseLong(Text(r), out var v) ? v : Error<long?>(r, NumberText.NotANumber(Name(r), Text(r), whole: true));

    private static double? Double(ArgumentResult r) =>
        NumberText.TryParseDouble(Text(r), out var v) ? v : Error<double?>(r, NumberText.NotANumber(Name(r), Text(r), whole: false));

    private static T? Error<T>(ArgumentResult r, string message)
    {
        r.AddError(message);
        return default;
    }

    private static string Text(ArgumentResult r) => r.Tokens.Count > 0 ? r.Tokens[^1].Value : "";

    /// <summary>The option's name (<c>--rate</c>) or the argument's (<c>PID</c>), as the user sees it in help.</summary>
    internal static string Name(ArgumentResult r) => r.Parent is OptionResult o ? o.Option.Name : r.Argument.Name;
}
