using Tplab.Blocking;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Stacks;
using Tplab.Scan;
using Tplab.Scan.Graph;
using Tplab.Scan.Loading;
using Tplab.Scan.Roots;
using Tplab.Tests.Support;
using Xunit.Abstractions;

namespace Tplab.Tests.Blocking;

/// <summary>
/// diagnose and scan read the same app and must name the same code the same way: each app of the corpus is read by
/// scan from its source (Roslyn) and by diagnose from its IL (the built dll), and every endpoint scan finds on an MVC
/// action or a minimal API handler must get the same verb and route from diagnose.
/// </summary>
[Collection(TestCollections.Diagnose)]
public sealed class VocabularyAgreementTests(ITestOutputHelper output)
{
    [Theory]
    // The corpus shop (MVC and minimal APIs), the orders service (the lab's "user's own service"), the target (MVC).
    [InlineData("tests/corpus/ShopApp", "ShopApp.dll", 5, 5)]
    [InlineData("tests/Tplab.OrdersService", "Tplab.OrdersService.dll", 0, 1)]
    [InlineData("src/Tplab.Target", "Tplab.Target.dll", 1, 0)]
    public async Task DiagnoseAndScan_OnTheSameApp_GiveEveryEndpointTheSameVerbAndRoute(string project, string dll, int minActions, int minMinimal)
    {
        var folder = Path.Combine(RepoPaths.Root, project);
        using var loaded = await WorkspaceLoader.LoadAsync(ScanInput.Resolve(folder), new ScanOptions { Path = folder }, SilentProgress.Instance, CancellationToken.None);
        var roots = RootFinder.Find(Scanner.Index(loaded), CancellationToken.None).Roots.Where(r => r.Endpoint is not null).ToList();
        using var il = ApplicationCode.Load([Path.Combine(AppContext.BaseDirectory, dll)], new LibraryCode());

        var differences = new List<string>();
        // MVC actions: the same method, read from its attributes by both.
        var actions = 0;
        foreach (var root in roots.Where(r => r.Place == CodePlace.MvcAction))
        {
            var registrations = il.ActionRoutes(root.Node.TypeName, root.Node.MethodName);
            if (registrations.Count == 0)
            {
                differences.Add($"{root.Node.FullName}: scan says {root.Endpoint}, diagnose finds no route");
                continue;
            }
            actions++;
            // An action with several routes is one scan root per route: each must be one of diagnose's.
            var registration = registrations.FirstOrDefault(r => r.Verb == root.Endpoint!.Method && Route(r.Route) == Route(root.Endpoint.Route)) ?? registrations[0];
            Compare(root.Node.FullName, root.Endpoint!, registration.Verb, registration.Route, differences);
        }
        // Minimal APIs: the Map* calls, read from the source by scan and from Program's IL by diagnose, by route.
        var maps = il.Endpoints.ToLookup(e => Route(e.Route));
        var minimal = 0;
        foreach (var root in roots.Where(r => r.Place == CodePlace.MinimalApi))
        {
            var same = maps[Route(root.Endpoint!.Route)].ToList();
            if (same.Count == 0)
            {
                differences.Add($"{root.Endpoint}: scan maps it, diagnose finds no Map* call for that route");
                continue;
            }
            minimal++;
            if (!same.Any(e => e.Verb == root.Endpoint.Method))
            {
                differences.Add($"{root.Endpoint.Route}: scan says {root.Endpoint.Method}, diagnose says {string.Join(" or ", same.Select(e => e.Verb))}");
            }
        }
        output.WriteLine($"compared {actions} MVC actions and {minimal} minimal API endpoints");

        Assert.True(actions >= minActions && minimal >= minMinimal && actions + minimal > 0, $"only {actions} actions and {minimal} minimal API endpoints read by both");
        Assert.True(differences.Count == 0, string.Join('\n', differences));
    }

    private void Compare(string method, HttpEndpoint scan, string verb, string route, List<string> differences)
    {
        var a = $"{scan.Method} {Route(scan.Route)}";
        var b = $"{verb} {Route(route)}";
        output.WriteLine($"{method}: scan {a}, diagnose {b}");
        if (a != b)
        {
            differences.Add($"{method}: scan says {a}, diagnose says {b}");
        }
    }

    // Compared as users read a route: constraints dropped, one leading slash, any case.
    private static string Route(string route) => "/" + AspNetVocabulary.WithoutConstraints(route).Trim('/').ToLowerInvariant();
}
