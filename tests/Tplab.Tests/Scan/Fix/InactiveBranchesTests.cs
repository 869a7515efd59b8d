using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix;
using Tplab.Tests.Support;
using Tplab.Scan.Fix.Selecting;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// A site whose method has an inactive <c>#if</c>/<c>#else</c> branch making the same call is refused with the reason,
/// never reported fixed while that branch still blocks; an inactive branch that does not make it changes nothing.
/// </summary>
[ParallelSafe]
public sealed class InactiveBranchesTests
{
    private static readonly BlockingCall Sleep = new(BlockingKind.Sleep, "Thread.Sleep", new StackFrame("System.Private.CoreLib", "System.Threading.Thread", "Sleep"));

    [Theory]
    // the other branch inside the body blocks too: refused, naming its line
    [InlineData("void M()\n{\n#if DEBUG\n    Thread.Sleep(1);\n#else\n    Thread.Sleep(2);\n#endif\n}", true)]
    // a whole other version of the method in #else
    [InlineData("#if !DEBUG\nvoid M() { Thread.Sleep(2); }\n#else\nvoid M() { Thread.Sleep(1); }\n#endif", true)]
    // the inactive branch does something else: the fix is whole
    [InlineData("void M()\n{\n#if DEBUG\n    Console.WriteLine(1);\n#endif\n    Thread.Sleep(2);\n}", false)]
    public void Reason_InactiveBranchOfTheMethod_RefusedOnlyWhenItMakesTheCall(string method, bool refused)
    {
        var tree = CSharpSyntaxTree.ParseText($"using System; using System.Threading;\nclass C\n{{\n{method}\n}}");
        var site = tree.GetRoot().DescendantNodes().OfType<InvocationExpressionSyntax>().Single(i => i.ToString().StartsWith("Thread.Sleep", StringComparison.Ordinal));

        var reason = InactiveBranches.Reason(site, Sleep);

        Assert.Equal(refused, reason is not null);
        if (refused)
        {
            Assert.Contains("inactive preprocessor branch", reason, StringComparison.Ordinal);
            Assert.Contains("calls Sleep too", reason, StringComparison.Ordinal);
        }
    }
}
