using System.Globalization;

namespace Tplab.Launch;

/// <summary>
/// The forms in which users set the pool's minimum worker threads, in one place: the runtimeconfig knob (what
/// runtimeconfig.template.json and the MSBuild property ThreadPoolMinThreads produce), the environment variable the
/// runtime reads in hexadecimal, and the call in code.
/// </summary>
public static class ThreadPoolForms
{
    /// <summary>The runtimeconfig.json <c>configProperties</c> name.</summary>
    public const string MinThreadsKnob = "System.Threading.ThreadPool.MinThreads";

    /// <summary>The environment variable; the runtime parses DOTNET_ numbers as hexadecimal (tests/…/ThreadPoolKnobTests proves it).</summary>
    public const string MinThreadsEnvironment = "DOTNET_ThreadPool_ForceMinWorkerThreads";

    /// <summary>The MSBuild property that writes <see cref="MinThreadsKnob"/> into the built runtimeconfig.json.</summary>
    public const string MinThreadsMsBuild = "ThreadPoolMinThreads";

    /// <summary><paramref name="value"/> as the runtime reads a DOTNET_ number: hexadecimal, no prefix.</summary>
    public static string Hex(int value) => value.ToString("X", CultureInfo.InvariantCulture);

    /// <summary>Ready-to-paste settings for a minimum of <paramref name="min"/> worker threads, labelled by where each goes.</summary>
    public static IReadOnlyList<(string Where, string Text)> PasteReady(int min)
    {
        var n = min.ToString(CultureInfo.InvariantCulture);
        return
        [
            ("runtimeconfig.template.json (next to the .csproj)", $$"""{ "configProperties": { "{{MinThreadsKnob}}": {{n}} } }"""),
            ("the .csproj", $"<PropertyGroup><{MinThreadsMsBuild}>{n}</{MinThreadsMsBuild}></PropertyGroup>"),
            ("the environment (hexadecimal: 0x" + Hex(min) + " = " + n + ")", $"{MinThreadsEnvironment}={Hex(min)}"),
            ("code, first thing in Program.cs", $"ThreadPool.GetMinThreads(out _, out var io); ThreadPool.SetMinThreads({n}, io);"),
        ];
    }
}
