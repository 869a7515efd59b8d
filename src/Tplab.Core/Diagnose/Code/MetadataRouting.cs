using System.Collections.Immutable;
using System.Reflection.Metadata;
using Tplab.Blocking;

namespace Tplab.Diagnose.Code;

/// <summary>
/// The metadata side of the one route model (<see cref="MvcRouteModel"/>): a controller's and an action's custom
/// attributes, level by level through the application's own base types, each as a <see cref="RoutingAttribute"/>. An
/// app's own attribute class is followed through its constructors' IL (<see cref="IlConstantFlow"/>) down to the ASP.NET
/// Core class it derives from; the compiler has already put default parameter values into the attribute's blob.
/// </summary>
internal sealed class MetadataRouting(AssemblyIndex index)
{
    private const string AspNet = "Microsoft.AspNetCore.";
    private const int MaxChain = 8;

    /// <summary>The controller <paramref name="typeName"/>: its own attributes, then each application base type's.</summary>
    public RoutedMember Controller(string typeName)
    {
        var levels = new List<IReadOnlyList<RoutingAttribute>>();
        foreach (var (reader, handle) in Chain(typeName))
        {
            levels.Add([.. reader.GetTypeDefinition(handle).GetCustomAttributes().Select(a => Read(reader, a))]);
        }
        var simple = typeName[(Math.Max(typeName.LastIndexOf('.'), typeName.LastIndexOf('+')) + 1)..];
        return new RoutedMember(simple, levels);
    }

    /// <summary>
    /// The action <paramref name="methodName"/> as <paramref name="typeName"/> has it: the method declared nearest (the
    /// type's own, else a base type's), then the same method in each base type above (the ones it overrides); null when
    /// no application type of the chain declares it.
    /// </summary>
    public RoutedMember? Action(string typeName, string methodName)
    {
        var levels = new List<IReadOnlyList<RoutingAttribute>>();
        foreach (var (reader, handle) in Chain(typeName))
        {
            foreach (var m in reader.GetTypeDefinition(handle).GetMethods().Select(reader.GetMethodDefinition))
            {
                if (reader.GetString(m.Name) == methodName && (levels.Count > 0 || IsAction(m.Attributes)))
                {
                    levels.Add([.. m.GetCustomAttributes().Select(a => Read(reader, a))]);
                    break;
                }
            }
        }
        return levels.Count == 0 ? null : new RoutedMember(methodName, levels);
    }

    // MVC's rule for the method that declares an action: public, an instance method, no accessor or operator, not abstract.
    private static bool IsAction(System.Reflection.MethodAttributes attributes) =>
        (attributes & System.Reflection.MethodAttributes.MemberAccessMask) == System.Reflection.MethodAttributes.Public
        && (attributes & (System.Reflection.MethodAttributes.Static | System.Reflection.MethodAttributes.SpecialName | System.Reflection.MethodAttributes.Abstract)) == 0;

    public RoutingAttribute Read(MetadataReader reader, CustomAttributeHandle handle)
    {
        var attribute = reader.GetCustomAttribute(handle);
        var (type, parameters) = IlConstantFlow.Describe(reader, attribute.Constructor) is { } d ? (d.Type, d.Parameters) : ("", 0);
        CustomAttributeValue<string>? value = null;
        try
        {
            value = attribute.DecodeValue(AttributeTypes.Instance);
        }
        catch (BadImageFormatException)
        {
            value = null;
        }
        var arguments = value is { } v ? [.. v.FixedArguments.Select(a => Value(a.Value))] : Enumerable.Repeat(AttributeValue.Unknown, parameters).ToList();
        var properties = new Dictionary<string, AttributeValue>(StringComparer.Ordinal);
        string? framework = type.StartsWith(AspNet, StringComparison.Ordinal) ? type : null;
        var interfaces = new List<string>();
        if (framework is null)
        {
            (framework, arguments) = FollowConstructors(type, attribute.Constructor, reader, arguments, properties, interfaces);
        }
        foreach (var named in value?.NamedArguments ?? [])
        {
            if (named.Name is { } name)
            {
                properties[name] = Value(named.Value);
            }
        }
        return new RoutingAttribute(type, framework, arguments, properties, interfaces);
    }

