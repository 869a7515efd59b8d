using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli.BadInput;

/// <summary><c>tplab serve</c> and <c>downstream</c> refuse bad input before starting a process: one line naming it, its exit code.</summary>
[ParallelSafe]
public sealed class ServeBadInputTests
{
    public static TheoryData<string, int, string> Rows => new()
    {
        { "serve --port 70000", ExitCodes.Usage, "--port" },
        { "serve --port -1", ExitCodes.Usage, "--port" },
        { "serve --port abc", ExitCodes.Usage, "'abc'" },
        { "serve --port 50,00", ExitCodes.Usage, "'50,00'" },
        { "serve --port", ExitCodes.Usage, "--port" },
        { "serve --min-threads 0", ExitCodes.Usage, "--min-threads" },
        { "serve --min-threads 2.5", ExitCodes.Usage, "'2.5'" },
        { "serve --knob NoEquals", ExitCodes.Usage, "NoEquals" },
        { "serve --knob '=1'", ExitCodes.Usage, "=1" },
        { "serve --downstream ftp://x", ExitCodes.Usage, "ftp://x" },
        { "serve --downstream not-a-url", ExitCodes.Usage, "not-a-url" },
        { "serve --pg", ExitCodes.Usage, "--pg" },
        { "serve --no-db=maybe", ExitCodes.Usage, "'maybe'" },
        { "serve --prot 5000", ExitCodes.Usage, "'--prot'" },
        { "downstream --port 70000", ExitCodes.Usage, "--port" },
        { "downstream --port -5", ExitCodes.Usage, "--port" },
        { "downstream --port 1.5", ExitCodes.Usage, "'1.5'" },
        { "downstream extra", ExitCodes.Usage, "'extra'" },
    };

    [Theory]
    [MemberData(nameof(Rows))]
    public Task BadInput_OneLineItsExitCodeNothingWritten(string line, int code, string names) => BadInputTable.AssertRefusedAsync(line, code, names);
}
