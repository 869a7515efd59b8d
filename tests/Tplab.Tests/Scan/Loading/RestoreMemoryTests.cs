using Tplab.Scan.Loading;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Loading;

/// <summary>A failed restore is remembered for exactly the files it depended on: change one and it is tried again.</summary>
[ParallelSafe]
public sealed class RestoreMemoryTests
{
    [Fact]
    public void FileFor_SameFiles_SameKey_AndAChangedPropsFileOrProject_AnotherKey()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-restore-memory-").FullName;
        try
        {
            var cache = Path.Combine(folder, "cache");
            Directory.CreateDirectory(Path.Combine(folder, "src", "Api"));
            var project = Path.Combine(folder, "src", "Api", "Api.csproj");
            File.WriteAllText(project, "<Project Sdk=\"Microsoft.NET.Sdk.Web\" />");
            var projects = new[] { new ProjectFile(project) };
            var first = RestoreMemory.FileFor(projects, cache);
            Assert.Null(RestoreMemory.Failed(first));

            RestoreMemory.Remember(first, "exit code 1: NU1101: Unable to find package Contoso.Missing");
            Assert.Equal("exit code 1: NU1101: Unable to find package Contoso.Missing", RestoreMemory.Failed(RestoreMemory.FileFor(projects, cache)));

            // A Directory.Build.props above the project, or the project itself, changes what the restore would do.
            File.WriteAllText(Path.Combine(folder, "Directory.Build.props"), "<Project />");
            var withProps = RestoreMemory.FileFor(projects, cache);
            Assert.NotEqual(first, withProps);
            Assert.Null(RestoreMemory.Failed(withProps));
            File.WriteAllText(project, "<Project Sdk=\"Microsoft.NET.Sdk\" />");
            Assert.NotEqual(withProps, RestoreMemory.FileFor(projects, cache));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
