using Tplab.Target;

namespace Tplab.Tests.Support;

/// <summary>One real target process (Kestrel, no database, no downstream) shared by a test class that only loads it.</summary>
public sealed class TargetFixture : IAsyncLifetime
{
    private TargetProcess? _target;

    public TargetProcess Target => _target ?? throw new InvalidOperationException("not started");

    public Uri Url(string pathAndQuery) => new(Target.BaseAddress, pathAndQuery);

    public async Task InitializeAsync() => _target = await TargetProcess.StartTargetAsync(new TargetOptions());

    public async Task DisposeAsync()
    {
        if (_target is not null)
        {
            await _target.DisposeAsync();
        }
    }
}
