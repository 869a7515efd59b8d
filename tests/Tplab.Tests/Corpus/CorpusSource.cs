using Tplab.Tests.Support;

namespace Tplab.Tests.Corpus;

/// <summary>The corpus shop's source files, to turn a declared line (a piece of its text) into its number.</summary>
internal static class CorpusSource
{
    /// <summary>The shop's folder, which diagnose's files are relative to.</summary>
    public static string Folder { get; } = Path.Combine(RepoPaths.Root, "tests", "corpus", "ShopApp");

    /// <summary>
    /// The 1-based number of the one line of <paramref name="file"/> holding <paramref name="text"/>; the expectations'
    /// own declarations (which quote the text) aside. A text on no line or on several is an error in the corpus.
    /// </summary>
    public static int LineOf(string file, string text)
    {
        var lines = File.ReadAllLines(Path.Combine(Folder, file));
        var found = Enumerable.Range(0, lines.Length)
            .Where(i => lines[i].Contains(text, StringComparison.Ordinal) && !Declares(lines[i]))
            .ToList();
        return found.Count == 1
            ? found[0] + 1
            : throw new InvalidOperationException($"the corpus declares a line of {file} by \"{text}\", which is on {found.Count} lines");
    }

    /// <summary>Whether the line is an expectation's own declaration, which quotes the text of the line it names.</summary>
    internal static bool Declares(string line) =>
        line.TrimStart().StartsWith("new(\"", StringComparison.Ordinal) || line.Contains("OrLine =", StringComparison.Ordinal);
}
