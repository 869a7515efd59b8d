using Tplab.Scan.Loading;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Loading;

/// <summary>
/// A modular app's host copies its modules beside itself at build time and loads them at run time: the modules are
/// under the solution's folder, not in the solution and referenced by none of its projects. The scan reads what the solution
/// lists, so it names them in one line rather than let the report speak for code it never read.
/// </summary>
[ParallelSafe]
public sealed class UnlistedProjectsTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-unlisted-").FullName;

    private string Project(string relative, string sdk, string items = "")
    {
        var path = Path.Combine(_folder, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, $"""<Project Sdk="{sdk}"><ItemGroup>{items}</ItemGroup></Project>""");
        return path;
    }

    // The host and the module it lists; a module the host references (loaded through it); the modules its build copies
    // beside it, never listed, one of them referenced only by another such module.
    private List<string> ModularShop()
    {
        var host = Project("src/Shop.WebHost/Shop.WebHost.csproj", "Microsoft.NET.Sdk.Web",
            """<ProjectReference Include="..\Modules\Shop.Module.Catalog\Shop.Module.Catalog.csproj" /><ProjectReference Include="../Modules/Shop.Module.Core/Shop.Module.Core.csproj" />""");
        var catalog = Project("src/Modules/Shop.Module.Catalog/Shop.Module.Catalog.csproj", "Microsoft.NET.Sdk.Razor");
        Project("src/Modules/Shop.Module.Core/Shop.Module.Core.csproj", "Microsoft.NET.Sdk.Razor");
        Project("src/Modules/Shop.Module.Orders/Shop.Module.Orders.csproj", "Microsoft.NET.Sdk.Razor", """<ProjectReference Include="..\Shop.Module.Catalog\Shop.Module.Catalog.csproj" />""");
        Project("src/Modules/Shop.Module.Notifications/Shop.Module.Notifications.csproj", "Microsoft.NET.Sdk.Razor", """<ProjectReference Include="..\Shop.Module.SignalR\Shop.Module.SignalR.csproj" />""");
        Project("src/Modules/Shop.Module.SignalR/Shop.Module.SignalR.csproj", "Microsoft.NET.Sdk", """<FrameworkReference Include="Microsoft.AspNetCore.App" />""");
        Project("test/Shop.Module.SignalR.Tests/Shop.Module.SignalR.Tests.csproj", "Microsoft.NET.Sdk.Web", """<PackageReference Include="xunit" Version="2.9.0" />""");
        Project("tools/Importer/Importer.csproj", "Microsoft.NET.Sdk");
        Project("src/Shop.WebHost/bin/Debug/Copied/Copied.csproj", "Microsoft.NET.Sdk.Web");
        return [host, catalog];
    }

    [Fact]
    public void Find_ModulesTheSolutionDoesNotReach_NamesTheAspNetCoreOnes()
    {
        var listed = ModularShop();

        // Core is loaded through the host's reference; SignalR, referenced only by an unlisted module, is not; SignalR
        // uses the shared framework; the tests, the console tool and the build output are not the app's request code.
        Assert.Equal(["Shop.Module.Notifications", "Shop.Module.Orders", "Shop.Module.SignalR"], UnlistedProjects.Find(_folder, listed).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task Line_UnlistedModules_OneLineWithTheCountNamesAndHowToIncludeThem()
    {
        var listed = ModularShop();

        var line = await UnlistedProjects.LineAsync(Path.Combine(_folder, "Shop.sln"), listed, CancellationToken.None);

        Assert.NotNull(line);
        Assert.StartsWith("tplab scan: not scanned: 3 ASP.NET Core project(s) under its folder that Shop.sln does not list nor reference", line, StringComparison.Ordinal);
        Assert.Contains("(Shop.Module.Notifications, Shop.Module.Orders, Shop.Module.SignalR)", line, StringComparison.Ordinal);
        Assert.EndsWith("add them to the solution, or scan a .csproj", line, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', line);
    }

    [Fact]
    public async Task Line_EverythingListedOrAFilter_SaysNothing()
    {
        var listed = ModularShop();
        var all = Directory.EnumerateFiles(_folder, "*.csproj", SearchOption.AllDirectories).ToList();

        Assert.Null(await UnlistedProjects.LineAsync(Path.Combine(_folder, "Shop.sln"), all, CancellationToken.None));
        // A solution filter leaves projects out on purpose.
        Assert.Null(await UnlistedProjects.LineAsync(Path.Combine(_folder, "Shop.slnf"), listed, CancellationToken.None));
    }

    [Fact]
    public async Task Line_AProjectAnotherSolutionLists_IsThatSolutions()
    {
        var listed = ModularShop();
        Project("tools/Admin.Web/Admin.Web.csproj", "Microsoft.NET.Sdk.Web");
        File.WriteAllText(Path.Combine(_folder, "tools", "Tools.slnx"), """<Solution><Project Path="Admin.Web/Admin.Web.csproj" /></Solution>""");
        // A solution that does not read claims nothing, and says nothing wrong.
        File.WriteAllText(Path.Combine(_folder, "tools", "Broken.slnx"), "<Solution");

        var line = await UnlistedProjects.LineAsync(Path.Combine(_folder, "Shop.sln"), listed, CancellationToken.None);

        Assert.NotNull(line);
        Assert.DoesNotContain("Admin.Web", line, StringComparison.Ordinal);
        Assert.StartsWith("tplab scan: not scanned: 3 ASP.NET Core project(s)", line, StringComparison.Ordinal);
    }

    [Fact]
    public void Find_AProjectFileThatIsNotXml_IsNotNamed()
    {
        var listed = ModularShop();
        var broken = Path.Combine(_folder, "src/Modules/Broken/Broken.csproj");
        Directory.CreateDirectory(Path.GetDirectoryName(broken)!);
        File.WriteAllText(broken, "<Project Sdk=\"Microsoft.NET.Sdk.Web\"");

        Assert.DoesNotContain("Broken", UnlistedProjects.Find(_folder, listed));
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
