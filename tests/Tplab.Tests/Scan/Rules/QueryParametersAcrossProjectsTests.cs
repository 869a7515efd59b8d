using Tplab.Scan;
using Tplab.Scan.Findings;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Rules;

/// <summary>
/// A paged list in the domain project enumerates the <c>IEnumerable&lt;T&gt;</c> its constructor is given; the services
/// that call it live in other projects and pass it their repository's <c>IQueryable</c>. A call from another project
/// binds to the constructor's twin in that project's compilation, so its callers are found by the method, not by the
/// symbol object (GrandNode's <c>PagedList.cs:40</c>). Real projects loaded by MSBuild, as a user's solution is: a
/// snippet's one compilation never shows the twin. The solution's folder also holds a module the host loads at run
/// time, which the solution does not list: named in one line.
/// </summary>
[Collection(TestCollections.Diagnose)]
public sealed class QueryParametersAcrossProjectsTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-scan-paged-").FullName;

    private const string PagedList = """
        namespace Shop.Domain;

        public interface IRepository<T> { IQueryable<T> Table { get; } }

        public class Item { public string Id { get; set; } = ""; public int DisplayOrder { get; set; } }

        public class PagedList<T> : List<T>
        {
            public PagedList(IEnumerable<T> source, int pageIndex, int pageSize) => Initialize(source, pageIndex, pageSize);

            public PagedList(IEnumerable<T> source, int pageIndex, int pageSize, int totalCount) => Initialize(source, pageIndex, pageSize, totalCount);

            public int TotalCount { get; protected set; }

            private void Initialize(IEnumerable<T> source, int pageIndex, int pageSize, int? totalCount = null)
            {
                ArgumentNullException.ThrowIfNull(source);
                TotalCount = totalCount ?? source.Count();
                source = totalCount == null ? source.Skip(pageIndex * pageSize).Take(pageSize) : source;
                AddRange(source);
            }
        }
        """;

    private const string Api = """
        using Shop.Domain;

        var builder = WebApplication.CreateBuilder(args);
        builder.Services.AddScoped<ItemService>();
        var app = builder.Build();
        app.MapGet("/items", async (ItemService items) => (await items.GetItems(0, 20)).TotalCount);
        app.MapGet("/recent", (ItemService items) => items.Recent().TotalCount);
        app.Run();

        public class ItemService(IRepository<Item> repository)
        {
            private readonly List<Item> _recent = [];

            public virtual async Task<PagedList<Item>> GetItems(int pageIndex, int pageSize)
            {
                var query = repository.Table.OrderBy(x => x.DisplayOrder);
                return await Task.FromResult(new PagedList<Item>(query, pageIndex, pageSize));
            }

            public PagedList<Item> Recent() => new PagedList<Item>(_recent, 0, 10);
        }
        """;

    private void Write(string relative, string text)
    {
        var path = Path.Combine(_folder, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, text);
    }

    [Fact]
    public async Task Scan_ParameterGivenAnotherProjectsQuery_EnumerationReportedWithItsCaller()
    {
        Write("Shop.Domain/Shop.Domain.csproj", """
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings></PropertyGroup>
            </Project>
            """);
        Write("Shop.Domain/PagedList.cs", PagedList);
        Write("Shop.Api/Shop.Api.csproj", """
            <Project Sdk="Microsoft.NET.Sdk.Web">
              <PropertyGroup><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings></PropertyGroup>
              <ItemGroup><ProjectReference Include="../Shop.Domain/Shop.Domain.csproj" /></ItemGroup>
            </Project>
            """);
        Write("Shop.Api/Program.cs", Api);
        // Copied beside the host by a build target and loaded as an application part: not in the solution.
        Write("Modules/Shop.Module.Hub/Shop.Module.Hub.csproj", """<Project Sdk="Microsoft.NET.Sdk.Razor"><ItemGroup><ProjectReference Include="../../Shop.Domain/Shop.Domain.csproj" /></ItemGroup></Project>""");
        Write("Shop.slnx", """
            <Solution>
              <Project Path="Shop.Domain/Shop.Domain.csproj" />
              <Project Path="Shop.Api/Shop.Api.csproj" />
            </Solution>
            """);
        var progress = new Lines();

        var result = await Scanner.ScanAsync(new ScanOptions { Path = Path.Combine(_folder, "Shop.slnx"), Cache = false }, progress, CancellationToken.None);

        var count = Assert.Single(result.Findings, f => f.Call.Name == "Enumerable.Count");
        Assert.EndsWith("Shop.Domain/PagedList.cs", count.Chain[^1].File, StringComparison.Ordinal);
        // One caller of two passes a query: it may run, depending on the caller, and the finding names that caller.
        Assert.Equal(Severity.Warning, count.Severity);
        Assert.Contains("passed by 1 of 2 callers (ItemService.GetItems;", count.Evidence ?? "", StringComparison.Ordinal);
        Assert.Contains(result.Findings, f => f.Call.Name == "List.AddRange" && f.Chain[^1].File.EndsWith("Shop.Domain/PagedList.cs", StringComparison.Ordinal));
        Assert.Contains(progress.All, l => l.StartsWith("tplab scan: not scanned: 1 ASP.NET Core project(s)", StringComparison.Ordinal) && l.Contains("(Shop.Module.Hub)", StringComparison.Ordinal));
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private sealed class Lines : IScanProgress
    {
        public List<string> All { get; } = [];

        public void Line(string text)
        {
            lock (All)
            {
                All.Add(text);
            }
        }

        public void Status(string text)
        {
        }
    }
}
