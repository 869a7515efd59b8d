using System.Net;
using Tplab.Reports.Html;

namespace Tplab.Lab.Comparing;

/// <summary><c>tplab compare --format html</c>: one self-contained page, a table per scenario with its verdict.</summary>
public static class ComparisonHtml
{
    /// <summary>Writes the page (<see cref="PageLayout.Compare"/>).</summary>
    public static void Write(Comparison c, TextWriter w)
    {
        ArgumentNullException.ThrowIfNull(c);
        var body = new StringWriter(System.Globalization.CultureInfo.InvariantCulture) { NewLine = "\n" };
        Body(c, body);
        HtmlPage.Write(w, PageLayout.Compare, body: body.ToString());
    }

    private static void Body(Comparison c, TextWriter w)
    {
        w.WriteLine("<h1>tplab compare</h1>");
        w.WriteLine($"<p>A: <code>{E(c.A.Path)}</code><br>B: <code>{E(c.B.Path)}</code></p>");
        w.WriteLine($"<p>{E(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"A change counts when it exceeds {c.ThresholdPercent:0.##}% (errors: {Comparison.ErrorPoints} point of the failed share) and, where a side ran with --repeat, lies outside its runs' range."))}</p>");
        foreach (var s in c.Scenarios)
        {
            w.WriteLine($"<h2 class=\"scenario\">{E(s.Key)}: <span class=\"{Css(s.Verdict)}\">{E(ComparisonText.Verdict(s.Verdict))}</span></h2><p>{E(s.Reason)}</p>");
            w.WriteLine("<table><tr><th>figure</th><th>A</th><th>B</th><th>change</th></tr>");
            foreach (var f in s.Figures.Where(f => f.A is not null || f.B is not null))
            {
                w.WriteLine($"<tr><td>{E(Comparison.Short(f.Name))}</td><td>{E(ComparisonText.Value(f.Name, f.A))}</td><td>{E(ComparisonText.Value(f.Name, f.B))}</td><td class=\"{Css(f.Change)}\">{E(ComparisonText.Percent(f.Percent))}</td></tr>");
            }
            w.WriteLine("</table>");
        }
        foreach (var (side, keys) in new[] { ("A", c.OnlyInA), ("B", c.OnlyInB) }.Where(x => x.Item2.Count > 0))
        {
            w.WriteLine($"<p>Only in {side} (not compared): {E(string.Join(", ", keys))}</p>");
        }
    }

    private static string Css(Change change) => change switch { Change.Worse => "worse", Change.Better => "better", _ => "same" };

    private static string E(string s) => WebUtility.HtmlEncode(s);
}
