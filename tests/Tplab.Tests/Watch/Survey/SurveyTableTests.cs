using Spectre.Console;
using Tplab.Tests.Support;
using Tplab.Watch.Survey;

namespace Tplab.Tests.Watch.Survey;

/// <summary><c>tplab ps</c>'s table on a narrow terminal beside a process whose verdict carries a long reason.</summary>
[ParallelSafe]
public sealed class SurveyTableTests
{
    [Fact]
    public void Render_LongReasonOnANarrowTerminal_EveryPidWhole()
    {
        var output = new StringWriter { NewLine = "\n" };
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors, Interactive = InteractionSupport.No, Out = new AnsiConsoleOutput(output),
        });
        console.Profile.Width = 80;
        var rows = new[]
        {
            new SurveyedProcess(1234567, "Orders.Api", new Version(10, 0, 0), 12, 0, "healthy", null),
            new SurveyedProcess(7654321, "Stalled", null, null, null, "unknown", "the diagnostic socket did not answer in 2 s: " + new string('x', 120)),
        };

        console.Write(SurveyTable.Render(rows));

        var lines = output.ToString().Split('\n');
        Assert.Single(lines, l => l.TrimStart().StartsWith("1234567 ", StringComparison.Ordinal));
        Assert.Single(lines, l => l.TrimStart().StartsWith("7654321 ", StringComparison.Ordinal));
    }
}
