using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Tplab.Blocking;
using Tplab.Scan.Fix.Checks;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// <c>CompletionRewrite</c>: a one-shot event its type owns becomes a TaskCompletionSource with every use, proven by
/// running the code: the gate as teams write it (a warm-up gate with a timed wait, a job a worker thread signals)
/// compiled in memory before and after the fix and called on the same paths — signalled before the wait, signalled
/// from another thread during it, never signalled (the timeout), a bad timeout — with the same answers and exceptions.
/// Events code outside can reach, reset or pass on, and handles that are not one-shot events, are refused (a Mutex
/// its type owns becomes a SemaphoreSlim: <see cref="FixMutexTests"/>).
/// </summary>
[ParallelSafe]
public sealed class FixCompletionTests
{
    private const string Gate = """
        using System;
        using System.Threading;
        public sealed class Gate : IDisposable
        {
            private readonly ManualResetEventSlim _ready = new(false);
            public bool IsOpen => _ready.IsSet;
            public bool WaitFor(int ms) => _ready.Wait(ms);
            public bool WaitSpan(int ms) => _ready.Wait(TimeSpan.FromMilliseconds(ms));
            public string Pass()
            {
                _ready.Wait();
                return "passed";
            }
            public void Open() => _ready.Set();
            public void Dispose() => _ready.Dispose();
        }
        """;

    private const string Exports = """
        using System;
        using System.Collections.Concurrent;
        using System.Threading;
        public sealed class Exports
        {
            private readonly BlockingCollection<Job> _jobs = new();
            public Exports() => new Thread(Work) { IsBackground = true }.Start();
            public string Export(int id)
            {
                using var job = new Job(id);
                _jobs.Add(job);
                job.Done.WaitOne();
                return job.Content!;
            }
            private void Work()
            {
                foreach (var job in _jobs.GetConsumingEnumerable())
                {
                    Thread.Sleep(50);
                    job.Content = "export " + job.Id;
                    job.Done.Set();
                }
            }
            private sealed class Job(int id) : IDisposable
            {
                public int Id { get; } = id;
                public ManualResetEvent Done { get; } = new(false);
                public string? Content { get; set; }
                public void Dispose() => Done.Dispose();
            }
        }
        """;

    private static readonly BlockingCall SlimWait = new(BlockingKind.SyncWait, "ManualResetEventSlim.Wait", new StackFrame("System.Private.CoreLib", "System.Threading.ManualResetEventSlim", "Wait"));
    private static readonly BlockingCall WaitOne = new(BlockingKind.SyncWait, "WaitHandle.WaitOne", new StackFrame("System.Private.CoreLib", "System.Threading.WaitHandle", "WaitOne"));

    [Fact]
    public async Task PrivateSlimEvent_BecomesATaskCompletionSource_WithEveryUse()
    {
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(Gate, "Wait(ms)", SlimWait);

        Assert.Null(refusal);
        var text = SiteRewriteTests.Squash(after);
        Assert.Contains("private readonly TaskCompletionSource _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);", text);
        Assert.Contains("public bool IsOpen => _ready.Task.IsCompleted;", text);
        Assert.Contains("await _ready.Task.WaitAsync(TimeSpan.FromMilliseconds(ms)).ContinueWith(static signalled => signalled.Exception is null", text);
        Assert.Contains("await _ready.Task;", text);
        Assert.Contains("public void Open() => _ready.TrySetResult();", text);
        Assert.DoesNotContain("ManualResetEventSlim", text);
    }

    public static TheoryData<string, string> GatePaths => new()
    {
        // signalled before the wait: through at once
        { "open-first", "True True passed True" },
        // signalled by another thread while the request waits
        { "open-later", "True passed" },
        // never signalled: the timed waits answer false, as Wait(timeout) does
        { "never", "False False False" },
        // a timeout below -1 ms: the same exception from both
        { "bad-timeout", "ArgumentOutOfRangeException" },
    };

    [Theory]
    [MemberData(nameof(GatePaths))]
    public async Task Gate_BeforeAndAfterTheFix_SameAnswersAndExceptions(string path, string expected)
    {
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(Gate, "Wait(ms)", SlimWait);
        Assert.Null(refusal);

        Assert.Equal(expected, await GatePathAsync(Load(Gate, "Gate"), path));
        Assert.Equal(expected, await GatePathAsync(Load(after!, "Gate"), path));
    }

    [Fact]
    public async Task PrivateNestedManualResetEvent_SignalledByAWorkerThread_SameAnswerAfterTheFix()
    {
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(Exports, "WaitOne", WaitOne);

        Assert.Null(refusal);
        var text = SiteRewriteTests.Squash(after);
        Assert.Contains("public TaskCompletionSource Done { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);", text);
        Assert.Contains("await job.Done.Task;", text);
        Assert.Contains("job.Done.TrySetResult();", text);
        foreach (var code in new[] { Exports, after! })
        {
            var exports = Load(code, "Exports");
            var results = await Task.WhenAll(Enumerable.Range(1, 8).Select(id => Task.Run(() => CallAsync(exports, "Export", id))));
            Assert.Equal(Enumerable.Range(1, 8).Select(id => "export " + id), results);
        }
    }

