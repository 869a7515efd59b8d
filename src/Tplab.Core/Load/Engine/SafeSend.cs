namespace Tplab.Load.Engine;

/// <summary>
/// The loops' one way to send: a sender never throws for a failed request, but a bug or a surprise from the platform
/// still must not lose a scheduled request. Whatever escapes becomes that request's record, its error naming the
/// exception, so every scheduled request ends as exactly one record.
/// </summary>
internal static class SafeSend
{
    // Pooled builder: this sits on every request's path, and a box allocated per await is what the GC would see.
    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
    public static async ValueTask<RequestRecord> SendAsync(ISender sender, LoadClock clock, TimeSpan scheduled, int user, CancellationToken abort)
    {
        var before = clock.Now;
        try
        {
            return await sender.SendAsync(scheduled, user, abort).ConfigureAwait(false);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            var now = clock.Now;
            return new RequestRecord(scheduled, before, before, now, 0, 0, 0, 0, $"internal: {e.GetType().Name}: {e.Message.ReplaceLineEndings(" ")}", user);
        }
    }
}
