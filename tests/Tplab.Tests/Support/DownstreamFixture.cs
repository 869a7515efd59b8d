using Tplab.Target;

namespace Tplab.Tests.Support;

/// <summary>One downstream service (no database) shared by a test class, for the /http-* variants.</summary>
public sealed class DownstreamFixture : IAsyncLifetime
{
    private TargetStack? _stack;

    public TargetStack Stack => _stack ?? throw new InvalidOperationException("not started");

    public async Task InitializeAsync() => _stack = await TargetStack.StartAsync(new TargetStackOptions { Database = false });

    public async Task DisposeAsync()
    {
        if (_stack is not null)
        {
            await _stack.DisposeAsync();
        }
    }
}
