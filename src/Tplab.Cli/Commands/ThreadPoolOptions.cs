using System.CommandLine;
using Tplab.Launch;

namespace Tplab.Cli.Commands;

/// <summary>The thread-pool options shared by serve, run and watch -- : --min-threads and --knob.</summary>
internal static class ThreadPoolOptions
{
    public static (Option<int?> MinThreads, Option<string[]> Knobs) Create() =>
    (
        new Option<int?>("--min-threads") { Description = "ThreadPool.SetMinThreads(N, io) in the target at start-up" },
        new Option<string[]>("--knob")
        {
            Description = "Runtime knob NAME=VALUE for the target: runtimeconfig.json configProperties, or the environment for DOTNET_* names (repeatable)",
            AllowMultipleArgumentsPerToken = false,
        }
    );

    public static ThreadPoolSettings Bind(ParseResult result, Option<int?> minThreads, Option<string[]> knobs) =>
        new ThreadPoolSettings
        {
            MinThreads = result.GetValue(minThreads),
            Knobs = ThreadPoolSettings.ParseKnobs(result.GetValue(knobs) ?? []),
        }.Validated();
}
