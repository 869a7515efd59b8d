namespace Tplab.Cli;

/// <summary>Whether an exception is a write to a pipe whose reader has gone (EPIPE), as <c>| head</c> does once it has its lines.</summary>
internal static class ClosedPipe
{
    private const int Epipe = 32;

    public static bool Is(Exception? e)
    {
        for (; e is not null; e = e.InnerException)
        {
            if (e is IOException io && (io.HResult == Epipe || io.Message.Contains("Broken pipe", StringComparison.Ordinal)))
            {
                return true;
            }
        }
        return false;
    }
}
