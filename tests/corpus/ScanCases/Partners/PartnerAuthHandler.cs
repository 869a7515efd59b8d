using System.Net.Http.Headers;
using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Partners;

/// <summary>Signs every call to the partners' API with a fresh token.</summary>
public sealed class PartnerAuthHandler(PartnerTokens tokens) : DelegatingHandler
{
    protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", tokens.Current());
        return base.SendAsync(request, cancellationToken);
    }
}

/// <summary>The partners' identity service issues single-use tokens.</summary>
public sealed class PartnerTokens(IOptions<BoxOfficeOptions> options)
{
    public string Current() => IssueAsync().Result;

    private async Task<string> IssueAsync()
    {
        await Task.Delay(options.Value.UpstreamDelayMs / 2);
        return Guid.NewGuid().ToString("N");
    }
}
