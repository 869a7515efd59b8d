using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// Entry points recognised by the types they derive from or implement (never by their names): hubs, gRPC services,
/// view components, HttpClient handlers, health checks, authorization handlers, mediator handlers, Blazor components,
/// hosted services, middleware classes and MVC/endpoint filters.
/// </summary>
internal static class TypeRoots
{
    private static readonly string[] FilterInterfaces =
    [
        "Microsoft.AspNetCore.Mvc.Filters.IActionFilter", "Microsoft.AspNetCore.Mvc.Filters.IAsyncActionFilter",
        "Microsoft.AspNetCore.Mvc.Filters.IResourceFilter", "Microsoft.AspNetCore.Mvc.Filters.IAsyncResourceFilter",
        "Microsoft.AspNetCore.Mvc.Filters.IAuthorizationFilter", "Microsoft.AspNetCore.Mvc.Filters.IAsyncAuthorizationFilter",
        "Microsoft.AspNetCore.Mvc.Filters.IResultFilter", "Microsoft.AspNetCore.Mvc.Filters.IAsyncResultFilter",
        "Microsoft.AspNetCore.Mvc.Filters.IExceptionFilter", "Microsoft.AspNetCore.Mvc.Filters.IAsyncExceptionFilter",
        "Microsoft.AspNetCore.Mvc.Filters.IPageFilter", "Microsoft.AspNetCore.Mvc.Filters.IAsyncPageFilter",
        "Microsoft.AspNetCore.Http.IEndpointFilter",
    ];

    /// <summary>OpenAPI document filters (Swashbuckle, NSwag): run while the document request waits.</summary>
    public static readonly string[] OpenApiFilters =
    [
        "Swashbuckle.AspNetCore.SwaggerGen.IOperationFilter", "Swashbuckle.AspNetCore.SwaggerGen.ISchemaFilter", "Swashbuckle.AspNetCore.SwaggerGen.IDocumentFilter",
        "Swashbuckle.AspNetCore.SwaggerGen.IParameterFilter", "Swashbuckle.AspNetCore.SwaggerGen.IRequestBodyFilter",
        "NSwag.Generation.Processors.IOperationProcessor", "NSwag.Generation.Processors.IDocumentProcessor", "NJsonSchema.Generation.ISchemaProcessor",
    ];

    private static readonly string[] MediatorHandlers =
    [
        "MediatR.IRequestHandler`2", "MediatR.IRequestHandler`1", "MediatR.INotificationHandler`1", "MediatR.IStreamRequestHandler`2",
        "Mediator.IRequestHandler`2", "Mediator.IRequestHandler`1", "Mediator.INotificationHandler`1", "Mediator.ICommandHandler`2", "Mediator.IQueryHandler`2",
    ];

