using System.CommandLine;
using System.CommandLine.Parsing;

namespace Tplab.Cli.Binding;

/// <summary>
/// Options whose value is one word of a fixed list (<c>--format</c>, <c>--engine</c>, <c>--fail-on</c>): matched
/// without regard to case, ordinally (culture-free, so <c>HTML</c> is html under tr-TR too), and bound as the list
/// spells it, so the command compares exact words. A word not in the list is one line naming it and the list
/// (System.CommandLine's own message takes a line per allowed value).
/// </summary>
internal static class Choices
{
    /// <summary>Accepts only <paramref name="values"/> (any case), binding the list's spelling; for <c>Option&lt;string&gt;</c> and <c>Option&lt;string?&gt;</c>.</summary>
    public static Option<T> AcceptOnly<T>(this Option<T> option, params IReadOnlyList<string> values)
        where T : class?
    {
        ArgumentNullException.ThrowIfNull(option);
        if (typeof(T) != typeof(string))
        {
            throw new ArgumentException("a choice is a word: Option<string>", nameof(option));
        }
        option.CustomParser = r => (T?)(object?)Parse(r, values);
        option.CompletionSources.Add([.. values]);
        return option;
    }

    /// <summary>
    /// The word of <paramref name="values"/> the text names (any case), or null when none. Turkish's dotted capital
    /// İ and dotless ı count as i, so a word typed in Turkish capitals (LİVE) is still live.
    /// </summary>
    public static string? Find(string text, IReadOnlyList<string> values)
    {
        var folded = text?.Trim().Replace('İ', 'I').Replace('ı', 'i');
        return values.FirstOrDefault(v => string.Equals(v, folded, StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>The one-line message for a word that is not one of <paramref name="values"/>.</summary>
    public static string NotOneOf(string what, string text, IReadOnlyList<string> values) =>
        $"{what} must be one of {string.Join(", ", values)}; got '{text}'";

    private static string? Parse(ArgumentResult r, IReadOnlyList<string> values)
    {
        var text = r.Tokens.Count > 0 ? r.Tokens[^1].Value : "";
        if (Find(text, values) is { } value)
        {
            return value;
        }
        r.AddError(NotOneOf(InvariantValues.Name(r), text, values));
        return null;
    }
}
