using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using Tplab.Blocking;

namespace Tplab.Diagnose.Code;

/// <summary>
/// Follows the constants of a straight-line method body, the way an attribute's constructor or getter is compiled:
/// arguments, strings, numbers, <c>null</c>, <c>string.Concat</c>, arrays filled element by element; the base
/// constructor it calls with what it hands it, the properties it sets on <c>this</c>, the value it returns. Anything
/// else (a branch, a field, another call) ends the flow: what is not known by then stays unknown.
/// </summary>
internal static class IlConstantFlow
{
    /// <summary>What a body did: the constructor it called on <c>this</c> (null when none was reached), the properties set, the value returned.</summary>
    public sealed record Outcome(EntityHandle? BaseCall, IReadOnlyList<AttributeValue> BaseArguments, IReadOnlyDictionary<string, AttributeValue> Properties, AttributeValue Returned);

    private sealed class This;

    private static readonly This Self = new();

    public static Outcome Run(MetadataReader reader, MethodBodyBlock body, IReadOnlyList<AttributeValue> arguments)
    {
        var stack = new Stack<object>();
        var properties = new Dictionary<string, AttributeValue>(StringComparer.Ordinal);
        EntityHandle? baseCall = null;
        IReadOnlyList<AttributeValue> baseArguments = [];
        var il = body.GetILReader();
        try
        {
            while (il.RemainingBytes > 0)
            {
                int op = il.ReadByte();
                switch (op)
                {
                    case 0x00:
                        break;
                    case >= 0x02 and <= 0x05:
                        stack.Push(Argument(op - 0x02, arguments));
                        break;
                    case 0x0E:
                        stack.Push(Argument(il.ReadByte(), arguments));
                        break;
                    case 0x14:
                        stack.Push(AttributeValue.Null);
                        break;
                    case >= 0x15 and <= 0x1E:
                        stack.Push(new AttributeValue(op - 0x16));
                        break;
                    case 0x1F:
                        stack.Push(new AttributeValue((int)il.ReadSByte()));
                        break;
                    case 0x20:
                        stack.Push(new AttributeValue(il.ReadInt32()));
                        break;
                    case 0x25:
                        stack.Push(stack.Peek());
                        break;
                    case 0x26:
                        stack.Pop();
                        break;
                    case 0x72:
                        stack.Push(new AttributeValue(reader.GetUserString(MetadataTokens.UserStringHandle(il.ReadInt32() & 0x00FFFFFF))));
                        break;
                    case 0x8D:
                        il.ReadInt32();
                        stack.Push(new AttributeValue?[((AttributeValue)stack.Pop()).Value is int n ? n : 0]);
                        break;
                    case 0xA2:
                        var element = (AttributeValue)stack.Pop();
                        var index = (AttributeValue)stack.Pop();
                        var array = (AttributeValue?[])stack.Pop();
                        array[(int)index.Value!] = element;
                        break;
                    case 0x28 or 0x6F:
                        var handle = MetadataTokens.EntityHandle(il.ReadInt32());
                        if (!Call(reader, handle, stack, properties, ref baseCall, ref baseArguments))
                        {
                            return new Outcome(baseCall, baseArguments, properties, AttributeValue.Unknown);
                        }
                        break;
                    case 0x2A:
                        return new Outcome(baseCall, baseArguments, properties, stack.Count > 0 && stack.Peek() is var top ? Value(top) : AttributeValue.Null);
                    default:
                        return new Outcome(baseCall, baseArguments, properties, AttributeValue.Unknown);
                }
            }
        }
        catch (Exception e) when (e is InvalidOperationException or InvalidCastException or IndexOutOfRangeException or BadImageFormatException or NullReferenceException)
        {
            // IL this flow does not model: what was reached stays, the rest is unknown.
        }
        return new Outcome(baseCall, baseArguments, properties, AttributeValue.Unknown);
    }

    /// <summary>The declaring type's name, the method's name and its parameter count (without <c>this</c>).</summary>
    public static (string Type, string Name, int Parameters)? Describe(MetadataReader reader, EntityHandle handle)
    {
        switch (handle.Kind)
        {
            case HandleKind.MethodDefinition:
                var def = reader.GetMethodDefinition((MethodDefinitionHandle)handle);
                return (IlCalls.TypeName(reader, def.GetDeclaringType()), reader.GetString(def.Name), ParameterCount(reader.GetBlobReader(def.Signature)));
            case HandleKind.MemberReference:
                var member = reader.GetMemberReference((MemberReferenceHandle)handle);
                return IlCalls.NameOf(reader, member.Parent) is { } type ? (type, reader.GetString(member.Name), ParameterCount(reader.GetBlobReader(member.Signature))) : null;
            default:
                return null;
        }
    }

    private static bool Call(MetadataReader reader, EntityHandle handle, Stack<object> stack, Dictionary<string, AttributeValue> properties,
        ref EntityHandle? baseCall, ref IReadOnlyList<AttributeValue> baseArguments)
    {
        if (Describe(reader, handle) is not var (type, name, count))
        {
            return false;
        }
        var popped = new object[count];
        for (var i = count - 1; i >= 0; i--)
        {
            popped[i] = stack.Pop();
        }
        if (type == "System.String" && name == "Concat")
        {
            var parts = popped.SelectMany(p => p is AttributeValue?[] array ? array.Select(a => a ?? AttributeValue.Null) : [Value(p)]).ToList();
            stack.Push(parts.All(p => p.Known && p.Value is null or string) ? new AttributeValue(string.Concat(parts.Select(p => p.Text))) : AttributeValue.Unknown);
            return true;
        }
        if (stack.Count == 0 || stack.Peek() is not This)
        {
            return false;
        }
        stack.Pop();
        if (name == ".ctor" && baseCall is null)
        {
            baseCall = handle;
            baseArguments = [.. popped.Select(Value)];
            return true;
        }
        if (name.StartsWith("set_", StringComparison.Ordinal) && count == 1)
        {
            properties[name[4..]] = Value(popped[0]);
            return true;
        }
        return false;
    }

    private static object Argument(int index, IReadOnlyList<AttributeValue> arguments) =>
        index == 0 ? Self : index - 1 < arguments.Count ? arguments[index - 1] : AttributeValue.Unknown;

    private static AttributeValue Value(object value) => value switch
    {
        AttributeValue v => v,
        AttributeValue?[] array when array.All(a => a is { Known: true, Value: string }) => new AttributeValue(array.Select(a => a!.Value.Text!).ToList()),
        _ => AttributeValue.Unknown,
    };

    private static int ParameterCount(BlobReader signature)
    {
        var header = signature.ReadSignatureHeader();
        if (header.IsGeneric)
        {
            signature.ReadCompressedInteger();
        }
        return signature.ReadCompressedInteger();
    }
}