    public static TheoryData<string, string> Refused => new()
    {
        { "public readonly ManualResetEventSlim Ready = new(false); public void M() { Ready.Wait(); }", "is public, so code tplab cannot see may wait on it or reset it" },
        { "private readonly ManualResetEventSlim _ready = new(false); public void M() { _ready.Wait(); } public void Again() => _ready.Reset();", "_ready.Reset" },
        { "private readonly ManualResetEventSlim _ready = new(true); public void M() { _ready.Wait(); }", "created unset" },
        { "private ManualResetEventSlim _ready = new(false); public void M() { _ready.Wait(); }", "readonly field" },
        { "private readonly ManualResetEventSlim _ready = new(false); public void M() { _ready.Wait(); } public WaitHandle H() => _ready.WaitHandle;", "_ready.WaitHandle" },
        { "private readonly ManualResetEventSlim _ready = new(false); public void M() { _ready.Wait(5, CancellationToken.None); }", "_ready.Wait(5, CancellationToken.None)" },
    };

    [Theory]
    [MemberData(nameof(Refused))]
    public async Task EventTheFixCannotOwn_Refused_NamedTPFIX010(string members, string reason)
    {
        var (after, refusal) = await SiteRewriteTests.RewriteAsync($"using System.Threading; public sealed class C {{ {members} }}", "Wait(", SlimWait);

        Assert.Null(after);
        Assert.StartsWith(FixReasons.NoAsyncForm.Id, refusal);
        Assert.Contains(reason, refusal);
    }

    [Fact]
    public async Task SemaphoreWait_NotAOneShotEvent_RefusedWithTheRowsAdvice()
    {
        // A Mutex its type owns becomes a SemaphoreSlim instead (FixMutexTests); a counting Semaphore has no rewrite.
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(
            "using System.Threading; public sealed class C { private readonly Semaphore _slots = new(2, 2); public void M() { _slots.WaitOne(); _slots.Release(); } }", "WaitOne", WaitOne);

        Assert.Null(after);
        Assert.Equal(FixReasons.NoAsyncForm.Say(BlockingCallCatalogue.RewriteFor(WaitOne).Advice!), refusal);
    }

    private static async Task<string> GatePathAsync(object gate, string path)
    {
        try
        {
            switch (path)
            {
                case "open-first":
                    Call(gate, "Open");
                    return $"{Call(gate, "IsOpen")} {await CallAsync(gate, "WaitFor", 50)} {await CallAsync(gate, "Pass")} {await CallAsync(gate, "WaitSpan", 50)}";
                case "open-later":
                    var open = Task.Run(async () => { await Task.Delay(100); Call(gate, "Open"); });
                    var answers = await Task.Run(async () => $"{await CallAsync(gate, "WaitFor", 30_000)} {await CallAsync(gate, "Pass")}");
                    await open;
                    return answers;
                case "never":
                    return $"{Call(gate, "IsOpen")} {await CallAsync(gate, "WaitFor", 20)} {await CallAsync(gate, "WaitSpan", 20)}";
                default:
                    return $"{await CallAsync(gate, "WaitFor", -2)}";
            }
        }
        catch (Exception e)
        {
            return e.GetType().Name;
        }
    }

    internal static object? Call(object target, string member, params object[] args)
    {
        try
        {
            return target.GetType().GetProperty(member) is { } property ? property.GetValue(target) : target.GetType().GetMethod(member)!.Invoke(target, args);
        }
        catch (TargetInvocationException e)
        {
            throw e.InnerException!;
        }
    }

    // The answer as the caller sees it: the value, or the awaited task's value once the fix made the method async.
    internal static async Task<object?> CallAsync(object target, string method, params object[] args)
    {
        var result = Call(target, method, args);
        if (result is not Task task)
        {
            return result;
        }
        await task;
        return task.GetType().GetProperty("Result")!.GetValue(task);
    }

    internal static object Load(string code, string type)
    {
        var compilation = CSharpCompilation.Create("completion-" + Guid.NewGuid().ToString("N"), [CSharpSyntaxTree.ParseText(code, new CSharpParseOptions(LanguageVersion.Preview))],
            FixPartsTests.References.Value, new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));
        using var image = new MemoryStream();
        var emitted = compilation.Emit(image);
        Assert.True(emitted.Success, string.Join("; ", emitted.Diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error).Take(3)));
        image.Position = 0;
        return Activator.CreateInstance(new AssemblyLoadContext("fix-completion", isCollectible: true).LoadFromStream(image).GetType(type)!)!;
    }
}
