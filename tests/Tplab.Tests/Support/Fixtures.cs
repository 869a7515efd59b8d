namespace Tplab.Tests.Support;

/// <summary>Files written by earlier versions of tplab (tests/Tplab.Tests/Fixtures/, README.md there): what readers must keep reading.</summary>
internal static class Fixtures
{
    /// <summary>The folder of files written before the typed schemas (schema version 1).</summary>
    public static string V1 { get; } = Path.Combine(RepoPaths.Root, "tests", "Tplab.Tests", "Fixtures", "v1");

    /// <summary>A file of <see cref="V1"/>.</summary>
    public static string V1File(string name) => Path.Combine(V1, name);
}
