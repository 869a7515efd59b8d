using System.Diagnostics;
using Tplab.Processes;
using Tplab.Launch;

namespace Tplab.Tests.Support;

/// <summary>Runs the real tplab CLI (the tplab.dll built next to the tests) as a separate process.</summary>
internal static class TplabCli
{
    public static string Dll => Path.Combine(AppContext.BaseDirectory, "tplab.dll");

    public static ProcessStartInfo StartInfo(params string[] args)
    {
        var info = new ProcessStartInfo(DotnetHost.Path) { ArgumentList = { Dll } };
        foreach (var a in args)
        {
            info.ArgumentList.Add(a);
        }
        return info;
    }

    /// <summary>Runs tplab to completion (bounded by <paramref name="timeout"/>) and returns its exit code and output.</summary>
    public static Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(TimeSpan timeout, params string[] args) =>
        RunAsync(timeout, new Dictionary<string, string>(), args);

    /// <summary>Runs tplab with extra environment variables.</summary>
    public static Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(TimeSpan timeout, IReadOnlyDictionary<string, string> environment, params string[] args) =>
        RunAsync(timeout, environment, null, args);

    /// <summary>Runs tplab and hands each line of its stdout to <paramref name="onLine"/> as it comes (to act on output, not on time).</summary>
    public static async Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(TimeSpan timeout, IReadOnlyDictionary<string, string> environment, Action<string>? onLine, params string[] args)
    {
        var info = StartInfo(args);
        foreach (var (name, value) in environment)
        {
            info.Environment[name] = value;
        }
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        info.RedirectStandardInput = true;
        using var process = Process.Start(info)!;
        process.StandardInput.Close();
        var stdout = onLine is null ? process.StandardOutput.ReadToEndAsync() : ReadLinesAsync(process.StandardOutput, onLine);
        var stderr = process.StandardError.ReadToEndAsync();
        using var cts = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cts.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"tplab {string.Join(' ', args)} did not finish within {timeout}");
        }
        return (process.ExitCode, await stdout, await stderr);
    }

    private static async Task<string> ReadLinesAsync(StreamReader reader, Action<string> onLine)
    {
        var all = new System.Text.StringBuilder();
        while (await reader.ReadLineAsync() is { } line)
        {
            all.Append(line).Append('\n');
            onLine(line);
        }
        return all.ToString();
    }

    /// <summary>Starts tplab as a long-running child (for serve and friends).</summary>
    public static ChildProcess Start(params string[] args) => ChildProcess.Start(StartInfo(args), "tplab " + args[0]);
}
