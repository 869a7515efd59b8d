using System.Collections.Concurrent;
using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Scan.Loading;

/// <summary>
/// Loads the code to scan with Roslyn's MSBuildWorkspace: test projects left out before MSBuild reads them, projects
/// without restore output restored first (or named as unresolved), and one line per project that could not be read.
/// All projects load through one solution (the user's, a filter of it, or a temporary one for a folder), so MSBuild's
/// build host starts once.
/// </summary>
internal static partial class WorkspaceLoader
{
    /// <summary>The build host's assembly name, as its command line shows it.</summary>
    public const string BuildHostName = "Microsoft.CodeAnalysis.Workspaces.MSBuild.BuildHost";

    public static async Task<LoadedCode> LoadAsync(ScanInput input, ScanOptions options, IScanProgress progress, CancellationToken cancellationToken)
    {
        // An SDK global.json pins but this machine lacks fails every project, and the build host with them: said first, once.
        await SdkCheck.EnsureResolvableAsync(input.Root, cancellationToken).ConfigureAwait(false);
        var listed = input.Solution is { } sln ? await SolutionFile.ProjectsAsync(sln, cancellationToken).ConfigureAwait(false) : input.Projects;
        // Modules a host loads at run time, beside a solution that does not list them: the report cannot speak for them.
        if (input.Solution is { } solution && await UnlistedProjects.LineAsync(solution, listed, cancellationToken).ConfigureAwait(false) is { } unlisted)
        {
            progress.Line(unlisted);
        }
        var files = listed.Distinct(StringComparer.Ordinal).Select(p => new ProjectFile(p)).ToList();
        var skipped = new List<SkippedProject>();
        foreach (var missing in files.Where(f => !File.Exists(f.Path)))
        {
            skipped.Add(new SkippedProject(missing.Name, $"the project file {Path.GetRelativePath(input.Root, missing.Path)} does not exist"));
        }
        files = [.. files.Where(f => File.Exists(f.Path))];
        foreach (var other in files.Where(f => !f.IsCSharp))
        {
            progress.Line($"tplab scan: left out {other.Name}: not a C# project ({Path.GetExtension(other.Path)})");
        }
        files = [.. files.Where(f => f.IsCSharp)];
        var leftOut = options.IncludeTests ? [] : files.Where(f => f.IsTestProject).Select(f => f.Name).ToList();
        var toLoad = files.Where(f => options.IncludeTests || !f.IsTestProject).ToList();
        if (toLoad.Count == 0)
        {
            throw TplabException.Usage(leftOut.Count > 0
                ? $"{input.DisplayName} holds only test projects ({string.Join(", ", leftOut)}): scan them with --include-tests"
                : $"no C# project to scan in {input.DisplayName}");
        }

        using var target = LoadTarget.For(input, files, toLoad);
        var unrestored = await RestoreAsync(input, target, toLoad, options.Restore, progress, cancellationToken).ConfigureAwait(false);

        var failures = new ConcurrentDictionary<string, List<string>>(StringComparer.Ordinal);
        var workspace = MSBuildWorkspace.Create();
        try
        {
            workspace.RegisterWorkspaceFailedHandler(e => NoteFailure(e.Diagnostic, failures));
            var loadProgress = new LoadProgress(progress, toLoad.Count);
            await OpenAsync(workspace, target, loadProgress, cancellationToken).ConfigureAwait(false);
            var toCompile = new List<Project>();
            var csharp = workspace.CurrentSolution.Projects.Where(p => p.Language == LanguageNames.CSharp).ToList();
            // A multi-targeted project loads once per framework: read once, as the app that references it does.
            var flavours = Flavours.Choose(csharp);
            foreach (var project in csharp)
            {
                if (!flavours.Contains(project.Id))
                {
                    continue;
                }
                // MSBuild could not evaluate it (an SDK not installed, a broken project file): Roslyn keeps an empty shell.
                if (project.FilePath is { } failedPath && failures.TryGetValue(failedPath, out var failure) && !project.Documents.Any())
                {
                    skipped.Add(Failed(ProjectName.Of(project), "MSBuild could not load it: ", failure));
                    continue;
                }
                if (!options.IncludeTests && ReferencesTestFramework(project))
                {
                    leftOut.Add(ProjectName.Of(project));
                    continue;
                }
                toCompile.Add(project);
            }
            // Compilations (source generators, declarations) are built one per core at once: Roslyn's are thread-safe,
            // and a project another references is built once, whoever asks first.
            var compiled = new (Compilation? Compilation, List<string> Unresolved)[toCompile.Count];
            var parallel = new ParallelOptions { CancellationToken = cancellationToken, MaxDegreeOfParallelism = Environment.ProcessorCount };
            await Parallel.ForEachAsync(Enumerable.Range(0, toCompile.Count), parallel, async (i, ct) =>
            {
                var project = toCompile[i];
                var compilation = await project.GetCompilationAsync(ct).ConfigureAwait(false);
                // Names are looked for only where something is known to be missing: not restored, or MSBuild reported errors.
                var wasUnrestored = unrestored.Any(u => u.Path == project.FilePath);
                compiled[i] = (compilation, compilation is not null && (wasUnrestored || (project.FilePath is { } p && failures.ContainsKey(p)))
                    ? PartialReads.UnresolvedNames(compilation, wasUnrestored, ct)
                    : []);
            }).ConfigureAwait(false);
            var projects = new List<LoadedProject>();
            for (var i = 0; i < toCompile.Count; i++)
            {
                if (compiled[i].Compilation is not { } compilation)
                {
                    skipped.Add(new SkippedProject(ProjectName.Of(toCompile[i]), "Roslyn built no compilation for it"));
                    continue;
                }
                projects.Add(new LoadedProject(toCompile[i], compilation, compiled[i].Unresolved));
            }
            foreach (var file in toLoad.Where(f => !projects.Any(p => p.Project.FilePath == f.Path) && !leftOut.Contains(f.Name) && !skipped.Any(s => s.Name == f.Name)))
            {
                skipped.Add(failures.TryGetValue(file.Path, out var why) ? Failed(file.Name, "", why) : new SkippedProject(file.Name, "MSBuild did not load it"));
            }
            // Loaded without some references (not restored, names unresolved, an evaluation error): analysed, and said once.
            var partial = PartialReads.Of(projects, unrestored.Select(u => u.Path).ToHashSet(StringComparer.Ordinal), failures);
            progress.Status("");
            return new LoadedCode(workspace, input, projects, skipped, leftOut, partial.Projects) { SharedErrors = partial.Shared };
        }
        catch
        {
            workspace.Dispose();
            throw;
        }
    }

