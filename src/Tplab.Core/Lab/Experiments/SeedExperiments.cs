using Tplab.Launch;

namespace Tplab.Lab.Experiments;

/// <summary>Which parameters to run the seed experiments with.</summary>
public enum LabProfile
{
    /// <summary>Scaled down so the whole run fits in about three minutes on two cores.</summary>
    Quick,

    /// <summary>The seeds' exact parameters.</summary>
    Full,
}

/// <summary>The four seed experiments (their write-ups and figures: Lab/Seeds/seed-figures.json), in quick and full profiles.</summary>
public static class SeedExperiments
{
    /// <summary>Experiment names, in run order.</summary>
    public static readonly IReadOnlyList<string> Names = ["ab-100", "jmeter-1000", "siege-db", "vegeta-50"];

    /// <summary>All four experiments for <paramref name="profile"/>.</summary>
    public static IReadOnlyList<Experiment> All(LabProfile profile) =>
        [AbHundred(profile), JMeterThousand(profile), SiegeDb(profile), VegetaFifty(profile)];

    /// <summary>Seeds 000/001: <c>ab -n 100 -c 100</c> against 1 s waits.</summary>
    public static Experiment AbHundred(LabProfile profile)
    {
        var quick = profile == LabProfile.Quick;
        var load = new LoadProfile { Concurrency = quick ? 40 : 100, Requests = quick ? 40 : 100 };
        Scenario S(string id, string variant, int? min = null) => Make("ab-100", id, variant, 1000, load, profile, new ThreadPoolSettings { MinThreads = min });
        return new Experiment
        {
            Name = "ab-100",
            Title = "ab -n 100 -c 100: Thread.Sleep and HttpClient .Result vs await, with and without 100 minimum threads",
            Seeds = ["000_951daac243d3f4b3.txt", "001_85f45f5209b89015.txt"],
            Scaling = quick ? "quick: 40 requests, 40 concurrent (seed: 100 × 100); 1 s waits and min threads 100 as published" : "as published: 100 requests, 100 concurrent, 1 s waits",
            Scenarios = [S("sleep", "sleep"), S("sleep-min100", "sleep", 100), S("http-result", "http-result"), S("http-result-min100", "http-result", 100), S("http-async", "http-async")],
            Lessons =
            [
                new("Thread.Sleep: default pool vs 100 minimum threads (mean)", "sleep", "sleep-min100"),
                new(".Result vs await on HttpClient (mean)", "http-result", "http-async"),
                new(".Result: default pool vs 100 minimum threads (mean)", "http-result", "http-result-min100"),
            ],
            RuntimeNotes =
            [
                "Background: the seed ran ASP.NET Core 3.1 on 4 cores (4 minimum worker threads). .NET 6 and later add pool threads for threads blocked in Task.Wait or .Result (CooperativeBlocking injections); 3.1 did not, and Thread.Sleep gets no such help on any version. The injections this run saw are counted below.",
            ],
        };
    }

    /// <summary>Seed 002: JMeter 100 threads, 1 s ramp-up, 10 loops, 3 s waits.</summary>
    public static Experiment JMeterThousand(LabProfile profile)
    {
        var quick = profile == LabProfile.Quick;
        var load = new LoadProfile { Concurrency = quick ? 30 : 100, Loops = quick ? 2 : 10, RampUp = TimeSpan.FromSeconds(1) };
        var wait = quick ? 1000 : 3000;
        Scenario S(string id, string variant, int? min = null) => Make("jmeter-1000", id, variant, wait, load, profile, new ThreadPoolSettings { MinThreads = min });
        return new Experiment
        {
            Name = "jmeter-1000",
            Title = "JMeter 100 threads × 10 loops: await Task.Delay vs Thread.Sleep vs await Task.Run(Thread.Sleep), and 5,000 minimum threads",
            Seeds = ["002_6ce04c589cd485f3.txt"],
            Scaling = quick ? "quick: 30 users × 2 loops with 1 s waits (seed: 100 × 10 with 3 s waits); ramp-up 1 s and min threads 5,000 as published" : "as published: 100 users × 10 loops, 1 s ramp-up, 3 s waits",
            Scenarios = [S("delay", "delay"), S("sleep", "sleep"), S("task-run-sleep", "task-run-sleep"), S("sleep-min5000", "sleep", 5000)],
            Lessons =
            [
                new("Thread.Sleep vs await Task.Delay (mean)", "sleep", "delay"),
                new("await Task.Run(Thread.Sleep) vs await Task.Delay (mean)", "task-run-sleep", "delay"),
                new("Thread.Sleep: default pool vs 5,000 minimum threads (mean)", "sleep", "sleep-min5000"),
            ],
            RuntimeNotes =
            [
                "Background: the seed ran ASP.NET 4.8 (.NET Framework) on a 1-core Azure App Service S1 plan, so its default minimum was 1 worker thread; here the default minimum is this machine's core count (the pool's start in the table). Seed 002 printed five runs per variant: its ratios are given over those runs.",
            ],
        };
    }

