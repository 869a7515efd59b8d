using System.Globalization;

namespace Tplab.Target;

/// <summary>
/// The target's command line: the one definition of its flags, written by tplab's launcher (<see cref="ToArguments"/>)
/// and read by the target (<see cref="Parse"/>). This file is compiled into both Tplab.Target and Tplab.Core (linked),
/// so the writer and the reader cannot drift apart. The connection string travels in <see cref="ConnectionStringVariable"/>,
/// never on the command line, so it does not show in <c>ps</c>.
/// </summary>
internal sealed record TargetCommandLine
{
    /// <summary>The environment variable that carries the Npgsql connection string (also the user's <c>--pg</c> default).</summary>
    public const string ConnectionStringVariable = "TPLAB_PG";

    /// <summary><c>serve</c> (the seed variants) or <c>downstream</c> (the slow second service).</summary>
    public string Mode { get; init; } = "serve";

    /// <summary>Port on 127.0.0.1; 0 lets the OS pick one.</summary>
    public int Port { get; init; }

    /// <summary>Base address of the downstream service, or null.</summary>
    public string? Downstream { get; init; }

    /// <summary>The Npgsql connection string (from <see cref="ConnectionStringVariable"/>), or null.</summary>
    public string? ConnectionString { get; init; }

    /// <summary>ThreadPool.SetMinThreads at start, or null to leave the runtime's minimum.</summary>
    public int? MinThreads { get; init; }

    /// <summary>Timeout of the target's own calls to the downstream.</summary>
    public TimeSpan RequestTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Exit when stdin closes (tplab ended, even by kill -9).</summary>
    public bool WatchParent { get; init; }

    /// <summary>The arguments after the target's dll, in the order <see cref="Parse"/> reads them.</summary>
    public IReadOnlyList<string> ToArguments()
    {
        var args = new List<string> { Mode, "--port", Port.ToString(CultureInfo.InvariantCulture), "--request-timeout-ms", ((long)RequestTimeout.TotalMilliseconds).ToString(CultureInfo.InvariantCulture) };
        if (WatchParent)
        {
            args.Add("--watch-parent");
        }
        if (Downstream is not null)
        {
            args.AddRange(["--downstream", Downstream]);
        }
        if (MinThreads is int min)
        {
            args.AddRange(["--min-threads", min.ToString(CultureInfo.InvariantCulture)]);
        }
        return args;
    }

    /// <summary>Reads <paramref name="args"/>; an unknown flag, a missing value or a bad number is an <see cref="ArgumentException"/>.</summary>
    public static TargetCommandLine Parse(IReadOnlyList<string> args, string? connectionString)
    {
        ArgumentNullException.ThrowIfNull(args);
        var line = new TargetCommandLine { ConnectionString = string.IsNullOrWhiteSpace(connectionString) ? null : connectionString };
        var i = 0;
        if (args.Count > 0 && !args[0].StartsWith('-'))
        {
            line = line with { Mode = args[0] is "serve" or "downstream" ? args[0] : throw new ArgumentException($"unknown mode '{args[0]}' (serve or downstream)") };
            i = 1;
        }
        for (; i < args.Count; i++)
        {
            var flag = args[i];
            string Next() => i + 1 < args.Count ? args[++i] : throw new ArgumentException($"{flag} needs a value");
            line = flag switch
            {
                "--port" => line with { Port = Number(flag, Next(), 0, 65535) },
                "--downstream" => line with { Downstream = Next() },
                "--min-threads" => line with { MinThreads = Number(flag, Next(), 1, 32767) },
                "--request-timeout-ms" => line with { RequestTimeout = TimeSpan.FromMilliseconds(Number(flag, Next(), 1, int.MaxValue)) },
                "--watch-parent" => line with { WatchParent = true },
                _ => throw new ArgumentException($"unknown flag '{flag}'"),
            };
        }
        return line;
    }

    private static int Number(string flag, string text, int min, int max) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n >= min && n <= max
            ? n
            : throw new ArgumentException($"{flag} must be a whole number from {min.ToString(CultureInfo.InvariantCulture)} to {max.ToString(CultureInfo.InvariantCulture)}, got '{text}'");
}
