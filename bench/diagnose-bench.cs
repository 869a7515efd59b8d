#:project ../src/Tplab.Core/Tplab.Core.csproj
#:project ../src/Tplab.Target/Tplab.Target.csproj
#:property TreatWarningsAsErrors=false
#:property PublishAot=false
// Benchmark of `tplab diagnose` (BENCHMARKS.md, section "Diagnose"). Run through bench/diagnose.sh.
// One target, one closed-loop flood of /delay (healthy, so throughput is bounded by the pool's work, not a wait);
// throughput is counted over the same window length without a capture and then during `tplab diagnose`.
using System.Diagnostics;
using System.Globalization;
using Tplab.Launch;

var tplab = args[0];
var route = args.Length > 1 ? args[1] : "/delay?ms=5";
var concurrency = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 32;
var seconds = args.Length > 3 ? double.Parse(args[3], CultureInfo.InvariantCulture) : 3;
var inv = CultureInfo.InvariantCulture;

await using var target = await TargetProcess.StartTargetAsync(new TargetOptions());
long completed = 0;
using var stop = new CancellationTokenSource();
using var http = new HttpClient(new SocketsHttpHandler { MaxConnectionsPerServer = concurrency }) { Timeout = TimeSpan.FromSeconds(10) };
var url = target.Url(route);
var loops = Enumerable.Range(0, concurrency).Select(_ => Task.Run(async () =>
{
    while (!stop.IsCancellationRequested)
    {
        try { using var r = await http.GetAsync(url, stop.Token); if (r.IsSuccessStatusCode) Interlocked.Increment(ref completed); }
        catch (Exception) when (stop.IsCancellationRequested) { }
        catch (HttpRequestException) { }
    }
})).ToArray();

await Task.Delay(TimeSpan.FromSeconds(3)); // warm up: JIT, connections
var before = Interlocked.Read(ref completed);
var clock = Stopwatch.StartNew();
await Task.Delay(TimeSpan.FromSeconds(seconds));
var baseline = (Interlocked.Read(ref completed) - before) / clock.Elapsed.TotalSeconds;

var info = new ProcessStartInfo(DotnetHost.Path) { ArgumentList = { tplab, "diagnose", target.ProcessId.ToString(inv), "--duration", seconds.ToString(inv) + "s", "--format", "json" }, RedirectStandardOutput = true };
before = Interlocked.Read(ref completed);
clock.Restart();
using var cli = Process.Start(info)!;
var firstHalf = cli.StandardOutput.ReadToEndAsync();
await Task.Delay(TimeSpan.FromSeconds(seconds)); // the capture window (attach takes a few ms)
var during = (Interlocked.Read(ref completed) - before) / clock.Elapsed.TotalSeconds;
await cli.WaitForExitAsync();
var answer = clock.Elapsed.TotalSeconds;
await firstHalf;
await stop.CancelAsync();
await Task.WhenAll(loops);

Console.WriteLine(string.Create(inv, $"route {route}, {concurrency} loops, {seconds:0.#} s windows, {Environment.ProcessorCount} cores"));
Console.WriteLine(string.Create(inv, $"command to answer: {answer:0.00} s (tplab diagnose --duration {seconds:0.#}s, exit {cli.ExitCode})"));
Console.WriteLine(string.Create(inv, $"throughput without capture: {baseline:0} req/s"));
Console.WriteLine(string.Create(inv, $"throughput during capture:  {during:0} req/s"));
Console.WriteLine(string.Create(inv, $"ratio during/without: {during / baseline:0.00}"));
