using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using Tplab.Blocking;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Code;

/// <summary>A call in the application's IL: the callee, whether it is only handed on as a delegate, and where the call is.</summary>
public readonly record struct CallSite(string Type, string Method, bool Pointer, CodeSite At);

/// <summary>
/// The application's own assemblies, read from the paths the runtime named (the rundown, or a dump's module list), to
/// follow calls the JIT inlined: when a frame is missing from the stack, the IL says which application method the
/// known caller reaches that makes the blocking call, and where the call is. Only application assemblies are read (not
/// the shared framework or library packages); an assembly that cannot be read is skipped.
/// </summary>
public sealed partial class ApplicationCode : IDisposable
{
    private const int MaxDepth = 6;

    private readonly List<Module> _modules = [];
    private readonly Dictionary<string, List<(Module Module, MethodDefinitionHandle Method)>> _methods = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<string>> _stateMachines = new(StringComparer.Ordinal);
    private readonly Dictionary<string, (MetadataReader Reader, TypeDefinitionHandle Type)> _types = new(StringComparer.Ordinal);
    private readonly Dictionary<(Module, int), List<IlInstruction>> _instructions = [];

    private ApplicationCode()
    {
    }

    /// <summary>Indexes the methods of the application assemblies among <paramref name="modulePaths"/>.</summary>
    public static ApplicationCode Load(IEnumerable<string> modulePaths, LibraryCode library)
    {
        ArgumentNullException.ThrowIfNull(modulePaths);
        ArgumentNullException.ThrowIfNull(library);
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
                var module = new Module(path, pe, pe.GetMetadataReader());
                code._modules.Add(module);
                code.Index(module, library);
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

    /// <summary>The application assemblies read, by path.</summary>
    public IEnumerable<string> ModulePaths => _modules.Select(m => m.Path);

    private void Index(Module module, LibraryCode library)
    {
        var reader = module.Reader;
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
                list.Add((module, methodHandle));
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
        ArgumentNullException.ThrowIfNull(machineType);
        var plus = machineType.LastIndexOf('+');
        var match = plus > 0 ? StateMachineName().Match(machineType[(plus + 1)..]) : null;
        return match is { Success: true } ? (machineType[..plus], match.Groups[1].Value) : null;
    }

    /// <summary>The method as the IL names its callers' calls: a state machine's MoveNext is its async method (or async lambda).</summary>
    public static (string Type, string Method) Written(string type, string method) =>
        method == "MoveNext" && AsyncMethodOf(type) is { } written ? written : (type, method);

    [System.Text.RegularExpressions.GeneratedRegex(@"^<(.+)>d(__\d+)?(`\d+)?$")]
    private static partial System.Text.RegularExpressions.Regex StateMachineName();

    /// <summary>True when <paramref name="typeName"/>.<paramref name="methodName"/> is an async method (its body is a state machine's MoveNext).</summary>
    public bool IsAsync(string typeName, string methodName) => _stateMachines.ContainsKey(typeName + "." + methodName);

    /// <summary>True when the application's assemblies hold <paramref name="typeName"/>.<paramref name="methodName"/> (its IL can be read).</summary>
    public bool Has(string typeName, string methodName) => _methods.ContainsKey(typeName + "." + methodName);

    /// <summary>Every indexed method named <paramref name="methodName"/> (for example every middleware's InvokeAsync), as (type, method).</summary>
    public IEnumerable<(string Type, string Method)> MethodsNamed(string methodName) =>
        _methods.Keys.Where(k => k.EndsWith("." + methodName, StringComparison.Ordinal))
            .Select(k => (k[..^(methodName.Length + 1)], methodName));

    private readonly record struct MethodBody(Module Module, MethodDefinitionHandle Handle, bool StateMachine);

    // An async method's body lives in its state machine's MoveNext: "T.M" → also "T+<M>d__N.MoveNext".
    private IEnumerable<MethodBody> BodiesOf(string key)
    {
        foreach (var k in Keys(key))
        {
            var stateMachine = !ReferenceEquals(k, key) || k.EndsWith(".MoveNext", StringComparison.Ordinal) && AsyncMethodOf(k[..^".MoveNext".Length]) is not null;
            if (!_methods.TryGetValue(k, out var list))
            {
                continue;
            }
            foreach (var (module, handle) in list)
            {
                if (Body(module, handle, stateMachine) is { } body)
                {
                    yield return body;
                }
            }
        }
    }

    private MethodBody? Body(Module module, MethodDefinitionHandle handle, bool stateMachine) =>
        Instructions(module, handle) is null ? null : new MethodBody(module, handle, stateMachine);

    private List<IlInstruction>? Instructions(Module module, MethodDefinitionHandle handle)
    {
        var token = MetadataTokens.GetToken(handle);
        if (_instructions.TryGetValue((module, token), out var known))
        {
            return known;
        }
        var rva = module.Reader.GetMethodDefinition(handle).RelativeVirtualAddress;
        List<IlInstruction>? decoded = null;
        if (rva != 0)
        {
            try
            {
                decoded = IlInstructions.Of(module.Pe.GetMethodBody(rva));
            }
            catch (BadImageFormatException)
            {
                decoded = null;
            }
        }
        _instructions[(module, token)] = decoded!;
        return decoded;
    }

    private IEnumerable<CallSite> Sites(MethodBody body)
    {
        var token = MetadataTokens.GetToken(body.Handle);
        foreach (var call in IlCalls.References(body.Module.Reader, Instructions(body.Module, body.Handle) ?? []))
        {
            yield return new CallSite(call.Type, call.Method, call.Pointer, new CodeSite(body.Module.Path, token, call.Offset));
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

    public void Dispose()
    {
        foreach (var module in _modules)
        {
            module.Pe.Dispose();
        }
    }

    private sealed class Module(string path, PEReader pe, MetadataReader reader)
    {
        public string Path { get; } = path;

        public PEReader Pe { get; } = pe;

        public MetadataReader Reader { get; } = reader;
    }
}
