using Tplab.Common;
using Tplab.Scan.Loading;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Loading;

/// <summary>The one line for an SDK that global.json asks for and the machine lacks, from what dotnet itself says.</summary>
[ParallelSafe]
public sealed class SdkCheckTests
{
    // What `dotnet --version` prints in a folder whose global.json pins an SDK that is not installed (SDK 10's muxer).
    private static readonly string[] Muxer =
    [
        "The command could not be loaded, possibly because:",
        "  * You intended to execute a .NET SDK command:",
        "      A compatible .NET SDK was not found.",
        "",
        "Requested SDK version: 9.0.999",
        "global.json file: /src/app/global.json",
        "",
        "Installed SDKs:",
        "Install the [9.0.999] .NET SDK or update [/src/app/global.json] to match an installed SDK.",
    ];

    [Fact]
    public void Describe_PinnedSdkMissing_NamesGlobalJsonAndTheInstalledSdks()
    {
        var line = SdkCheck.Describe(Muxer, ["8.0.404 [/usr/share/dotnet/sdk]", "10.0.401 [/usr/share/dotnet/sdk]"], 155);
        Assert.Equal("/src/app/global.json asks for the .NET SDK 9.0.999, which is not installed (installed: 8.0.404, 10.0.401): install it, "
            + "or change global.json's sdk.version (or its rollForward) to allow an installed one", line);
        Assert.DoesNotContain('\n', line);
    }

    [Fact]
    public void Describe_OtherFailure_SaysWhatDotnetSaid()
    {
        var line = SdkCheck.Describe(["Some other failure"], [], 1);
        Assert.Contains("Some other failure", line, StringComparison.Ordinal);
        Assert.Contains("no SDK is installed", line, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_MuxerCrash_SaysItsMessage_NotItsStack()
    {
        // What SDK 10's `dotnet --version` prints for a global.json that is not JSON (the sweep of issue 36).
        string[] crash =
        [
            "System.TypeInitializationException: The type initializer for 'Microsoft.DotNet.Cli.Parser' threw an exception.",
            " ---> System.Text.Json.JsonException: Expected depth to be zero at the end of the JSON payload.",
            "   at System.Text.Json.ThrowHelper.ThrowJsonReaderException(Utf8JsonReader& json, ExceptionResource resource)",
            "   --- End of inner exception stack trace ---",
            "   at Microsoft.DotNet.Cli.Program.Main(String[] args)",
        ];
        var line = SdkCheck.Describe(crash, ["10.0.401 [/usr/share/dotnet/sdk]"], 1);
        Assert.Contains("The type initializer for 'Microsoft.DotNet.Cli.Parser' threw an exception.", line, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception:", line, StringComparison.Ordinal);
        Assert.DoesNotContain(" at ", line, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("{\"sdk\": {\"version\": ", "not valid JSON at line 1")]
    [InlineData("", "not valid JSON at line 1")]
    public void CheckReadable_NotJson_IsOneUsageLineNamingTheFile(string text, string expected)
    {
        InFolder(folder =>
        {
            var path = Path.Combine(folder, "global.json");
            File.WriteAllText(path, text);
            var error = Assert.Throws<TplabException>(() => SdkCheck.CheckReadable(path));
            Assert.Equal(ExitCodes.Usage, error.ExitCode);
            Assert.StartsWith(path + ": " + expected, error.Message, StringComparison.Ordinal);
        });
    }

    [Fact]
    public void CheckReadable_EndlessFile_IsRefusedBeforeItIsRead()
    {
        InFolder(folder =>
        {
            var path = Path.Combine(folder, "global.json");
            File.CreateSymbolicLink(path, "/dev/zero");
            Assert.Equal(ExitCodes.Usage, Assert.Throws<TplabException>(() => SdkCheck.CheckReadable(path)).ExitCode);
        });
    }

    [Fact]
    public void Nearest_IsTheClosestUpTheFolders()
    {
        InFolder(folder =>
        {
            var inner = Directory.CreateDirectory(Path.Combine(folder, "a", "b")).FullName;
            File.WriteAllText(Path.Combine(folder, "global.json"), "{}");
            Assert.Equal(Path.Combine(folder, "global.json"), SdkCheck.Nearest(inner));
            File.WriteAllText(Path.Combine(folder, "a", "global.json"), "{}");
            Assert.Equal(Path.Combine(folder, "a", "global.json"), SdkCheck.Nearest(inner));
        });
    }

    private static void InFolder(Action<string> test)
    {
        var folder = Directory.CreateTempSubdirectory("tplab-sdkcheck-").FullName;
        try
        {
            test(folder);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
