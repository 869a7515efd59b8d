using System.Globalization;
using Tplab.Common;
using Tplab.Diagnose;
using Tplab.Lab.Running;
using Tplab.Watch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Common;

/// <summary>Numbers users read have a dot, whatever the machine's culture (de-DE writes 0,25).</summary>
[ParallelSafe]
public sealed class InvariantCultureTests
{
    public static TheoryData<string, Func<object>, string> BadOptions => new()
    {
        { "watch interval", () => new WatchOptions { Interval = TimeSpan.FromMilliseconds(100) }.Validated(), "--interval must be at least 0.25 s, got 0.1 s" },
        { "watch interval max", () => new WatchOptions { Interval = TimeSpan.FromSeconds(3600.5) }.Validated(), "--interval must be at most 1 h, got 3600.5s" },
        { "diagnose duration", () => new DiagnoseOptions { Duration = TimeSpan.FromMilliseconds(150) }.Validated(), "--duration must be between 0.2s and 120s, got 0.15s" },
        { "diagnose threads", () => new DiagnoseOptions { MinimumThreads = 10000.5 }.Validated(), "got 10000.5" },
        { "lab interval", () => new LabOptions { WatchInterval = TimeSpan.FromMilliseconds(100.5) }.Validated(), "got 100.5ms" },
    };

    [Theory]
    [MemberData(nameof(BadOptions))]
    public void OptionErrors_UnderGermanCulture_UseADot(string what, Func<object> validate, string expected)
    {
        var before = CultureInfo.CurrentCulture;
        try
        {
            CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo("de-DE");
            var e = Assert.Throws<TplabException>(() => validate());
            Assert.True(e.Message.Contains(expected, StringComparison.Ordinal), $"{what}: {e.Message}");
        }
        finally
        {
            CultureInfo.CurrentCulture = before;
        }
    }
}
