using Tplab.Scan.Findings;
using Tplab.Tests.Scan.Rules;

namespace Tplab.Tests.Scan.Findings;

/// <summary>A finding is a site: its id (which of its method's calls of that name it is) and its position (the blocking member, not the expression's start).</summary>
public sealed class SiteFindingTests
{
    // The snippet's code starts after Snippet's nine using lines.
    private const int CodeStartsAt = 10;

    [Fact]
    public void Findings_TwoCallsOfOneNameInAMethodAndItsLambda_HaveTheOrdinalsOfSourceOrder()
    {
        var findings = Snippet.Findings("""
            public static class Root
            {
                public static void Handle()
                {
                    Thread.Sleep(10);
                    Action later = () => Thread.Sleep(20);
                    later();
                    Thread.Sleep(30);
                    Task.Delay(1).Wait();
                }
            }
            """);

        var sleeps = findings.Where(f => f.Call.Name == "Thread.Sleep").OrderBy(f => f.Site.Line).ToList();
        Assert.Equal(3, sleeps.Count);
        Assert.Equal(
            [FindingId.For("Snippet", "Root.Handle", "Thread.Sleep", 0), FindingId.For("Snippet", "Root.Handle", "Thread.Sleep", 1), FindingId.For("Snippet", "Root.Handle", "Thread.Sleep", 2)],
            sleeps.Select(f => f.Id));
        Assert.Equal(FindingId.For("Snippet", "Root.Handle", "Task.Wait", 0), Assert.Single(findings, f => f.Call.Name == "Task.Wait").Id);
        Assert.All(findings, f => Assert.Equal(f.Id, f.Key.Id));
    }

    [Fact]
    public void Findings_TwoProjectsDeclaringTheSameType_GetDifferentIdsStableRunToRun()
    {
        const string Code = """
            public static class Root
            {
                public static void Handle() => Thread.Sleep(10);
            }
            """;
        var first = Snippet.FindingsOfProjects(Code, "Shop.Api", "Shop.Api.Copy");
        var again = Snippet.FindingsOfProjects(Code, "Shop.Api", "Shop.Api.Copy");

        Assert.Equal(2, first.Count);
        Assert.Equal(2, first.Select(f => f.Id).Distinct().Count());
        Assert.Equal(first.Select(f => f.Id), again.Select(f => f.Id));
        Assert.Equal(FindingId.For("Shop.Api", "Root.Handle", "Thread.Sleep", 0), first[0].Id);
        // Both keep the id they had before ids named the project: a schema 2 baseline still matches them.
        Assert.All(first, f => Assert.Equal(FindingId.WithoutProject("Root.Handle", "Thread.Sleep", 0), f.IdWithoutProject));
    }

    [Theory]
    // A call over several lines: the line and column of the blocking member's name.
    [InlineData("""
        public static class Root
        {
            public static int Handle() => Get()
                .GetAwaiter()
                .GetResult();
            static async Task<int> Get() { await Task.Delay(1); return 1; }
        }
        """, "GetResult", 4)]
    [InlineData("""
        public static class Root
        {
            public static int Handle() => Get().Result;
            static async Task<int> Get() { await Task.Delay(1); return 1; }
        }
        """, "Result", 2)]
    [InlineData("""
        public static class Root
        {
            public static void Handle()
            {
                var delay = Task.Delay(10);
                delay
                    .Wait();
            }
        }
        """, "Wait", 6)]
    [InlineData("""
        public static class Root
        {
            public static string Handle() => File.ReadAllText(
                "a.txt");
        }
        """, "ReadAllText", 2)]
    public void Findings_BlockingCall_PointAtTheBlockingMember(string code, string member, int line)
    {
        var site = Assert.Single(Snippet.Findings(code)).Site;

        var text = code.Split('\n')[line].TrimEnd('\r');
        Assert.Equal(CodeStartsAt + line, site.Line);
        Assert.Equal(text.IndexOf(member, StringComparison.Ordinal) + 1, site.Column);
    }

    [Fact]
    public void Findings_ChainHopOverSeveralLines_PointsAtTheCalledMethodsName()
    {
        var finding = Assert.Single(Snippet.Findings("""
            public static class Root
            {
                public static void Handle() => Helper
                    .Pause();
            }
            public static class Helper
            {
                public static void Pause() => Thread.Sleep(10);
            }
            """));

        Assert.Equal((CodeStartsAt + 3, 10), (finding.Chain[0].Line, finding.Chain[0].Column));
    }
}
