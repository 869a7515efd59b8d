using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Findings;

/// <summary><c>// tplab-ignore</c> is read from comments only: the same text in a string literal is the program's, not the reviewer's.</summary>
[ParallelSafe]
public sealed class InlineIgnoreTests
{
    [Theory]
    // A comment on the call's line, or alone on the line above: suppressed, with its reason.
    [InlineData("Thread.Sleep(10); // tplab-ignore: the vendor's pause", "the vendor's pause")]
    [InlineData("// tplab-ignore: measured harmless\n        Thread.Sleep(10);", "measured harmless")]
    // The marker inside a string literal, on the call's line or as the line above's only text: not suppressed.
    [InlineData("Thread.Sleep(Log(\"// tplab-ignore: looks like one\"));", null)]
    [InlineData("Thread.Sleep(Log(@\"x // tplab-ignore\"));", null)]
    [InlineData("var s = \"\"\"\n        // tplab-ignore: inside a raw string\n        \"\"\"; Thread.Sleep(s.Length);", null)]
    public void Suppression_OnlyFromAComment(string body, string? reason)
    {
        var code = $$"""
            public static class Root
            {
                public static int Log(string s) => s.Length;

                public static void Handle()
                {
                    {{body}}
                }
            }
            """;
        var finding = Assert.Single(Snippet.Findings(code), f => f.Call.Name == "Thread.Sleep");
        Assert.Equal(reason, finding.Suppression);
    }
}
