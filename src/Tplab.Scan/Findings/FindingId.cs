using System.Security.Cryptography;
using System.Text;

namespace Tplab.Scan.Findings;

/// <summary>
/// A finding's id: stable across runs, line shifts and unrelated edits, because it is made of what the code is
/// (the method that makes the blocking call, the call, and which of that method's calls of that name it is),
/// never of a line, a column or a root. <c>tplab fix --finding ID</c>, SARIF's <c>partialFingerprints</c> and the
/// JSON's <c>id</c> all use it.
/// </summary>
public static class FindingId
{
    /// <summary>The prefix every id starts with, so an id is recognisable in a log or a commit message.</summary>
    public const string Prefix = "tp-";

    /// <summary>
    /// The id of the <paramref name="ordinal"/>-th (0-based, in source order) call named <paramref name="callName"/>
    /// in <paramref name="userMethod"/> (<c>Namespace.Type.Method</c>).
    /// </summary>
    public static string For(string userMethod, string callName, int ordinal)
    {
        ArgumentNullException.ThrowIfNull(userMethod);
        ArgumentNullException.ThrowIfNull(callName);
        ArgumentOutOfRangeException.ThrowIfNegative(ordinal);
        var text = string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{userMethod}\n{callName}\n{ordinal}");
        var hash = SHA256.HashData(Encoding.UTF8.GetBytes(text));
        return Prefix + Convert.ToHexStringLower(hash, 0, 5);
    }

    /// <summary>Whether <paramref name="text"/> has the form of an id (it may still name no finding).</summary>
    public static bool IsWellFormed(string text) =>
        text.Length == Prefix.Length + 10
        && text.StartsWith(Prefix, StringComparison.Ordinal)
        && text[Prefix.Length..].All(c => char.IsAsciiHexDigitLower(c));
}
