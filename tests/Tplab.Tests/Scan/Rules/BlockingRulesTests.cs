using Tplab.Scan.Findings;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Rules;

/// <summary>The rules, one small case each: what blocks (and how sure), and what source proves harmless.</summary>
[ParallelSafe]
public sealed class BlockingRulesTests
{
    public static TheoryData<string, string, string?, Severity?> Cases => new()
    {
        // The catalogue diagnose uses, read from source.
        { "sleep", "public static class Root { public static void Handle() => Thread.Sleep(100); }", "Thread.Sleep", Severity.Error },
        { "sleep zero yields", "public static class Root { public static void Handle() => Thread.Sleep(0); }", null, null },
        { "result", "public static class Root { public static int Handle() => Get().Result; static async Task<int> Get() { await Task.Delay(1); return 1; } }", "Task.Result", Severity.Error },
        { "wait", "public static class Root { public static void Handle() => Task.Delay(10).Wait(); }", "Task.Wait", Severity.Error },
        { "getresult", "public static class Root { public static void Handle() => Task.Delay(10).GetAwaiter().GetResult(); }", "GetAwaiter().GetResult()", Severity.Error },
        { "configured getresult", "public static class Root { public static void Handle() => Task.Delay(10).ConfigureAwait(false).GetAwaiter().GetResult(); }", "GetAwaiter().GetResult()", Severity.Error },
        { "semaphore", "public static class Root { static readonly SemaphoreSlim S = new(1); public static void Handle() => S.Wait(); }", "SemaphoreSlim.Wait", Severity.Error },
        { "semaphore try", "public static class Root { static readonly SemaphoreSlim S = new(1); public static bool Handle() => S.Wait(0); }", null, null },
        { "http send", "public static class Root { public static void Handle() => new HttpClient().Send(new HttpRequestMessage()); }", "HttpClient.Send", Severity.Error },
        { "file", "public static class Root { public static string Handle() => File.ReadAllText(\"a\"); }", "File.ReadAllText", Severity.Error },
        // Completed tasks: no wait.
        { "from result", "public static class Root { public static int Handle() => Task.FromResult(1).Result; }", null, null },
        { "local from result", "public static class Root { public static int Handle() { var t = Task.FromResult(1); return t.Result; } }", null, null },
        { "after whenall", "public static class Root { public static async Task<int> Handle() { var a = Get(); var b = Get(); await Task.WhenAll(a, b); return a.Result + b.Result; } static async Task<int> Get() { await Task.Delay(1); return 1; } }", null, null },
        { "after whenall of a list", "public static class Root { public static async Task<int> Handle() { var all = new List<Task<int>> { Get(), Get() }; await Task.WhenAll(all); return all.Sum(t => t.Result); } static async Task<int> Get() { await Task.Delay(1); return 1; } }", null, null },
        { "after whenany only one", "public static class Root { public static async Task<int> Handle() { var a = Get(); var b = Get(); await Task.WhenAny(a, b); return a.Result; } static async Task<int> Get() { await Task.Delay(1); return 1; } }", "Task.Result", Severity.Error },
        { "after whenall of a dictionary's values", "public static class Root { public static async Task<int> Handle() { var all = new Dictionary<string, Task<int>> { [\"a\"] = Get() }; await Task.WhenAll(all.Values); var n = 0; foreach (var pair in all) { n += pair.Value.Result; } return n; } static async Task<int> Get() { await Task.Delay(1); return 1; } }", null, null },
        { "completed guard", "public static class Root { public static async Task<int> Handle() { var t = Get(); if (t.IsCompletedSuccessfully) { return t.Result; } return await t; } static async Task<int> Get() { await Task.Delay(1); return 1; } }", null, null },
        { "continuation antecedent", "public static class Root { public static Task<int> Handle() => Get().ContinueWith(t => t.Result + 1); static async Task<int> Get() { await Task.Delay(1); return 1; } }", null, null },
        { "valuetask result", "public static class Root { public static int Handle() => Get().Result; static async ValueTask<int> Get() { await Task.Delay(1); return 1; } }", "ValueTask.Result", Severity.Error },
        // Streams: memory holds no thread; a file does; an unknown Stream probably does.
        { "memory stream", "public static class Root { public static int Handle() { var m = new MemoryStream(new byte[4]); return m.Read(new byte[4], 0, 4); } }", null, null },
        { "reader over memory", "public static class Root { public static string Handle() => new StreamReader(new MemoryStream()).ReadToEnd(); }", null, null },
        { "reader over a path", "public static class Root { public static string Handle() => new StreamReader(\"a.txt\").ReadToEnd(); }", "StreamReader.ReadToEnd", Severity.Error },
        { "file stream", "public static class Root { public static int Handle() { using var f = File.OpenRead(\"a\"); return f.Read(new byte[4], 0, 4); } }", "FileStream.Read", Severity.Error },
        { "unknown stream", "public static class Root { public static int Handle() => Parse(Open()); static Stream Open() => Stream.Null; static int Parse(Stream s) => s.ReadByte(); }", "Stream.ReadByte", Severity.Warning },
        { "buffered response body", "public static class Root { public static int Handle() { var r = new HttpClient().Send(new HttpRequestMessage()); return r.Content.ReadAsStream().ReadByte(); } }", "HttpClient.Send", Severity.Error },
        { "streamed response body", "public static class Root { public static async Task<int> Handle() { var r = await new HttpClient().SendAsync(new HttpRequestMessage(), HttpCompletionOption.ResponseHeadersRead); return r.Content.ReadAsStream().ReadByte(); } }", "NetworkStream.ReadByte", Severity.Error },
        { "stream from callers", "public static class Root { public static int Handle() => Parse(new MemoryStream()); static int Parse(Stream s) => s.ReadByte(); }", null, null },
        // ADO.NET of any provider, through its base types or interfaces.
        { "idbconnection", "public static class Root { public static void Handle(IDbConnection c) => c.Open(); }", "IDbConnection.Open", Severity.Error },
        // Parallel loops and Task.Run.
        { "parallel foreach", "public static class Root { public static void Handle() => Parallel.ForEach(new[] { 1, 2 }, i => { }); }", "Parallel.ForEach", Severity.Error },
        { "task run over sleep", "public static class Root { public static async Task Handle() => await Task.Run(() => Thread.Sleep(10)); }", "Thread.Sleep", Severity.Error },
        { "task run cheap", "public static class Root { public static async Task<int> Handle() => await Task.Run(() => 40 + 2); }", "Task.Run", Severity.Note },
        { "task run result", "public static class Root { public static int Handle() => Task.Run(() => 42).Result; }", "Task.Result", Severity.Error },
        { "long running thread", "public static class Root { public static Task Handle() => Task.Factory.StartNew(() => Thread.Sleep(10), TaskCreationOptions.LongRunning); }", null, null },
        { "own thread", "public static class Root { public static void Handle() => new Thread(() => Thread.Sleep(10)).Start(); }", null, null },
        // Through the code: helpers, properties, constructors, local functions, generics, extension methods, cycles.
        { "property getter", "public static class Root { public static int Handle() => new Slow().Value; } public sealed class Slow { public int Value { get { Thread.Sleep(5); return 1; } } }", "Thread.Sleep", Severity.Error },
        { "constructor", "public static class Root { public static object Handle() => new Slow(); } public sealed class Slow { public Slow() => Thread.Sleep(5); }", "Thread.Sleep", Severity.Error },
        { "local function", "public static class Root { public static void Handle() { Pause(); static void Pause() => Thread.Sleep(5); } }", "Thread.Sleep", Severity.Error },
        { "generic helper", "public static class Root { public static int Handle() => Cache<int>.Get(); } public static class Cache<T> { public static T Get() { Thread.Sleep(5); return default!; } }", "Thread.Sleep", Severity.Error },
        { "extension method", "public static class Root { public static int Handle() => 3.Slowly(); } public static class Ext { public static int Slowly(this int x) { Thread.Sleep(5); return x; } }", "Thread.Sleep", Severity.Error },
        { "recursion", "public static class Root { public static int Handle() => A(3); static int A(int n) => n == 0 ? B() : A(n - 1); static int B() { Thread.Sleep(1); return 0; } }", "Thread.Sleep", Severity.Warning },
        { "linq callback", "public static class Root { public static int Handle() => new[] { 1 }.Select(i => { Thread.Sleep(1); return i; }).Sum(); }", "Thread.Sleep", Severity.Error },
        { "cache miss", "public static class Root { static readonly System.Collections.Concurrent.ConcurrentDictionary<int, int> C = new(); public static int Handle() => C.GetOrAdd(1, k => { Thread.Sleep(1); return k; }); }", "Thread.Sleep", Severity.Warning },
        // What executes: expression trees are data; subscribed, stored and scheduled delegates run later, elsewhere.
        { "expression tree", "public static class Root { public static bool Handle() { System.Linq.Expressions.Expression<Func<int, bool>> e = i => Slow(i); return e != null; } static bool Slow(int i) { Thread.Sleep(1); return true; } }", null, null },
        { "queryable where", "public static class Root { public static int Handle() => new[] { 1 }.AsQueryable().Where(i => Slow(i)).Count(); static bool Slow(int i) { Thread.Sleep(1); return true; } }", null, null },
        { "event subscription", "public static class Root { public static void Handle(FileSystemWatcher w) => w.Deleted += (s, e) => Thread.Sleep(1); }", null, null },
        { "method group subscription", "public static class Root { public static void Handle(FileSystemWatcher w) => w.Deleted += OnDeleted; static void OnDeleted(object s, FileSystemEventArgs e) => Thread.Sleep(1); }", null, null },
        { "stored in a property", "public static class Root { public static Holder Handle() => new Holder { Later = () => Thread.Sleep(1) }; } public sealed class Holder { public Action? Later { get; set; } }", null, null },
        { "helper that stores it", "public static class Root { public static void Handle() => Jobs.Add(() => Thread.Sleep(1)); } public static class Jobs { static readonly List<Action> All = new(); public static void Add(Action a) => All.Add(a); }", null, null },
        { "helper that runs it", "public static class Root { public static void Handle() => Retry.Run(() => Thread.Sleep(1)); } public static class Retry { public static void Run(Action a) { a(); } }", "Thread.Sleep", Severity.Error },
        { "in-memory tolist", "public static class Root { public static int Handle(List<int> xs) => xs.Where(x => x > 1).ToList().Count; }", null, null },
        { "in-memory queryable", "public static class Root { public static int Handle() => new List<int> { 1 }.AsQueryable().ToList().Count; }", null, null },
        { "in-memory queryable filtered again", "public static class Root { public static int Handle(string f) { IQueryable<string> entries = new List<string> { \"a\" }.AsQueryable(); if (f.Length > 0) { entries = entries.Where(e => e.Contains(f)); } return entries.Count(); } }", null, null },
        { "in-memory queryable in a field", "public static class Root { static IQueryable<int>? items; public static bool Handle() { Load(); return items!.Any(); } static void Load() => items = new List<int> { 1 }.AsQueryable(); }", null, null },
        { "queryable of unknown provider in a field", "public static class Root { static IQueryable<int>? items; public static bool Handle(IQueryable<int> q) { items = q; return items.Any(); } }", "Queryable.Any", Severity.Warning },
        { "lock in a constructor", "public sealed class Root { static readonly object G = new(); int n; public Root() { lock (G) { n = 1; } } public static object Handle() => new Root(); public static void Refresh() { lock (G) { Thread.Sleep(100); } } }", null, null },
        { "materialised by a source method", "public static class Root { public static int Handle() => Repo.All().Count(); } public static class Repo { public static IEnumerable<int> All() => new List<int> { 1 }.Where(i => i > 0).ToList(); }", null, null },
        { "task run scheduled under a lock", "public static class Root { static readonly object G = new(); static bool busy; public static void Handle() { lock (G) { busy = true; } } public static void Queue() { lock (G) { Task.Run(() => Thread.Sleep(100)); } } }", null, null },
        { "embedded resource", "public static class Root { public static int[]? Handle() { using var s = typeof(Root).Assembly.GetManifestResourceStream(\"a.json\") ?? throw new InvalidOperationException(); return System.Text.Json.JsonSerializer.Deserialize<int[]>(s); } }", null, null },
        { "array filtered again", "public static class Root { public static async Task<int> Handle(HashSet<int> seen) { var all = (await Get()).Where(i => i > 0).ToArray(); all = all.Where(u => !seen.Contains(u)).ToArray(); return all.Length; } static Task<int[]> Get() => Task.FromResult(new[] { 1 }); }", null, null },
        // Archives and XML over streams.
        { "zip open", "public static class Root { public static int Handle() => System.IO.Compression.ZipFile.OpenRead(\"a.zip\").Entries.Count; }", "ZipFile.OpenRead", Severity.Error },
        { "zip extract", "public static class Root { public static void Handle() => System.IO.Compression.ZipFile.ExtractToDirectory(\"a.zip\", \"b\"); }", "ZipFile.ExtractToDirectory", Severity.Error },
        { "xml over a file", "public static class Root { public static object? Handle() { using var f = File.OpenRead(\"a.xml\"); return new System.Xml.Serialization.XmlSerializer(typeof(int)).Deserialize(f); } }", "XmlSerializer.Deserialize", Severity.Error },
        { "xml over a string", "public static class Root { public static object? Handle(string s) => new System.Xml.Serialization.XmlSerializer(typeof(int)).Deserialize(new StringReader(s)); }", null, null },
        // Interfaces and virtual calls: every implementation, each marked.
        { "one implementation", "public static class Root { public static int Handle(IStore s) => s.Get(); } public interface IStore { int Get(); } public sealed class Slow : IStore { public int Get() { Thread.Sleep(1); return 1; } }", "Thread.Sleep", Severity.Error },
        { "one of two implementations", "public static class Root { public static int Handle(IStore s) => s.Get(); } public interface IStore { int Get(); } public sealed class Slow : IStore { public int Get() { Thread.Sleep(1); return 1; } } public sealed class Fast : IStore { public int Get() => 1; }", "Thread.Sleep", Severity.Warning },
        { "sealed receiver", "public static class Root { public static int Handle(Fast s) => s.Get(); } public interface IStore { int Get(); } public sealed class Slow : IStore { public int Get() { Thread.Sleep(1); return 1; } } public sealed class Fast : IStore { public int Get() => 1; }", null, null },
        { "override", "public static class Root { public static int Handle(Base b) => b.Get(); } public abstract class Base { public abstract int Get(); } public sealed class Slow : Base { public override int Get() { Thread.Sleep(1); return 1; } }", "Thread.Sleep", Severity.Error },
        // Branches.
        { "if branch", "public static class Root { public static void Handle(int n) { if (n > 3) { Thread.Sleep(1); } } }", "Thread.Sleep", Severity.Warning },
        { "catch", "public static class Root { public static void Handle() { try { } catch (Exception) { Thread.Sleep(1); } } }", "Thread.Sleep", Severity.Warning },
        { "fast path returns a value first", "public static class Root { static int? hit; public static int Handle() { if (hit is { } h) { return h; } Thread.Sleep(1); return 0; } }", "Thread.Sleep", Severity.Warning },
        { "guard in a conditional expression", "public static class Root { public static int? Handle(int n) => n <= 0 ? null : Slow(n); static int Slow(int n) { Thread.Sleep(1); return n; } }", "Thread.Sleep", Severity.Error },
        { "two real branches", "public static class Root { public static int Handle(int n) => n > 0 ? Slow(n) : Fast(n); static int Slow(int n) { Thread.Sleep(1); return n; } static int Fast(int n) => n; }", "Thread.Sleep", Severity.Warning },
        { "guard clause before", "public static class Root { public static void Handle(int n) { if (n > 3) { return; } Thread.Sleep(1); } }", "Thread.Sleep", Severity.Error },
        // Locks: memory only is fine; held elsewhere around a sleep is contention.
        { "memory lock", "public static class Root { static readonly object G = new(); static int n; public static int Handle() { lock (G) { return ++n; } } }", null, null },
        { "lock with a slow holder", "public static class Root { static readonly object G = new(); static int n; public static int Handle() { lock (G) { return ++n; } } public static void Refresh() { lock (G) { Thread.Sleep(100); } } }", "lock (Monitor.Enter)", Severity.Warning },
        { "monitor with a slow holder", "public static class Root { static readonly object G = new(); public static void Handle() { Monitor.Enter(G); try { } finally { Monitor.Exit(G); } } public static void Refresh() { Monitor.Enter(G); Thread.Sleep(100); Monitor.Exit(G); } }", "lock (Monitor.Enter)", Severity.Warning },
    };

