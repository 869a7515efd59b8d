using Tplab.Blocking;
using Tplab.Diagnose.Capture;

namespace Tplab.Diagnose.Stacks;

/// <summary>
/// The JIT's inlining events of one capture (MethodJitInliningSucceeded): which application methods went into which
/// compiled method. A method the JIT inlined has no frame of its own, so the stack shows its caller; these events
/// name it. They exist only for methods compiled during the capture (a warm service compiled most of its code earlier).
/// </summary>
public sealed class InlineIndex
{
    private readonly Dictionary<string, List<(string Inliner, string Inlinee)>> _byRoot = new(StringComparer.Ordinal);
    private readonly LibraryCode _library;

    public InlineIndex(IEnumerable<Inlining> inlinings, LibraryCode library)
    {
        _library = library;
        foreach (var i in inlinings)
        {
            var root = Open(i.Root);
            if (!_byRoot.TryGetValue(root, out var list))
            {
                _byRoot[root] = list = [];
            }
            var pair = (Open(i.Inliner), Open(i.Inlinee));
            if (!list.Contains(pair))
            {
                list.Add(pair);
            }
        }
    }

    /// <summary>
    /// The application methods the JIT inlined into <paramref name="physical"/> (outermost first, as the IL names them), when
    /// they form a single line (A inlined B, which inlined C). Empty when none were seen, or when several were (the events
    /// do not say which one made the call).
    /// </summary>
    public IReadOnlyList<(string Type, string Method)> InlinedInto(StackFrame physical)
    {
        ArgumentNullException.ThrowIfNull(physical);
        var root = physical.OpenTypeName + "." + physical.MethodName;
        if (!_byRoot.TryGetValue(root, out var pairs))
        {
            return [];
        }
        var chain = new List<(string Type, string Method)>();
        var current = root;
        while (true)
        {
            var children = pairs.Where(p => p.Inliner == current).Select(p => p.Inlinee).Where(IsApplication).Distinct().ToList();
            if (children.Count != 1 || chain.Count > 16)
            {
                return children.Count > 1 ? [] : chain;
            }
            var frame = StackFrame.Parse("", children[0]);
            chain.Add((frame.OpenTypeName, frame.MethodName));
            current = children[0];
        }
    }

    private bool IsApplication(string name) => !_library.IsLibrary(StackFrame.Parse("", name));

    private static string Open(string name)
    {
        var frame = StackFrame.Parse("", name);
        return frame.OpenTypeName + "." + frame.MethodName;
    }
}
