using System.Net.Http.Json;
using System.Text.Json;
using Tplab.Common;
using Tplab.Target;

namespace Tplab.Tests.Target;

/// <summary>Thread-pool settings reach the target's runtime in the form users apply them, and take effect.</summary>
public sealed class ThreadPoolKnobTests
{
    private static readonly HttpClient Http = new();

    private static async Task<JsonElement> ThreadsAsync(ThreadPoolSettings settings)
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions { ThreadPool = settings });
        return (await Http.GetFromJsonAsync<JsonElement>(target.Url("/threads"))).Clone();
    }

    private static ThreadPoolSettings Knob(string name, string value) => new() { Knobs = [new(name, value)] };

    [Fact]
    public async Task MinThreads_IsSetInCodeAtStartUp()
    {
        var threads = await ThreadsAsync(new ThreadPoolSettings { MinThreads = 100 });
        Assert.Equal(100, threads.GetProperty("minWorkerThreads").GetInt32());
    }

    [Fact]
    public async Task MinThreadsKnob_InRuntimeConfig_RaisesTheMinimum()
    {
        var threads = await ThreadsAsync(Knob("System.Threading.ThreadPool.MinThreads", "64"));
        Assert.Equal(64, threads.GetProperty("minWorkerThreads").GetInt32());
        Assert.Equal("64", threads.GetProperty("knobs").GetProperty("System.Threading.ThreadPool.MinThreads").GetString());
    }

    [Fact]
    public async Task MaxThreadsKnob_InRuntimeConfig_LowersTheMaximum()
    {
        var threads = await ThreadsAsync(Knob("System.Threading.ThreadPool.MaxThreads", "40"));
        Assert.Equal(40, threads.GetProperty("maxWorkerThreads").GetInt32());
    }

    [Theory]
    [InlineData("System.Threading.ThreadPool.HillClimbing.Disable", "true", "true")]
    [InlineData("System.Threading.ThreadPool.Blocking.CooperativeBlocking", "false", "false")]
    public async Task BooleanKnob_InRuntimeConfig_IsSeenByTheRuntime(string name, string value, string seen)
    {
        var threads = await ThreadsAsync(Knob(name, value));
        Assert.Equal(seen, threads.GetProperty("knobs").GetProperty(name).GetString());
    }

    [Fact]
    public async Task EnvironmentKnob_ForceMinWorkerThreads_IsReadAsHex()
    {
        // DOTNET_ThreadPool_ForceMinWorkerThreads is parsed as hexadecimal, like every DOTNET_ numeric setting: 0x20 = 32.
        var threads = await ThreadsAsync(Knob("DOTNET_ThreadPool_ForceMinWorkerThreads", "20"));
        Assert.Equal(32, threads.GetProperty("minWorkerThreads").GetInt32());
    }

    [Theory]
    [InlineData("NoEquals")]
    [InlineData("=5")]
    [InlineData("Name=")]
    [InlineData("Bad Name=1")]
    public void ParseKnobs_Malformed_IsAUsageErrorNamingIt(string knob)
    {
        var error = Assert.Throws<TplabException>(() => ThreadPoolSettings.ParseKnobs([knob]));
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains(knob, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ParseKnobs_SplitsRuntimeConfigAndEnvironmentForms()
    {
        var settings = new ThreadPoolSettings
        {
            Knobs = ThreadPoolSettings.ParseKnobs(["System.Threading.ThreadPool.MinThreads=100", "DOTNET_ThreadPool_ForceMinWorkerThreads=64"]),
        };
        Assert.Equal("System.Threading.ThreadPool.MinThreads", Assert.Single(settings.RuntimeConfigKnobs).Key);
        Assert.Equal("DOTNET_ThreadPool_ForceMinWorkerThreads", Assert.Single(settings.EnvironmentKnobs).Key);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-3)]
    [InlineData(40000)]
    public void Validated_MinThreadsOutOfRange_IsAUsageError(int min)
    {
        var error = Assert.Throws<TplabException>(() => new ThreadPoolSettings { MinThreads = min }.Validated());
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
    }

    [Fact]
    public void RuntimeConfigWriter_WritesTypedValues()
    {
        var baseConfig = Path.Combine(AppContext.BaseDirectory, "Tplab.Target.runtimeconfig.json");
        var path = RuntimeConfigWriter.Write(baseConfig, [new("A.Number", "12"), new("A.Flag", "true"), new("A.Text", "x")]);
        using var doc = JsonDocument.Parse(File.ReadAllText(path));
        var props = doc.RootElement.GetProperty("runtimeOptions").GetProperty("configProperties");
        Assert.Equal(JsonValueKind.Number, props.GetProperty("A.Number").ValueKind);
        Assert.Equal(JsonValueKind.True, props.GetProperty("A.Flag").ValueKind);
        Assert.Equal("x", props.GetProperty("A.Text").GetString());
    }
}
