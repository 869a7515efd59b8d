using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli.BadInput;

/// <summary><c>tplab watch</c>, <c>ps</c> and <c>diagnose</c> refuse bad input before attaching: one line naming it, its exit code, nothing written.</summary>
[ParallelSafe]
public sealed class WatchBadInputTests
{
    public static TheoryData<string, int, string> Rows => new()
    {
        // which process
        { "watch abc", ExitCodes.Usage, "'abc'" },
        { "watch -5", ExitCodes.Usage, "'-5'" },
        { "watch 0", ExitCodes.Usage, "'0'" },
        { "watch 1 abc", ExitCodes.Usage, "'1 abc'" },
        // several pids: a refusal each does not end the watch, but none left is one line naming each
        { "watch 1 2", ExitCodes.NoProcess, "none of the processes could be watched: pid 1: " },
        { "watch 1 --all", ExitCodes.Usage, "--all" },
        { "watch", ExitCodes.Usage, "process id" },
        { "watch --", ExitCodes.Usage, "--" },
        { "watch 1 --from {tmp}/saved.jsonl", ExitCodes.Usage, "--from" },
        // numbers and durations, the invariant culture
        { "watch 1 --interval 1,5s", ExitCodes.Usage, "'1,5s'" },
        { "watch 1 --interval 0.1s", ExitCodes.Usage, "--interval" },
        { "watch 1 --interval 2h", ExitCodes.Usage, "--interval" },
        { "watch 1 --duration -1s", ExitCodes.Usage, "'-1s'" },
        { "watch 1 --duration whenever", ExitCodes.Usage, "'whenever'" },
        // words
        { "watch 1 --format xml", ExitCodes.Usage, "'xml'" },
        { "watch 1 --fail-on hungry", ExitCodes.Usage, "'hungry'" },
        // options that need another, or do not apply
        { "watch 1 --otlp-protocol grpc", ExitCodes.Usage, "--otlp-protocol needs --otlp" },
        { "watch 1 --on-starving diagnose={tmp}/missing/dir/x.json", ExitCodes.OutputFailed, "does not exist" },
        { "watch 1 --on-starving diagnose={tmp}/results", ExitCodes.OutputFailed, "it is a folder, not a file" },
        { "watch 1 -o {tmp}/results", ExitCodes.OutputFailed, "it is a folder, not a file" },
        { "watch --from {tmp}/saved.jsonl -o {tmp}/saved.jsonl", ExitCodes.Usage, "is the --from file" },
        { "watch 1 --service shop", ExitCodes.Usage, "--service needs --otlp or --prometheus" },
        { "watch 1 --on-starving panic", ExitCodes.Usage, "panic" },
        { "watch 1 --name", ExitCodes.Usage, "--name" },
        { "watch 1 --delay bogus", ExitCodes.Usage, "'bogus'" },
        { "watch 1 --otlp-protocol json", ExitCodes.Usage, "'json'" },
        { "watch 1 --service", ExitCodes.Usage, "--service" },
        { "watch -n app --all --format html -o {tmp}/w.html", ExitCodes.Usage, "--format html" },
        // exporters: their addresses are checked before attaching
        { "watch 1 --prometheus nonsense", ExitCodes.Usage, "'nonsense'" },
        { "watch 1 --prometheus 127.0.0.1:99999", ExitCodes.Usage, "'127.0.0.1:99999'" },
        { "watch 1 --otlp ftp://x", ExitCodes.Usage, "'ftp://x/'" },
        // files: read or opened before attaching
        { "watch --from {tmp}/missing.jsonl --format csv", ExitCodes.Usage, "missing.jsonl" },
        { "watch 1 -o {tmp}/no/such/folder/w.jsonl", ExitCodes.OutputFailed, "{tmp}/no/such/folder/w.jsonl" },
        { "watch 1 --format jsonl -o {tmp}", ExitCodes.OutputFailed, "{tmp}" },
        // ps
        { "ps --sample 0.1s", ExitCodes.Usage, "--sample" },
        { "ps --sample 2m", ExitCodes.Usage, "--sample" },
        { "ps --sample 1,5s", ExitCodes.Usage, "'1,5s'" },
        { "ps extra", ExitCodes.Usage, "'extra'" },
        // diagnose
        { "diagnose abc", ExitCodes.Usage, "'abc'" },
        { "diagnose 1,5", ExitCodes.Usage, "'1,5'" },
        { "diagnose 0", ExitCodes.Usage, "'0'" }, // a process id is above 0: exit 2 as docs/exit-codes.md says, not 5
        { "diagnose -5", ExitCodes.Usage, "'-5'" },
        { "diagnose", ExitCodes.Usage, "PID" },
        { "diagnose 1 --duration 1,5s", ExitCodes.Usage, "'1,5s'" },
        { "diagnose 1 --duration 100ms", ExitCodes.Usage, "--duration" },
        { "diagnose 1 --duration 3m", ExitCodes.Usage, "--duration" },
        { "diagnose 1 --format xml", ExitCodes.Usage, "'xml'" },
        { "diagnose --trace {tmp}/missing.nettrace", ExitCodes.Usage, "missing.nettrace" },
        { "diagnose --dump {tmp}/missing.dmp", ExitCodes.Usage, "missing.dmp" },
        { "diagnose 1 --keep-trace", ExitCodes.Usage, "--keep-trace" },
        { "diagnose 1 -n app", ExitCodes.Usage, "PID" },
    };

    [Theory]
    [MemberData(nameof(Rows))]
    public Task BadInput_OneLineItsExitCodeNothingWritten(string line, int code, string names) => BadInputTable.AssertRefusedAsync(line, code, names);
}