    public static IEnumerable<EntryPoint> Find(INamedTypeSymbol type, SourceIndex index, Registrations registrations)
    {
        if (type.IsAbstract || type.IsStatic || type.TypeKind != TypeKind.Class)
        {
            yield break;
        }
        var name = SymbolNames.MetadataName(type);
        IEnumerable<(IMethodSymbol Method, CodePlace Place, HttpEndpoint? Endpoint)> found = [];

        if (Ops.IsOrDerives(type, "Microsoft.AspNetCore.SignalR.Hub") || Ops.IsOrDerives(type, "Microsoft.AspNetCore.SignalR.Hub`1"))
        {
            found = HubMethods(type).Select(m => (m, CodePlace.Hub, (HttpEndpoint?)null));
        }
        else if (GrpcBase(type) is { } grpcBase)
        {
            var service = grpcBase.ContainingType?.GetMembers("__ServiceName").OfType<IFieldSymbol>().FirstOrDefault()?.ConstantValue as string;
            found = Declared(type, m => m.IsOverride && SymbolEqualityComparer.Default.Equals(m.OverriddenMethod?.ContainingType, grpcBase))
                .Select(m => (m, CodePlace.Grpc, service is null ? null : (HttpEndpoint?)new HttpEndpoint("POST", $"/{service}/{m.Name}")));
        }
        else if (Ops.IsOrDerives(type, "Microsoft.AspNetCore.Mvc.ViewComponent") || MvcRoots.HasAttribute(type, "Microsoft.AspNetCore.Mvc.ViewComponentAttribute", inherit: true))
        {
            found = Declared(type, m => m.Name is "Invoke" or "InvokeAsync" && m.DeclaredAccessibility == Accessibility.Public).Select(m => (m, CodePlace.ViewComponent, (HttpEndpoint?)null));
        }
        else if (Ops.IsOrDerives(type, "System.Net.Http.DelegatingHandler") || Ops.IsOrDerives(type, "System.Net.Http.HttpMessageHandler"))
        {
            found = Declared(type, m => m.IsOverride && m.Name is "Send" or "SendAsync").Select(m => (m, CodePlace.DelegatingHandler, (HttpEndpoint?)null));
        }
        else if (Ops.IsOrDerives(type, "Microsoft.Extensions.Hosting.BackgroundService"))
        {
            found = Declared(type, m => m.IsOverride && m.Name is "ExecuteAsync" or "StartAsync").Select(m => (m, CodePlace.HostedService, (HttpEndpoint?)null));
        }
        else if (Ops.IsOrDerives(type, "Microsoft.AspNetCore.Components.ComponentBase"))
        {
            var route = MvcRoots.Attributes(type, inherit: false).Where(a => MvcRoots.Name(a) == "Microsoft.AspNetCore.Components.RouteAttribute")
                .Select(a => a.ConstructorArguments.FirstOrDefault().Value as string).FirstOrDefault();
            found = Declared(type, m => m.IsOverride && m.Name is "OnInitialized" or "OnInitializedAsync" or "OnParametersSet" or "OnParametersSetAsync"
                    or "OnAfterRender" or "OnAfterRenderAsync" or "SetParametersAsync" or "BuildRenderTree")
                .Select(m => (m, CodePlace.BlazorComponent, route is null ? null : (HttpEndpoint?)new HttpEndpoint("GET", route)));
        }
        else
        {
            found = Implementations(type, index, registrations, name);
        }

        // A hub's route (MapHub<T>("/hubs/chat")) is where its clients connect: kept with each hub method.
        IReadOnlyList<string> hubRoute = registrations.Types.HubRoutes.TryGetValue(name, out var mapped) ? [mapped] : [];
        foreach (var (method, place, endpoint) in found)
        {
            if (index.NodeFor(method) is { } node)
            {
                yield return new EntryPoint(node, place, endpoint) { Guards = place == CodePlace.Hub ? hubRoute : [] };
            }
        }

        // Middleware classes: conventional (Invoke/InvokeAsync(HttpContext, ...) with a RequestDelegate to call) or IMiddleware.
        if (IsMiddleware(type, registrations.Types.MiddlewareGuards.ContainsKey(name)))
        {
            var guards = registrations.Types.MiddlewareGuards.TryGetValue(name, out var g) ? g : [[]];
            var invoke = Declared(type, m => m.Name is "Invoke" or "InvokeAsync" && !m.IsStatic && m.Parameters.Length > 0
                && Ops.NameOf(m.Parameters[0].Type) == "Microsoft.AspNetCore.Http.HttpContext").FirstOrDefault();
            if (invoke is not null && index.NodeFor(invoke) is { } node)
            {
                // Registered in several places: one entry per distinct set of guarded paths; "every request" wins.
                var guard = guards.Any(x => x.Count == 0) ? [] : guards.SelectMany(x => x).Distinct().ToList();
                yield return new EntryPoint(node, CodePlace.Middleware, null) { Guards = guard };
            }
        }
    }

