using Tplab.Launch;

namespace Tplab.Tests.Support;

/// <summary>
/// One downstream and one private PostgreSQL shared by a test class; targets are started per test, or shared by the
/// tests that only call a route and need no fresh pool (<see cref="SharedTargetAsync"/>).
/// </summary>
public class StackFixture : IAsyncLifetime
{
    private TargetStack? _stack;
    private Lazy<Task<TargetProcess>>? _shared;

    public TargetStack Stack => _stack ?? throw new InvalidOperationException("not started");

    /// <summary>
    /// One target with the default pool, started by the first test that asks and ended with the class: a test that
    /// reads a route's answer does not pay a process start of its own (a test that loads the pool starts its own).
    /// </summary>
    public Task<TargetProcess> SharedTargetAsync() =>
        (_shared ?? throw new InvalidOperationException("not started")).Value;

    /// <summary>What to start; the default is everything.</summary>
    protected virtual TargetStackOptions Options => new();

    public async Task InitializeAsync()
    {
        _stack = await TargetStack.StartAsync(Options);
        _shared = new(() => Stack.StartTargetAsync(ThreadPoolSettings.Default));
    }

    public async Task DisposeAsync()
    {
        if (_shared is { IsValueCreated: true, Value.IsCompletedSuccessfully: true })
        {
            await (await _shared.Value).DisposeAsync();
        }
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
