using Tplab.Common;
using Tplab.Scan;
using Tplab.Scan.Fix;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// A lambda that must await, passed as Func&lt;T&gt; to the app's own cache helper: the parameter becomes
/// Func&lt;Task&lt;T&gt;&gt;, the helper async (its call of the factory awaited), the lambda async, the other caller's
/// plain lambda returns Task.FromResult; the build compiles and scan no longer reports the sleep. The same shape through
/// a package's Func (a DI factory) stays refused with its reason.
/// </summary>
[Collection(TestCollections.Fix)]
public sealed class FixDelegateTests
{
    private const string Program = """
        using System.Collections.Concurrent;

        var builder = WebApplication.CreateBuilder(args);
        builder.Services.AddSingleton<Cache>();
        builder.Services.AddSingleton<Catalog>();
        var app = builder.Build();
        app.MapGet("/price/{sku}", (string sku, Catalog catalog) => Results.Ok(catalog.Price(sku)));
        app.MapGet("/name/{sku}", (string sku, Catalog catalog) => Results.Ok(catalog.Name(sku)));
        app.Run();

        public sealed class Cache
        {
            private readonly ConcurrentDictionary<string, object> _values = new(StringComparer.Ordinal);

            public T GetOrAdd<T>(string key, Func<T> factory)
            {
                if (_values.TryGetValue(key, out var known))
                {
                    return (T)known;
                }
                var value = factory();
                _values[key] = value!;
                return value;
            }
        }

        public sealed class Catalog(Cache cache)
        {
            public decimal Price(string sku) => cache.GetOrAdd("price:" + sku, () => Lookup(sku));

            public string Name(string sku) => cache.GetOrAdd("name:" + sku, () => sku.ToUpperInvariant());

            private static decimal Lookup(string sku)
            {
                // the price service's round trip
                Thread.Sleep(20);
                return sku.Length;
            }
        }
        """;

    [Fact]
    public async Task FixApply_LambdaPassedAsTheAppsOwnFunc_ParameterBecomesFuncOfTaskBuildCompiles()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-fix-delegate-").FullName;
        try
        {
            File.Copy(Path.Combine(RepoPaths.Root, "Directory.Build.props"), Path.Combine(folder, "Directory.Build.props"));
            File.WriteAllText(Path.Combine(folder, "Shop.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk.Web\"><PropertyGroup><NoWarn>$(NoWarn);CA1515;CA1812;CA1822</NoWarn></PropertyGroup></Project>\n");
            File.WriteAllText(Path.Combine(folder, "Program.cs"), Program);
            var output = new StringWriter();
            var code = await FixRun.RunAsync(new FixOptions { Path = folder, Apply = true, Force = true, Format = "json" }, SilentProgress.Instance, output, CancellationToken.None);
            Assert.True(code == ExitCodes.Ok, output.ToString());

            var text = File.ReadAllText(Path.Combine(folder, "Program.cs"));
            Assert.Contains("public async Task<T> GetOrAddAsync<T>(string key, Func<Task<T>> factory)", text, StringComparison.Ordinal);
            Assert.Contains("var value = await factory();", text, StringComparison.Ordinal);
            Assert.Contains("cache.GetOrAddAsync(\"price:\" + sku, async () => await LookupAsync(sku))", text, StringComparison.Ordinal);
            Assert.Contains("cache.GetOrAddAsync(\"name:\" + sku, () => Task.FromResult<string>(sku.ToUpperInvariant()))", text, StringComparison.Ordinal);
            Assert.Contains("await Task.Delay(20);", text, StringComparison.Ordinal);

            var after = await Scanner.ScanAsync(new ScanOptions { Path = folder }, SilentProgress.Instance, CancellationToken.None);
            Assert.DoesNotContain(after.Findings, f => f.Call.Name == "Thread.Sleep");
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
