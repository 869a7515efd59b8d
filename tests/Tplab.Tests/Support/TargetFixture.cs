using Tplab.Launch;

namespace Tplab.Tests.Support;

/// <summary>One real target process (Kestrel, no database, no downstream) shared by a test class that only loads it.</summary>
public sealed class TargetFixture : IAsyncLifetime
{
    private TargetProcess? _target;

    public TargetProcess Target => _target ?? throw new InvalidOperationException("not started");

    public Uri Url(string pathAndQuery) => new(Target.BaseAddress, pathAndQuery);

    public async Task InitializeAsync()
    {
        _target = await TargetProcess.StartTargetAsync(new TargetOptions());
        // Compile the routes the tests load (as the lab warms each target): a cold target's first requests stall on
        // the JIT for hundreds of milliseconds, which the first test to run would otherwise measure as latency.
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
        foreach (var path in new[] { "/", "/delay?ms=0", "/delay?ms=0", "/sleep?ms=0" })
        {
            using var response = await http.GetAsync(Url(path));
        }
    }

    public async Task DisposeAsync()
    {
        if (_target is not null)
        {
            await _target.DisposeAsync();
        }
    }
}
