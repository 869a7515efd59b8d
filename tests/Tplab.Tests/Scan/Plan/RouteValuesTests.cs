using Tplab.Scan.Plan;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Plan;

/// <summary>Route templates filled with values that fit their constraints, as ASP.NET Core's routing reads them.</summary>
[ParallelSafe]
public sealed class RouteValuesTests
{
    [Theory]
    [InlineData("/orders/{id:int}", "/orders/1")]
    [InlineData("/orders/{id:long:min(5)}", "/orders/5")]
    [InlineData("/items/{id:guid}", "/items/" + RouteValues.SampleGuid)]
    [InlineData("/posts/{slug}", "/posts/sample")]
    [InlineData("/codes/{code:length(3)}", "/codes/aaa")]
    [InlineData("/codes/{code:minlength(8)}", "/codes/aaaaaaaa")]
    [InlineData("/range/{n:range(10,20)}", "/range/10")]
    [InlineData("/days/{d:datetime}", "/days/2026-01-15")]
    [InlineData("/price/{p:decimal}", "/price/1.5")]
    [InlineData("/flag/{on:bool}", "/flag/true")]
    // Optional and catch-all parameters are filled: a value reaches more of the handler than none.
    [InlineData("/users/{id?}", "/users/sample")]
    [InlineData("/files/{*path:nonfile}", "/files/sample")]
    // Defaults: conventional MVC routes.
    [InlineData("{controller=Home}/{action=Index}/{id?}", "/Home/Index/sample")]
    // A regex constraint's own braces and colons stay in it; the value is a sample (a mismatch shows as 404, not reached).
    [InlineData("/zip/{zip:regex(^\\d{{5}}$)}", "/zip/sample")]
    // A Razor Page handler's query is kept.
    [InlineData("/Invoices/Show/{id:int}?handler=Pdf", "/Invoices/Show/1?handler=Pdf")]
    public void Fill_Template_FitsItsConstraints(string template, string expected) =>
        Assert.Equal(expected, RouteValues.Fill(template, _ => null));
}
