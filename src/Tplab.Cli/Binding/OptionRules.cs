using System.CommandLine;
using System.CommandLine.Parsing;
using Tplab.Common;

namespace Tplab.Cli.Binding;

/// <summary>
/// Options that only mean something with another option, or not with it, refused at parse time in one line (exit 2)
/// rather than silently ignored: <c>--otlp-protocol</c> without <c>--otlp</c>, <c>--experiment</c> with <c>--plan</c>.
/// </summary>
internal static class OptionRules
{
    /// <summary><paramref name="option"/>, when given, needs one of <paramref name="anyOf"/> given too.</summary>
    public static Command Requires(this Command command, Option option, string why, params Option[] anyOf)
    {
        ArgumentNullException.ThrowIfNull(command);
        command.Validators.Add(r =>
        {
            if (Given(r, option) && !anyOf.Any(o => Given(r, o)))
            {
                r.AddError($"{option.Name} needs {string.Join(" or ", anyOf.Select(o => o.Name))}: {why}");
            }
        });
        return command;
    }

    /// <summary><paramref name="option"/> and <paramref name="other"/> do not go together.</summary>
    public static Command Excludes(this Command command, Option option, Option other, string why)
    {
        ArgumentNullException.ThrowIfNull(command);
        command.Validators.Add(r =>
        {
            if (Given(r, option) && Given(r, other))
            {
                r.AddError($"{option.Name} does not go with {other.Name}: {why}");
            }
        });
        return command;
    }

    /// <summary>A process id argument: a whole number above 0 (0 and negative numbers name no process; exit 2, not 5).</summary>
    public static Argument<int?> ProcessId(this Argument<int?> argument)
    {
        ArgumentNullException.ThrowIfNull(argument);
        argument.Validators.Add(r =>
        {
            if (r.Tokens.Count > 0 && NumberText.TryParseLong(r.Tokens[^1].Value, out var id) && id <= 0)
            {
                r.AddError($"{argument.Name} must be a process id (a whole number above 0), got '{r.Tokens[^1].Value}'");
            }
        });
        return argument;
    }

    // Given, and with a value that binds: a bad value is said first, as its own error.
    private static bool Given(CommandResult r, Option option) => r.GetResult(option) is { Implicit: false } o && Binds(o);

    private static bool Binds(OptionResult o)
    {
        try
        {
            o.GetValueOrDefault<object>();
            return true;
        }
        catch (InvalidOperationException)
        {
            return false;
        }
    }
}
