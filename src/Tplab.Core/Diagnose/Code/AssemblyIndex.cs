using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using Tplab.Blocking;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Code;

/// <summary>
/// The application's own assemblies, read from the paths the runtime named (the rundown, or a dump's module list):
/// their types and methods by name (<c>Type.Method</c>), an async method's state machines beside it, and each method's
/// IL decoded once into its call sites. Only application assemblies are read (not the shared framework or library
/// packages); an assembly that cannot be read is skipped.
/// </summary>
internal sealed class AssemblyIndex : IDisposable
{
    private readonly List<Module> _modules = [];
    private readonly Dictionary<string, List<(Module Module, MethodDefinitionHandle Method)>> _methods = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<string>> _stateMachines = new(StringComparer.Ordinal);
    private readonly Dictionary<string, (MetadataReader Reader, TypeDefinitionHandle Type)> _types = new(StringComparer.Ordinal);
    private readonly Dictionary<(Module, int), List<IlInstruction>> _instructions = [];

    private AssemblyIndex()
    {
    }

    /// <summary>Indexes the methods of the application assemblies among <paramref name="modulePaths"/>.</summary>
    public static AssemblyIndex Load(IEnumerable<string> modulePaths, LibraryCode library)
    {
        ArgumentNullException.ThrowIfNull(modulePaths);
        ArgumentNullException.ThrowIfNull(library);
        var index = new AssemblyIndex();
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
                index._modules.Add(module);
                index.Index(module, library);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or BadImageFormatException or InvalidOperationException)
            {
                // A file the process loaded may be gone or unreadable to us: attribution goes on without it.
            }
        }
        return index;
    }

    /// <summary>Methods indexed (0 when no application assembly could be read).</summary>
    public int MethodCount => _methods.Count;

    /// <summary>The application assemblies read, by path.</summary>
    public IEnumerable<string> ModulePaths => _modules.Select(m => m.Path);

    /// <summary>Every indexed method as <c>Type.Method</c>.</summary>
    public IEnumerable<string> MethodKeys => _methods.Keys;

    /// <summary>Every indexed type's full name (nested types with '+').</summary>
    public IEnumerable<string> TypeNames => _types.Keys;

    /// <summary>The metadata of the application type <paramref name="typeName"/>.</summary>
    public bool TryGetType(string typeName, out (MetadataReader Reader, TypeDefinitionHandle Type) type) => _types.TryGetValue(typeName, out type);

    /// <summary>True when <paramref name="key"/> (<c>Type.Method</c>) is indexed.</summary>
    public bool Has(string key) => _methods.ContainsKey(key);

    /// <summary>True when <paramref name="key"/> is an async method (its body is a state machine's MoveNext).</summary>
    public bool IsAsync(string key) => _stateMachines.ContainsKey(key);

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
                if (name == "MoveNext" && AsyncNames.AsyncMethodOf(typeName) is { } written)
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

    /// <summary>A method's body: where it is, and whether it is a state machine's MoveNext.</summary>
    public readonly record struct MethodBody(Module Module, MethodDefinitionHandle Handle, bool StateMachine);

    /// <summary>The bodies of <paramref name="key"/>: an async method's body lives in its state machine's MoveNext, "T.M" → also "T+&lt;M&gt;d__N.MoveNext".</summary>
    public IEnumerable<MethodBody> BodiesOf(string key)
    {
        foreach (var k in Keys(key))
        {
            var stateMachine = !ReferenceEquals(k, key) || AsyncNames.IsMoveNext(k);
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

    /// <summary>Each body written under <paramref name="key"/> itself (not its state machines'), as compiled.</summary>
    public IEnumerable<MethodBody> OwnBodies(string key)
    {
        foreach (var (module, handle) in _methods.GetValueOrDefault(key) ?? [])
        {
            if (Body(module, handle, stateMachine: false) is { } body)
            {
                yield return body;
            }
        }
    }

    private MethodBody? Body(Module module, MethodDefinitionHandle handle, bool stateMachine) =>
        Instructions(module, handle) is null ? null : new MethodBody(module, handle, stateMachine);

    /// <summary>The decoded IL of <paramref name="body"/>.</summary>
    public IReadOnlyList<IlInstruction> InstructionsOf(MethodBody body) => Instructions(body.Module, body.Handle) ?? [];

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

    /// <summary>The calls in <paramref name="body"/>, in IL order.</summary>
    public IEnumerable<CallSite> Sites(MethodBody body)
    {
        var token = MetadataTokens.GetToken(body.Handle);
        foreach (var call in IlCalls.References(body.Module.Reader, Instructions(body.Module, body.Handle) ?? []))
        {
            yield return new CallSite(call.Type, call.Method, call.Pointer, new CodeSite(body.Module.Path, token, call.Offset));
        }
    }

    /// <summary>Every call site in the body of the method at <paramref name="modulePath"/> and <paramref name="token"/> (a frame's own method); empty when not read.</summary>
    public IReadOnlyList<CallSite> SitesIn(string modulePath, int token)
    {
        var module = ModuleAt(modulePath);
        if (module is null || MetadataTokens.EntityHandle(token).Kind != HandleKind.MethodDefinition)
        {
            return [];
        }
        var handle = (MethodDefinitionHandle)MetadataTokens.EntityHandle(token);
        if (MetadataTokens.GetRowNumber(handle) > module.Reader.MethodDefinitions.Count)
        {
            return [];
        }
        var body = Body(module, handle, stateMachine: false);
        return body is null ? [] : [.. Sites(body.Value)];
    }

    /// <summary>The module read from <paramref name="modulePath"/>, or, when the process ran it from another path (a container, a dump read elsewhere), the one with the same file name.</summary>
    private Module? ModuleAt(string modulePath) =>
        _modules.FirstOrDefault(m => m.Path == modulePath)
        ?? _modules.FirstOrDefault(m => string.Equals(Path.GetFileName(m.Path), Path.GetFileName(modulePath.Replace('\\', '/')), StringComparison.OrdinalIgnoreCase));

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

    /// <summary>One assembly read.</summary>
    public sealed class Module(string path, PEReader pe, MetadataReader reader)
    {
        public string Path { get; } = path;

        public PEReader Pe { get; } = pe;

        public MetadataReader Reader { get; } = reader;
    }
}
