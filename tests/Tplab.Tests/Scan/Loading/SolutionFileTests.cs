using Tplab.Common;
using Tplab.Scan.Loading;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Loading;

/// <summary>A solution or solution filter is read like every input: a regular file within its limit, never a FIFO.</summary>
[ParallelSafe]
public sealed class SolutionFileTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-solutionfile-").FullName;

    [Theory]
    [InlineData("All.slnf", "the solution filter")]
    [InlineData("All.sln", "the solution")]
    [InlineData("All.slnx", "the solution")]
    public async Task ProjectsAsync_Fifo_RefusedAtOnce(string name, string what)
    {
        var path = Path.Combine(_folder, name);
        Fifo.Make(path);
        var e = await Assert.ThrowsAsync<TplabException>(() => SolutionFile.ProjectsAsync(path, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(60)));
        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.Contains($"{what} {path}: is not a regular file", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("All.slnf", "the solution filter")]
    [InlineData("All.slnx", "the solution")]
    public async Task ProjectsAsync_OverTheLimit_RefusedNamingIt(string name, string what)
    {
        var path = Path.Combine(_folder, name);
        await using (var file = File.Create(path))
        {
            file.SetLength(InputLimit.Solution.Bytes + 1); // sparse: no disk used
        }
        var e = await Assert.ThrowsAsync<TplabException>(() => SolutionFile.ProjectsAsync(path, CancellationToken.None));
        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.Contains($"{what} {path}: larger than 16 MiB", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ProjectsAsync_Filter_ProjectsRelativeToItsSolution()
    {
        Directory.CreateDirectory(Path.Combine(_folder, "src"));
        File.WriteAllText(Path.Combine(_folder, "src", "All.sln"), "");
        File.WriteAllText(Path.Combine(_folder, "All.slnf"), """{"solution": {"path": "src\\All.sln", "projects": ["A\\A.csproj"]}}""");
        Assert.Equal([Path.Combine(_folder, "src", "A", "A.csproj")], await SolutionFile.ProjectsAsync(Path.Combine(_folder, "All.slnf"), CancellationToken.None));
    }

    [Fact]
    public async Task ProjectsAsync_FilterOfASolutionThatIsNotThere_IsAUsageLine()
    {
        // dotnet build refuses such a filter; the sweep of issue 36 found it scanned as if the solution were there.
        File.WriteAllText(Path.Combine(_folder, "All.slnf"), """{"solution": {"path": "Nope.slnx", "projects": ["A\\A.csproj"]}}""");
        var error = await Assert.ThrowsAsync<TplabException>(() => SolutionFile.ProjectsAsync(Path.Combine(_folder, "All.slnf"), CancellationToken.None));
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains("Nope.slnx, which does not exist", error.Message, StringComparison.Ordinal);
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
