using System.Text.Json;
using Tplab.Common;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Launch;

/// <summary>The generated runtimeconfig.json: typed values, and the app's file read like any input (bounded, never a FIFO).</summary>
[ParallelSafe]
public sealed class RuntimeConfigWriterTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-runtimeconfig-test-").FullName;

    [Fact]
    public void Write_WritesTypedValues()
    {
        var baseConfig = Path.Combine(AppContext.BaseDirectory, "Tplab.Target.runtimeconfig.json");
        var path = RuntimeConfigWriter.Write(baseConfig, [new("A.Number", "12"), new("A.Flag", "true"), new("A.Text", "x")]);
        using var doc = JsonDocument.Parse(File.ReadAllText(path));
        var props = doc.RootElement.GetProperty("runtimeOptions").GetProperty("configProperties");
        Assert.Equal(JsonValueKind.Number, props.GetProperty("A.Number").ValueKind);
        Assert.Equal(JsonValueKind.True, props.GetProperty("A.Flag").ValueKind);
        Assert.Equal("x", props.GetProperty("A.Text").GetString());
    }

    [Theory]
    [InlineData("fifo", "is not a regular file")]
    [InlineData("large", "larger than 4 MiB, the most tplab reads as a runtimeconfig.json")]
    [InlineData("array", "cannot be read: not an object")]
    [InlineData("no-options", "cannot be read: no runtimeOptions object")]
    [InlineData("broken", "cannot be read")]
    public void Write_BadAppConfig_OneUsageLine(string kind, string says)
    {
        var path = Path.Combine(_folder, "App.runtimeconfig.json");
        switch (kind)
        {
            case "fifo": Fifo.Make(path); break;
            case "large": File.WriteAllText(path, "{\"runtimeOptions\": {}, \"pad\": \"" + new string('x', 5 << 20) + "\"}"); break;
            case "array": File.WriteAllText(path, "[]"); break;
            case "no-options": File.WriteAllText(path, "{\"runtimeOptions\": 3}"); break;
            default: File.WriteAllText(path, "{ not json"); break;
        }
        var e = Assert.Throws<TplabException>(() => RuntimeConfigWriter.Write(path, [new("A.Number", "12")]));
        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.Contains(says, e.Message, StringComparison.Ordinal);
        Assert.Contains(path, e.Message, StringComparison.Ordinal);
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
