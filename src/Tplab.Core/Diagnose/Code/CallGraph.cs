namespace Tplab.Diagnose.Code;

/// <summary>
/// Following calls through the application's IL: what a method calls and where, the one path from a method down to a
/// call, the one method that makes a call, the implementation behind an interface, the method a lambda is written in.
/// </summary>
internal sealed class CallGraph(AssemblyIndex index, TypeRoles types)
{
    private const int MaxDepth = 6;

    private readonly Dictionary<string, (string Type, string Method)?> _implementations = new(StringComparer.Ordinal);
    private Dictionary<string, (string Type, string Method)>? _declarers;

    /// <summary>True when <paramref name="typeName"/>.<paramref name="methodName"/> itself calls an API <paramref name="isTarget"/> accepts.</summary>
    public bool Calls(string typeName, string methodName, Func<string, string, bool> isTarget) =>
        FirstSite(typeName, methodName, isTarget) is not null;

    /// <summary>The first call site in the method's IL (its state machine's, for an async method) that <paramref name="isTarget"/> accepts, or null.</summary>
    public CallSite? FirstSite(string typeName, string methodName, Func<string, string, bool> isTarget)
    {
        ArgumentNullException.ThrowIfNull(isTarget);
        foreach (var body in index.BodiesOf(typeName + "." + methodName))
        {
            foreach (var site in index.Sites(body))
            {
                if (isTarget(site.Type, site.Method) && !(body.StateMachine && IsAwaiterResult(site.Type, site.Method)))
                {
                    return site;
                }
            }
        }
        return null;
    }

    /// <summary>An async method's own awaits call the awaiter's GetResult once the task is done: not a blocking call.</summary>
    public static bool IsAwaiterResult(string type, string method) =>
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
            foreach (var body in index.BodiesOf(key))
            {
                foreach (var site in index.Sites(body))
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
        foreach (var key in index.MethodKeys)
        {
            var dot = key.LastIndexOf('.');
            var (type, method) = (key[..dot], key[(dot + 1)..]);
            // A state machine's MoveNext is its async method's body: counted once, under the method.
            if (method == "MoveNext" && AsyncNames.AsyncMethodOf(type) is not null || !Calls(type, method, isTarget))
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
        if (index.Has(key) && index.BodiesOf(key).Any())
        {
            return (typeName, methodName);
        }
        if (!index.TryGetType(typeName, out _))
        {
            return null;
        }
        if (!_implementations.TryGetValue(key, out var found))
        {
            var explicitName = typeName.Replace('+', '.') + "." + methodName;
            var candidates = index.TypeNames
                .Where(t => t != typeName && types.Derives(t, [typeName]))
                .SelectMany(t => new[] { (Type: t, Method: methodName), (Type: t, Method: explicitName) })
                .Where(m => index.Has(m.Type + "." + m.Method) && index.BodiesOf(m.Type + "." + m.Method).Any())
                .Distinct()
                .Take(2)
                .ToList();
            found = candidates.Count == 1 ? candidates[0] : null;
            _implementations[key] = found;
        }
        return found;
    }

    /// <summary>
    /// The method that hands <paramref name="typeName"/>.<paramref name="methodName"/> on as a delegate (the method a lambda
    /// is written in: a handler that runs it with Task.Run), as callers name it (an async method, not its MoveNext); null when none.
    /// </summary>
    public (string Type, string Method)? DeclarerOf(string typeName, string methodName)
    {
        if (_declarers is null)
        {
            var declarers = new Dictionary<string, (string Type, string Method)>(StringComparer.Ordinal);
            foreach (var key in index.MethodKeys)
            {
                var dot = key.LastIndexOf('.');
                var declarer = AsyncNames.Written(key[..dot], key[(dot + 1)..]);
                foreach (var body in index.OwnBodies(key))
                {
                    foreach (var site in index.Sites(body).Where(s => s.Pointer))
                    {
                        declarers.TryAdd(site.Type + "." + site.Method, declarer);
                    }
                }
            }
            _declarers = declarers;
        }
        return _declarers.TryGetValue(typeName + "." + methodName, out var found) ? found : null;
    }
}
