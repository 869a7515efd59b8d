using Tplab.Launch;

namespace Tplab.Tests.Support;

/// <summary>One downstream and one private PostgreSQL shared by a test class; targets are started per test.</summary>
public class StackFixture : IAsyncLifetime
{
    private TargetStack? _stack;

    public TargetStack Stack => _stack ?? throw new InvalidOperationException("not started");

    /// <summary>What to start; the default is everything.</summary>
    protected virtual TargetStackOptions Options => new();

    public async Task InitializeAsync() => _stack = await TargetStack.StartAsync(Options);

    public async Task DisposeAsync()
    {
        if (_stack is not null)
        {
            await _stack.DisposeAsync();
        }
    }
}

/// <summary>One downstream service (no database) shared by a test class, for the /http-* variants.</summary>
public sealed class DownstreamFixture : StackFixture
{
    protected override TargetStackOptions Options => new() { Database = false };
}
