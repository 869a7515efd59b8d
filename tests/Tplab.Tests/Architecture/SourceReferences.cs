using System.Text.RegularExpressions;

namespace Tplab.Tests.Architecture;

/// <summary>
/// What one C# file says it uses, read from its text: its namespace, its <c>using</c> directives, the names it spells
/// out (<c>Tplab.Watch.Verdicts.PoolVerdict</c>), and the names it qualifies by a sibling namespace
/// (<c>Graph.Callers</c> inside Tplab.Scan.Rules) when that namespace declares the type. Comments and string literals
/// are left out. Enough to see every dependency between folders without compiling.
/// </summary>
internal sealed partial record SourceReferences(string Path, string Namespace, IReadOnlyList<string> Namespaces)
{
    /// <summary>Every .cs file under <paramref name="folder"/> (bin and obj left out) with the namespace it declares.</summary>
    public static IReadOnlyList<(string Path, string Namespace, string Code)> Files(string folder) =>
        [.. Directory.EnumerateFiles(folder, "*.cs", SearchOption.AllDirectories)
            .Where(p => !p.Contains($"{System.IO.Path.DirectorySeparatorChar}obj{System.IO.Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !p.Contains($"{System.IO.Path.DirectorySeparatorChar}bin{System.IO.Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Select(p => (Path: p, Code: Code(File.ReadAllText(p))))
            .Select(f => (f.Path, Namespace: NamespaceLine().Match(f.Code) is { Success: true } m ? m.Groups[1].Value : "", f.Code))
            .Where(f => f.Namespace.Length > 0)];

    /// <summary>The types each namespace declares, from <paramref name="files"/>.</summary>
    public static ILookup<string, string> Declared(IEnumerable<(string Path, string Namespace, string Code)> files) =>
        files.SelectMany(f => Declaration().Matches(f.Code).Select(m => (f.Namespace, Type: m.Groups[1].Value)))
            .Distinct().ToLookup(d => d.Namespace, d => d.Type, StringComparer.Ordinal);

    /// <summary>The namespaces under <paramref name="rootNamespace"/> that the file refers to.</summary>
    public static SourceReferences Of((string Path, string Namespace, string Code) file, string rootNamespace, ILookup<string, string> declared)
    {
        var found = new HashSet<string>(StringComparer.Ordinal);
        foreach (Match u in Using().Matches(file.Code))
        {
            found.Add(u.Groups[1].Value);
        }
        foreach (Match q in Qualified().Matches(file.Code))
        {
            // Tplab.Watch.Verdicts.PoolVerdict: the longest prefix that is a namespace declaring the next name.
            var parts = q.Value.Split('.');
            for (var n = parts.Length - 1; n >= 2; n--)
            {
                var ns = string.Join('.', parts[..n]);
                if (declared[ns].Contains(parts[n], StringComparer.Ordinal))
                {
                    found.Add(ns);
                    break;
                }
            }
        }
        // Graph.Callers inside Tplab.Scan.Rules: a name qualified by a namespace beside the file's own.
        var parent = file.Namespace.Contains('.', StringComparison.Ordinal) ? file.Namespace[..file.Namespace.LastIndexOf('.')] : "";
        foreach (Match r in Relative().Matches(file.Code))
        {
            foreach (var scope in new[] { parent, rootNamespace })
            {
                var ns = scope + "." + r.Groups[1].Value;
                if (declared[ns].Contains(r.Groups[2].Value, StringComparer.Ordinal))
                {
                    found.Add(ns);
                }
            }
        }
        return new(file.Path, file.Namespace, [.. found.Where(n => n.StartsWith(rootNamespace + ".", StringComparison.Ordinal)).Order(StringComparer.Ordinal)]);
    }

    /// <summary>The code with comments and string literals blanked (raw strings, verbatim, interpolated and plain; then // and /* */).</summary>
    public static string Code(string text) =>
        LineComment().Replace(BlockComment().Replace(Strings().Replace(text, "\"\""), ""), "");

    [GeneratedRegex(@"""""""[\s\S]*?""""""|@""(?:""""|[^""])*""|\$?""(?:\\.|[^""\\\n])*""|'(?:\\.|[^'\\\n])'")]
    private static partial Regex Strings();

    [GeneratedRegex(@"/\*[\s\S]*?\*/")]
    private static partial Regex BlockComment();

    [GeneratedRegex(@"//.*")]
    private static partial Regex LineComment();

    [GeneratedRegex(@"^namespace\s+([\w.]+)\s*;", RegexOptions.Multiline)]
    private static partial Regex NamespaceLine();

    [GeneratedRegex(@"^\s*(?:global\s+)?using\s+(?:static\s+)?(?:\w+\s*=\s*)?(Tplab[\w.]*)", RegexOptions.Multiline)]
    private static partial Regex Using();

    [GeneratedRegex(@"(?<![\w.])(?:global::)?Tplab(?:\.[A-Z]\w*)+")]
    private static partial Regex Qualified();

    [GeneratedRegex(@"(?<![\w.])([A-Z]\w*)\.([A-Z]\w*)")]
    private static partial Regex Relative();

    [GeneratedRegex(@"\b(?:class|record|struct|enum|interface)\s+([A-Z]\w*)")]
    private static partial Regex Declaration();
}
