using Tplab.Load.Requests;

namespace Tplab.Lab.Experiments;

/// <summary>
/// One endpoint of a scenario's request mix, as a client sends it: method, path and query on the service, headers,
/// body, and its weight in the mix (a request picks an endpoint with probability weight / total).
/// </summary>
public sealed record RequestSpec(string Method, string Path, IReadOnlyList<KeyValuePair<string, string>> Headers, ReadOnlyMemory<byte> Body, int Weight = 1, string? Name = null)
{
    /// <summary>How tables name the endpoint: its name, else method and path.</summary>
    public string Label => Name ?? $"{Method} {Path}";

    /// <summary>The load generator's template for this endpoint on the service at <paramref name="baseAddress"/>.</summary>
    public RequestTemplate ToTemplate(Uri baseAddress) => new(Method, new Uri(baseAddress, Path.TrimStart('/')), Headers, Body, Weight, Label);
}
