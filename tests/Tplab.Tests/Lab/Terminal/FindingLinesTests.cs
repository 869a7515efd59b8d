using Spectre.Console;
using Tplab.Lab.Experiments;
using Tplab.Lab.Findings;
using Tplab.Lab.Terminal;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab.Terminal;

/// <summary>A plan's checks are text the user gave: printed as written, never taken for terminal markup or control.</summary>
[ParallelSafe]
public sealed class FindingLinesTests
{
    [Theory]
    [InlineData("rule[red]", "warn[/]")] // markup that would take over the line
    [InlineData("[", "]")] // markup Spectre cannot parse: an internal error before
    [InlineData("bell\u0007", "esc\u001b[2J")] // control characters
    public void Write_RuleAndSeverityFromThePlan_PrintedAsText(string rule, string severity)
    {
        var output = new StringWriter { NewLine = "\n" };
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors, Interactive = InteractionSupport.No, Out = new AnsiConsoleOutput(output),
        });
        console.Profile.Width = 200;
        var check = new FindingCheck(rule, "GET /[x]", "App.A", "Task.Result", severity, null);

        FindingLines.Write(console, [new FindingResult(check, false, "a", FindingState.NotRun, "not run", null, null, null, null)]);

        var text = output.ToString();
        Assert.Contains($"{Tplab.Common.TerminalText.Escape(rule)}, {Tplab.Common.TerminalText.Escape(severity)}", text, StringComparison.Ordinal);
        Assert.DoesNotContain('\u001b', text);
        Assert.DoesNotContain('\u0007', text);
    }
}