    private static IEnumerable<(IMethodSymbol, CodePlace, HttpEndpoint?)> Implementations(INamedTypeSymbol type, SourceIndex index, Registrations registrations, string name)
    {
        var results = new List<(IMethodSymbol, CodePlace, HttpEndpoint?)>();
        foreach (var iface in type.AllInterfaces)
        {
            var ifaceName = SymbolNames.MetadataName(iface);
            CodePlace? place = ifaceName switch
            {
                _ when FilterInterfaces.Contains(ifaceName) || OpenApiFilters.Contains(ifaceName) => CodePlace.Filter,
                "Microsoft.Extensions.Diagnostics.HealthChecks.IHealthCheck" => CodePlace.HealthCheck,
                "Microsoft.AspNetCore.Authorization.IAuthorizationHandler" => CodePlace.AuthorizationHandler,
                "Microsoft.Extensions.Hosting.IHostedService" => CodePlace.HostedService,
                _ when MediatorHandlers.Contains(ifaceName) => CodePlace.RequestHandler,
                _ => null,
            };
            if (place is not { } p)
            {
                continue;
            }
            foreach (var member in iface.GetMembers().OfType<IMethodSymbol>())
            {
                // A hosted service's StopAsync runs at shutdown, not while requests wait.
                if (p == CodePlace.HostedService && member.Name != "StartAsync")
                {
                    continue;
                }
                if (type.FindImplementationForInterfaceMember(member) is IMethodSymbol impl && index.IsSource(impl))
                {
                    // A health check runs on every probe of each health endpoint whose predicate selects it.
                    var routes = p == CodePlace.HealthCheck ? registrations.Types.HealthRoutesFor(name).ToList() : [];
                    results.AddRange(routes.Count == 0 ? [(impl, p, null)] : routes.Select(r => (impl, p, (HttpEndpoint?)new HttpEndpoint("GET", r))));
                }
            }
        }
        // AuthorizationHandler<TRequirement>: the work is in HandleRequirementAsync.
        if (Ops.IsOrDerives(type, "Microsoft.AspNetCore.Authorization.AuthorizationHandler`1") || Ops.IsOrDerives(type, "Microsoft.AspNetCore.Authorization.AuthorizationHandler`2"))
        {
            results.AddRange(Declared(type, m => m.IsOverride && m.Name == "HandleRequirementAsync").Select(m => (m, CodePlace.AuthorizationHandler, (HttpEndpoint?)null)));
        }
        return results.Distinct();
    }

    private static bool IsMiddleware(INamedTypeSymbol type, bool registered)
    {
        if (Ops.Implements(type, "Microsoft.AspNetCore.Http.IMiddleware"))
        {
            return true;
        }
        var takesNext = type.InstanceConstructors.Any(c => c.Parameters.Any(p => Ops.NameOf(p.Type) == "Microsoft.AspNetCore.Http.RequestDelegate"));
        return registered || takesNext;
    }

    // A gRPC service derives from the generated Xxx.XxxBase, which carries [BindServiceMethod].
    private static INamedTypeSymbol? GrpcBase(INamedTypeSymbol type)
    {
        for (var t = type.BaseType; t is not null; t = t.BaseType)
        {
            if (t.GetAttributes().Any(a => MvcRoots.Name(a) == "Grpc.Core.BindServiceMethodAttribute"))
            {
                return t;
            }
        }
        return null;
    }

    // A hub's methods clients call, its own and those of its abstract bases up to Hub (OnConnectedAsync in a base hub
    // every hub of the app derives from), each the most derived override, once per concrete hub.
    private static List<IMethodSymbol> HubMethods(INamedTypeSymbol type)
    {
        var methods = new List<IMethodSymbol>();
        for (var t = type; t is not null && SymbolNames.MetadataName(t) is not ("Microsoft.AspNetCore.SignalR.Hub" or "Microsoft.AspNetCore.SignalR.Hub`1"); t = t.BaseType)
        {
            foreach (var m in Declared(t, m => m.DeclaredAccessibility == Accessibility.Public && !m.IsStatic && m.Name != "Dispose"))
            {
                if (!methods.Any(d => Overrides(d, m)))
                {
                    methods.Add(m);
                }
            }
        }
        return methods;
    }

    private static bool Overrides(IMethodSymbol derived, IMethodSymbol baseMethod)
    {
        for (var o = derived.OverriddenMethod; o is not null; o = o.OverriddenMethod)
        {
            if (SymbolEqualityComparer.Default.Equals(o.OriginalDefinition, baseMethod.OriginalDefinition))
            {
                return true;
            }
        }
        return false;
    }

    private static IEnumerable<IMethodSymbol> Declared(INamedTypeSymbol type, Func<IMethodSymbol, bool> where) =>
        type.GetMembers().OfType<IMethodSymbol>().Where(m => m.MethodKind is MethodKind.Ordinary && where(m));
}
