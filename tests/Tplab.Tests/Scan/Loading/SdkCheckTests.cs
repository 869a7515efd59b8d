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
}
