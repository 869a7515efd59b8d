using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Graph;

/// <summary>
/// A job runner as application teams write one: <c>Run&lt;TJob&gt;()</c> resolves the job from DI and awaits its
/// <c>Process()</c>, which the jobs inherit from a base class that calls their abstract <c>Execute()</c>. Running one job
/// inline from an endpoint reaches that job's work only, not every job's.
/// </summary>
[ParallelSafe]
public sealed class JobRunnerDispatchTests
{
    private const string Jobs = """
        using Microsoft.Extensions.DependencyInjection;
        public interface IJob { Task Process(); }
        public abstract class JobBase : IJob
        {
            public async Task Process() { await Execute(); }
            protected abstract Task Execute();
        }
        public sealed class ImportJob : JobBase { public string Path { get; set; } = ""; protected override Task Execute() { File.ReadAllText(Path); return Task.CompletedTask; } }
        public sealed class BackupJob : JobBase { protected override Task Execute() { Thread.Sleep(1000); return Task.CompletedTask; } }
        public class MailJob : JobBase { protected override Task Execute() { new HttpClient().Send(new HttpRequestMessage()); return Task.CompletedTask; } }
        public sealed class DigestMailJob : MailJob { }
        public interface IJobRunner { Task Run<TJob>(Action<TJob>? configure = null) where TJob : class, IJob; }
        public sealed class JobRunner(IServiceProvider services) : IJobRunner
        {
            public async Task Run<TJob>(Action<TJob>? configure = null) where TJob : class, IJob
            {
                using var scope = services.CreateScope();
                var job = scope.ServiceProvider.GetRequiredService<TJob>();
                configure?.Invoke(job);
                await job.Process();
            }
        }
        public static class Startup
        {
            public static void Configure(IServiceCollection services) => services.AddSingleton<IJobRunner, JobRunner>();
        }
        """;

    [Theory]
    [InlineData("runner.Run<ImportJob>(j => j.Path = \"a\")")] // the type argument written
    [InlineData("runner.Run((ImportJob j) => j.Path = \"a\")")] // inferred from the delegate
    public void Run_OneJobInline_ReachesOnlyThatJobsWork(string call)
    {
        var findings = Snippet.Findings(Jobs + $$"""
            public static class Root { public static Task Handle(IJobRunner runner) => {{call}}; }
            """);
        var finding = Assert.Single(findings);
        Assert.Equal("File.ReadAllText", finding.Call.Name);
        Assert.Contains(finding.Chain, h => h.Via == "implementation of JobBase.Execute (this is ImportJob)");
    }

    [Fact]
    public void Run_AJobOthersDeriveFrom_StillReachesItsWork()
    {
        // DigestMailJob derives from MailJob: a MailJob may be either, so its this is not known exactly and the base's
        // Execute() stays as wide as without the runner (never narrower than what MailJob runs).
        var findings = Snippet.Findings(Jobs + """
            public static class Root { public static Task Handle(IJobRunner runner) => runner.Run<MailJob>(); }
            """);
        Assert.Contains(findings, f => f.Call.Name == "HttpClient.Send");
    }

    [Fact]
    public void Run_TheJobNotKnown_StillReachesEveryJob()
    {
        var findings = Snippet.Findings(Jobs + """
            public static class Root { public static Task Handle<TJob>(IJobRunner runner) where TJob : class, IJob => runner.Run<TJob>(); }
            """);
        Assert.Equal(["File.ReadAllText", "HttpClient.Send", "Thread.Sleep"], findings.Select(f => f.Call.Name).Order(StringComparer.Ordinal));
    }
}
