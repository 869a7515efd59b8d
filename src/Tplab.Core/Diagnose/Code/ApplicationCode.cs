using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using Tplab.Blocking;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Code;

/// <summary>
/// The application's own assemblies, read from the paths the runtime's rundown named, to follow calls the JIT inlined:
/// when a frame is missing from the stack, the IL says which application method the known caller reaches that makes
/// the blocking call. Only application assemblies are read (not the shared framework or library packages); an
/// assembly that cannot be read is skipped.
/// </summary>
public sealed partial class ApplicationCode : IDisposable
{
    private const int MaxDepth = 6;

    private readonly List<PEReader> _files = [];
    private readonly Dictionary<string, List<(PEReader Pe, MetadataReader Reader, MethodDefinitionHandle Method)>> _methods = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<string>> _stateMachines = new(StringComparer.Ordinal);
    private readonly Dictionary<string, (MetadataReader Reader, TypeDefinitionHandle Type)> _types = new(StringComparer.Ordinal);
    private HashSet<string>? _endpointHandlers;

    private ApplicationCode()
    {
    }

    /// <summary>Indexes the methods of the application assemblies among <paramref name="modulePaths"/>.</summary>
    public static ApplicationCode Load(IEnumerable<string> modulePaths, LibraryCode library)
    {
        var code = new ApplicationCode();
        foreach (var path in modulePaths.Distinct(StringComparer.Ordinal))
        {
            var name = Path.GetFileNameWithoutExtension(path);
            if (path.Contains("/shared/Microsoft.", StringComparison.Ordinal) || library.IsLibrary(new StackFrame(name, name + ".", "")) || !File.Exists(path))
            {
                continue;
            }
            try
            {
                var pe = new PEReader(File.OpenRead(path));
                if (!pe.HasMetadata)
                {
                    pe.Dispose();
                    continue;
                }
                code._files.Add(pe);
                code.Index(pe, pe.GetMetadataReader(), library);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or BadImageFormatException or InvalidOperationException)
            {
                // A file the process loaded may be gone or unreadable to us: attribution goes on without it.
            }
        }
        return code;
    }

    /// <summary>Methods indexed (0 when no application assembly could be read).</summary>
    public int MethodCount => _methods.Count;

    private void Index(PEReader pe, MetadataReader reader, LibraryCode library)
    {
        foreach (var typeHandle in reader.TypeDefinitions)
        {
            var typeName = IlCalls.TypeName(reader, typeHandle);
            if (library.IsLibrary(new StackFrame("", typeName, "")))
            {
                continue;
            }
            _types.TryAdd(typeName, (reader, typeHandle));
            foreach (var methodHandle in reader.GetTypeDefinition(typeHandle).GetMethods())
            {
                var name = reader.GetString(reader.GetMethodDefinition(methodHandle).Name);
                var key = typeName + "." + name;
                if (!_methods.TryGetValue(key, out var list))
                {
                    _methods[key] = list = [];
                }
                list.Add((pe, reader, methodHandle));
                // "Shop.Api+<Load>d__3.MoveNext" holds the body of the async method "Shop.Api.Load".
                if (name == "MoveNext" && AsyncMethodOf(typeName) is { } written)
                {
                    var asyncKey = written.Type + "." + written.Method;
                    if (!_stateMachines.TryGetValue(asyncKey, out var machines))
                    {
                        _stateMachines[asyncKey] = machines = [];
                    }
                    machines.Add(key);
                }
            }
        }
    }

    /// <summary>
    /// The async method or async lambda whose state machine <paramref name="machineType"/> is: <c>Shop.Api+&lt;Load&gt;d__3</c> →
    /// (<c>Shop.Api</c>, <c>Load</c>); <c>Shop.Endpoints+&lt;&gt;c+&lt;&lt;Map&gt;b__2_0&gt;d</c> → (<c>Shop.Endpoints+&lt;&gt;c</c>, <c>&lt;Map&gt;b__2_0</c>). Null for other types.
    /// </summary>
    public static (string Type, string Method)? AsyncMethodOf(string machineType)
    {
        var plus = machineType.LastIndexOf('+');
        var match = plus > 0 ? StateMachineName().Match(machineType[(plus + 1)..]) : null;
        return match is { Success: true } ? (machineType[..plus], match.Groups[1].Value) : null;
    }

    [System.Text.RegularExpressions.GeneratedRegex(@"^<(.+)>d(__\d+)?$")]
    private static partial System.Text.RegularExpressions.Regex StateMachineName();

    /// <summary>True when the application's assemblies hold <paramref name="typeName"/>.<paramref name="methodName"/> (its IL can be read).</summary>
    public bool Has(string typeName, string methodName) => _methods.ContainsKey(typeName + "." + methodName);

    /// <summary>True when <paramref name="typeName"/>.<paramref name="methodName"/> itself calls an API <paramref name="isTarget"/> accepts.</summary>
    public bool Calls(string typeName, string methodName, Func<string, string, bool> isTarget) =>
        BodiesOf(typeName + "." + methodName).Any(b => Callees(b).Any(c => isTarget(c.Type, c.Method) && !(b.StateMachine && IsAwaiterResult(c))));

