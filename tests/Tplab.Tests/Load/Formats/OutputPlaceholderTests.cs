using System.Globalization;
using Tplab.Load.Formats;

namespace Tplab.Tests.Load.Formats;

/// <summary>
/// `--output run-{host}-{pid}.hlog` (issue 28 §3): each crank agent's interval log gets a name of its own, so the
/// controller's download of every agent's log loses none.
/// </summary>
public sealed class OutputPlaceholderTests
{
    [Fact]
    public void Outputs_HostAndPidPlaceholders_AreFilledAndTheFormatStillComesFromTheExtension()
    {
        var output = Assert.Single(LoadFormats.Outputs([], ["logs/run-{host}-{pid}.hlog"]));

        Assert.Equal("hlog", output.Format.Name);
        var pid = Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
        Assert.Equal($"logs/run-{LoadFormats.Placeholders("{host}")}-{pid}.hlog", output.Path);
        Assert.DoesNotContain('{', output.Path!);
        Assert.DoesNotContain('/', LoadFormats.Placeholders("{host}"));
    }

    [Fact]
    public void Placeholders_OtherBraces_AreLeftAsWritten()
    {
        Assert.Equal("run-{agent}.hlog", LoadFormats.Placeholders("run-{agent}.hlog"));
    }
}