    /// <summary>Seed 003: siege 120 users for 1 minute, think up to 200 ms, 1 s database wait.</summary>
    public static Experiment SiegeDb(LabProfile profile)
    {
        var quick = profile == LabProfile.Quick;
        var users = quick ? 30 : 120;
        var load = new LoadProfile
        {
            Concurrency = users, Duration = TimeSpan.FromSeconds(quick ? 5 : 60), ThinkMin = TimeSpan.Zero, ThinkMax = TimeSpan.FromMilliseconds(200),
        };
        Scenario S(string id, string variant, ThreadPoolSettings? pool = null) => Make("siege-db", id, variant, 1000, load, profile, pool);
        var configured = new ThreadPoolSettings { Knobs = [new("System.Threading.ThreadPool.MinThreads", users.ToString(System.Globalization.CultureInfo.InvariantCulture))] };
        return new Experiment
        {
            Name = "siege-db",
            Title = "siege 120 users for 1 minute against a 1 s database wait: five ways to call the database, and min threads by runtimeconfig",
            Seeds = ["003_3c1f5fd3d50a21a8.txt"],
            Scaling = quick ? "quick: 30 users for 5 s (seed: 120 users for 60 s); think 0–200 ms and 1 s pg_sleep as published; runtimeconfig MinThreads = users" : "as published: 120 users for 60 s, think 0–200 ms, 1 s database wait; runtimeconfig MinThreads = 120",
            Scenarios =
            [
                S("db-sync", "db-sync"), S("db-async-sync-call", "db-async-sync-call"), S("db-task-run", "db-task-run"),
                S("db-wait", "db-wait"), S("db-async", "db-async"), S("db-sync-runtimeconfig", "db-sync", configured),
            ],
            Lessons =
            [
                new("sync ExecuteNonQuery vs await ExecuteNonQueryAsync (mean)", "db-sync", "db-async"),
                new("async action, sync call vs await (mean)", "db-async-sync-call", "db-async"),
                new("await Task.Run(sync call) vs await (mean)", "db-task-run", "db-async"),
                new("ExecuteNonQueryAsync().Wait() vs await (mean)", "db-wait", "db-async"),
                new("sync: default pool vs MinThreads in runtimeconfig (mean)", "db-sync", "db-sync-runtimeconfig"),
            ],
            RuntimeNotes =
            [
                "Background: the seed ran ASP.NET Core 8 against SQL Server (WAITFOR DELAY). .NET 8 already adds pool threads for threads blocked in a task wait (CooperativeBlocking, since .NET 6), as .NET 10 does, so the seed's .Wait() scenario had that help too. Here the database is a private PostgreSQL (pg_sleep) through Npgsql, with a connection pool (500) larger than the users so that only the thread pool limits.",
            ],
        };
    }

    /// <summary>Seed 004: vegeta 50 req/s for 60 s against 1 s waits, thread count every second.</summary>
    public static Experiment VegetaFifty(LabProfile profile)
    {
        var quick = profile == LabProfile.Quick;
        var load = new LoadProfile { Model = LoadModel.Open, Rate = 50, Duration = TimeSpan.FromSeconds(quick ? 5 : 60) };
        Scenario S(string id) => Make("vegeta-50", id, id, 1000, load, profile);
        return new Experiment
        {
            Name = "vegeta-50",
            Title = "vegeta 50 req/s for 60 s: Thread.Sleep vs await Task.Delay, the target's threads every second",
            Seeds = ["004_1956193fa8f92e95.txt"],
            Scaling = quick ? "quick: 50 req/s for 5 s (seed: 60 s); 1 s waits as published" : "as published: 50 req/s for 60 s, 1 s waits",
            Scenarios = [S("sleep"), S("delay")],
            Lessons = [new("Thread.Sleep vs await Task.Delay under a fixed arrival rate (mean)", "sleep", "delay")],
            RuntimeNotes =
            [
                "Background: the seed does not state its .NET version. Open loop: requests leave on schedule whatever the target does, so a starving target's backlog shows in the latency; tplab times each request from its scheduled send (no coordinated omission), vegeta from its actual send.",
            ],
        };
    }

    private static Scenario Make(string experiment, string id, string variant, int waitMs, LoadProfile load, LabProfile profile, ThreadPoolSettings? pool = null) => new()
    {
        Experiment = experiment, Id = id, Variant = variant, WaitMs = waitMs, Load = load,
        ThreadPool = pool ?? ThreadPoolSettings.Default, Deadline = Deadline(profile),
    };

    private static TimeSpan Deadline(LabProfile profile) => profile == LabProfile.Quick ? TimeSpan.FromSeconds(75) : TimeSpan.FromMinutes(6);
}
