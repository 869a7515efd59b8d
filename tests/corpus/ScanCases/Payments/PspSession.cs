using System.Net;

namespace ScanCases.Payments;

/// <summary>
/// The payment service provider's legacy refund API. It accepts one session per merchant at a time, so calls from
/// this process are serialised.
/// </summary>
public sealed class PspSession(HttpClient http)
{
    private static readonly object SessionGate = new();

    public string RefundStatus(int refundId)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, $"refunds/{refundId}");
        lock (SessionGate)
        {
            using var response = http.Send(request);
            return response.StatusCode == HttpStatusCode.OK ? "processed" : "pending";
        }
    }
}
