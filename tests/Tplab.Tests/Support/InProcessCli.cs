using System.Globalization;
using System.Text;
using Tplab.Cli;

namespace Tplab.Tests.Support;

/// <summary>
/// Runs the tplab command tree in this process, under a given culture, with its stdout and stderr captured: the
/// bad-input tables run hundreds of command lines in well under a second each, where a process would cost a runtime
/// start per line. Console.Out and Console.Error are routed per async flow, so tests running in parallel (and
/// whatever else writes to the console) never mix their output.
/// </summary>
internal static class InProcessCli
{
    private static readonly AsyncLocal<(StringWriter Out, StringWriter Error)?> Capture = new();
    private static readonly Lock Gate = new();
    private static bool _installed;

    /// <summary>The cultures every bad input runs under: invariant, the decimal-comma ones, and Turkish (its dotless i).</summary>
    public static readonly IReadOnlyList<CultureInfo> Cultures =
        [CultureInfo.InvariantCulture, CultureInfo.GetCultureInfo("de-DE"), CultureInfo.GetCultureInfo("fr-FR"), CultureInfo.GetCultureInfo("tr-TR")];

    /// <summary>Runs <c>tplab ARGS</c> under <paramref name="culture"/>; its exit code and both outputs.</summary>
    public static async Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(CultureInfo culture, params string[] args)
    {
        Install();
        var stdout = new StringWriter(CultureInfo.InvariantCulture);
        var stderr = new StringWriter(CultureInfo.InvariantCulture);
        var code = await Task.Run(async () =>
        {
            Capture.Value = (stdout, stderr);
            CultureInfo.CurrentCulture = culture;
            CultureInfo.CurrentUICulture = culture;
            return await CommandRunner.InvokeAsync(TplabCommand.Create(), args);
        });
        return (code, stdout.ToString(), stderr.ToString());
    }

    private static void Install()
    {
        lock (Gate)
        {
            if (_installed)
            {
                return;
            }
            Console.SetOut(new Routing(Console.Out, c => c.Out));
            Console.SetError(new Routing(Console.Error, c => c.Error));
            _installed = true;
        }
    }

    /// <summary>Writes to the capturing flow's writer, or to the console it replaced.</summary>
    private sealed class Routing(TextWriter fallback, Func<(StringWriter Out, StringWriter Error), StringWriter> pick) : TextWriter
    {
        public override Encoding Encoding => Encoding.UTF8;

        private TextWriter Target => Capture.Value is { } c ? pick(c) : fallback;

        public override void Write(char value)
        {
            var t = Target;
            lock (t)
            {
                t.Write(value);
            }
        }

        public override void Write(string? value)
        {
            var t = Target;
            lock (t)
            {
                t.Write(value);
            }
        }

        public override void WriteLine(string? value)
        {
            var t = Target;
            lock (t)
            {
                t.WriteLine(value);
            }
        }

        public override Task WriteLineAsync(string? value)
        {
            WriteLine(value);
            return Task.CompletedTask;
        }

        public override Task WriteAsync(string? value)
        {
            Write(value);
            return Task.CompletedTask;
        }

        public override void Flush() => Target.Flush();
    }
}
