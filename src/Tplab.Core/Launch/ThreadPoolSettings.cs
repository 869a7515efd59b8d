using Tplab.Common;

namespace Tplab.Launch;

/// <summary>
/// How a target's thread pool is configured, in the forms users apply:
/// <see cref="MinThreads"/> is <c>ThreadPool.SetMinThreads(N, io)</c> at start-up; each knob is a runtime
/// configuration property (runtimeconfig.json <c>configProperties</c>), or, when its name starts with
/// <c>DOTNET_</c>, an environment variable of the target's runtime. See docs/target.md.
/// </summary>
public sealed record ThreadPoolSettings
{
    /// <summary>The runtime's defaults: no SetMinThreads call and no knobs.</summary>
    public static readonly ThreadPoolSettings Default = new();

    /// <summary>Minimum worker threads set in code at start-up; null keeps the runtime's default (the core count).</summary>
    public int? MinThreads { get; init; }

    /// <summary>Knobs as name → value, in the order given.</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Knobs { get; init; } = [];

    /// <summary>Knobs that go into the target's runtimeconfig.json.</summary>
    public IEnumerable<KeyValuePair<string, string>> RuntimeConfigKnobs => Knobs.Where(k => !IsEnvironmentKnob(k.Key));

    /// <summary>Knobs that go into the target's environment.</summary>
    public IEnumerable<KeyValuePair<string, string>> EnvironmentKnobs => Knobs.Where(k => IsEnvironmentKnob(k.Key));

    /// <summary>Parses <c>NAME=VALUE</c> knobs; a malformed one is a usage error naming it.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> ParseKnobs(IEnumerable<string> knobs)
    {
        var parsed = new List<KeyValuePair<string, string>>();
        foreach (var knob in knobs)
        {
            var eq = knob.IndexOf('=', StringComparison.Ordinal);
            if (eq <= 0 || eq == knob.Length - 1)
            {
                throw TplabException.Usage($"--knob '{knob}' must be NAME=VALUE, for example System.Threading.ThreadPool.MinThreads=100");
            }
            var name = knob[..eq].Trim();
            if (name.Any(char.IsWhiteSpace))
            {
                throw TplabException.Usage($"--knob '{knob}': the name must not contain spaces");
            }
            parsed.Add(new(name, knob[(eq + 1)..].Trim()));
        }
        return parsed;
    }

    /// <summary>Validates the ranges; throws a usage error naming the bad value.</summary>
    public ThreadPoolSettings Validated()
    {
        if (MinThreads is < 1 or > short.MaxValue)
        {
            throw TplabException.Usage($"--min-threads must be between 1 and {short.MaxValue}, got {MinThreads}");
        }
        return this;
    }

    /// <summary>A short label such as "min 100" or "default", for tables.</summary>
    public string Label()
    {
        var parts = new List<string>();
        if (MinThreads is int m)
        {
            parts.Add($"SetMinThreads({m})");
        }
        parts.AddRange(Knobs.Select(k => $"{ShortName(k.Key)}={k.Value}"));
        return parts.Count == 0 ? "default" : string.Join(", ", parts);
    }

    private static bool IsEnvironmentKnob(string name) => name.StartsWith("DOTNET_", StringComparison.Ordinal);

    private static string ShortName(string name) =>
        name.StartsWith("System.Threading.ThreadPool.", StringComparison.Ordinal) ? name["System.Threading.ThreadPool.".Length..] : name;

    public bool Equals(ThreadPoolSettings? other) =>
        other is not null && MinThreads == other.MinThreads && Knobs.SequenceEqual(other.Knobs);

    public override int GetHashCode() => HashCode.Combine(MinThreads, Knobs.Count);
}
