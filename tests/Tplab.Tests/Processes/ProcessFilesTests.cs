using System.Net.Sockets;
using Tplab.Processes;

namespace Tplab.Tests.Processes;

/// <summary>The one place tplab reads /proc, tells runtime versions and recognises permission errors.</summary>
public sealed class ProcessFilesTests
{
    [Theory]
    // a framework-dependent app, a preview, a self-contained app (no version in the path), no runtime
    [InlineData("7f0 r-xp 0 08:01 1 /usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.12/libcoreclr.so", "10.0.12")]
    [InlineData("7f0 r-xp 0 08:01 1 /opt/dotnet/shared/Microsoft.NETCore.App/9.0.0-rc.2.24473.5/libcoreclr.so", "9.0.0")]
    [InlineData("7f0 r-xp 0 08:01 1 /app/libcoreclr.so", null)]
    [InlineData("7f0 r-xp 0 08:01 1 /usr/lib/libc.so.6", null)]
    public void RuntimeVersion_FromMaps_ReadsTheFrameworkFolder(string line, string? expected) =>
        Assert.Equal(expected, RuntimeVersion.FromMaps([line])?.ToString());

    [Fact]
    public void ProcessFiles_OwnProcess_IsAliveNamedOwnedAndInOurMountNamespace()
    {
        var self = Environment.ProcessId;

        Assert.True(ProcessFiles.IsAlive(self));
        Assert.False(ProcessFiles.IsAlive(0));
        Assert.NotEqual("?", ProcessFiles.Name(self));
        Assert.Equal(ProcessFiles.OwnUid(), ProcessFiles.EffectiveUid(self));
        Assert.Equal(self, ProcessFiles.NamespacePid(self));
        Assert.True(ProcessFiles.SharesMountNamespace(self));
        Assert.True(ProcessFiles.OsThreads(self) > 1);
        Assert.Equal(RuntimeVersion.Of(self)?.Major, Environment.Version.Major);
        Assert.NotNull(DiagnosticSocket.Find(self));
    }

    // /tmp keeps the sockets of .NET processes killed with -9; a later process that reuses one of their pids (a shell
    // starting the user's service, say) must not be taken for a .NET process: the socket's key is its start time.
    [Fact]
    public void DiagnosticSocket_OfAnEarlierProcessWithTheSamePid_IsNotThisProcesss()
    {
        using var sleeper = System.Diagnostics.Process.Start("sleep", "30");
        var pid = sleeper.Id;
        var started = ProcessFiles.StartTicks(pid);
        Assert.NotNull(started);
        var stale = Path.Combine(Path.GetTempPath(), $"dotnet-diagnostic-{pid}-{started - 1}-socket");
        var own = Path.Combine(Path.GetTempPath(), $"dotnet-diagnostic-{pid}-{started}-socket");
        try
        {
            File.WriteAllText(stale, "");
            Assert.Null(DiagnosticSocket.Find(pid));
            File.WriteAllText(own, "");
            Assert.Equal(own, DiagnosticSocket.Find(pid));
        }
        finally
        {
            File.Delete(stale);
            File.Delete(own);
            sleeper.Kill();
        }
    }

    // The same with the process gone by the time its socket is looked for (no start time to compare): a short-lived
    // member of a service's group, listed alive a moment before, was taken for the service's runtime.
    [Fact]
    public void DiagnosticSocket_OfAProcessGoneSinceItWasListed_IsNone()
    {
        int pid;
        using (var quick = System.Diagnostics.Process.Start("true"))
        {
            quick.WaitForExit();
            pid = quick.Id;
        }
        Assert.False(ProcessFiles.IsAlive(pid));
        var stale = Path.Combine(Path.GetTempPath(), $"dotnet-diagnostic-{pid}-1-socket");
        try
        {
            File.WriteAllText(stale, "");
            Assert.Null(DiagnosticSocket.Find(pid));
        }
        finally
        {
            File.Delete(stale);
        }
    }

    public static TheoryData<Exception, bool> PermissionCases => new()
    {
        { new UnauthorizedAccessException("denied"), true },
        { new IOException("outer", new SocketException((int)SocketError.AccessDenied)), true },
        { new InvalidOperationException("connect: Permission denied"), true },
        { new IOException("connection refused", new SocketException((int)SocketError.ConnectionRefused)), false },
        { new TimeoutException("slow"), false },
    };

    [Theory]
    [MemberData(nameof(PermissionCases))]
    public void AttachErrors_IsPermissionDenied_LooksThroughInnerExceptions(Exception e, bool expected) =>
        Assert.Equal(expected, AttachErrors.IsPermissionDenied(e));
}
