using System.Globalization;
using System.Text;
using System.Text.Json;
using Microsoft.CodeAnalysis;
using Tplab.Lab.Experiments;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Plan;

/// <summary>
/// The request a plan sends to one flagged endpoint, from what Roslyn sees of its handler: the route filled to fit its
/// constraints and types (<see cref="RouteValues"/>), simple parameters not in the route as the query, and a JSON body
/// with sample values for a body parameter (<c>[FromBody]</c>, or a minimal API's or API controller's data type).
/// </summary>
internal static class EndpointRequest
{
    private const int MaxDepth = 3;

    /// <summary>The request for <paramref name="endpoint"/>; <paramref name="root"/> is its handler when the scan knows it (a middleware's guarded path has none: sample values only).</summary>
    public static RequestSpec For(HttpEndpoint endpoint, EntryPoint? root)
    {
        var method = endpoint.Method == "ANY" ? "GET" : endpoint.Method;
        var parameters = root?.Node.Symbol.Parameters ?? [];
        var path = RouteValues.Fill(endpoint.Route, name => parameters.FirstOrDefault(p => BoundName(p) == name || p.Name.Equals(name, StringComparison.OrdinalIgnoreCase))?.Type);
        var routeNames = RouteNames(endpoint.Route);
        var query = new List<string>();
        var headers = new List<KeyValuePair<string, string>>();
        string? body = null;
        var apiController = root is { Place: Tplab.Blocking.CodePlace.MvcAction } && MvcRoots.HasAttribute(root.Node.Symbol.ContainingType, "Microsoft.AspNetCore.Mvc.ApiControllerAttribute", inherit: true);
        foreach (var p in parameters)
        {
            var source = Source(p);
            var name = BoundName(p);
            if (source is "Services" or "Form" || routeNames.Contains(name) || source == "Route" || IsFramework(p.Type))
            {
                continue;
            }
            if (source == "Header")
            {
                headers.Add(KeyValuePair.Create(name, RouteValues.ForType(p.Type) ?? "sample"));
            }
            else if (RouteValues.ForType(p.Type) is { } simple && source is null or "Query")
            {
                query.Add($"{Uri.EscapeDataString(name)}={Uri.EscapeDataString(simple)}");
            }
            else if (body is null && (source == "Body" || (source is null && IsData(p.Type, 0)
                && (apiController || (root?.Place == Tplab.Blocking.CodePlace.MinimalApi && method is "POST" or "PUT" or "PATCH")))))
            {
                body = Json(p.Type);
            }
        }
        if (query.Count > 0)
        {
            path += (path.Contains('?', StringComparison.Ordinal) ? "&" : "?") + string.Join('&', query);
        }
        if (body is not null)
        {
            headers.Add(KeyValuePair.Create("Content-Type", "application/json"));
        }
        return new RequestSpec(method, path, headers, body is null ? ReadOnlyMemory<byte>.Empty : Encoding.UTF8.GetBytes(body), 1, $"{endpoint.Method} {endpoint.Route}");
    }

    private static HashSet<string> RouteNames(string route) =>
        [.. System.Text.RegularExpressions.Regex.Matches(route, @"\{\**([^{}:=?]+)").Select(m => m.Groups[1].Value)];

    // [FromQuery(Name = "q")], [FromRoute(Name = ...)]...: the name the request uses.
    private static string BoundName(IParameterSymbol p) =>
        p.GetAttributes().Select(a => a.NamedArguments.FirstOrDefault(n => n.Key == "Name").Value.Value as string).FirstOrDefault(n => n is not null) ?? p.Name;

    // "Body", "Query", "Route", "Header", "Form", "Services" from [From*], or null when ASP.NET Core infers it.
    private static string? Source(IParameterSymbol p)
    {
        foreach (var a in p.GetAttributes())
        {
            var name = a.AttributeClass?.Name ?? "";
            if (name.StartsWith("From", StringComparison.Ordinal) && name.EndsWith("Attribute", StringComparison.Ordinal))
            {
                var source = name["From".Length..^"Attribute".Length];
                return source is "KeyedServices" ? "Services" : source;
            }
            if (name == "AsParametersAttribute")
            {
                return "Services";
            }
        }
        return null;
    }

    // HttpContext, CancellationToken, ClaimsPrincipal, IFormFile, Stream...: bound by the framework, never by the client.
    private static bool IsFramework(ITypeSymbol type)
    {
        if (RouteValues.ForType(type) is not null)
        {
            return false;
        }
        var ns = type.ContainingNamespace?.ToDisplayString() ?? "";
        return ns.StartsWith("Microsoft.", StringComparison.Ordinal) || ns == "System" || ns.StartsWith("System.", StringComparison.Ordinal);
    }

