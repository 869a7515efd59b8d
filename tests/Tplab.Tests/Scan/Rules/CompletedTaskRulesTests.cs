using Tplab.Scan.Findings;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Rules;

/// <summary>A task's Result read where a test proves it complete is not reported; where the proof does not hold, it is.</summary>
[ParallelSafe]
public sealed class CompletedTaskRulesTests
{
    private const string Get = " static async Task<int> Get() { await Task.Delay(1); return 1; } }";

    public static TheoryData<string, string, bool> Cases => new()
    {
        // Proven: the read sits where the test says the task finished.
        { "guard", "public static class Root { public static async Task<int> Handle() { var t = Get(); if (t.IsCompletedSuccessfully) { return t.Result; } return await t; }" + Get, false },
        { "guard with getresult", "public static class Root { public static async Task<int> Handle() { var t = Get(); if (t.IsCompletedSuccessfully) { return t.GetAwaiter().GetResult(); } return await t; }" + Get, false },
        { "guard with wait", "public static class Root { public static async Task Handle() { var t = Task.Delay(5); if (t.IsCompleted) { t.Wait(); return; } await t; } }", false },
        { "completed and not faulted", "public static class Root { public static async Task<int> Handle() { var t = Get(); if (t.IsCompleted && !t.IsFaulted && !t.IsCanceled) { return t.Result; } return await t; }" + Get, false },
        { "status", "public static class Root { public static async Task<int> Handle() { var t = Get(); if (t.Status == TaskStatus.RanToCompletion) { return t.Result; } return await t; }" + Get, false },
        { "ternary", "public static class Root { public static async Task<int> Handle() { var t = Get(); return t.IsCompletedSuccessfully ? t.Result : await t; }" + Get, false },
        { "negated ternary", "public static class Root { public static async Task<int> Handle() { var t = Get(); return !t.IsCompletedSuccessfully ? await t : t.Result; }" + Get, false },
        { "and also", "public static class Root { public static bool Handle() { var t = Get(); return t.IsCompletedSuccessfully && t.Result > 0; }" + Get, false },
        { "early exit", "public static class Root { public static async Task<int> Handle() { var t = Get(); if (!t.IsCompletedSuccessfully) { return await t; } return t.Result; }" + Get, false },
        { "early exit without braces", "public static class Root { public static async Task<int> Handle() { var t = Get(); if (!t.IsCompletedSuccessfully) return await t; var n = 2; return t.Result * n; }" + Get, false },
        { "early exit on status", "public static class Root { public static async Task<int> Handle() { var t = Get(); if (t.Status != TaskStatus.RanToCompletion) { return await t; } return t.Result; }" + Get, false },
        { "flag", "public static class Root { public static async Task<int> Handle() { var t = Get(); var done = t.IsCompletedSuccessfully; var n = 1; if (done) { n = t.Result; } else { n = await t; } return n; }" + Get, false },
        { "negated flag early exit", "public static class Root { public static async Task<int> Handle() { var t = Get(); var done = t.IsCompletedSuccessfully; if (!done) { return await t; } return t.Result; }" + Get, false },
        { "when any winner", "public static class Root { public static async Task<int> Handle() { var a = Get(); var b = Get(); if (await Task.WhenAny(a, b) == a) { return a.Result; } return await b; }" + Get, false },
        { "when any winner in a local", "public static class Root { public static async Task<int> Handle() { var a = Get(); var b = Get(); var first = await Task.WhenAny(a, b); if (first == a) { return a.Result; } return await b; }" + Get, false },
        { "when any result", "public static class Root { public static async Task<int> Handle() { var a = Get(); var b = Get(); var first = await Task.WhenAny(a, b); return first.Result; }" + Get, false },
        { "when any result inline", "public static class Root { public static async Task<int> Handle() { var a = Get(); var b = Get(); return (await Task.WhenAny(a, b)).Result; }" + Get, false },
        // Proven by a LINQ filter earlier in the same chain, or through a local holding the filtered sequence.
        { "linq status filter", "public static class Root { public static int Handle() { var tasks = new List<Task<int>> { Get(), Get() }; return tasks.Where(t => t.Status == TaskStatus.RanToCompletion).Where(t => t.Result > 0).Sum(t => t.Result); }" + Get, false },
        { "linq filter in a local", "public static class Root { public static int Handle() { var tasks = new List<Task<int>> { Get(), Get() }; var done = tasks.Where(t => t.IsCompletedSuccessfully); return done.Select(t => t.Result).Sum(); }" + Get, false },
        { "awaited then ordered", "public static class Root { public static async Task<int> Handle() { var tasks = new List<Task<int>> { Get(), Get() }; await Task.WhenAll(tasks); return tasks.OrderBy(t => t.Id).Select(t => t.Result).First(); }" + Get, false },
        // Not proven: the other branch, an or, the variable reassigned, a test that does not exit, another task.
        { "other branch", "public static class Root { public static async Task<int> Handle() { var t = Get(); if (t.IsCompletedSuccessfully) { await Task.Yield(); return 0; } else { return t.Result; } }" + Get, true },
        { "or", "public static class Root { public static int Handle(bool cached) { var t = Get(); if (t.IsCompletedSuccessfully || cached) { return t.Result; } return 0; }" + Get, true },
        { "reassigned after the test", "public static class Root { public static int Handle() { var t = Get(); if (t.IsCompletedSuccessfully) { t = Get(); return t.Result; } return 0; }" + Get, true },
        { "flag then reassigned", "public static class Root { public static int Handle() { var t = Get(); var done = t.IsCompletedSuccessfully; t = Get(); if (done) { return t.Result; } return 0; }" + Get, true },
        { "flag assigned twice", "public static class Root { public static int Handle(bool force) { var t = Get(); var done = t.IsCompletedSuccessfully; if (force) { done = true; } if (done) { return t.Result; } return 0; }" + Get, true },
        { "exit that does not leave", "public static class Root { public static int Handle() { var t = Get(); if (!t.IsCompletedSuccessfully) { Console.WriteLine(\"slow\"); } return t.Result; }" + Get, true },
        { "early exit on the wrong outcome", "public static class Root { public static int Handle() { var t = Get(); if (t.IsCompletedSuccessfully) { return 0; } return t.Result; }" + Get, true },
        { "guard on another task", "public static class Root { public static int Handle() { var t = Get(); var u = Get(); if (u.IsCompletedSuccessfully) { return t.Result; } return 0; }" + Get, true },
        { "when any loser", "public static class Root { public static async Task<int> Handle() { var a = Get(); var b = Get(); if (await Task.WhenAny(a, b) == a) { return b.Result; } return await b; }" + Get, true },
        { "when any then the other", "public static class Root { public static async Task<int> Handle() { var a = Get(); var b = Get(); if (await Task.WhenAny(a, b) != a) { return a.Result; } return 0; }" + Get, true },
        { "linq filter on another state", "public static class Root { public static int Handle() { var tasks = new List<Task<int>> { Get(), Get() }; return tasks.Where(t => t.Status != TaskStatus.RanToCompletion).Select(t => t.Result).Sum(); }" + Get, true },
        { "linq filter that proves nothing", "public static class Root { public static int Handle() { var tasks = new List<Task<int>> { Get(), Get() }; return tasks.Where(t => !t.IsFaulted).Select(t => t.Result).Sum(); }" + Get, true },
        { "linq projection before the read", "public static class Root { public static int Handle() { var tasks = new List<Task<int>> { Get(), Get() }; return tasks.Where(t => t.IsCompleted).Select(t => Get()).Select(t => t.Result).Sum(); }" + Get, true },
        { "not completed", "public static class Root { public static int Handle() { var t = Get(); if (!t.IsCompleted) { return t.Result; } return 0; }" + Get, true },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Findings_ResultUnderACompletionTest_IsReportedOnlyWhereTheProofFails(string name, string code, bool reported)
    {
        var blocking = Snippet.Findings(code).Where(f => f.Call.Kind == Tplab.Blocking.BlockingKind.SyncOverAsync).ToList();
        Assert.True(reported == (blocking.Count > 0), $"{name}: expected {(reported ? "a finding" : "nothing")}, got {string.Join("; ", blocking.Select(f => $"{f.Call.Name} ({f.Severity})"))}");
        if (reported)
        {
            Assert.NotEqual(Severity.Note, blocking[0].Severity);
        }
    }
}
