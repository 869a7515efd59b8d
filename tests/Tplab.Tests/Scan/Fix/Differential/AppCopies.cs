using System.Diagnostics;
using System.Text.Json;
using Tplab.Launch;
using Tplab.Processes;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix.Differential;

/// <summary>What <c>tplab fix</c> said about one finding (its JSON, docs/schemas/fix.schema.json).</summary>
internal sealed record FixedFinding(string Id, string Status, string? Check, string UserFrame, string BlockingCall, string File, int Line, IReadOnlyList<string> Roots, string? Reason);

/// <summary>What changed a copy: <c>tplab fix</c>'s exit code, findings, plan (null when it wrote none) and output.</summary>
internal sealed record FixOutcome(int ExitCode, IReadOnlyList<FixedFinding> Findings, string? Plan, string Output);

/// <summary>A copy changed and built: its folder, what changed it, its build.</summary>
internal sealed record ChangedCopy(string Folder, FixOutcome Fix, BuildOutcome Build);

/// <summary>
/// The app as written, copied once under a temporary root (deleted with it) and built once however many changed copies
/// are compared with it.
/// </summary>
internal sealed class OriginalCopy : IDisposable
{
    private readonly Lazy<Task<BuildOutcome>> _build;

    public OriginalCopy(string source, string root)
    {
        Source = source;
        Root = root;
        Folder = AppCopies.Copy(source, root, "before");
        _build = new(() => AppCopies.BuildAsync(Folder, CancellationToken.None));
    }

    /// <summary>The app's own folder (read, never written).</summary>
    public string Source { get; }

    public string Root { get; }

    public string Folder { get; }

    public Task<BuildOutcome> BuildAsync(CancellationToken ct) => _build.Value.WaitAsync(ct);

    public void Dispose() => Directory.Delete(Root, recursive: true);
}

/// <summary>A copy's <c>dotnet build</c>: the app's dll when it compiled, else the build's last lines.</summary>
internal sealed record BuildOutcome(string? Dll, string Log)
{
    public bool Compiles => Dll is not null;
}

/// <summary>
/// The two copies of an app the harness compares: each a copy of the app's folder beside the repository's build
/// settings (its project takes the framework from them), without build output; <c>tplab fix --apply</c> runs on the
/// second through the CLI, as a user runs it, and both are built in Release by <c>dotnet build</c> with the project's
/// own analyzers and warnings as errors.
/// </summary>
internal static class AppCopies
{
    private static readonly TimeSpan BuildLimit = TimeSpan.FromMinutes(10);

    /// <summary>The original of <paramref name="app"/>, copied under a new temporary root.</summary>
    public static OriginalCopy Original(string app) => new(app, Directory.CreateTempSubdirectory("tplab-differential-").FullName);

    /// <summary>A copy of <paramref name="app"/> under <paramref name="root"/>/<paramref name="which"/>; the app folder.</summary>
    public static string Copy(string app, string root, string which)
    {
        var folder = Directory.CreateDirectory(Path.Combine(root, which)).FullName;
        foreach (var props in new[] { "Directory.Build.props", "Directory.Packages.props" })
        {
            File.Copy(Path.Combine(RepoPaths.Root, props), Path.Combine(folder, props));
        }
        var target = Path.Combine(folder, Path.GetFileName(app.TrimEnd('/')));
        CopyTree(app, target);
        return target;
    }

    private static void CopyTree(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (var file in Directory.GetFiles(from))
        {
            File.Copy(file, Path.Combine(to, Path.GetFileName(file)));
        }
        foreach (var dir in Directory.GetDirectories(from).Where(d => Path.GetFileName(d) is not ("bin" or "obj")))
        {
            CopyTree(dir, Path.Combine(to, Path.GetFileName(dir)));
        }
    }

    public static async Task<BuildOutcome> BuildAsync(string appFolder, CancellationToken ct)
    {
        var output = Path.Combine(Path.GetDirectoryName(appFolder)!, "out");
        var info = new ProcessStartInfo(DotnetHost.Path)
        {
            ArgumentList = { "build", appFolder, "-c", "Release", "-o", output, "-nologo", "-v", "q", "--disable-build-servers", "-clp:ErrorsOnly;NoSummary" },
        };
        var (code, log) = await RunAsync(info, "dotnet build " + appFolder, ct);
        var project = Directory.GetFiles(appFolder, "*.csproj").Single();
        var dll = Path.Combine(output, Path.GetFileNameWithoutExtension(project) + ".dll");
        return new BuildOutcome(code == 0 && File.Exists(dll) ? dll : null, log);
    }

    /// <summary>Runs <c>tplab fix --apply</c> on <paramref name="appFolder"/> with its JSON report and its plan of the fixed endpoints; the exit code, the findings, the plan file (null when fix wrote none).</summary>
    public static async Task<FixOutcome> FixAsync(string appFolder, CancellationToken ct)
    {
        var root = Path.GetDirectoryName(appFolder)!;
        var report = Path.Combine(root, "fix.json");
        var plan = Path.Combine(root, "proof.json");
        var info = TplabCli.StartInfo("fix", appFolder, "--apply", "--force", "--allow-partial", "--format", "json", "-o", report, "--plan", plan, "--plan-writes");
        var (code, log) = await RunAsync(info, "tplab fix", ct);
        if (!File.Exists(report))
        {
            // fix --plan refuses a run with nothing fixed to load (exit 2): the findings are then read without a plan.
            info = TplabCli.StartInfo("fix", appFolder, "--apply", "--force", "--allow-partial", "--format", "json", "-o", report);
            (code, log) = await RunAsync(info, "tplab fix", ct);
        }
        return new FixOutcome(code, File.Exists(report) ? Read(report) : [], File.Exists(plan) ? plan : null, log);
    }

    private static List<FixedFinding> Read(string report)
    {
        using var json = JsonDocument.Parse(File.ReadAllBytes(report));
        return [.. json.RootElement.GetProperty("findings").EnumerateArray().Select(f => new FixedFinding(
            f.GetProperty("id").GetString()!, f.GetProperty("status").GetString()!, f.GetProperty("check").GetString(),
            f.GetProperty("userFrame").GetString()!, f.GetProperty("blockingCall").GetString()!, f.GetProperty("file").GetString()!,
            f.GetProperty("line").GetInt32(), [.. f.GetProperty("roots").EnumerateArray().Select(r => r.GetString()!)], f.GetProperty("reason").GetString()))];
    }

    private static async Task<(int Code, string Log)> RunAsync(ProcessStartInfo info, string name, CancellationToken ct)
    {
        await using var child = ChildProcess.Start(info, name, WhenTplabEnds.Kill);
        try
        {
            await child.Exited.WaitAsync(BuildLimit, ct);
        }
        catch (TimeoutException)
        {
            child.Kill();
            throw new TimeoutException($"{name} did not finish within {BuildLimit}: {child.LastLines(10)}");
        }
        return (child.ExitCode ?? -1, string.Join('\n', child.RecentOutput.TakeLast(40)));
    }
}
