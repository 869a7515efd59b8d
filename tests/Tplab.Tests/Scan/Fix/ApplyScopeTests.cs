using System.Diagnostics;
using Tplab.Common;
using Tplab.Scan;
using Tplab.Scan.Fix;
using Tplab.Scan.Fix.Applying;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// Where <c>fix --apply</c> may write (<see cref="ApplyScope"/>), as a matrix of the ways a file can lie: a file
/// symlink and a directory symlink in the tree, a source of another git repository (clean and dirty) named by absolute
/// path, a sibling folder, a folder without git, an untracked file. Each refusal is one line, exit 2, before any write,
/// and not one byte changes outside the tree (every file outside is compared before and after). Serial: it runs git.
/// </summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class ApplyScopeTests : IDisposable
{
    private readonly string _root = Directory.CreateTempSubdirectory("tplab-scope-").FullName;

    private string Repo => Path.Combine(_root, "repo");

    private string Other => Path.Combine(_root, "other");

    [GitFact]
    public async Task Apply_CleanTrackedFile_Written()
    {
        var file = Setup();
        await ApplyAsync(Change(file), force: false);
        Assert.Equal("after\n", File.ReadAllText(file));
    }

    [GitFact]
    public async Task Apply_FileSymlinkInTheTree_TargetWrittenLinkStays()
    {
        var target = Setup();
        var link = Path.Combine(Repo, "src", "Link.cs");
        File.CreateSymbolicLink(link, "Program.cs");
        Git(Repo, "add", "-A");
        Git(Repo, "commit", "-qm", "link");
        await ApplyAsync(Change(link), force: false);
        Assert.Equal("Program.cs", new FileInfo(link).LinkTarget);
        Assert.Equal("after\n", File.ReadAllText(target));
    }

    [GitFact]
    public async Task Apply_ThroughADirectorySymlinkOutside_RefusedEvenForcedNothingWritten()
    {
        Setup();
        var outside = Make(Path.Combine(Other, "shared", "Shared.cs"));
        Directory.CreateSymbolicLink(Path.Combine(Repo, "src", "shared"), Path.Combine(Other, "shared"));
        var e = await Assert.ThrowsAsync<TplabException>(() => ApplyAsync(Change(Path.Combine(Repo, "src", "shared", "Shared.cs")), force: true));
        AssertRefusedOutside(e, outside);
    }

    [GitFact]
    public async Task Apply_FileSymlinkToOutside_Refused()
    {
        Setup();
        var outside = Make(Path.Combine(Other, "Secret.cs"));
        var link = Path.Combine(Repo, "src", "Secret.cs");
        File.CreateSymbolicLink(link, outside);
        var e = await Assert.ThrowsAsync<TplabException>(() => ApplyAsync(Change(link), force: true));
        AssertRefusedOutside(e, outside);
        Assert.Equal(outside, new FileInfo(link).LinkTarget);
    }

    [GitFact]
    public async Task Apply_SourceOfAnotherRepositoryByAbsolutePath_RefusedCleanOrDirty()
    {
        var inside = Setup();
        var outside = Make(Path.Combine(Other, "Linked.cs"));
        Git(Other, "init", "-q");
        Git(Other, "add", "-A");
        Git(Other, "commit", "-qm", "other");
        foreach (var dirty in new[] { false, true })
        {
            if (dirty)
            {
                File.WriteAllText(outside, "before\n// the user's unsaved work\n");
            }
            var expected = File.ReadAllBytes(outside);
            foreach (var force in new[] { false, true })
            {
                var e = await Assert.ThrowsAsync<TplabException>(() => ApplyAsync([.. Change(inside), .. Change(outside, dirty ? "before\n// the user's unsaved work\n" : "before\n")], force));
                Assert.Equal(ExitCodes.Usage, e.ExitCode);
                Assert.Contains("outside", e.Message, StringComparison.Ordinal);
                Assert.Equal(expected, File.ReadAllBytes(outside));
                Assert.Equal("before\n", File.ReadAllText(inside));
            }
        }
    }

    [GitFact]
    public async Task Apply_SiblingFolderOfTheNamedOne_Refused()
    {
        // The user named src/Api (a folder of no git); src/Lib beside it is not theirs to give.
        var api = Make(Path.Combine(_root, "src", "Api", "Api.cs"));
        var lib = Make(Path.Combine(_root, "src", "Lib", "Lib.cs"));
        var e = await Assert.ThrowsAsync<TplabException>(() => ApplyAsync([.. Change(api), .. Change(lib)], force: true, named: Path.GetDirectoryName(api)!));
        AssertRefusedOutside(e, lib);
        Assert.Equal("before\n", File.ReadAllText(api));
    }

    [GitFact]
    public async Task Apply_FolderWithoutGit_RefusedUnlessForced()
    {
        var file = Make(Path.Combine(_root, "plain", "Program.cs"));
        var e = await Assert.ThrowsAsync<TplabException>(() => ApplyAsync(Change(file), force: false, named: Path.GetDirectoryName(file)!));
        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.Contains("is not in a git work tree", e.Message, StringComparison.Ordinal);
        Assert.Equal("before\n", File.ReadAllText(file));
        await ApplyAsync(Change(file), force: true, named: Path.GetDirectoryName(file)!);
        Assert.Equal("after\n", File.ReadAllText(file));
    }

    [GitFact]
    public async Task Apply_UntrackedOrDirtyFile_RefusedUnlessForced()
    {
        var tracked = Setup();
        var untracked = Make(Path.Combine(Repo, "src", "New.cs"));
        var e = await Assert.ThrowsAsync<TplabException>(() => ApplyAsync([.. Change(tracked), .. Change(untracked)], force: false));
        Assert.Contains("is not tracked by git", e.Message, StringComparison.Ordinal);
        File.WriteAllText(tracked, "edited\n");
        e = await Assert.ThrowsAsync<TplabException>(() => ApplyAsync(Change(tracked, "edited\n"), force: false));
        Assert.Contains("has uncommitted changes", e.Message, StringComparison.Ordinal);
        Assert.Equal("edited\n", File.ReadAllText(tracked));
        Assert.Equal("before\n", File.ReadAllText(untracked));
    }

    [GitFact]
    public async Task Patch_FileThroughASymlinkedFolderInTheTree_NamedByItsRealPathNeverDotDot()
    {
        var real = Setup();
        Directory.CreateSymbolicLink(Path.Combine(Repo, "alias"), Path.Combine(Repo, "src"));
        var result = await FixApply.ContainAsync(Result(Change(Path.Combine(Repo, "alias", "Program.cs"))), new FixOptions { Path = Path.Combine(Repo, "alias") }, CancellationToken.None);
        Assert.Contains("+++ b/src/Program.cs", result.Patch, StringComparison.Ordinal);
        Assert.DoesNotContain("../", result.Patch, StringComparison.Ordinal);
        Assert.Equal("before\n", File.ReadAllText(real));
    }

    public void Dispose() => Directory.Delete(_root, recursive: true);

    private static void AssertRefusedOutside(TplabException e, string outside)
    {
        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.Contains("outside", e.Message, StringComparison.Ordinal);
        Assert.Contains("nothing was changed", e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', e.Message);
        Assert.Equal("before\n", File.ReadAllText(outside));
    }

    // A git repository with src/Program.cs committed; returns the file.
    private string Setup()
    {
        var file = Make(Path.Combine(Repo, "src", "Program.cs"));
        Git(Repo, "init", "-q");
        Git(Repo, "add", "-A");
        Git(Repo, "commit", "-qm", "first");
        return file;
    }

    private static string Make(string path)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, "before\n");
        return path;
    }

    private static FileChange[] Change(string path, string before = "before\n") => [new FileChange(path, Path.GetFileName(path), before, "after\n")];

    private static FixResult Result(IReadOnlyList<FileChange> files) => new("test", Path.GetDirectoryName(files[0].Path)!, [], files);

    private async Task ApplyAsync(IReadOnlyList<FileChange> files, bool force, string? named = null)
    {
        var options = new FixOptions { Path = named ?? Path.Combine(Repo, "src"), Apply = true, Force = force };
        var result = await FixApply.ContainAsync(Result(files), options, CancellationToken.None);
        await FixApply.ApplyAsync(result, options, SilentProgress.Instance, CancellationToken.None);
    }

    private static void Git(string folder, params string[] args)
    {
        var info = new ProcessStartInfo(GitFactAttribute.Git!) { WorkingDirectory = folder, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var a in new[] { "-c", "user.email=t@t", "-c", "user.name=t", "-c", "commit.gpgsign=false" }.Concat(args))
        {
            info.ArgumentList.Add(a);
        }
        using var git = Process.Start(info)!;
        var error = git.StandardError.ReadToEnd();
        git.StandardOutput.ReadToEnd();
        git.WaitForExit();
        Assert.True(git.ExitCode == 0, $"git {string.Join(' ', args)}: {error}");
    }
}
