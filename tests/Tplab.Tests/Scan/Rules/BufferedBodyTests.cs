using Tplab.Blocking;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Rules;

/// <summary>A synchronous re-read of the request body is reported unless it reads a buffer: buffering enabled and the body read whole before.</summary>
[ParallelSafe]
public sealed class BufferedBodyTests
{
    private const string Http = "using Microsoft.AspNetCore.Builder; using Microsoft.AspNetCore.Http; using Microsoft.AspNetCore.Mvc; public sealed record Dto(int Id); ";

    // A pipeline with one middleware class, and an MVC action that binds [FromBody] then re-reads the body.
    private const string Pipeline = "public static class Startup { public static void Configure(IApplicationBuilder app) => app.UseMiddleware<Buffering>(); } public static class Root { public static string Handle(OrdersController c) => c.Post(new Dto(1)); } public sealed class OrdersController : ControllerBase { public string Post([FromBody] Dto dto) { Request.Body.Position = 0; using var reader = new StreamReader(Request.Body); return reader.ReadToEnd(); } } ";

    public static TheoryData<string, string, bool> Bodies => new()
    {
        // Buffered and already read whole: the sync read reads the buffer.
        { "enabled and awaited form", Http + "public static class Root { public static async Task<string> Handle(HttpRequest request) { request.EnableBuffering(); await request.ReadFormAsync(); request.Body.Position = 0; return new StreamReader(request.Body).ReadToEnd(); } }", false },
        { "enabled and read to the end in a helper", Http + "public static class Root { public static async Task<string> Handle(HttpRequest request) { request.EnableBuffering(); var text = await new StreamReader(request.Body, leaveOpen: true).ReadToEndAsync(); request.Body.Position = 0; return Raw.Of(request) + text; } } public static class Raw { public static string Of(HttpRequest r) { using var reader = new StreamReader(r.Body, leaveOpen: true); return reader.ReadToEnd(); } }", false },
        { "from body action with buffering", Http + "public static class Root { public static string Handle(OrdersController c) => c.Post(new Dto(1)); } public sealed class OrdersController : ControllerBase { public string Post([FromBody] Dto dto) { Request.EnableBuffering(); Request.Body.Position = 0; using var reader = new StreamReader(Request.Body); return reader.ReadToEnd(); } }", false },
        { "middleware of the pipeline buffers, the action binds the body", Http + Pipeline + "public sealed class Buffering { public Task InvokeAsync(HttpContext context) { context.Request.EnableBuffering(); return Task.CompletedTask; } }", false },
        // Not proven: no buffering, or nothing read before.
        { "middleware buffers only some requests", Http + Pipeline + "public sealed class Buffering { public Task InvokeAsync(HttpContext context) { if (context.Request.Body.CanSeek) { context.Request.EnableBuffering(); } return Task.CompletedTask; } }", true },
        { "enabled but not read before", Http + "public static class Root { public static string Handle(HttpRequest request) { request.EnableBuffering(); return new StreamReader(request.Body).ReadToEnd(); } }", true },
        { "read before but not buffered", Http + "public static class Root { public static async Task<string> Handle(HttpRequest request) { await request.ReadFormAsync(); return new StreamReader(request.Body).ReadToEnd(); } }", true },
        { "from body without buffering", Http + "public static class Root { public static string Handle(OrdersController c) => c.Post(new Dto(1)); } public sealed class OrdersController : ControllerBase { public string Post([FromBody] Dto dto) { using var reader = new StreamReader(Request.Body); return reader.ReadToEnd(); } }", true },
        { "read after, not before", Http + "public static class Root { public static async Task<string> Handle(HttpRequest request) { request.EnableBuffering(); var s = new StreamReader(request.Body).ReadToEnd(); await request.ReadFormAsync(); return s; } }", true },
    };

    [Theory]
    [MemberData(nameof(Bodies))]
    public void Findings_RequestBodyReread_IsReportedOnlyWhenNotBuffered(string name, string code, bool reported)
    {
        var findings = Snippet.Findings(code, library: PackageFakes.Code).Where(f => f.Call.Kind == BlockingKind.SyncStreamIO).ToList();
        Assert.True(reported == (findings.Count > 0), $"{name}: expected {(reported ? "a finding" : "nothing")}, got {string.Join("; ", findings.Select(f => f.Call.Name))}");
    }
}
