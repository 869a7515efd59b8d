using System.Collections.Immutable;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;

namespace Tplab.Diagnose.Code;

/// <summary>The methods one method body calls, read from its IL: <c>call</c>, <c>callvirt</c>, <c>newobj</c>, <c>ldftn</c>.</summary>
internal static class IlCalls
{
    /// <summary>(declaring type's full name, method name) of every method the body calls, in IL order.</summary>
    public static IEnumerable<(string Type, string Method)> Of(MetadataReader reader, MethodBodyBlock body) =>
        References(reader, body).Select(r => (r.Type, r.Method));

    /// <summary>
    /// The methods the body hands to ASP.NET Core's <c>Map*</c> as endpoint handlers (<c>app.MapGet("/x", (int id) => ...)</c>):
    /// a delegate made from <c>ldftn</c> whose next call, delegate constructors aside, is a <c>Map*</c> of ASP.NET Core.
    /// </summary>
    public static IEnumerable<(string Type, string Method)> EndpointHandlers(MetadataReader reader, MethodBodyBlock body)
    {
        (string Type, string Method)? pending = null;
        foreach (var (type, method, pointer) in References(reader, body))
        {
            if (pointer)
            {
                pending = (type, method);
            }
            else if (pending is { } handler && method != ".ctor")
            {
                if (method.StartsWith("Map", StringComparison.Ordinal) && type.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal))
                {
                    yield return handler;
                }
                pending = null;
            }
        }
    }

    /// <summary>Every call, callvirt and newobj target, and every ldftn/ldvirtftn target (<c>Pointer</c>: handed on as a delegate), in IL order.</summary>
    public static IEnumerable<(string Type, string Method, bool Pointer)> References(MetadataReader reader, MethodBodyBlock body)
    {
        var il = body.GetILReader();
        while (il.RemainingBytes > 0)
        {
            int op = il.ReadByte();
            if (op == 0xFE)
            {
                var second = il.ReadByte();
                if (second is 0x06 or 0x07)
                {
                    // ldftn / ldvirtftn: a lambda or method group handed to someone else (Task.Run, a delegate).
                    if (Resolve(reader, MetadataTokens.EntityHandle(il.ReadInt32())) is { } target)
                    {
                        yield return (target.Type, target.Method, true);
                    }
                }
                else
                {
                    il.Offset += second switch
                    {
                        0x09 or 0x0A or 0x0B or 0x0C or 0x0D or 0x0E => 2,
                        0x12 or 0x19 => 1,
                        0x15 or 0x16 or 0x1C or 0x1D => 4,
                        _ => 0,
                    };
                }
                continue;
            }
            if (op is 0x28 or 0x6F or 0x73)
            {
                if (Resolve(reader, MetadataTokens.EntityHandle(il.ReadInt32())) is { } callee)
                {
                    yield return (callee.Type, callee.Method, false);
                }
                continue;
            }
            if (op == 0x45)
            {
                var targets = il.ReadInt32();
                il.Offset += 4 * targets;
                continue;
            }
            il.Offset += OperandSize(op);
        }
    }

    private static int OperandSize(int op) => op switch
    {
        >= 0x0E and <= 0x13 or 0x1F or >= 0x2B and <= 0x37 or 0xDE => 1,
        0x21 or 0x23 => 8,
        0x20 or 0x22 or 0x27 or 0x29 or >= 0x38 and <= 0x44 or >= 0x70 and <= 0x75 or 0x79 or >= 0x7B and <= 0x81
            or 0x8C or 0x8D or 0x8F or 0xA3 or 0xA4 or 0xA5 or 0xC2 or 0xC6 or 0xD0 or 0xDD => 4,
        _ => 0,
    };

    private static (string Type, string Method)? Resolve(MetadataReader reader, EntityHandle handle)
    {
        switch (handle.Kind)
        {
            case HandleKind.MethodDefinition:
                var def = reader.GetMethodDefinition((MethodDefinitionHandle)handle);
                return (TypeName(reader, def.GetDeclaringType()), reader.GetString(def.Name));
            case HandleKind.MemberReference:
                var member = reader.GetMemberReference((MemberReferenceHandle)handle);
                if (member.GetKind() != MemberReferenceKind.Method)
                {
                    return null;
                }
                return ParentName(reader, member.Parent) is { } parent ? (parent, reader.GetString(member.Name)) : null;
            case HandleKind.MethodSpecification:
                return Resolve(reader, reader.GetMethodSpecification((MethodSpecificationHandle)handle).Method);
            default:
                return null;
        }
    }

    /// <summary>The name of a type a definition refers to (a base type, an interface), generic arguments dropped; null for other handles.</summary>
    public static string? NameOf(MetadataReader reader, EntityHandle type) => ParentName(reader, type);

    private static string? ParentName(MetadataReader reader, EntityHandle parent) => parent.Kind switch
    {
        HandleKind.TypeDefinition => TypeName(reader, (TypeDefinitionHandle)parent),
        HandleKind.TypeReference => TypeName(reader, (TypeReferenceHandle)parent),
        HandleKind.TypeSpecification => reader.GetTypeSpecification((TypeSpecificationHandle)parent).DecodeSignature(GenericName.Instance, null),
        _ => null,
    };

    /// <summary><c>Namespace.Outer+Inner</c>, as the runtime's stacks name types.</summary>
    public static string TypeName(MetadataReader reader, TypeDefinitionHandle handle)
    {
        var type = reader.GetTypeDefinition(handle);
        var name = reader.GetString(type.Name);
        var declaring = type.GetDeclaringType();
        if (!declaring.IsNil)
        {
            return TypeName(reader, declaring) + "+" + name;
        }
        var ns = reader.GetString(type.Namespace);
        return ns.Length == 0 ? name : ns + "." + name;
    }

    private static string TypeName(MetadataReader reader, TypeReferenceHandle handle)
    {
        var type = reader.GetTypeReference(handle);
        var name = reader.GetString(type.Name);
        if (type.ResolutionScope.Kind == HandleKind.TypeReference)
        {
            return TypeName(reader, (TypeReferenceHandle)type.ResolutionScope) + "+" + name;
        }
        var ns = reader.GetString(type.Namespace);
        return ns.Length == 0 ? name : ns + "." + name;
    }

    /// <summary>Decodes a generic instantiation to its open type's name (<c>Task`1</c>), which is how the catalogue knows it.</summary>
    private sealed class GenericName : ISignatureTypeProvider<string, object?>
    {
        public static readonly GenericName Instance = new();

        public string GetGenericInstantiation(string genericType, ImmutableArray<string> typeArguments) => genericType;
        public string GetTypeFromDefinition(MetadataReader reader, TypeDefinitionHandle handle, byte rawTypeKind) => IlCalls.TypeName(reader, handle);
        public string GetTypeFromReference(MetadataReader reader, TypeReferenceHandle handle, byte rawTypeKind) => IlCalls.TypeName(reader, handle);
        public string GetTypeFromSpecification(MetadataReader reader, object? genericContext, TypeSpecificationHandle handle, byte rawTypeKind) => "?";
        public string GetArrayType(string elementType, ArrayShape shape) => elementType + "[]";
        public string GetByReferenceType(string elementType) => elementType;
        public string GetFunctionPointerType(MethodSignature<string> signature) => "fnptr";
        public string GetGenericMethodParameter(object? genericContext, int index) => "!!" + index;
        public string GetGenericTypeParameter(object? genericContext, int index) => "!" + index;
        public string GetModifiedType(string modifier, string unmodifiedType, bool isRequired) => unmodifiedType;
        public string GetPinnedType(string elementType) => elementType;
        public string GetPointerType(string elementType) => elementType + "*";
        public string GetPrimitiveType(PrimitiveTypeCode typeCode) => typeCode.ToString();
        public string GetSZArrayType(string elementType) => elementType + "[]";
    }
}
