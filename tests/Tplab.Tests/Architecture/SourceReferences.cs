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
        // Graph.Callers inside Tplab.Scan.Rules, Watch.Verdicts.PoolVerdict inside Tplab.Lab.Running: a name qualified
        // relative to the file's namespace or any namespace around it, innermost first, as the compiler looks it up.
        var scopes = Ancestors(file.Namespace).ToList();
        foreach (Match r in Relative().Matches(file.Code))
        {
            var parts = r.Value.Split('.');
            var resolved = false;
            foreach (var scope in scopes)
            {
                for (var n = parts.Length - 1; n >= 1 && !resolved; n--)
                {
                    var ns = scope + "." + string.Join('.', parts[..n]);
                    if (declared[ns].Contains(parts[n], StringComparer.Ordinal))
                    {
                        found.Add(ns);
                        resolved = true;
                    }
                }
                if (resolved)
                {
                    break;
                }
            }
        }
        return new(file.Path, file.Namespace, [.. found.Where(n => n.StartsWith(rootNamespace + ".", StringComparison.Ordinal)).Order(StringComparer.Ordinal)]);
    }

    /// <summary>
    /// The project namespaces every file of a project uses without saying so: <c>global using</c> lines in any file
    /// (a file with no namespace included) and <c>&lt;Using Include="…"/&gt;</c> items of its project and props files.
    /// Each with where it was found.
    /// </summary>
    public static IReadOnlyList<(string Namespace, string Where)> GlobalUsings(IEnumerable<string> sources, IEnumerable<string> projectFiles)
    {
        var found = new List<(string, string)>();
        foreach (var path in sources)
        {
            found.AddRange(GlobalUsing().Matches(Code(File.ReadAllText(path))).Select(m => (m.Groups[1].Value, path)));
        }
        foreach (var path in projectFiles)
        {
            found.AddRange(UsingItems(File.ReadAllText(path)).Select(ns => (ns, path)));
        }
        return found;
    }

    /// <summary>The namespaces of a project file's <c>&lt;Using Include="…"/&gt;</c> items (not those with an alias or <c>Static</c>, which name types).</summary>
    public static IEnumerable<string> UsingItems(string projectXml) =>
        System.Xml.Linq.XDocument.Parse(projectXml).Descendants().Where(e => e.Name.LocalName == "Using")
            .Select(e => e.Attribute("Include")?.Value).OfType<string>().SelectMany(v => v.Split(';', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries));

    // Tplab.Lab.Plans → Tplab.Lab.Plans, Tplab.Lab, Tplab.
    private static IEnumerable<string> Ancestors(string ns)
    {
        for (var at = ns; at.Length > 0; at = at.Contains('.', StringComparison.Ordinal) ? at[..at.LastIndexOf('.')] : "")
        {
            yield return at;
        }
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

    [GeneratedRegex(@"(?<![\w.])[A-Z]\w*(?:\.[A-Z]\w*)+")]
    private static partial Regex Relative();

    [GeneratedRegex(@"^\s*global\s+using\s+(?:static\s+)?(?:\w+\s*=\s*)?(Tplab[\w.]*)", RegexOptions.Multiline)]
    private static partial Regex GlobalUsing();

    [GeneratedRegex(@"\b(?:class|record|struct|enum|interface)\s+([A-Z]\w*)")]
    private static partial Regex Declaration();
}
