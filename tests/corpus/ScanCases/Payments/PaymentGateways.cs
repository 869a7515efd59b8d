using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Payments;

public sealed record PaymentRequest(int OrderId, string Method, decimal Amount, string? CardNumber);

public sealed record PaymentResult(int OrderId, bool Approved, string Reference);

public static class PaymentServices
{
    public static IServiceCollection AddPayments(this IServiceCollection services)
    {
        services.AddSingleton<IPaymentGateway, CardGateway>();
        services.AddSingleton<IPaymentGateway, InvoiceGateway>();
        services.AddSingleton<AccountsLedger>();
        services.AddScoped<PaymentService>();
        services.AddHttpClient<PspSession>((sp, http) => http.BaseAddress = new Uri(sp.GetRequiredService<OwnAddress>().Internal, "psp/"));
        return services;
    }
}

/// <summary>Routes a payment to the gateway of its method (card, invoice).</summary>
public sealed class PaymentService(IEnumerable<IPaymentGateway> gateways, AuditSpooler audit)
{
    public PaymentResult Charge(PaymentRequest request)
    {
        var gateway = gateways.FirstOrDefault(g => g.Method == request.Method)
            ?? throw new BadHttpRequestException($"unknown payment method '{request.Method}'");
        var result = gateway.Authorize(request);
        audit.Record($"payment {request.OrderId} {request.Method} {result.Approved}");
        return result;
    }
}

public interface IPaymentGateway
{
    string Method { get; }

    PaymentResult Authorize(PaymentRequest request);
}

/// <summary>Cards are tokenised and checked locally; the capture happens in the nightly batch.</summary>
public sealed class CardGateway : IPaymentGateway
{
    public string Method => "card";

    public PaymentResult Authorize(PaymentRequest request)
    {
        var digits = request.CardNumber?.Where(char.IsDigit).Select(c => c - '0').Reverse().ToArray() ?? [];
        var sum = digits.Select((d, i) => i % 2 == 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d).Sum();
        var valid = digits.Length >= 12 && sum % 10 == 0;
        return new PaymentResult(request.OrderId, valid, valid ? $"card-{request.OrderId}" : "declined");
    }
}

/// <summary>Business customers pay by invoice: the accounts ledger opens one before the order is confirmed.</summary>
public sealed class InvoiceGateway(AccountsLedger ledger) : IPaymentGateway
{
    public string Method => "invoice";

    public PaymentResult Authorize(PaymentRequest request)
    {
        var invoiceNumber = ledger.OpenInvoiceAsync(request.OrderId, request.Amount).Result;
        return new PaymentResult(request.OrderId, true, invoiceNumber);
    }
}

/// <summary>The finance department's ledger service.</summary>
public sealed class AccountsLedger(IOptions<BoxOfficeOptions> options)
{
    public async Task<string> OpenInvoiceAsync(int orderId, decimal amount)
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        return $"INV-{orderId:000000}-{amount:0}";
    }
}