    // A data type (what a client sends) rather than a service from DI: a record, or a class with settable properties,
    // whose constructor takes only data. A service's constructor takes its dependencies (ILogger, a store, options);
    // ASP.NET Core decides at start-up by asking DI, which source cannot, so this reads the type's shape instead.
    private static bool IsData(ITypeSymbol type, int depth)
    {
        if (RouteValues.ForType(type) is not null || Element(type) is not null)
        {
            return true;
        }
        if (type is not INamedTypeSymbol { TypeKind: TypeKind.Class or TypeKind.Struct, IsAbstract: false } named || IsFramework(type) || depth > MaxDepth)
        {
            return false;
        }
        var settable = named.GetMembers().OfType<IPropertySymbol>().Any(p => p is { IsStatic: false, DeclaredAccessibility: Accessibility.Public, SetMethod: not null });
        var constructorData = named.InstanceConstructors.Where(c => c.DeclaredAccessibility == Accessibility.Public)
            .All(c => c.Parameters.All(p => IsData(p.Type, depth + 1)));
        return (named.IsRecord || settable) && constructorData;
    }

    private static ITypeSymbol? Element(ITypeSymbol type) => type switch
    {
        IArrayTypeSymbol a => a.ElementType,
        INamedTypeSymbol { IsGenericType: true, TypeArguments.Length: 1 } g when g.AllInterfaces.Any(i => i.Name == "IEnumerable") || g.Name is "IEnumerable" or "IReadOnlyList" or "IList" or "ICollection" or "IReadOnlyCollection"
            => g.TypeArguments[0],
        _ => null,
    };

    /// <summary>A JSON body of <paramref name="type"/> with sample values, in ASP.NET Core's web defaults (camelCase names, enums as numbers).</summary>
    internal static string Json(ITypeSymbol type)
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream))
        {
            Write(writer, type, 0);
        }
        return Encoding.UTF8.GetString(stream.ToArray());
    }

    private static void Write(Utf8JsonWriter w, ITypeSymbol type, int depth)
    {
        if (type is INamedTypeSymbol { OriginalDefinition.SpecialType: SpecialType.System_Nullable_T } nullable)
        {
            type = nullable.TypeArguments[0];
        }
        if (type.TypeKind == TypeKind.Enum)
        {
            var first = type.GetMembers().OfType<IFieldSymbol>().FirstOrDefault(f => f.HasConstantValue)?.ConstantValue;
            w.WriteNumberValue(Convert.ToInt64(first ?? 0, CultureInfo.InvariantCulture));
            return;
        }
        switch (RouteValues.ForType(type))
        {
            case "1":
                w.WriteNumberValue(1);
                return;
            case "1.5":
                w.WriteNumberValue(1.5);
                return;
            case "true":
                w.WriteBooleanValue(true);
                return;
            case { } text:
                w.WriteStringValue(text);
                return;
        }
        if (Element(type) is { } element)
        {
            w.WriteStartArray();
            if (depth < MaxDepth)
            {
                Write(w, element, depth + 1);
            }
            w.WriteEndArray();
            return;
        }
        w.WriteStartObject();
        if (depth < MaxDepth && type is INamedTypeSymbol named)
        {
            foreach (var (name, member) in Members(named))
            {
                w.WritePropertyName(JsonNamingPolicy.CamelCase.ConvertName(name));
                Write(w, member, depth + 1);
            }
        }
        w.WriteEndObject();
    }

    // A record's (or class's) constructor parameters, else its public settable properties: what System.Text.Json fills.
    private static IEnumerable<(string Name, ITypeSymbol Type)> Members(INamedTypeSymbol type)
    {
        var constructor = type.InstanceConstructors.Where(c => c.DeclaredAccessibility == Accessibility.Public && c.Parameters.Length > 0)
            .OrderByDescending(c => c.Parameters.Length).FirstOrDefault();
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        if (constructor is not null && !constructor.Parameters.Any(p => p.Type.Equals(type, SymbolEqualityComparer.Default)))
        {
            foreach (var p in constructor.Parameters)
            {
                names.Add(p.Name);
                yield return (p.Name, p.Type);
            }
        }
        foreach (var p in type.GetMembers().OfType<IPropertySymbol>())
        {
            if (p is { IsStatic: false, DeclaredAccessibility: Accessibility.Public, SetMethod: not null, IsIndexer: false } && names.Add(p.Name))
            {
                yield return (p.Name, p.Type);
            }
        }
    }
}
