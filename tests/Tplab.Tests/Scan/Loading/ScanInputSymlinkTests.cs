using Tplab.Scan.Loading;

namespace Tplab.Tests.Scan.Loading;

/// <summary>The folder walk of scan's input does not follow symlinked folders: a link to a parent or two links to each other once hung it.</summary>
public sealed class ScanInputSymlinkTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-scan-links-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public void Resolve_FolderWithLinkCycles_FindsEachProjectOnce()
    {
        var app = Directory.CreateDirectory(Path.Combine(_folder, "app")).FullName;
        File.WriteAllText(Path.Combine(app, "App.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />");
        Directory.CreateSymbolicLink(Path.Combine(app, "up"), "..");
        Directory.CreateDirectory(Path.Combine(_folder, "b"));
        Directory.CreateSymbolicLink(Path.Combine(_folder, "a"), "b");
        Directory.CreateSymbolicLink(Path.Combine(_folder, "b", "a2"), "../a");

        var input = ScanInput.Resolve(_folder);

        Assert.Equal([Path.Combine(app, "App.csproj")], input.Projects);
    }
}
