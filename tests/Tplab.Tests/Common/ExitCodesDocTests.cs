using System.Reflection;
using System.Text.RegularExpressions;
using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Common;

/// <summary>docs/exit-codes.md and <see cref="ExitCodes"/> agree: the table's code and name for every constant, and no row the code lacks.</summary>
public sealed partial class ExitCodesDocTests
{
    [Fact]
    public void Table_MatchesTheConstants()
    {
        var text = File.ReadAllText(Path.Combine(RepoPaths.Root, "docs", "exit-codes.md"));
        var table = TableRow().Matches(text.Split("\n## ")[0]).ToDictionary(m => m.Groups["name"].Value, m => int.Parse(m.Groups["code"].Value, System.Globalization.CultureInfo.InvariantCulture));
        var constants = typeof(ExitCodes).GetFields(BindingFlags.Public | BindingFlags.Static).Where(f => f.IsLiteral).ToDictionary(f => f.Name, f => (int)f.GetRawConstantValue()!);

        Assert.Equal(constants.OrderBy(kv => kv.Value), table.OrderBy(kv => kv.Value));
    }

    [Fact]
    public void EveryPerCommandCode_IsInTheTable()
    {
        var text = File.ReadAllText(Path.Combine(RepoPaths.Root, "docs", "exit-codes.md"));
        var parts = text.Split("\n## Per command");
        var codes = typeof(ExitCodes).GetFields(BindingFlags.Public | BindingFlags.Static).Select(f => (int)f.GetRawConstantValue()!).ToHashSet();
        var used = CodeRow().Matches(parts[1]).Select(m => int.Parse(m.Groups["code"].Value, System.Globalization.CultureInfo.InvariantCulture)).ToHashSet();

        Assert.Empty(used.Except(codes));
    }

    [GeneratedRegex(@"^\| (?<code>\d+) \| (?<name>[A-Za-z]+) \|", RegexOptions.Multiline)]
    private static partial Regex TableRow();

    [GeneratedRegex(@"^\| (?<code>\d+) \|", RegexOptions.Multiline)]
    private static partial Regex CodeRow();
}
