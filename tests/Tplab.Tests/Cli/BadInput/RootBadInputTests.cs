using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli.BadInput;

/// <summary>The <c>tplab</c> command itself: unknown commands and options are one line naming the word and what exists.</summary>
[ParallelSafe]
public sealed class RootBadInputTests
{
    public static TheoryData<string, int, string> Rows => new()
    {
        { "frobnicate", ExitCodes.Usage, "'frobnicate'" },
        { "Run", ExitCodes.Usage, "did you mean run?" },
        { "lod http://127.0.0.1:9/", ExitCodes.Usage, "did you mean load?" },
        { "", ExitCodes.Usage, "give a command" },
        { "--bogus", ExitCodes.Usage, "'--bogus'" },
        { "-x", ExitCodes.Usage, "'-x'" },
        { "'' serve", ExitCodes.Usage, "''" },
    };

    [Theory]
    [MemberData(nameof(Rows))]
    public Task BadInput_OneLineItsExitCodeNothingWritten(string line, int code, string names) => BadInputTable.AssertRefusedAsync(line, code, names);
}
