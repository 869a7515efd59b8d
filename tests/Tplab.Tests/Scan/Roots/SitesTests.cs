using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Roots;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Roots;

/// <summary>
/// The syntax filter in front of binding: a call that cannot register an entry point is never bound (binding one binds
/// its whole body, kept while the model lives). ErsatzTV's 1,467 <c>option.Map(x => ...)</c> calls were bound to find
/// its entry points.
/// </summary>
[ParallelSafe]
public sealed class SitesTests
{
    [Theory]
    [InlineData("app.Map(\"/any\", Handle)", true)]
    [InlineData("app.Map(\"/any\", () => \"ok\")", true)]
    [InlineData("EndpointRouteBuilderExtensions.Map(app, \"/any\", Handle)", true)]
    [InlineData("app.Map(\"/branch\", branch => branch.Run(Handle))", true)]
    [InlineData("option.Map(x => x + 1)", false)]
    [InlineData("items.Map(Convert)", false)]
    [InlineData("app.MapFallback(Handle)", true)]
    [InlineData("app.Use(next => next)", true)]
    [InlineData("services.AddSingleton<IClock>(sp => new Clock())", true)]
    [InlineData("services.AddSingleton<IClock, Clock>()", false)]
    [InlineData("list.Add(item)", false)]
    [InlineData("Task.Run(Work)", false)]
    public void Worth_Call_OnlyWhatCanRegister(string call, bool worth)
    {
        var invocation = (InvocationExpressionSyntax)SyntaxFactory.ParseExpression(call);
        Assert.Equal(worth, Sites.Worth(invocation));
    }
}
