namespace Tplab.Load.Engine;

/// <summary>
/// What the loops do when a send throws: a sender never throws for a failed request, but a bug or a surprise from the
/// platform still must not lose a scheduled request. Whatever escapes becomes that request's record, its error naming
/// the exception, so every scheduled request ends as exactly one record. The loops catch around their own await (one
/// async frame per request, not two: this sits on every request's path) and call <see cref="Record"/>.
/// </summary>
internal static class SafeSend
{
    /// <summary>Exceptions a loop turns into a record (all but running out of memory).</summary>
    public static bool Catches(Exception e) => e is not OutOfMemoryException;

    /// <summary>The record of a request scheduled at <paramref name="scheduled"/> and started at <paramref name="start"/> whose send threw <paramref name="e"/>.</summary>
    public static RequestRecord Record(Exception e, LoadClock clock, TimeSpan scheduled, TimeSpan start, int user) =>
        new(scheduled, start, start, clock.Now, 0, 0, 0, 0, $"internal: {e.GetType().Name}: {e.Message.ReplaceLineEndings(" ")}", user);
}
