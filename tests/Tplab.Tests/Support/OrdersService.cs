using System.Globalization;
using Tplab.Launch;

namespace Tplab.Tests.Support;

/// <summary>The user's own service of the tests (tests/Tplab.OrdersService), built next to the tests, and plans that name it.</summary>
internal static class OrdersService
{
    public static string Folder => AppContext.BaseDirectory;

    /// <summary>The command a user would write: dotnet and the app's dll.</summary>
    public static string Command => $"{DotnetHost.Path} Tplab.OrdersService.dll";

    /// <summary>
    /// A plan of one scenario <paramref name="id"/> on the service: three GETs of an order (a synchronous store call of
    /// <paramref name="latencyMs"/>) to one POST that places one, <paramref name="users"/> users, twice as many requests.
    /// </summary>
    public static string Plan(string id, int users, int latencyMs = 300, int? minThreads = null, string extraService = "") => string.Create(CultureInfo.InvariantCulture, $$"""
        name: orders
        service:
          command: {{Command}}
          workingDirectory: {{Folder}}
          environment: { Store__LatencyMs: "{{latencyMs}}" }
          ready: /health
        {{extraService}}
        scenarios:
          - id: {{id}}
            requests:
              - { method: GET, path: /orders/42, weight: 3 }
              - { method: POST, path: /orders, headers: { Content-Type: application/json }, body: '{"sku":7}', name: place order }
            {{(minThreads is int m ? $"minThreads: {m}" : "")}}
            load: { concurrency: {{users}}, requests: {{users * 2}} }
        """);
}
