using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;

namespace Tplab.Diagnose.Code;

/// <summary>What an IL instruction does, as far as following calls needs: a call, a delegate made from a method, a string, a local or argument.</summary>
internal enum IlKind
{
    Other,

    /// <summary><c>call</c>, <c>callvirt</c>, <c>newobj</c>: <see cref="IlInstruction.Token"/> is the method.</summary>
    Call,

    /// <summary><c>ldftn</c>, <c>ldvirtftn</c>: a method handed on as a delegate (a lambda, a method group).</summary>
    Pointer,

    /// <summary><c>ldstr</c>: <see cref="IlInstruction.Token"/> is the user string.</summary>
    String,

    /// <summary><c>ldloc</c>: <see cref="IlInstruction.Index"/> is the local.</summary>
    LoadLocal,

    /// <summary><c>stloc</c>: <see cref="IlInstruction.Index"/> is the local.</summary>
    StoreLocal,

    /// <summary><c>ldarg</c>: <see cref="IlInstruction.Index"/> is the argument.</summary>
    LoadArgument,
}

/// <summary>One decoded IL instruction: where it is and what it refers to.</summary>
internal readonly record struct IlInstruction(int Offset, IlKind Kind, int Token, int Index);

/// <summary>Decodes a method body's IL (ECMA-335 III) into the instructions call following needs; the rest are skipped by size.</summary>
internal static class IlInstructions
{
    public static List<IlInstruction> Of(MethodBodyBlock body)
    {
        var list = new List<IlInstruction>();
        var il = body.GetILReader();
        while (il.RemainingBytes > 0)
        {
            var offset = il.Offset;
            int op = il.ReadByte();
            if (op == 0xFE)
            {
                int second = il.ReadByte();
                switch (second)
                {
                    case 0x06 or 0x07:
                        list.Add(new IlInstruction(offset, IlKind.Pointer, il.ReadInt32(), 0));
                        break;
                    case 0x09:
                        list.Add(new IlInstruction(offset, IlKind.LoadArgument, 0, il.ReadUInt16()));
                        break;
                    case 0x0C:
                        list.Add(new IlInstruction(offset, IlKind.LoadLocal, 0, il.ReadUInt16()));
                        break;
                    case 0x0E:
                        list.Add(new IlInstruction(offset, IlKind.StoreLocal, 0, il.ReadUInt16()));
                        break;
                    default:
                        il.Offset += second switch
                        {
                            0x0A or 0x0B or 0x0D => 2,
                            0x12 or 0x19 => 1,
                            0x15 or 0x16 or 0x1C => 4,
                            _ => 0,
                        };
                        break;
                }
                continue;
            }
            switch (op)
            {
                case 0x28 or 0x6F or 0x73:
                    list.Add(new IlInstruction(offset, IlKind.Call, il.ReadInt32(), 0));
                    continue;
                case 0x72:
                    list.Add(new IlInstruction(offset, IlKind.String, il.ReadInt32(), 0));
                    continue;
                case >= 0x02 and <= 0x05:
                    list.Add(new IlInstruction(offset, IlKind.LoadArgument, 0, op - 0x02));
                    continue;
                case >= 0x06 and <= 0x09:
                    list.Add(new IlInstruction(offset, IlKind.LoadLocal, 0, op - 0x06));
                    continue;
                case >= 0x0A and <= 0x0D:
                    list.Add(new IlInstruction(offset, IlKind.StoreLocal, 0, op - 0x0A));
                    continue;
                case 0x0E:
                    list.Add(new IlInstruction(offset, IlKind.LoadArgument, 0, il.ReadByte()));
                    continue;
                case 0x11:
                    list.Add(new IlInstruction(offset, IlKind.LoadLocal, 0, il.ReadByte()));
                    continue;
                case 0x13:
                    list.Add(new IlInstruction(offset, IlKind.StoreLocal, 0, il.ReadByte()));
                    continue;
                case 0x45:
                    // switch: a count, then that many 4-byte targets (read the count first: `Offset +=` would read the offset before it).
                    var targets = il.ReadInt32();
                    il.Offset += 4 * targets;
                    continue;
                default:
                    il.Offset += OperandSize(op);
                    continue;
            }
        }
        return list;
    }

    /// <summary>The string an <see cref="IlKind.String"/> instruction loads, or null when its token is not one.</summary>
    public static string? UserString(MetadataReader reader, IlInstruction instruction)
    {
        try
        {
            return reader.GetUserString(MetadataTokens.UserStringHandle(instruction.Token & 0x00FFFFFF));
        }
        catch (BadImageFormatException)
        {
            return null;
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
}
