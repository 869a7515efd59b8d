using System.Globalization;

namespace Tplab.Target;

/// <summary>Command line of the target process, as written by tplab's launcher.</summary>
internal sealed record TargetOptions(
    string Mode,
    int Port,
    string? Downstream,
    string? ConnectionString,
    int? MinThreads,
    TimeSpan RequestTimeout,
    bool WatchParent)
{
    public static TargetOptions Parse(string[] args)
    {
        var mode = args.Length > 0 && !args[0].StartsWith('-') ? args[0] : "serve";
        int port = 0;
        string? downstream = null, pg = Environment.GetEnvironmentVariable("TPLAB_PG");
        int? minThreads = null;
        var timeout = TimeSpan.FromSeconds(30);
        var watchParent = false;
        for (var i = 0; i < args.Length; i++)
        {
            string Next() => i + 1 < args.Length ? args[++i] : throw new ArgumentException($"{args[i]} needs a value");
            switch (args[i])
            {
                case "--port": port = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--downstream": downstream = Next(); break;
                case "--pg": pg = Next(); break;
                case "--min-threads": minThreads = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--request-timeout-ms": timeout = TimeSpan.FromMilliseconds(int.Parse(Next(), CultureInfo.InvariantCulture)); break;
                case "--watch-parent": watchParent = true; break;
                default: break;
            }
        }
        return new TargetOptions(mode, port, downstream, string.IsNullOrWhiteSpace(pg) ? null : pg, minThreads, timeout, watchParent);
    }
}
