using System.Diagnostics.Tracing;
using System.Globalization;
using Microsoft.Diagnostics.NETCore.Client;
using Tplab.Diagnose.Capture;
using Tplab.Runtime;

namespace Tplab.Diagnose.Offline;

/// <summary>
/// The <c>dotnet-trace collect</c> command line that records what <c>tplab diagnose --trace</c> reads: the providers of
/// the live capture (<see cref="DiagnoseProviders.All"/>) and of the pool watch (<see cref="RuntimeProviders.ForWatch"/>),
/// merged per provider. Derived from those lists, so docs/diagnose.md's line is checked against the code by a test.
/// </summary>
public static class TraceRecipe
{
    /// <summary>The providers, merged: one entry per provider, keywords OR-ed, the most verbose level, arguments joined.</summary>
    public static IReadOnlyList<EventPipeProvider> Providers()
    {
        var all = DiagnoseProviders.All.Concat(RuntimeProviders.ForWatch(TimeSpan.FromSeconds(1)));
        return [.. all.GroupBy(p => p.Name).Select(g => new EventPipeProvider(
            g.Key,
            g.Max(p => p.EventLevel),
            g.Aggregate(0L, (k, p) => k | p.Keywords),
            g.SelectMany(p => p.Arguments ?? new Dictionary<string, string>()).GroupBy(a => a.Key).ToDictionary(a => a.Key, a => a.First().Value)))];
    }

    /// <summary>The <c>--providers</c> value: <c>Name:0xKEYWORDS:LEVEL[:key=value;…]</c>, comma-separated.</summary>
    public static string ProvidersArgument() => string.Join(',', Providers().Select(Format));

    /// <summary>The whole command, for <paramref name="pid"/> (a number or a placeholder) writing <paramref name="output"/>.</summary>
    public static string Command(string pid, string output) =>
        $"dotnet-trace collect -p {pid} --duration 00:00:00:05 --providers '{ProvidersArgument()}' -o {output}";

    private static string Format(EventPipeProvider p)
    {
        var text = string.Create(CultureInfo.InvariantCulture, $"{p.Name}:0x{p.Keywords:X}:{(int)p.EventLevel}");
        if (p.Arguments is { Count: > 0 } args)
        {
            // dotnet-trace's rule: a value holding ';' or '=' (or a line break) is wrapped in double quotes.
            text += ":" + string.Join(';', args.OrderBy(a => a.Key, StringComparer.Ordinal).Select(a =>
                a.Value.IndexOfAny([';', '=', '\r', '\n']) >= 0 ? $"{a.Key}=\"{a.Value}\"" : $"{a.Key}={a.Value}"));
        }
        return text;
    }
}
