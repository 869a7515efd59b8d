using System.Text;
using System.Text.RegularExpressions;

namespace Tplab.Blocking;

/// <summary>
/// Route templates as MVC handles them: a controller's and an action's combined (AttributeRouteModel.CombineTemplates),
/// the <c>[token]</c>s of an attribute route replaced (AttributeRouteModel.ReplaceTokens), a conventional route's
/// <c>{controller}</c>/<c>{action}</c>/<c>{area}</c> parameters filled for one action.
/// </summary>
public static partial class RouteTemplates
{
    /// <summary>
    /// <c>api/[controller]</c> + <c>{id}</c> → <c>api/[controller]/{id}</c>; an action template starting with <c>/</c> or
    /// <c>~/</c> replaces the controller's; null when neither has one. Without a leading or trailing slash.
    /// </summary>
    public static string? Combine(string? prefix, string? template)
    {
        string? combined;
        if (prefix is null && template is null)
        {
            return null;
        }
        if (template is null)
        {
            combined = prefix;
        }
        else if (prefix is null or "/" or "~/" || IsOverride(template))
        {
            combined = template;
        }
        else
        {
            combined = template.Length == 0 ? prefix : prefix + "/" + template;
        }
        return Clean(combined!);
    }

    /// <summary>True for a template that ignores the controller's: <c>/x</c>, <c>~/x</c>.</summary>
    public static bool IsOverride(string template) => template.StartsWith('/') || template.StartsWith("~/", StringComparison.Ordinal);

    /// <summary>
    /// The <c>[controller]</c>, <c>[action]</c>, <c>[area]</c> (any route value, any case) tokens replaced by their
    /// values; <c>[[</c> and <c>]]</c> are literal brackets; a token without a value is left as written.
    /// </summary>
    public static string ReplaceTokens(string template, IReadOnlyDictionary<string, string> values)
    {
        ArgumentNullException.ThrowIfNull(template);
        ArgumentNullException.ThrowIfNull(values);
        var text = new StringBuilder(template.Length);
        for (var i = 0; i < template.Length; i++)
        {
            var c = template[i];
            if ((c == '[' || c == ']') && i + 1 < template.Length && template[i + 1] == c)
            {
                text.Append(c);
                i++;
                continue;
            }
            var end = c == '[' ? template.IndexOf(']', i + 1) : -1;
            if (end < 0)
            {
                text.Append(c);
                continue;
            }
            var token = template[(i + 1)..end];
            text.Append(values.TryGetValue(token, out var value) ? value : template[i..(end + 1)]);
            i = end;
        }
        return text.ToString();
    }

    /// <summary>
    /// A conventional route's pattern for one action: <c>{controller=Home}/{action=Index}/{id?}</c> with
    /// <c>controller=Orders</c>, <c>action=List</c> → <c>Orders/List/{id?}</c> (no leading slash).
    /// </summary>
    public static string FillConventional(string pattern, IReadOnlyDictionary<string, string> values)
    {
        ArgumentNullException.ThrowIfNull(pattern);
        ArgumentNullException.ThrowIfNull(values);
        var filled = Parameter().Replace(pattern, m => values.TryGetValue(m.Groups[1].Value, out var v) && m.Groups[1].Value is "controller" or "action" or "area" ? v : m.Value);
        return Clean(filled);
    }

    /// <summary>True when the pattern has the parameter <paramref name="name"/> (<c>{area:exists}</c> has <c>area</c>).</summary>
    public static bool HasParameter(string pattern, string name) =>
        Parameter().Matches(pattern).Cast<Match>().Any(m => string.Equals(m.Groups[1].Value, name, StringComparison.OrdinalIgnoreCase));

    // AttributeRouteModel's clean-up: no leading "/" or "~/", no trailing "/".
    private static string Clean(string template)
    {
        var start = template.StartsWith("~/", StringComparison.Ordinal) ? 2 : template.StartsWith('/') ? 1 : 0;
        var body = template[start..];
        return body.EndsWith('/') ? body[..^1] : body;
    }

    private static readonly Regex ParameterPattern = new(@"\{\*{0,2}(\w+)[^}]*\}", RegexOptions.CultureInvariant);

    private static Regex Parameter() => ParameterPattern;
}
