using System.Security.Cryptography;
using System.Text;

namespace Tplab.Scan.Findings;

/// <summary>
/// A finding's id: stable across runs, line shifts and unrelated edits, because it is made of what the code is
/// (the project — its assembly name —, the method that makes the blocking call, the call, and which of that method's
/// calls of that name it is), never of a line, a column, a path or a root. Two projects that declare the same type
/// (a copy of a project, a template) give their sites different ids, so <c>fix</c>, <c>--finding</c> and a baseline
/// name one site. <c>tplab fix --finding ID</c>, SARIF's <c>partialFingerprints</c> and the JSON's <c>id</c> all use it.
/// </summary>
public static class FindingId
{
    /// <summary>The prefix every id starts with, so an id is recognisable in a log or a commit message.</summary>
    public const string Prefix = "tp-";

    /// <summary>
    /// The id of the <paramref name="ordinal"/>-th (0-based, in source order) call named <paramref name="callName"/>
    /// in <paramref name="userMethod"/> (<c>Namespace.Type.Method</c>) of the project <paramref name="project"/> (its assembly name).
    /// </summary>
    public static string For(string project, string userMethod, string callName, int ordinal)
    {
        ArgumentNullException.ThrowIfNull(project);
        return Hash(FormattableString.Invariant($"{project}\n{Text(userMethod, callName, ordinal)}"));
    }

    /// <summary>
    /// The id as tplab wrote it before it named the project (baseline schema 2): what an older baseline's entries are
    /// matched with. It is the same for a site of two projects that declare the same type.
    /// </summary>
    public static string WithoutProject(string userMethod, string callName, int ordinal) => Hash(Text(userMethod, callName, ordinal));

    private static string Text(string userMethod, string callName, int ordinal)
    {
        ArgumentNullException.ThrowIfNull(userMethod);
        ArgumentNullException.ThrowIfNull(callName);
        ArgumentOutOfRangeException.ThrowIfNegative(ordinal);
        return FormattableString.Invariant($"{userMethod}\n{callName}\n{ordinal}");
    }

    private static string Hash(string text) => Prefix + Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)), 0, 5);

    /// <summary>Whether <paramref name="text"/> has the form of an id (it may still name no finding).</summary>
    public static bool IsWellFormed(string text) =>
        text.Length == Prefix.Length + 10
        && text.StartsWith(Prefix, StringComparison.Ordinal)
        && text[Prefix.Length..].All(c => char.IsAsciiHexDigitLower(c));
}
