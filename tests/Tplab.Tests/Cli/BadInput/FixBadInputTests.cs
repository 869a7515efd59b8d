using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli.BadInput;

/// <summary><c>tplab fix</c> refuses bad input before it loads anything: one line naming it, its exit code, nothing written.</summary>
public sealed class FixBadInputTests
{
    public static TheoryData<string, int, string> Rows => new()
    {
        // what to fix
        { "fix {tmp}/no/such/folder", ExitCodes.Usage, "no such file or folder: {tmp}/no/such/folder" },
        { "fix {tmp}/plan.yaml", ExitCodes.Usage, "is not a solution" },
        { "fix {tmp}/targets.txt extra", ExitCodes.Usage, "'extra'" },
        // selection
        { "fix {tmp} --route", ExitCodes.Usage, "--route" },
        { "fix {tmp} --finding nope", ExitCodes.Usage, "'nope' is not a finding id" },
        // the sweep of issue 36: a 10,000-character id was echoed whole, and the line's cut at 1,000 hid the reason
        { "fix {tmp} --finding tp-" + new string('0', 10000), ExitCodes.Usage, "--finding 'tp-0000000000000000000000000000000000000…' is not a finding id" },
        { "fix {tmp} --finding", ExitCodes.Usage, "--finding" },
        { "fix {tmp} --severity note", ExitCodes.Usage, "'note'" },
        { "fix {tmp} --severity", ExitCodes.Usage, "--severity" },
        { "fix {tmp} --from {tmp}/missing.json", ExitCodes.Usage, "no scan report {tmp}/missing.json" },
        { "fix {tmp}/scan/app.csproj --from {tmp}/not-json.json", ExitCodes.Usage, "is not a tplab scan report" },
        { "fix {tmp}/scan/app.csproj --from {tmp}/other.json", ExitCodes.Usage, "is not a tplab scan report" },
        // scan's config, read as scan reads it
        { "fix {tmp}/scan/app.csproj --config {tmp}/missing.json", ExitCodes.Usage, "{tmp}/missing.json" },
        { "fix {tmp}/scan/app.csproj --config {tmp}/not-json.json", ExitCodes.Usage, "not a tplab scan config" },
        { "fix {tmp}/scan/app.csproj --config /dev/zero", ExitCodes.Usage, "is not a regular file" },
        { "fix {tmp} --config", ExitCodes.Usage, "--config" },
        // what it writes and how
        { "fix {tmp} --format xml", ExitCodes.Usage, "'xml'" },
        { "fix {tmp} --apply --format patch", ExitCodes.Usage, "--apply edits the files" },
        { "fix {tmp} --apply --format sarif", ExitCodes.Usage, "not SARIF fixes" },
        { "fix {tmp} --apply -o {tmp}/fix.sarif", ExitCodes.Usage, "give --format text or json for {tmp}/fix.sarif" },
        { "fix {tmp} --apply -o {tmp}/fix.patch", ExitCodes.Usage, "not a patch" },
        { "fix {tmp} --apply=maybe", ExitCodes.Usage, "'maybe'" },
        { "fix {tmp} --force", ExitCodes.Usage, "--force goes with --apply" },
        { "fix {tmp} --verify true", ExitCodes.Usage, "--verify goes with --apply" },
        { "fix {tmp} --rename sometimes", ExitCodes.Usage, "'sometimes'" },
        { "fix {tmp} --add-cancellation=maybe", ExitCodes.Usage, "'maybe'" },
        { "fix {tmp} --no-restore=maybe", ExitCodes.Usage, "'maybe'" },
        { "fix {tmp} --allow-partial=maybe", ExitCodes.Usage, "'maybe'" },
        { "fix {tmp} --analyzers=maybe", ExitCodes.Usage, "'maybe'" },
        { "fix {tmp} --max-methods 0", ExitCodes.Usage, "--max-methods must be at least 1" },
        { "fix {tmp} --max-methods many", ExitCodes.Usage, "'many'" },
        { "fix {tmp} --max-methods", ExitCodes.Usage, "--max-methods" },
        { "fix {tmp} --max-depth 1", ExitCodes.Usage, "--max-depth must be between 2 and 200 calls, got 1" },
        { "fix {tmp} --max-depth 2.5", ExitCodes.Usage, "'2.5'" },
        { "fix {tmp} --max-depth", ExitCodes.Usage, "--max-depth" },
        { "fix {tmp} -o {tmp}/no/such/folder/fix.patch", ExitCodes.OutputFailed, "{tmp}/no/such/folder/fix.patch" },
        { "fix {tmp}/scan -o {tmp}/scan/Program.cs", ExitCodes.Usage, "is a source file of the project read" },
        // the proof plan: checked and opened before any project loads; --plan-writes only says something with --plan
        { "fix {tmp} --plan {tmp}/no/such/folder/plan.yaml", ExitCodes.OutputFailed, "{tmp}/no/such/folder/plan.yaml" },
        { "fix {tmp} --plan", ExitCodes.Usage, "--plan" },
        { "fix {tmp}/scan --plan {tmp}/scan/app.csproj", ExitCodes.Usage, "is a source file" },
        { "fix {tmp}/scan -o {tmp}/x.yaml --plan {tmp}/./x.yaml", ExitCodes.Usage, "--output and --plan name the same file" },
        { "fix {tmp} --plan-writes", ExitCodes.Usage, "--plan-writes goes with --plan FILE" },
        { "fix {tmp} --plan {tmp}/p.yaml --plan-writes=maybe", ExitCodes.Usage, "'maybe'" },
    };

    [Theory]
    [MemberData(nameof(Rows))]
    public Task BadInput_OneLineItsExitCodeNothingWritten(string line, int code, string names) => BadInputTable.AssertRefusedAsync(line, code, names);
}
