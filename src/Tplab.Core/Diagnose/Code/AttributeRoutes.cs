using System.Collections.Immutable;
using System.Reflection.Metadata;
using Tplab.Blocking;

namespace Tplab.Diagnose.Code;

/// <summary>
/// MVC's attribute routes, read from a controller's metadata: the endpoint an action serves when no event names it.
/// The verbs and tokens are <see cref="AspNetVocabulary"/>'s, the ones scan reads source with.
/// </summary>
public static class AttributeRoutes
{
    /// <summary>
    /// The route <paramref name="methodName"/>'s attributes give it on the controller <paramref name="handle"/>
    /// (<c>[Route("api/[controller]")]</c> on the controller, <c>[HttpGet("{id:int}")]</c> on the action, tokens
    /// replaced), as a registration; null when the method has no routing attribute.
    /// </summary>
    public static EndpointRegistration? Of(MetadataReader reader, TypeDefinitionHandle handle, string typeName, string methodName)
    {
        ArgumentNullException.ThrowIfNull(reader);
        var type = reader.GetTypeDefinition(handle);
        var prefix = Routes(reader, type.GetCustomAttributes()).Select(r => r.Template).FirstOrDefault(t => t is not null);
        foreach (var methodHandle in type.GetMethods())
        {
            var method = reader.GetMethodDefinition(methodHandle);
            if (reader.GetString(method.Name) != methodName)
            {
                continue;
            }
            foreach (var (verb, template) in Routes(reader, method.GetCustomAttributes()))
            {
                var controller = AspNetVocabulary.ControllerToken(reader.GetString(type.Name));
                var route = template is { } t && (t.StartsWith('/') || t.StartsWith("~/", StringComparison.Ordinal))
                    ? t.TrimStart('~')
                    : Registrations.Combine(prefix, template ?? "");
                route = AspNetVocabulary.ReplaceTokens(route, controller, methodName, area: null);
                return new EndpointRegistration(verb, route, (typeName, methodName));
            }
        }
        return null;
    }

    // [HttpGet("x")], [Route("x")]: the verb (ANY for Route) and the template, when the attribute has one.
    private static IEnumerable<(string Verb, string? Template)> Routes(MetadataReader reader, CustomAttributeHandleCollection attributes)
    {
        foreach (var handle in attributes)
        {
            var attribute = reader.GetCustomAttribute(handle);
            if (attribute.Constructor.Kind != HandleKind.MemberReference)
            {
                continue;
            }
            var constructor = reader.GetMemberReference((MemberReferenceHandle)attribute.Constructor);
            var name = IlCalls.NameOf(reader, constructor.Parent) ?? "";
            if (!name.StartsWith("Microsoft.AspNetCore.Mvc.", StringComparison.Ordinal) || AspNetVocabulary.AttributeVerb(name[(name.LastIndexOf('.') + 1)..]) is not { } verb)
            {
                continue;
            }
            string? template = null;
            try
            {
                var value = attribute.DecodeValue(AttributeTypes.Instance);
                template = value.FixedArguments.Length > 0 ? value.FixedArguments[0].Value as string : null;
            }
            catch (BadImageFormatException)
            {
                template = null;
            }
            yield return (verb, template);
        }
    }

    /// <summary>Names the types an attribute's arguments are of; only strings are read.</summary>
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