    private const string FakeProvider = """

        public sealed class FakeCommand : DbCommand
        {
            public override string CommandText { get; set; } = "";
            public override int CommandTimeout { get; set; }
            public override CommandType CommandType { get; set; }
            public override bool DesignTimeVisible { get; set; }
            public override UpdateRowSource UpdatedRowSource { get; set; }
            protected override DbConnection? DbConnection { get; set; }
            protected override DbParameterCollection DbParameterCollection => throw new NotSupportedException();
            protected override DbTransaction? DbTransaction { get; set; }
            public override void Cancel() { }
            public override int ExecuteNonQuery() => 0;
            public override object? ExecuteScalar() => null;
            public override void Prepare() { }
            protected override DbParameter CreateDbParameter() => throw new NotSupportedException();
            protected override DbDataReader ExecuteDbDataReader(CommandBehavior behavior) => throw new NotSupportedException();
        }
        """;

    [Fact]
    public void Findings_ReadOfABufferedResponseBody_IsNotABlockingRead()
    {
        var findings = Snippet.Findings("public static class Root { public static int Handle() { var r = new HttpClient().Send(new HttpRequestMessage()); return r.Content.ReadAsStream().ReadByte(); } }");
        Assert.Equal(["HttpClient.Send"], findings.Select(f => f.Call.Name));
    }

    [Fact]
    public void Findings_AnyAdoNetProvider_IsKnownByItsBaseType()
    {
        var findings = Snippet.Findings("public static class Root { public static int Handle(FakeCommand c) => c.ExecuteNonQuery(); }", library: FakeProvider);
        var finding = Assert.Single(findings);
        Assert.Equal("FakeCommand.ExecuteNonQuery", finding.Call.Name);
        Assert.Equal(Severity.Error, finding.Severity);
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Findings_Snippet_ReportsTheBlockingCallOrNothing(string name, string code, string? blockingCall, Severity? severity)
    {
        var findings = Snippet.Findings(code);
        if (blockingCall is null)
        {
            Assert.True(findings.Count == 0, $"{name}: expected nothing, got {string.Join("; ", findings.Select(f => $"{f.Call.Name} ({f.Severity})"))}");
            return;
        }
        var finding = findings.FirstOrDefault(f => f.Call.Name == blockingCall);
        Assert.True(finding is not null, $"{name}: expected {blockingCall}, got {string.Join("; ", findings.Select(f => f.Call.Name))}");
        Assert.Equal(severity, finding.Severity);
    }
}
