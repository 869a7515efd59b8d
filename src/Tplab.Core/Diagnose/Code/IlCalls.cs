using System.Collections.Immutable;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;

namespace Tplab.Diagnose.Code;

/// <summary>A call in a method body: the callee's declaring type and name, whether it is only handed on as a delegate, and its IL offset.</summary>
internal readonly record struct IlCall(string Type, string Method, bool Pointer, int Offset);

/// <summary>The methods one method body calls, read from its IL: <c>call</c>, <c>callvirt</c>, <c>newobj</c>, <c>ldftn</c>.</summary>
internal static class IlCalls
{
    /// <summary>(declaring type's full name, method name) of every method the body calls, in IL order.</summary>
    public static IEnumerable<(string Type, string Method)> Of(MetadataReader reader, MethodBodyBlock body) =>
        References(reader, body).Select(r => (r.Type, r.Method));

    /// <summary>Every call, callvirt and newobj target, and every ldftn/ldvirtftn target (<c>Pointer</c>: handed on as a delegate), in IL order.</summary>
    public static IEnumerable<IlCall> References(MetadataReader reader, MethodBodyBlock body) =>
        References(reader, IlInstructions.Of(body));

    /// <summary>As <see cref="References(MetadataReader, MethodBodyBlock)"/>, from instructions already decoded.</summary>
    public static IEnumerable<IlCall> References(MetadataReader reader, IReadOnlyList<IlInstruction> instructions)
    {
        foreach (var instruction in instructions)
        {
            if (Callee(reader, instruction) is { } callee)
            {
                yield return new IlCall(callee.Type, callee.Method, instruction.Kind == IlKind.Pointer, instruction.Offset);
            }
        }
    }

    /// <summary>The callee of a call or pointer instruction, or null when it is no method.</summary>
    public static (string Type, string Method)? Callee(MetadataReader reader, IlInstruction instruction) =>
        instruction.Kind is IlKind.Call or IlKind.Pointer ? Resolve(reader, MetadataTokens.EntityHandle(instruction.Token)) : null;

    /// <summary>The generic arguments of a called generic method (<c>AddSingleton&lt;IFxRates&gt;</c> → <c>IFxRates</c>'s full name); empty for other calls.</summary>
    public static IReadOnlyList<string> MethodArguments(MetadataReader reader, IlInstruction instruction)
    {
        var handle = MetadataTokens.EntityHandle(instruction.Token);
        if (instruction.Kind != IlKind.Call || handle.Kind != HandleKind.MethodSpecification)
        {
            return [];
        }
        var spec = reader.GetMethodSpecification((MethodSpecificationHandle)handle);
        return spec.DecodeSignature(GenericName.Instance, null);
    }

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
