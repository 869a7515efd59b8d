namespace FixProbes.Sessions;

/// <summary>A session of the legacy terminal: it must be opened and closed by the same thread.</summary>
public sealed class LegacySession
{
    public string Run()
    {
        var owner = Thread.CurrentThread.ManagedThreadId;
        Handshake();
        return owner == Thread.CurrentThread.ManagedThreadId ? "session closed by its owner" : "session closed by another thread";
    }

    private static void Handshake() => Task.Delay(10).Wait();
}