    /// <summary>The first call in <paramref name="typeName"/>.<paramref name="methodName"/>'s IL that <paramref name="isTarget"/> accepts (what the developer wrote), or null.</summary>
    public (string Type, string Method)? CalleeMatching(string typeName, string methodName, Func<string, string, bool> isTarget)
    {
        foreach (var body in BodiesOf(typeName + "." + methodName))
        {
            foreach (var callee in Callees(body))
            {
                if (isTarget(callee.Type, callee.Method) && !(body.StateMachine && IsAwaiterResult(callee)))
                {
                    return callee;
                }
            }
        }
        return null;
    }

    // An async method's own awaits call the awaiter's GetResult once the task is done: not a blocking call.
    private static bool IsAwaiterResult((string Type, string Method) callee) =>
        callee.Method == "GetResult" && callee.Type.StartsWith("System.Runtime.CompilerServices.", StringComparison.Ordinal)
        && callee.Type.Contains("Awaiter", StringComparison.Ordinal);

    /// <summary>
    /// The application methods from <paramref name="typeName"/>.<paramref name="methodName"/> (excluded) down to the one
    /// that calls an API <paramref name="isTarget"/> accepts, outermost first; null when no such method is reached, or
    /// when several different ones are (the IL alone cannot say which one ran).
    /// </summary>
    /// <remarks>
    /// With <paramref name="followDelegates"/> off, a method only handed on as a delegate (<c>Task.Run(() => ...)</c>) is not
    /// followed: it runs elsewhere, so it cannot be what was inlined into the frame.
    /// </remarks>
    public IReadOnlyList<(string Type, string Method)>? PathTo(string typeName, string methodName, Func<string, string, bool> isTarget, bool followDelegates = true)
    {
        var found = new Dictionary<string, List<(string, string)>>(StringComparer.Ordinal);
        var visited = new HashSet<string>(StringComparer.Ordinal) { typeName + "." + methodName };
        Search(typeName + "." + methodName, [], 0);
        return found.Count == 1 ? found.Values.Single() : null;

        void Search(string key, List<(string, string)> path, int depth)
        {
            foreach (var body in BodiesOf(key))
            {
                foreach (var (type, method, pointer) in IlCalls.References(body.Reader, body.Body))
                {
                    var calleeKey = type + "." + method;
                    if ((pointer && !followDelegates) || !_methods.ContainsKey(calleeKey) || depth >= MaxDepth || !visited.Add(calleeKey))
                    {
                        continue;
                    }
                    var next = new List<(string, string)>(path) { (type, method) };
                    if (Calls(type, method, isTarget))
                    {
                        found.TryAdd(calleeKey, next);
                    }
                    Search(calleeKey, next, depth + 1);
                }
            }
        }
    }

    /// <summary>
    /// The one application method whose IL makes a call <paramref name="isTarget"/> accepts, or null when none or several
    /// do: when nothing else anchors the search, a call only one place in the application makes was made there.
    /// </summary>
    public (string Type, string Method)? OnlyCaller(Func<string, string, bool> isTarget)
    {
        (string Type, string Method)? only = null;
        foreach (var key in _methods.Keys)
        {
            var dot = key.LastIndexOf('.');
            var (type, method) = (key[..dot], key[(dot + 1)..]);
            // A state machine's MoveNext is its async method's body: counted once, under the method.
            if (method == "MoveNext" && AsyncMethodOf(type) is not null || !Calls(type, method, isTarget))
            {
                continue;
            }
            if (only is not null)
            {
                return null;
            }
            only = (type, method);
        }
        return only;
    }

    /// <summary>Every indexed method named <paramref name="methodName"/> (for example every middleware's InvokeAsync), as (type, method).</summary>
    public IEnumerable<(string Type, string Method)> MethodsNamed(string methodName) =>
        _methods.Keys.Where(k => k.EndsWith("." + methodName, StringComparison.Ordinal))
            .Select(k => (k[..^(methodName.Length + 1)], methodName));

    // An async method's body lives in its state machine's MoveNext: "T.M" → also "T+<M>d__N.MoveNext".
    private IEnumerable<(MetadataReader Reader, MethodBodyBlock Body, bool StateMachine)> BodiesOf(string key)
    {
        foreach (var k in Keys(key))
        {
            var stateMachine = !ReferenceEquals(k, key) || k.EndsWith(".MoveNext", StringComparison.Ordinal) && AsyncMethodOf(k[..^".MoveNext".Length]) is not null;
            if (!_methods.TryGetValue(k, out var list))
            {
                continue;
            }
            foreach (var (pe, reader, handle) in list)
            {
                var rva = reader.GetMethodDefinition(handle).RelativeVirtualAddress;
                if (rva == 0)
                {
                    continue;
                }
                MethodBodyBlock body;
                try
                {
                    body = pe.GetMethodBody(rva);
                }
                catch (BadImageFormatException)
                {
                    continue;
                }
                yield return (reader, body, stateMachine);
            }
        }
    }

    private IEnumerable<string> Keys(string key)
    {
        yield return key;
        foreach (var machine in _stateMachines.GetValueOrDefault(key) ?? [])
        {
            yield return machine;
        }
    }

    private static IEnumerable<(string Type, string Method)> Callees((MetadataReader Reader, MethodBodyBlock Body, bool StateMachine) body) =>
        IlCalls.Of(body.Reader, body.Body);

    public void Dispose()
    {
        foreach (var file in _files)
        {
            file.Dispose();
        }
    }
}
