using System.Globalization;
using System.Text;

namespace Tplab.Common.Json;

/// <summary>
/// The analyzer's stand-in for tplab's <c>Tplab.Common.Json.Words.Of</c> (which calls System.Text.Json's
/// <c>JsonNamingPolicy.KebabCaseLower</c>, not loadable in a compiler): the same words by the same algorithm, so the
/// shared catalogue names places as scan does. <c>AnalyzerWordsTests</c> compares the two over every enum they name.
/// </summary>
internal static class Words
{
    /// <summary><paramref name="value"/> as its word: <c>LockContention</c> is <c>lock-contention</c>.</summary>
    public static string Of<TEnum>(TEnum value)
        where TEnum : struct, Enum => Kebab(value.ToString());

    /// <summary>JsonNamingPolicy.KebabCaseLower's separator rules: a hyphen before an upper-case letter that follows a lower-case letter or digit, or that starts a word of an acronym ("IOStream" is "io-stream").</summary>
    internal static string Kebab(string name)
    {
        var text = new StringBuilder(name.Length + 4);
        var state = 0; // 0 not started, 1 upper, 2 lower or digit, 3 space
        for (var i = 0; i < name.Length; i++)
        {
            var c = name[i];
            switch (char.GetUnicodeCategory(c))
            {
                case UnicodeCategory.UppercaseLetter:
                    if (state is 2 or 3 || (state == 1 && i + 1 < name.Length && char.IsLower(name[i + 1])))
                    {
                        text.Append('-');
                    }
                    text.Append(char.ToLowerInvariant(c));
                    state = 1;
                    break;
                case UnicodeCategory.LowercaseLetter or UnicodeCategory.DecimalDigitNumber:
                    if (state == 3)
                    {
                        text.Append('-');
                    }
                    text.Append(c);
                    state = 2;
                    break;
                case UnicodeCategory.SpaceSeparator:
                    state = state == 0 ? 0 : 3;
                    break;
                default:
                    text.Append(c);
                    state = 0;
                    break;
            }
        }
        return text.ToString();
    }
}
