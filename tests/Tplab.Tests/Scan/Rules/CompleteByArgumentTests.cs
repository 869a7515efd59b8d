using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Rules;

/// <summary>
/// A task the solution's own async method returns complete because of the argument passed: every await of its body sits
/// under a parameter the caller passes as <c>false</c> (a package catalogue that syncs from the network only when
/// allowed). Its <c>.Result</c> waits for nothing; with the flag true, unknown or reassigned, or an await outside it, the
/// read still blocks and is reported.
/// </summary>
[ParallelSafe]
public sealed class CompleteByArgumentTests
{
    private const string Catalogue = """
         public sealed class Catalogue
         {
             private DateTime _fetched;
             public async Task<List<string>> Manifests(bool allowSync = true, bool force = false)
             {
                 if (allowSync && (force || DateTime.UtcNow - _fetched > TimeSpan.FromHours(1)))
                 {
                     await new HttpClient().GetStringAsync("https://packages.example.org/index.json");
                     _fetched = DateTime.UtcNow;
                 }
                 return new List<string> { "local" };
             }
             public async Task<int> Count(bool remote)
             {
                 if (remote) { return (await new HttpClient().GetStringAsync("https://packages.example.org/count")).Length; }
                 await Task.Yield();
                 return 0;
             }
             public async Task<int> Reset(bool allowSync)
             {
                 allowSync = !allowSync;
                 if (allowSync) { await Task.Delay(10); }
                 return 1;
             }
         }
         public class Source
         {
             public virtual async Task<int> Fetch(bool remote)
             {
                 if (remote) { await Task.Delay(10); }
                 return 1;
             }
         }
         public sealed class RemoteSource : Source
         {
             public override async Task<int> Fetch(bool remote) { await Task.Delay(10); return 2; }
         }
         """;

    public static TheoryData<string, string, bool> Cases => new()
    {
        // Complete: the flag is off where every await needs it on.
        { "named false", "public static class Root { public static int Handle(Catalogue c) => c.Manifests(allowSync: false).Result.Count; }", false },
        { "positional false", "public static class Root { public static int Handle(Catalogue c) => c.Manifests(false, true).Result.Count; }", false },
        { "through a local", "public static class Root { public static int Handle(Catalogue c) { var t = c.Manifests(allowSync: false); return t.GetAwaiter().GetResult().Count; } }", false },
        // Not proven: the flag on, left to its default, not a constant; another flag off; an await outside the test;
        // the flag reassigned in the body.
        { "named true", "public static class Root { public static int Handle(Catalogue c) => c.Manifests(allowSync: true).Result.Count; }", true },
        { "default", "public static class Root { public static int Handle(Catalogue c) => c.Manifests().Result.Count; }", true },
        { "not a constant", "public static class Root { public static int Handle(Catalogue c, bool sync) => c.Manifests(sync).Result.Count; }", true },
        { "the other flag off", "public static class Root { public static int Handle(Catalogue c) => c.Manifests(force: false).Result.Count; }", true },
        { "an await outside", "public static class Root { public static int Handle(Catalogue c) => c.Count(false).Result; }", true },
        { "reassigned", "public static class Root { public static int Handle(Catalogue c) => c.Reset(false).Result; }", true },
        // A virtual method: an override the call may run awaits whatever the flag.
        { "virtual", "public static class Root { public static int Handle(Source s) => s.Fetch(false).Result; }", true },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Findings_ResultOfATaskAnArgumentCompletes_IsReportedOnlyWhereTheProofFails(string name, string code, bool reported)
    {
        var blocking = Snippet.Findings(Catalogue + code).Where(f => f.Call.Kind == Tplab.Blocking.BlockingKind.SyncOverAsync).ToList();
        Assert.True(reported == (blocking.Count > 0), $"{name}: expected {(reported ? "a finding" : "nothing")}, got {string.Join("; ", blocking.Select(f => $"{f.Call.Name} ({f.Severity})"))}");
    }
}
