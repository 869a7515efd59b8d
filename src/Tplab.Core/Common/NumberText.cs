using System.Globalization;

namespace Tplab.Common;

/// <summary>
/// Numbers as tplab reads them from the command line and from the files it is given: the invariant culture whatever
/// the user's locale (a dot for decimals, <c>2.5</c>), no thousands separators, finite. A comma is never a decimal
/// point nor a thousands separator here: <c>2,5</c> and <c>1,000</c> are refused rather than read as 25 or 1000
/// (what the current culture, or .NET's default number style, would make of them).
/// </summary>
public static class NumberText
{
    private const NumberStyles Decimal = NumberStyles.AllowLeadingWhite | NumberStyles.AllowTrailingWhite | NumberStyles.AllowLeadingSign
        | NumberStyles.AllowDecimalPoint | NumberStyles.AllowExponent;

    private const NumberStyles Whole = NumberStyles.AllowLeadingWhite | NumberStyles.AllowTrailingWhite | NumberStyles.AllowLeadingSign;

    /// <summary>A decimal number with a dot (<c>2.5</c>, <c>-1</c>, <c>1e3</c>); false for anything else, infinities and NaN included.</summary>
    public static bool TryParseDouble(string? text, out double value) =>
        double.TryParse(text, Decimal, CultureInfo.InvariantCulture, out value) && double.IsFinite(value);

    /// <summary>A whole number (<c>42</c>, <c>-1</c>) that fits a long; false for a decimal or anything else.</summary>
    public static bool TryParseLong(string? text, out long value) =>
        long.TryParse(text, Whole, CultureInfo.InvariantCulture, out value);

    /// <summary>The one-line message for text that is not a number: says what is expected, and why a comma is refused.</summary>
    public static string NotANumber(string what, string text, bool whole)
    {
        ArgumentNullException.ThrowIfNull(text);
        var expected = whole ? "a whole number such as 10" : "a number such as 2.5";
        var hint = text.Contains(',', StringComparison.Ordinal)
            ? whole ? " (no thousands separators)" : " (a dot for decimals, no thousands separators, whatever the locale)"
            : "";
        return $"{what} must be {expected}{hint}, got '{text}'";
    }
}
