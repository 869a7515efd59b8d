using System.Diagnostics;
using Tplab.Common;
using Tplab.Scan.Incremental;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Incremental;

/// <summary>
/// <c>--changed-since REF</c> asks real git: the files changed since the merge base (committed on the branch, staged,
/// unstaged, untracked, both names of a rename), and one line with its code for what cannot give a true answer.
/// </summary>
[ParallelSafe]
public sealed class ChangedSinceTests : IDisposable
{
    private readonly string _root = RealPath.Of(Directory.CreateTempSubdirectory("tplab-changed-").FullName);

    public void Dispose() => Directory.Delete(_root, recursive: true);

    private string Repo => Path.Combine(_root, "repo");

    private void Git(string folder, params string[] arguments)
    {
        var info = new ProcessStartInfo("git") { WorkingDirectory = folder, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var a in (string[])["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "protocol.file.allow=always", .. arguments])
        {
            info.ArgumentList.Add(a);
        }
        using var git = Process.Start(info)!;
        var error = git.StandardError.ReadToEndAsync();
        git.WaitForExit();
        Assert.True(git.ExitCode == 0, $"git {string.Join(' ', arguments)}: {error.Result}");
    }

    private void Write(string file, string text)
    {
        var path = Path.Combine(Repo, file);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, text);
    }

    /// <summary>main: a.cs, b.cs, old.cs; the branch "feature" from it changes a.cs and renames old.cs (committed), then stages c.cs, edits b.cs and leaves d.cs untracked; main moves on with e.cs.</summary>
    private void MakeRepo()
    {
        Directory.CreateDirectory(Repo);
        Git(Repo, "init", "-q", "-b", "main");
        Write(".gitignore", "obj/\n");
        Write("a.cs", "class A { }\n");
        Write("b.cs", "class B { }\n");
        Write("old.cs", "class Old { }\n");
        Git(Repo, "add", "-A");
        Git(Repo, "commit", "-qm", "base");
        Git(Repo, "checkout", "-q", "-b", "feature");
        Write("a.cs", "class A { int x; }\n");
        Git(Repo, "mv", "old.cs", "renamed.cs");
        Git(Repo, "commit", "-qam", "feature");
        Git(Repo, "checkout", "-q", "main");
        Write("e.cs", "class E { }\n");
        Git(Repo, "add", "e.cs");
        Git(Repo, "commit", "-qm", "main moves on");
        Git(Repo, "checkout", "-q", "feature");
        Write("c.cs", "class C { }\n");
        Git(Repo, "add", "c.cs");
        Write("b.cs", "class B { int y; }\n");
        Write("d.cs", "class D { }\n");
        Write("obj/ignored.cs", "class Ignored { }\n");
    }

    [Fact]
    public async Task SinceAsync_Branch_CommittedStagedUnstagedUntrackedAndRenamed()
    {
        MakeRepo();

        var (files, mergeBase) = await ChangedFiles.SinceAsync(Repo, "main", CancellationToken.None);

        Assert.Equal(["a.cs", "b.cs", "c.cs", "d.cs", "old.cs", "renamed.cs"], files.Select(f => Path.GetRelativePath(Repo, f)).Order(StringComparer.Ordinal));
        Assert.Equal(10, mergeBase.Length);
    }

    [Fact]
    public async Task SinceAsync_NotARepository_UsageLine()
    {
        var e = await Assert.ThrowsAsync<TplabException>(() => ChangedFiles.SinceAsync(_root, "main", CancellationToken.None));

        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.Contains("is not in a git repository", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("no-such-branch")]
    [InlineData("main~99")]
    [InlineData("--output=x")]
    public async Task SinceAsync_NoSuchRef_UsageLine(string reference)
    {
        MakeRepo();

        var e = await Assert.ThrowsAsync<TplabException>(() => ChangedFiles.SinceAsync(Repo, reference, CancellationToken.None));

        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.Contains($"--changed-since {reference}: no such commit", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SinceAsync_ShallowCloneWithoutMergeBase_SaysToFetchTheHistory()
    {
        MakeRepo();
        var clone = Path.Combine(_root, "clone");
        Git(_root, "clone", "-q", "--depth", "1", "--branch", "feature", "file://" + Repo, clone);
        Git(clone, "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main");

        var e = await Assert.ThrowsAsync<TplabException>(() => ChangedFiles.SinceAsync(clone, "origin/main", CancellationToken.None));

        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.Contains("shallow clone without the merge base", e.Message, StringComparison.Ordinal);
        Assert.Contains("fetch-depth: 0", e.Message, StringComparison.Ordinal);
    }
}
