namespace Tplab.Blocking;

/// <summary>One resolved managed frame: the module and the method's type and name, without the signature.</summary>
public sealed record StackFrame(string Module, string TypeName, string MethodName)
{
    /// <summary>Parameters in the signature TraceEvent printed (for a dynamic method, the closure counts), or -1 when there was none.</summary>
    public int ParameterCount { get; init; } = -1;

    /// <summary>Where in its method's IL the frame was (module, token, IL offset), when the runtime's maps said; null otherwise.</summary>
    public CodeSite? Code { get; init; }

    /// <summary>A frame the runtime could not name (native code or a method without rundown).</summary>
    public bool IsUnresolved => TypeName.Length == 0 && MethodName.Length == 0;

    /// <summary>The type without generic instantiation: <c>System.Threading.Tasks.Task`1[System.__Canon]</c> → <c>System.Threading.Tasks.Task`1</c>.</summary>
    public string OpenTypeName => StripInstantiation(TypeName);

    /// <summary><c>Namespace.Type+Nested.Method</c>, as TraceEvent prints it minus the signature.</summary>
    public string FullName => TypeName.Length == 0 ? MethodName : TypeName + "." + MethodName;

    public override string ToString() => IsUnresolved ? "[native or unresolved frame]" : FullName;

    /// <summary>
    /// Parses TraceEvent's <c>FullMethodName</c> (<c>Ns.Type+Nested.Method(sig)</c>). The type/method split is the
    /// last '.' outside brackets, because generic arguments and compiler names (<c>&lt;Open&gt;g__Core|2_0</c>) hold dots.
    /// </summary>
    public static StackFrame Parse(string module, string fullMethodName)
    {
        var name = fullMethodName;
        var paren = IndexOutside(name, '(');
        var parameters = -1;
        if (paren >= 0)
        {
            parameters = CountParameters(name[(paren + 1)..]);
            name = name[..paren];
        }
        var dot = LastIndexOutside(name, '.');
        var frame = dot <= 0
            ? new StackFrame(module, "", name)
            : new StackFrame(module, name[..dot], name[(dot + 1)..]);
        return parameters < 0 ? frame : frame with { ParameterCount = parameters };
    }

    // "pMT: 0x1,class System.Object,pMT: 0x2)" → 3; "()" → 0.
    private static int CountParameters(string signature)
    {
        var depth = 0;
        var count = 0;
        var any = false;
        foreach (var c in signature)
        {
            if (c == ')' && depth == 0)
            {
                break;
            }
            depth += Depth(c);
            if (c == ',' && depth == 0)
            {
                count++;
            }
            any |= !char.IsWhiteSpace(c);
        }
        return any ? count + 1 : 0;
    }

    private static int IndexOutside(string s, char wanted)
    {
        var depth = 0;
        for (var i = 0; i < s.Length; i++)
        {
            depth += Depth(s[i]);
            if (depth == 0 && s[i] == wanted)
            {
                return i;
            }
        }
        return -1;
    }

    private static int LastIndexOutside(string s, char wanted)
    {
        var depth = 0;
        var found = -1;
        for (var i = 0; i < s.Length; i++)
        {
            depth += Depth(s[i]);
            // ".ctor" and ".cctor": the dot belongs to the method name, so keep the earlier split.
            if (depth == 0 && s[i] == wanted && !(i > 0 && s[i - 1] == '.'))
            {
                found = i;
            }
        }
        return found;
    }

    private static int Depth(char c) => c switch
    {
        '[' or '<' => 1,
        ']' or '>' => -1,
        _ => 0,
    };

    private static string StripInstantiation(string type)
    {
        var bracket = type.IndexOf('[', StringComparison.Ordinal);
        if (bracket < 0)
        {
            return type;
        }
        // Keep nested parts after the instantiation: "Box`1[A,B]+Inner" → "Box`1+Inner".
        var depth = 0;
        var kept = new System.Text.StringBuilder(type.Length);
        foreach (var c in type)
        {
            if (c == '[')
            {
                depth++;
            }
            else if (c == ']')
            {
                depth--;
            }
            else if (depth == 0)
            {
                kept.Append(c);
            }
        }
        return kept.ToString();
    }
}
