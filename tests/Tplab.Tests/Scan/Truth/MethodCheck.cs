using System.Text.RegularExpressions;

namespace Tplab.Tests.Scan.Truth;

/// <summary>
/// Checks, by reading the source text, that a call site sits in the method the truth names: the nearest member
/// declared above the line is that method, the nearest type above it is that type, and the file declares that
/// namespace. Enough to catch a truth that drifted from the code, without compiling anything.
/// </summary>
internal static partial class MethodCheck
{
    /// <summary>Why <paramref name="method"/> (<c>Namespace.Type.Method</c>) does not hold line <paramref name="line"/>, or null when it does.</summary>
    public static string? Problem(IReadOnlyList<string> lines, string method, int line)
    {
        // Top-level statements: the compiler's Program.<Main>$ has no declaration to find.
        if (method.StartsWith("Program.<Main>$", StringComparison.Ordinal))
        {
            return null;
        }
        // A constructor is Namespace.Type..ctor, declared under the type's own name.
        var parts = method.Replace("..ctor", ".#ctor", StringComparison.Ordinal).Split('.');
        if (parts.Length >= 3 && parts[^1] == "#ctor")
        {
            parts[^1] = parts[^2];
        }
        if (parts.Length < 3)
        {
            return $"method '{method}' is not Namespace.Type.Method";
        }
        var (ns, type, member) = (string.Join('.', parts[..^2]), parts[^2], parts[^1]);
        if (!lines.Any(l => l.TrimStart().StartsWith($"namespace {ns}", StringComparison.Ordinal) && NamespaceEnd(l, ns)))
        {
            return $"the file does not declare namespace {ns}";
        }
        var memberLine = -1;
        for (var i = line - 1; i >= 0; i--)
        {
            if (MemberDeclaration().Match(lines[i]) is { Success: true } m && !TypeDeclaration().IsMatch(lines[i]))
            {
                if (m.Groups["name"].Value != member)
                {
                    return $"the nearest member declared above is {m.Groups["name"].Value}, not {member}";
                }
                memberLine = i;
                break;
            }
        }
        if (memberLine < 0)
        {
            return $"no member declared above the line (expected {member})";
        }
        for (var i = memberLine; i >= 0; i--)
        {
            if (TypeDeclaration().Match(lines[i]) is { Success: true } t)
            {
                return t.Groups["name"].Value == type ? null : $"{member} is declared in {t.Groups["name"].Value}, not {type}";
            }
        }
        return $"no type declared above {member}";
    }

    private static bool NamespaceEnd(string line, string ns)
    {
        var rest = line.TrimStart()[$"namespace {ns}".Length..];
        return rest.Length == 0 || rest[0] is ';' or ' ' or '{' or '\r';
    }

    // An access modifier, then anything but '=' or ';' (so field initialisers and calls are not declarations), a name,
    // optional type parameters, '('.
    [GeneratedRegex(@"^\s*(?:\[[^\]]*\]\s*)?\b(?:public|private|protected|internal)\b[^=;]*?\b(?<name>\w+)\s*(?:<[^>]*>)?\s*\(")]
    private static partial Regex MemberDeclaration();

    [GeneratedRegex(@"\b(?:class|record|struct|interface)\s+(?<name>\w+)")]
    private static partial Regex TypeDeclaration();
}
