using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix;
using Tplab.Tests.Support;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// The bound on one fix's size (<c>--max-methods</c>, issue 36) applies before the work: a helper with more callers
/// than the bound is refused when its callers are counted, before any of them is visited, with a message that names
/// the bound and the option that raises it.
/// </summary>
[ParallelSafe]
public sealed class FixBoundTests
{
    private static string Code(int callers) => $$"""
        using System.Threading;
        public static class Audit
        {
            public static void Log() => Thread.Sleep(1);
        }
        public static class Handlers
        {
        {{string.Concat(Enumerable.Range(0, callers).Select(i => string.Create(CultureInfo.InvariantCulture, $"    public static void H{i}() => Audit.Log();\n")))}}
        }
        """;

    private static async Task<(AsyncPropagation, SyntaxNode, ChangeSet)> PlanAsync(int callers, int bound)
    {
        var changes = new ChangeSet();
        var (_, site, _, solution) = await FixChecksTests.PlanAsync(Code(callers), n => n is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Sleep" } });
        var bounded = new AsyncPropagation(solution, changes, new FixNaming(RenameMode.Keep, suffixConvention: false, new HashSet<string>(), "/parts"), bound, CancellationToken.None);
        return (bounded, site, changes);
    }

    [Fact]
    public async Task RequireAwait_HelperWithMoreCallersThanTheBound_RefusedBeforeAnyCallerIsVisited()
    {
        var (propagation, site, changes) = await PlanAsync(callers: 250, bound: 200);

        var refused = await Assert.ThrowsAsync<FixTooWideException>(() => propagation.RequireAwaitAsync(site));

        Assert.Equal("the change reaches more than 200 methods (Audit.Log alone has 250 caller(s)): fix the chain by hand, select fewer findings, or raise the bound with --max-methods", refused.Message);
        Assert.Equal(0, changes.MethodCount);
    }

    [Fact]
    public async Task RequireAwait_BoundRaised_EveryCallerMadeAsync()
    {
        var (propagation, site, changes) = await PlanAsync(callers: 250, bound: 300);

        Assert.Null(await propagation.RequireAwaitAsync(site));

        Assert.Equal(251, changes.MethodCount);
    }
}
