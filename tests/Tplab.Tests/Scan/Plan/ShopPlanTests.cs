using System.Text;
using System.Text.Json;
using Tplab.Common;
using Tplab.Scan.Plan;

namespace Tplab.Tests.Scan.Plan;

/// <summary>The plan scan writes for the Shop fixture: one scenario per flagged endpoint, routes and bodies filled, writes off.</summary>
[Collection(ShopScanCollection.Name)]
public sealed class ShopPlanTests(ShopScan shop)
{
    [Fact]
    public void Build_Shop_OneScenarioPerFlaggedEndpointEachWithItsFindings()
    {
        var plan = PlanBuilder.Build(shop.Result, writes: false, []);

        var all = plan.Scenarios.Concat(plan.SwitchedOff).ToList();
        // The endpoints come from every entry point of every site, not only the one that gives a site its severity.
        var endpoints = shop.Result.Findings.SelectMany(f => f.Roots).Select(r => r.Root)
            .Where(r => r.Endpoint is not null && r.Node.Syntax.SyntaxTree.FilePath.Contains("Shop.Web", StringComparison.Ordinal))
            .Select(r => r.Key).Distinct().Order(StringComparer.Ordinal).ToList();
        // One scenario per flagged endpoint, carrying that endpoint's findings (and a guarding middleware's or filter's).
        Assert.Equal(endpoints, all.Where(s => s.Checks.Any(c => c.Root == s.Requests[0].Name)).Select(s => s.Requests[0].Name!).Order(StringComparer.Ordinal).ToList());
        Assert.Equal(all.Count, all.Select(s => s.Requests[0].Name).Distinct().Count());
        var audit = Assert.Single(all, s => s.Checks.Any(c => c.Root.StartsWith("middleware Shop.Web.Infrastructure.AdminAuditMiddleware", StringComparison.Ordinal)));
        Assert.StartsWith("/admin", audit.Requests[0].Path, StringComparison.Ordinal);
        var order = Assert.Single(all, s => s.Requests[0].Name == "GET /api/orders/{id:int}");
        Assert.Equal("/api/orders/1", order.Requests[0].Path);
        Assert.Contains(order.Checks, c => c.UserMethod.EndsWith(".Load", StringComparison.Ordinal) || c.BlockingCall.Length > 0);
        Assert.Equal("/rates/sample", Assert.Single(all, s => s.Requests[0].Name == "GET /rates/{currency}").Requests[0].Path);
        Assert.Contains(shop.Result.Findings, f => f.Roots.All(r => r.Root.Endpoint is null));
        Assert.NotEmpty(plan.Watch);
        Assert.Equal("dotnet run --project Shop.Web.csproj -c Release --no-launch-profile", plan.Service!.Command);
        Assert.Contains(plan.Service.Environment, kv => kv.Key == "ASPNETCORE_URLS" && kv.Value == "http://127.0.0.1:0");
    }

    [Fact]
    public void Build_Writes_SwitchedOffUnlessAsked()
    {
        var off = PlanBuilder.Build(shop.Result, writes: false, []);
        var on = PlanBuilder.Build(shop.Result, writes: true, []);

        Assert.NotEmpty(off.SwitchedOff);
        Assert.All(off.SwitchedOff, s => Assert.Contains(s.Requests[0].Method, new[] { "POST", "PUT", "PATCH", "DELETE" }));
        Assert.All(off.Scenarios, s => Assert.DoesNotContain(s.Requests[0].Method, new[] { "POST", "PUT", "PATCH", "DELETE" }));
        Assert.Empty(on.SwitchedOff);
        Assert.Equal(off.Scenarios.Count + off.SwitchedOff.Count, on.Scenarios.Count);
    }

    [Fact]
    public void Build_PostWithADataParameter_SendsAJsonBodyOfItsShape()
    {
        var plan = PlanBuilder.Build(shop.Result, writes: true, []);

        var post = plan.Scenarios.Where(s => s.Requests[0].Method == "POST" && !s.Requests[0].Body.IsEmpty).Select(s => s.Requests[0]).FirstOrDefault();
        Assert.NotNull(post);
        using var body = JsonDocument.Parse(Encoding.UTF8.GetString(post.Body.Span));
        Assert.Equal(JsonValueKind.Object, body.RootElement.ValueKind);
        Assert.Contains(post.Headers, h => h.Key == "Content-Type" && h.Value == "application/json");
    }

    [Fact]
    public void Build_NothingFound_IsAUsageError()
    {
        var empty = shop.Result with { Findings = [] };

        var error = Assert.Throws<TplabException>(() => PlanBuilder.Build(empty, writes: false, []));

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
    }
}