    private static async Task OpenAsync(MSBuildWorkspace workspace, LoadTarget target, LoadProgress progress, CancellationToken cancellationToken)
    {
        // Roslyn starts MSBuild's build host itself; a watchdog per host ends it if tplab is killed mid-load.
        using var guard = ChildGuard.Start(args => args.Any(a => a.Contains(BuildHostName, StringComparison.Ordinal)), TimeSpan.FromMilliseconds(10));
        try
        {
            // WaitAsync: Roslyn does not watch the token while it waits for a build host to connect.
            if (target.IsProject)
            {
                await workspace.OpenProjectAsync(target.Path, progress, cancellationToken).WaitAsync(cancellationToken).ConfigureAwait(false);
            }
            else
            {
                await workspace.OpenSolutionAsync(target.Path, progress, cancellationToken: cancellationToken).WaitAsync(cancellationToken).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Ctrl+C or SIGTERM: the build host is not left loading for no one.
            guard.KillWatched();
            throw;
        }
        catch (Exception e) when (e.Message.Contains("build host", StringComparison.OrdinalIgnoreCase) || e.Message.Contains("BuildHost", StringComparison.Ordinal))
        {
            throw new TplabException(ExitCodes.Environment,
                $"MSBuild's build host could not run ({e.Message.ReplaceLineEndings(" ")}); it ships beside tplab in BuildHost-netcore/ (docs/scan.md)", e);
        }
        finally
        {
            // Roslyn has shut its hosts down by now (or they were killed above): their pipes are left in /tmp.
            BuildHostPipes.RemoveEnded(guard.Seen);
        }
    }

    // The projects scanned that have no restore output after this step: restored once, all through the one target
    // (only the projects scanned, never the solution's test projects), unless the same inputs failed to restore before.
    private static async Task<List<ProjectFile>> RestoreAsync(
        ScanInput input, LoadTarget target, IReadOnlyList<ProjectFile> toLoad, bool restore, IScanProgress progress, CancellationToken cancellationToken)
    {
        var folder = LoadTarget.FolderOf(input);
        var state = await RestoreState.ReadAsync(target, folder, toLoad, progress, cancellationToken).ConfigureAwait(false);
        var unrestored = toLoad.Where(f => !state.IsRestored(f)).ToList();
        if (unrestored.Count == 0 || !restore)
        {
            return unrestored;
        }
        var names = unrestored.Count <= 4
            ? string.Join(", ", unrestored.Select(u => u.Name))
            : string.Join(", ", unrestored.Take(3).Select(u => u.Name)) + string.Create(CultureInfo.InvariantCulture, $" and {unrestored.Count - 3} more");
        var memory = RestoreMemory.FileFor(unrestored);
        if (RestoreMemory.Failed(memory) is { } before)
        {
            progress.Line(string.Create(CultureInfo.InvariantCulture,
                $"tplab scan: not restoring {unrestored.Count} project(s) ({names}): their restore failed before with these same files ({SkippedProject.OneLine([before], 120)}); analysing without their packages (delete {memory} to try again)"));
            return unrestored;
        }
        var command = target.IsTemporary
            ? string.Create(CultureInfo.InvariantCulture, $"dotnet restore -nodeReuse:false of the {toLoad.Count} project(s) scanned")
            : Restorer.CommandFor(target.Path);
        progress.Line(string.Create(CultureInfo.InvariantCulture, $"tplab scan: restoring {unrestored.Count} project(s) that have no restore output ({names}): {command}"));
        progress.Status($"restoring {names}...");
        var failed = await Restorer.RestoreAsync(target.Path, folder, cancellationToken).ConfigureAwait(false);
        unrestored = [.. unrestored.Where(f => !state.IsRestored(f))];
        if (failed is not null)
        {
            progress.Line($"tplab scan: the restore failed ({failed}); analysing without its packages");
        }
        else if (unrestored.Count > 0)
        {
            // dotnet restore passes over a project MSBuild cannot evaluate (an SDK that is not installed) and exits 0.
            failed = "ended without restore output for " + string.Join(", ", unrestored.Take(3).Select(u => u.Name));
            progress.Line($"tplab scan: the restore {failed}; analysing without their packages");
        }
        if (failed is not null && unrestored.Count > 0)
        {
            RestoreMemory.Remember(RestoreMemory.FileFor(unrestored), failed);
        }
        return unrestored;
    }

    private static SkippedProject Failed(string name, string prefix, List<string> errors) =>
        new(name, prefix + SkippedProject.OneLine(errors)) { Details = [.. errors] };

    private static void NoteFailure(WorkspaceDiagnostic diagnostic, ConcurrentDictionary<string, List<string>> failures)
    {
        if (diagnostic.Kind != WorkspaceDiagnosticKind.Failure)
        {
            return;
        }
        var message = diagnostic.Message.ReplaceLineEndings(" ");
        var match = QuotedPath().Match(message);
        var key = match.Success ? match.Groups[1].Value : "";
        // "Msbuild failed when processing the file '/x/A.csproj' with message: ..." → keep the message.
        var with = message.IndexOf("with message:", StringComparison.Ordinal);
        var reason = with >= 0 ? message[(with + "with message:".Length)..].Trim() : message;
        // The message ends with the project's own path, which the skipped line already names.
        reason = (key.Length > 0 ? reason.Replace(key, "", StringComparison.Ordinal) : reason).Trim().TrimEnd('.').Trim();
        var list = failures.GetOrAdd(key, _ => []);
        lock (list)
        {
            // MSBuild repeats a solution's restore errors for each project: each error once, in the order it came.
            foreach (var one in reason.Split("; ", StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                if (!list.Contains(one))
                {
                    list.Add(one);
                }
            }
        }
    }

    private static bool ReferencesTestFramework(Project project) =>
        project.MetadataReferences.OfType<PortableExecutableReference>().Select(r => Path.GetFileNameWithoutExtension(r.FilePath ?? ""))
            .Any(n => n is "xunit.core" or "xunit.v3.core" or "nunit.framework" or "Microsoft.VisualStudio.TestPlatform.TestFramework" or "TUnit.Core"
                or "Microsoft.TestPlatform.CoreUtilities" or "MSTest.TestFramework");

    [GeneratedRegex("'([^']+\\.(?:cs|vb|fs)proj)'")]
    private static partial Regex QuotedPath();

}
