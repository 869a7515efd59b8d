using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli.BadInput;

/// <summary><c>tplab run</c>, <c>tune</c> and <c>compare</c> refuse bad input before anything starts: one line naming it, its exit code, no results folder.</summary>
[ParallelSafe]
public sealed class LabBadInputTests
{
    private const string Results = "--results {tmp}/out";
    private const string Tune = "tune --slo p99<1s --variant sleep -n 4 --results {tmp}/out";

    public static TheoryData<string, int, string> Rows => new()
    {
        // run: every range before the results folder exists
        { $"run --repeat 0 {Results}", ExitCodes.Usage, "--repeat" },
        { $"run --repeat -1 {Results}", ExitCodes.Usage, "--repeat" },
        { $"run --repeat 101 {Results}", ExitCodes.Usage, "--repeat" },
        { $"run --repeat 1,5 {Results}", ExitCodes.Usage, "'1,5'" },
        { $"run --interval 100ms {Results}", ExitCodes.Usage, "--interval" },
        { $"run --interval 1,5s {Results}", ExitCodes.Usage, "'1,5s'" },
        { $"run --min-threads 0 {Results}", ExitCodes.Usage, "--min-threads" },
        { $"run --min-threads 40000 {Results}", ExitCodes.Usage, "--min-threads" },
        { $"run --min-threads 1,5 {Results}", ExitCodes.Usage, "'1,5'" },
        { $"run --knob NoEquals {Results}", ExitCodes.Usage, "NoEquals" },
        { $"run --experiment nope {Results}", ExitCodes.Usage, "'nope'" },
        { $"run --variant nope {Results}", ExitCodes.Usage, "'nope'" },
        { "run --results ''", ExitCodes.Usage, "--results" },
        { "run --results {tmp}/plan.yaml/out", ExitCodes.OutputFailed, "plan.yaml" },
        { "run --results {tmp}/body.txt", ExitCodes.OutputFailed, "it is a file, not a folder" },
        { "tune --slo p99<1s --variant sleep -n 4 --results {tmp}/body.txt", ExitCodes.OutputFailed, "it is a file, not a folder" },
        { $"run --full=maybe {Results}", ExitCodes.Usage, "'maybe'" },
        { $"run --no-diagnose=maybe {Results}", ExitCodes.Usage, "'maybe'" },
        { $"run --allow-partial=maybe {Results}", ExitCodes.Usage, "'maybe'" },
        { $"run {Results} --pg", ExitCodes.Usage, "--pg" },
        // run: plans are read whole before anything starts; a number in a plan is read in the invariant culture
        { $"run --plan {{tmp}}/missing.yaml {Results}", ExitCodes.Usage, "missing.yaml" },
        { $"run --plan {{tmp}}/broken.yaml {Results}", ExitCodes.Usage, "broken.yaml" },
        { $"run --plan {{tmp}}/empty.yaml {Results}", ExitCodes.Usage, "empty.yaml" },
        { $"run --plan '' {Results}", ExitCodes.Usage, "--plan: the path is empty" },
        { $"run --experiment ab-100 --plan {{tmp}}/plan.yaml {Results}", ExitCodes.Usage, "--experiment does not go with --plan" },
        { $"run --full --plan {{tmp}}/plan.yaml {Results}", ExitCodes.Usage, "--full does not go with --plan" },
        { $"run --plan {{tmp}} {Results}", ExitCodes.Usage, "folder" },
        { $"run --plan {{tmp}}/remote.yaml {Results}", ExitCodes.Usage, "service.url" },
        { $"run --plan {{tmp}}/comma-rate.yaml {Results}", ExitCodes.Usage, "2,5" },
        { $"run --plan {{tmp}}/comma-duration.yaml {Results}", ExitCodes.Usage, "1,5s" },
        // tune: TuneTarget and TuneOptions check everything before the first trial
        { "tune --variant sleep -n 4", ExitCodes.Usage, "--slo" },
        { "tune --slo bogus --variant sleep -n 4 --results {tmp}/out", ExitCodes.Usage, "bogus" },
        { "tune --slo p99<1,5s --variant sleep -n 4 --results {tmp}/out", ExitCodes.Usage, "1,5s" },
        { "tune --slo p99<0s --variant sleep -n 4 --results {tmp}/out", ExitCodes.Usage, "--slo" },
        { "tune --slo p99<1s -n 4 --results {tmp}/out", ExitCodes.Usage, "--variant" },
        { "tune --slo p99<1s --variant nope -n 4 --results {tmp}/out", ExitCodes.Usage, "'nope'" },
        { "tune --slo p99<1s --variant sleep --results {tmp}/out", ExitCodes.Usage, "--requests" },
        { $"{Tune} --precision 60.5", ExitCodes.Usage, "--precision" },
        { $"{Tune} --precision 0", ExitCodes.Usage, "--precision" },
        { $"{Tune} --precision 1,5", ExitCodes.Usage, "'1,5'" },
        { $"{Tune} --max-threads 1", ExitCodes.Usage, "--max-threads" },
        { $"{Tune} --max-threads 99999", ExitCodes.Usage, "--max-threads" },
        { $"{Tune} -c 0", ExitCodes.Usage, "--concurrency" },
        { $"{Tune} --wait-ms -1", ExitCodes.Usage, "--wait-ms" },
        { "tune --slo p99<1s --variant sleep --rate 5 --results {tmp}/out", ExitCodes.Usage, "--duration" },
        { "tune --slo p99<1s --variant sleep --rate 0 --duration 1s --results {tmp}/out", ExitCodes.Usage, "--rate" },
        { "tune --slo p99<1s --variant sleep --duration 1,5s --results {tmp}/out", ExitCodes.Usage, "'1,5s'" },
        { $"{Tune} --trial-deadline 0s", ExitCodes.Usage, "--trial-deadline" },
        { $"{Tune} --trial-deadline 1,5m", ExitCodes.Usage, "'1,5m'" },
        { $"{Tune} --format xml", ExitCodes.Usage, "'xml'" },
        { $"{Tune} --try-knob NoEquals", ExitCodes.Usage, "NoEquals" },
        { $"{Tune} --pg", ExitCodes.Usage, "--pg" },
        { "tune --slo p99<1s --variant sleep -n 4 --results ''", ExitCodes.Usage, "--results" },
        { "tune --slo p99<1s --plan {tmp}/plan.yaml --results {tmp}/out", ExitCodes.Usage, "--scenario" },
        { "tune --slo p99<1s --plan {tmp}/plan.yaml --scenario nope --results {tmp}/out", ExitCodes.Usage, "nope" },
        { "tune --slo p99<1s --plan {tmp}/service-pid.yaml --scenario a --results {tmp}/out", ExitCodes.Usage, "service.command" },
        // compare: inputs read and the output opened before anything is written
        { "compare", ExitCodes.Usage, "A" },
        { "compare {tmp}/results", ExitCodes.Usage, "B" },
        { "compare {tmp}/missing {tmp}/results", ExitCodes.Usage, "missing" },
        { "compare {tmp}/results {tmp}/not-json.json", ExitCodes.Usage, "not-json.json" },
        { "compare {tmp}/results {tmp}/other.json", ExitCodes.Usage, "other.json" },
        { "compare {tmp}/results {tmp}/other-results", ExitCodes.Usage, "no scenario in common" },
        { "compare {tmp}/results {tmp}/results --fail-if-worse 1,5%", ExitCodes.Usage, "1,5%" },
        { "compare {tmp}/results {tmp}/results --fail-if-worse -5%", ExitCodes.Usage, "-5%" },
        { "compare {tmp}/results {tmp}/results --fail-if-worse lots", ExitCodes.Usage, "lots" },
        { "compare {tmp}/results {tmp}/results --format xml", ExitCodes.Usage, "'xml'" },
        { "compare {tmp}/results {tmp}/results -o {tmp}/no/such/file.txt", ExitCodes.OutputFailed, "{tmp}/no/such/file.txt" },
        { "compare {tmp}/results {tmp}/results -o {tmp}/results", ExitCodes.OutputFailed, "{tmp}/results" },
        { "compare {tmp}/results {tmp}/other-results -o {tmp}/results/summary.json", ExitCodes.Usage, "is A's summary" },
        { "compare {tmp}/missing {tmp}/results -o {tmp}/out.txt", ExitCodes.Usage, "missing" },
    };

    [Theory]
    [MemberData(nameof(Rows))]
    public Task BadInput_OneLineItsExitCodeNothingWritten(string line, int code, string names) => BadInputTable.AssertRefusedAsync(line, code, names);
}
