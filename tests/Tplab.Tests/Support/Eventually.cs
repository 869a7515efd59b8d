namespace Tplab.Tests.Support;

/// <summary>Waits on a condition instead of a fixed time: polls it until it holds, and fails with a message when it never does.</summary>
internal static class Eventually
{
    /// <summary>Returns once <paramref name="condition"/> holds; throws a <see cref="TimeoutException"/> naming <paramref name="what"/> after <paramref name="timeout"/>.</summary>
    public static async Task UntilAsync(Func<bool> condition, TimeSpan timeout, string what)
    {
        ArgumentNullException.ThrowIfNull(condition);
        using var cts = new CancellationTokenSource(timeout);
        while (!condition())
        {
            try
            {
                await Task.Delay(TimeSpan.FromMilliseconds(50), cts.Token);
            }
            catch (OperationCanceledException)
            {
                throw new TimeoutException($"{what}: not within {timeout.TotalSeconds:0.#} s");
            }
        }
    }
}
