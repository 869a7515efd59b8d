using System.Globalization;
using System.Text;

namespace FixProbes.Sessions;

/// <summary>Receipts built in a per-thread buffer (one allocation per thread, not per receipt).</summary>
public sealed class ReceiptPrinter : IDisposable
{
    private readonly ThreadLocal<StringBuilder> _buffer = new(() => new StringBuilder(256));

    public string Print(int orderId)
    {
        var text = _buffer.Value!;
        text.Clear();
        text.Append(CultureInfo.InvariantCulture, $"receipt {orderId}");
        WaitForPrinter();
        text.Append(" printed");
        return _buffer.Value!.ToString();
    }

    private static void WaitForPrinter() => Thread.Sleep(10);

    public void Dispose() => _buffer.Dispose();
}
