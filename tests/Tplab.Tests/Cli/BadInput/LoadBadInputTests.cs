using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli.BadInput;

/// <summary><c>tplab load</c> and <c>load merge</c> refuse bad input before sending anything: one line naming it, its exit code, nothing written.</summary>
[ParallelSafe]
public sealed class LoadBadInputTests
{
    private const string Url = "http://127.0.0.1:9/";

    public static TheoryData<string, int, string> Rows => new()
    {
        // numbers: the invariant culture whatever the locale; a comma is neither a decimal point nor a thousands separator
        { $"load {Url} --rate 2,5 --duration 1s", ExitCodes.Usage, "'2,5'" },
        { $"load {Url} -n 1,000", ExitCodes.Usage, "'1,000'" },
        { $"load {Url} -n 1.5", ExitCodes.Usage, "'1.5'" },
        { $"load {Url} -n abc", ExitCodes.Usage, "'abc'" },
        { $"load {Url} -n 99999999999999999999", ExitCodes.Usage, "'99999999999999999999'" },
        { $"load {Url} --rate NaN --duration 1s", ExitCodes.Usage, "'NaN'" },
        { $"load {Url} --rate Infinity --duration 1s", ExitCodes.Usage, "'Infinity'" },
        // a load that would send nothing is refused, not reported as a run
        { $"load {Url} --rate 1e-9 --duration 1s", ExitCodes.Usage, "plans no request" },
        { $"load {Url} --stage 1s:0", ExitCodes.Usage, "the stages plan no request" },
        { $"load {Url} --search-step 1,5 --search 1..10 --threshold p99<1s --duration 1s", ExitCodes.Usage, "'1,5'" },
        { $"load {Url} --duration 1,5s", ExitCodes.Usage, "'1,5s'" },
        { $"load {Url} --ramp-up 1,5s -n 1", ExitCodes.Usage, "'1,5s'" },
        { $"load {Url} --stage 1s:2,5", ExitCodes.Usage, "1s:2,5" },
        { $"load {Url} --threshold p99<1,5s -n 1", ExitCodes.Usage, "1,5s" },
        { $"load {Url} --search 1,5..10 --threshold p99<1s --duration 1s", ExitCodes.Usage, "1,5..10" },
        // ranges, checked before anything is sent
        { $"load {Url} -c 0 -n 1", ExitCodes.Usage, "--concurrency" },
        { $"load {Url} -c 10001 -n 10001", ExitCodes.Usage, "--concurrency" },
        { $"load {Url} -n 0", ExitCodes.Usage, "--requests" },
        { $"load {Url} -n -5", ExitCodes.Usage, "--requests" },
        { $"load {Url} --rate 0 --duration 1s", ExitCodes.Usage, "--rate" },
        { $"load {Url} --rate -1 --duration 1s", ExitCodes.Usage, "--rate" },
        { $"load {Url} --rate 1e9 --duration 1s", ExitCodes.Usage, "--rate" },
        { $"load {Url} --rate 10", ExitCodes.Usage, "--duration" },
        { $"load {Url} --duration 0s", ExitCodes.Usage, "--duration" },
        { $"load {Url} --duration -1s", ExitCodes.Usage, "'-1s'" },
        { $"load {Url} --duration 25h", ExitCodes.Usage, "--duration" },
        { $"load {Url} --timeout 0s -n 1", ExitCodes.Usage, "--timeout" },
        { $"load {Url} --warmup soon -n 1", ExitCodes.Usage, "'soon'" },
        { $"load {Url} --think 5s..1s -n 1", ExitCodes.Usage, "--think" },
        { $"load {Url} --loops 0", ExitCodes.Usage, "--loops" },
        { $"load {Url} --max-in-flight 5 -n 1", ExitCodes.Usage, "--max-in-flight" },
        { $"load {Url} --rate 5 --duration 1s --max-in-flight 0", ExitCodes.Usage, "--max-in-flight" },
        { $"load {Url} --stage sometime", ExitCodes.Usage, "sometime" },
        { $"load {Url} --search 100..abc --threshold p99<1s --duration 1s", ExitCodes.Usage, "100..abc" },
        { $"load {Url} --threshold bogus -n 1", ExitCodes.Usage, "bogus" },
        { $"load {Url} --abort-on-threshold -n 1", ExitCodes.Usage, "--threshold" },
        { $"load {Url} -n", ExitCodes.Usage, "--requests" },
        // words: one line naming the word and what is allowed
        { $"load {Url} --format bogus -n 1", ExitCodes.Usage, "'bogus'" },
        { $"load {Url} --engine turbo -n 1", ExitCodes.Usage, "'turbo'" },
        { $"load {Url} -X 'GE T' -n 1", ExitCodes.Usage, "GE T" },
        { $"load {Url} -H NoColon -n 1", ExitCodes.Usage, "NoColon" },
        { $"load {Url} -H 'Bad Name: x' -n 1", ExitCodes.Usage, "Bad Name" },
        { $"load {Url} -n 1 --quiet=maybe", ExitCodes.Usage, "'maybe'" },
        { $"load {Url} -n 1 --insecure=maybe", ExitCodes.Usage, "'maybe'" },
        { $"load {Url} -n 1 --no-keepalive=maybe", ExitCodes.Usage, "'maybe'" },
        { $"load {Url} -n 1 --allow-remote=maybe", ExitCodes.Usage, "'maybe'" },
        { $"load {Url} -n 1 --frobnicate", ExitCodes.Usage, "'--frobnicate'" },
        { $"load {Url} extra -n 1", ExitCodes.Usage, "'extra'" },
        // what to load
        { "load ftp://127.0.0.1/ -n 1", ExitCodes.Usage, "ftp://127.0.0.1/" },
        { "load not-a-url -n 1", ExitCodes.Usage, "not-a-url" },
        { "load http://example.com/ -n 1", ExitCodes.Usage, "example.com" },
        { "load -n 1", ExitCodes.Usage, "URL" },
        { $"load {Url} --targets {{tmp}}/targets.txt -n 1", ExitCodes.Usage, "--targets" },
        { "load --targets {tmp}/missing.txt -n 1", ExitCodes.Usage, "missing.txt" },
        { "load --targets {tmp}/escape-targets.txt -n 1", ExitCodes.Usage, "\\x1b[2J" },
        { "load --targets {tmp}/remote-targets.txt -n 1", ExitCodes.Usage, "example.com" },
        { "load --targets {tmp}/bad-header-targets.txt -n 1", ExitCodes.Usage, "No colon here" },
        { $"load {Url} -d @{{tmp}}/missing-body -n 1", ExitCodes.Usage, "missing-body" },
        // outputs are checked before the load
        { $"load {Url} -n 1 -o {{tmp}}/no-such-folder/out.json", ExitCodes.OutputFailed, "no-such-folder" },
        { $"load {Url} -n 1 --format json -o {{tmp}}", ExitCodes.OutputFailed, "{tmp}" },
        { $"load {Url} -n 1 -o {{tmp}}/out.weird", ExitCodes.Usage, "out.weird" },
        // load merge
        { "load merge {tmp}/missing.hlog", ExitCodes.Usage, "missing.hlog" },
        { "load merge {tmp}/garbage.hlog", ExitCodes.Usage, "garbage.hlog" },
        { "load merge --format xml {tmp}/garbage.hlog", ExitCodes.Usage, "'xml'" },
        { "load merge", ExitCodes.Usage, "files" },
    };

    [Theory]
    [MemberData(nameof(Rows))]
    public Task BadInput_OneLineItsExitCodeNothingWritten(string line, int code, string names) => BadInputTable.AssertRefusedAsync(line, code, names);
}