    // The app's own attribute class: each constructor's IL down to the first ASP.NET Core class; its interfaces and,
    // without such a class, the getters it compiles to constants.
    private (string? Framework, List<AttributeValue> Arguments) FollowConstructors(string type, EntityHandle ctor, MetadataReader reader,
        List<AttributeValue> arguments, Dictionary<string, AttributeValue> properties, List<string> interfaces)
    {
        foreach (var (r, h) in Chain(type))
        {
            interfaces.AddRange(r.GetTypeDefinition(h).GetInterfaceImplementations()
                .Select(i => IlCalls.NameOf(r, r.GetInterfaceImplementation(i).Interface)).OfType<string>());
        }
        for (var depth = 0; depth < MaxChain; depth++)
        {
            if (IlConstantFlow.Describe(reader, ctor) is not var (declaring, _, _))
            {
                break;
            }
            if (declaring.StartsWith(AspNet, StringComparison.Ordinal))
            {
                return (declaring, arguments);
            }
            if (Body(declaring, reader, ctor) is not { } body)
            {
                break;
            }
            var outcome = IlConstantFlow.Run(body.Reader, body.Block, arguments);
            foreach (var (name, set) in outcome.Properties)
            {
                properties.TryAdd(name, set);
            }
            if (outcome.BaseCall is not { } next)
            {
                break;
            }
            (reader, ctor, arguments) = (body.Reader, next, [.. outcome.BaseArguments]);
        }
        var aspNet = Chain(type).Select(t => BaseName(t.Reader, t.Type)).FirstOrDefault(b => b?.StartsWith(AspNet, StringComparison.Ordinal) == true);
        if (aspNet is not null)
        {
            return (aspNet, [AttributeValue.Unknown, AttributeValue.Unknown]);
        }
        Getters(type, properties);
        return (null, []);
    }

    private void Getters(string type, Dictionary<string, AttributeValue> properties)
    {
        foreach (var name in new[] { "Template", "Order", "Name", "HttpMethods", "RouteKey", "RouteValue" })
        {
            foreach (var body in Chain(type).SelectMany(t => index.OwnBodies(IlCalls.TypeName(t.Reader, t.Type) + ".get_" + name)).Take(1))
            {
                var block = body.Module.Pe.GetMethodBody(body.Module.Reader.GetMethodDefinition(body.Handle).RelativeVirtualAddress);
                properties[name] = IlConstantFlow.Run(body.Module.Reader, block, []).Returned;
            }
        }
    }

    // The IL body of a constructor of an application type.
    private (MetadataReader Reader, MethodBodyBlock Block)? Body(string declaring, MetadataReader reader, EntityHandle ctor)
    {
        foreach (var body in index.OwnBodies(declaring + "..ctor"))
        {
            var sameDefinition = ctor.Kind == HandleKind.MethodDefinition && ReferenceEquals(body.Module.Reader, reader) && body.Handle == (MethodDefinitionHandle)ctor;
            var sameShape = ctor.Kind == HandleKind.MemberReference
                && IlConstantFlow.Describe(body.Module.Reader, body.Handle)?.Parameters == IlConstantFlow.Describe(reader, ctor)?.Parameters;
            if (sameDefinition || sameShape)
            {
                var rva = body.Module.Reader.GetMethodDefinition(body.Handle).RelativeVirtualAddress;
                return (body.Module.Reader, body.Module.Pe.GetMethodBody(rva));
            }
        }
        return null;
    }

    // The type and its application base types, nearest first.
    private IEnumerable<(MetadataReader Reader, TypeDefinitionHandle Type)> Chain(string typeName)
    {
        for (var depth = 0; depth < MaxChain && index.TryGetType(typeName, out var found); depth++)
        {
            yield return found;
            if (BaseName(found.Reader, found.Type) is not { } baseName)
            {
                yield break;
            }
            typeName = baseName;
        }
    }

    private static string? BaseName(MetadataReader reader, TypeDefinitionHandle type)
    {
        var definition = reader.GetTypeDefinition(type);
        return definition.BaseType.IsNil ? null : IlCalls.NameOf(reader, definition.BaseType);
    }

    private static AttributeValue Value(object? value) => value switch
    {
        ImmutableArray<CustomAttributeTypedArgument<string>> array => new AttributeValue(array.Select(a => a.Value as string).OfType<string>().ToList()),
        _ => new AttributeValue(value),
    };

    /// <summary>Names the types an attribute's arguments are of.</summary>
    private sealed class AttributeTypes : ICustomAttributeTypeProvider<string>
    {
        public static readonly AttributeTypes Instance = new();

        public string GetPrimitiveType(PrimitiveTypeCode typeCode) => typeCode.ToString();
        public string GetSystemType() => "System.Type";
        public string GetSZArrayType(string elementType) => elementType + "[]";
        public string GetTypeFromDefinition(MetadataReader reader, TypeDefinitionHandle handle, byte rawTypeKind) => IlCalls.TypeName(reader, handle);
        public string GetTypeFromReference(MetadataReader reader, TypeReferenceHandle handle, byte rawTypeKind) => IlCalls.NameOf(reader, handle) ?? "?";
        public string GetTypeFromSerializedName(string name) => name;
        public PrimitiveTypeCode GetUnderlyingEnumType(string type) => PrimitiveTypeCode.Int32;
        public bool IsSystemType(string type) => type == "System.Type";
    }
}
