using System.Text.Json;
using Tplab.Common;
using Tplab.Scan;
using Tplab.Scan.Fix;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// Rewrites beyond a method made async, on an app written as teams write them: a private lock object whose body must
/// await becomes a SemaphoreSlim(1, 1) at every lock on it (the reader that takes it too becomes async); a lock object
/// other code may see is refused with the reason; a synchronous MVC action filter that must await implements
/// IAsyncActionFilter. The result compiles (fix's build check) and scan reports none of the fixed sites again.
/// </summary>
[Collection(TestCollections.Fix)]
public sealed class FixReshapeTests
{
    private const string Program = """
        using Microsoft.AspNetCore.Mvc;
        using Microsoft.AspNetCore.Mvc.Filters;

        var builder = WebApplication.CreateBuilder(args);
        builder.Services.AddSingleton<Ledger>();
        builder.Services.AddSingleton<Shared>();
        builder.Services.AddScoped<ThrottleFilter>();
        builder.Services.AddControllers();
        var app = builder.Build();
        app.MapGet("/reserve/{sku}", (string sku, Ledger ledger) => Results.Ok(ledger.Reserve(sku)));
        app.MapGet("/count", (Ledger ledger) => Results.Ok(ledger.Count()));
        app.MapGet("/shared", (Shared shared) => Results.Ok(shared.Read()));
        app.MapControllers();
        app.Run();

        public sealed class Ledger
        {
            private readonly object _sync = new();
            private int _reserved;

            public int Reserve(string sku)
            {
                lock (_sync)
                {
                    // the journal's fsync
                    Thread.Sleep(20);
                    _reserved += sku.Length;
                    return _reserved;
                }
            }

            public int Count()
            {
                lock (_sync)
                {
                    return _reserved;
                }
            }
        }

        public class Shared
        {
            protected readonly object Gate = new();

            public int Read()
            {
                lock (Gate)
                {
                    Thread.Sleep(20);
                    return 1;
                }
            }
        }

        [ApiController]
        [Route("api/audit")]
        public sealed class AuditController : ControllerBase
        {
            [HttpGet]
            [ServiceFilter(typeof(ThrottleFilter))]
            public IActionResult Get() => Ok();
        }

        public sealed class ThrottleFilter : IActionFilter
        {
            public void OnActionExecuting(ActionExecutingContext context) => Thread.Sleep(20);

            public void OnActionExecuted(ActionExecutedContext context)
            {
            }
        }
        """;

    [Fact]
    public async Task FixApply_PrivateLockBecomesSemaphore_FilterBecomesAsync_VisibleLockRefused()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-fix-reshape-").FullName;
        try
        {
            File.Copy(Path.Combine(RepoPaths.Root, "Directory.Build.props"), Path.Combine(folder, "Directory.Build.props"));
            File.WriteAllText(Path.Combine(folder, "Shop.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk.Web\"><PropertyGroup><NoWarn>$(NoWarn);CA1515;CA1812;CA1822;IDE0060</NoWarn></PropertyGroup></Project>\n");
            File.WriteAllText(Path.Combine(folder, "Program.cs"), Program);
            var output = new StringWriter();
            var code = await FixRun.RunAsync(new FixOptions { Path = folder, Apply = true, Force = true, Format = "json" }, SilentProgress.Instance, output, CancellationToken.None);
            Assert.True(code == ExitCodes.Partial, output.ToString());

            var text = File.ReadAllText(Path.Combine(folder, "Program.cs"));
            Assert.Contains("private readonly SemaphoreSlim _sync = new(1, 1);", text, StringComparison.Ordinal);
            Assert.Equal(2, text.Split("await _sync.WaitAsync();").Length - 1);
            Assert.Equal(2, text.Split("_sync.Release();").Length - 1);
            Assert.Contains("public async Task<int> ReserveAsync(string sku)", text, StringComparison.Ordinal);
            Assert.Contains("public async Task<int> CountAsync()", text, StringComparison.Ordinal);
            Assert.Contains("await Task.Delay(20);", text, StringComparison.Ordinal);
            Assert.Contains("// the journal's fsync", text, StringComparison.Ordinal);
            Assert.Contains("public sealed class ThrottleFilter : IAsyncActionFilter", text, StringComparison.Ordinal);
            Assert.Contains("public async Task OnActionExecutionAsync(ActionExecutingContext context, ActionExecutionDelegate next)", text, StringComparison.Ordinal);
            Assert.Contains("protected readonly object Gate = new();", text, StringComparison.Ordinal);
            Assert.Contains("lock (Gate)", text, StringComparison.Ordinal);

            using var report = JsonDocument.Parse(output.ToString());
            var findings = report.RootElement.GetProperty("findings").EnumerateArray().ToList();
            var shared = findings.Where(f => f.GetProperty("userFrame").GetString()!.StartsWith("Shared.", StringComparison.Ordinal)).ToList();
            Assert.NotEmpty(shared);
            Assert.All(shared, f => Assert.Equal("refused", f.GetProperty("status").GetString()));
            Assert.Contains(shared, f => f.GetProperty("reason").GetString()!.Contains("is not private", StringComparison.Ordinal));
            Assert.All(findings.Where(f => !f.GetProperty("userFrame").GetString()!.StartsWith("Shared.", StringComparison.Ordinal)),
                f => Assert.Equal("fixed", f.GetProperty("status").GetString()));

            var after = await Scanner.ScanAsync(new ScanOptions { Path = folder }, SilentProgress.Instance, CancellationToken.None);
            Assert.DoesNotContain(after.Findings, f => f.UserFrame.StartsWith("Ledger.", StringComparison.Ordinal) || f.UserFrame.StartsWith("ThrottleFilter.", StringComparison.Ordinal));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
