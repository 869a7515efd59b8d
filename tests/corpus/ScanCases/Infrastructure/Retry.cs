namespace ScanCases.Infrastructure;

/// <summary>A partner call failed in a way worth trying again (timeouts, 503s).</summary>
public sealed class TransientPartnerException(string message) : Exception(message);

/// <summary>Retries a partner call with a growing pause, as the partners' integration guides ask.</summary>
public static class Retry
{
    public static T Execute<T>(Func<T> call, int attempts = 3)
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                return call();
            }
            catch (TransientPartnerException) when (attempt < attempts)
            {
                Thread.Sleep(TimeSpan.FromMilliseconds(100 * attempt));
            }
        }
    }
}
