using Tplab.Common;
using Tplab.Scan;
using Tplab.Scan.Fix;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// <c>--add-cancellation</c>: each method made async without a token gains <c>CancellationToken cancellationToken = default</c>
/// (the interface and every implementation together), the new async call takes it, callers with a token in scope pass
/// theirs, a constructor that waits passes none; the endpoint keeps its signature. The build compiles.
/// </summary>
[Collection(TestCollections.Fix)]
public sealed class FixCancellationTests
{
    private const string Program = """
        using System.Globalization;

        var builder = WebApplication.CreateBuilder(args);
        builder.Services.AddSingleton<IStore, SlowStore>();
        builder.Services.AddSingleton<OrderService>();
        var app = builder.Build();
        app.MapGet("/orders/{id:int}", (int id, OrderService orders, CancellationToken ct) => Results.Ok(orders.Find(id)));
        app.Run();

        public interface IStore
        {
            string Load(int id);
        }

        public sealed class SlowStore : IStore
        {
            public string Load(int id)
            {
                Thread.Sleep(20);
                return id.ToString(CultureInfo.InvariantCulture);
            }
        }

        public sealed class CachedStore : IStore
        {
            public string Load(int id) => "cached";
        }

        public sealed class OrderService(IStore store)
        {
            public string Find(int id) => store.Load(id);
        }

        public sealed class Warmup
        {
            public Warmup(IStore store)
            {
                First = store.Load(1);
            }

            public string First { get; }
        }
        """;

    [Fact]
    public async Task FixApply_AddCancellation_TokenParameterAddedToTheFamilyAndPassedDownBuildCompiles()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-fix-cancel-").FullName;
        try
        {
            File.Copy(Path.Combine(RepoPaths.Root, "Directory.Build.props"), Path.Combine(folder, "Directory.Build.props"));
            File.WriteAllText(Path.Combine(folder, "Orders.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk.Web\"><PropertyGroup><NoWarn>$(NoWarn);CA1515;CA1812;CA1822</NoWarn></PropertyGroup></Project>\n");
            File.WriteAllText(Path.Combine(folder, "Program.cs"), Program);
            var output = new StringWriter();
            var code = await FixRun.RunAsync(new FixOptions { Path = folder, Apply = true, Force = true, Format = "text", AddCancellation = true }, SilentProgress.Instance, output, CancellationToken.None);
            Assert.True(code == ExitCodes.Ok, output.ToString());

            var text = File.ReadAllText(Path.Combine(folder, "Program.cs"));
            Assert.Contains("Task<string> LoadAsync(int id, CancellationToken cancellationToken = default);", text, StringComparison.Ordinal);
            Assert.Contains("public async Task<string> LoadAsync(int id, CancellationToken cancellationToken = default)", text, StringComparison.Ordinal);
            Assert.Contains("await Task.Delay(20, cancellationToken);", text, StringComparison.Ordinal);
            Assert.Contains("public Task<string> LoadAsync(int id, CancellationToken cancellationToken = default) => Task.FromResult(\"cached\");", text, StringComparison.Ordinal);
            Assert.Contains("public async Task<string> FindAsync(int id, CancellationToken cancellationToken = default) => await store.LoadAsync(id, cancellationToken);", text, StringComparison.Ordinal);
            Assert.Contains("async (int id, OrderService orders, CancellationToken ct) => Results.Ok(await orders.FindAsync(id, ct))", text, StringComparison.Ordinal);
            Assert.Contains("First = store.LoadAsync(1).GetAwaiter().GetResult();", text, StringComparison.Ordinal);
            Assert.Contains("--add-cancellation: a CancellationToken parameter added to", output.ToString(), StringComparison.Ordinal);

            var after = await Scanner.ScanAsync(new ScanOptions { Path = folder }, SilentProgress.Instance, CancellationToken.None);
            Assert.DoesNotContain(after.Findings, f => f.Call.Name == "Thread.Sleep");
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
