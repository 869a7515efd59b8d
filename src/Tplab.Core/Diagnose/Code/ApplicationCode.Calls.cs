using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;

namespace Tplab.Diagnose.Code;

/// <summary>Following calls through the application's IL: who calls what, where, and the one path from a method to a call.</summary>
public sealed partial class ApplicationCode
{
    private readonly Dictionary<string, (string Type, string Method)?> _implementations = new(StringComparer.Ordinal);

    /// <summary>True when <paramref name="typeName"/>.<paramref name="methodName"/> itself calls an API <paramref name="isTarget"/> accepts.</summary>
    public bool Calls(string typeName, string methodName, Func<string, string, bool> isTarget) =>
        FirstSite(typeName, methodName, isTarget) is not null;

    /// <summary>The first call site in the method's IL (its state machine's, for an async method) that <paramref name="isTarget"/> accepts, or null.</summary>
    public CallSite? FirstSite(string typeName, string methodName, Func<string, string, bool> isTarget)
    {
        ArgumentNullException.ThrowIfNull(isTarget);
        foreach (var body in BodiesOf(typeName + "." + methodName))
        {
            foreach (var site in Sites(body))
            {
                if (isTarget(site.Type, site.Method) && !(body.StateMachine && IsAwaiterResult(site.Type, site.Method)))
                {
                    return site;
                }
            }
        }
        return null;
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

    // An async method's own awaits call the awaiter's GetResult once the task is done: not a blocking call.
    internal static bool IsAwaiterResult(string type, string method) =>
        method == "GetResult" && type.StartsWith("System.Runtime.CompilerServices.", StringComparison.Ordinal)
        && type.Contains("Awaiter", StringComparison.Ordinal);

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
                foreach (var site in Sites(body))
                {
                    if ((site.Pointer && !followDelegates) || depth >= MaxDepth || Implementation(site.Type, site.Method) is not { } callee)
                    {
                        continue;
                    }
                    var calleeKey = callee.Type + "." + callee.Method;
                    if (!visited.Add(calleeKey))
                    {
                        continue;
                    }
                    var next = new List<(string, string)>(path) { callee };
                    if (Calls(callee.Type, callee.Method, isTarget))
                    {
                        found.TryAdd(calleeKey, next);
                    }
                    Search(calleeKey, next, depth + 1);
                }
            }
        }
    }

    /// <summary>True when <paramref name="typeName"/>.<paramref name="methodName"/> calls, or reaches through application methods, an API <paramref name="isTarget"/> accepts.</summary>
    public bool Reaches(string typeName, string methodName, Func<string, string, bool> isTarget, bool followDelegates = true) =>
        Calls(typeName, methodName, isTarget) || PathTo(typeName, methodName, isTarget, followDelegates) is not null;

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

    /// <summary>
    /// The application method a call runs: the callee itself when the application holds its body; for an interface or
    /// abstract method, its one implementation among the application's types (a service behind its interface, which
    /// PGO's guarded devirtualization inlines into the caller); null when none or several.
    /// </summary>
    public (string Type, string Method)? Implementation(string typeName, string methodName)
    {
        var key = typeName + "." + methodName;
        if (_methods.ContainsKey(key) && BodiesOf(key).Any())
        {
            return (typeName, methodName);
        }
        if (!_types.ContainsKey(typeName))
        {
            return null;
        }
        if (!_implementations.TryGetValue(key, out var found))
        {
            var explicitName = typeName.Replace('+', '.') + "." + methodName;
            var candidates = _types.Keys
                .Where(t => t != typeName && Derives(t, [typeName]))
                .SelectMany(t => new[] { (Type: t, Method: methodName), (Type: t, Method: explicitName) })
                .Where(m => _methods.ContainsKey(m.Type + "." + m.Method) && BodiesOf(m.Type + "." + m.Method).Any())
                .Distinct()
                .Take(2)
                .ToList();
            found = candidates.Count == 1 ? candidates[0] : null;
            _implementations[key] = found;
        }
        return found;
    }
}
