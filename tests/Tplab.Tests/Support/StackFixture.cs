using Tplab.Target;

namespace Tplab.Tests.Support;

/// <summary>One downstream and one private PostgreSQL shared by a test class; targets are started per test.</summary>
public sealed class StackFixture : IAsyncLifetime
{
    private TargetStack? _stack;

    public TargetStack Stack => _stack ?? throw new InvalidOperationException("not started");

    public async Task InitializeAsync() => _stack = await TargetStack.StartAsync(new TargetStackOptions());

    public async Task DisposeAsync()
    {
        if (_stack is not null)
        {
            await _stack.DisposeAsync();
        }
    }
}
