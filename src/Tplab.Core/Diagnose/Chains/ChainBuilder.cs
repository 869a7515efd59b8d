using Tplab.Blocking;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Chains;

/// <summary>A method the chain certainly passes through: the root, or an application frame seen on the stack.</summary>
/// <param name="Raw">The method as the IL names it (an async method's frame is its state machine's MoveNext).</param>
/// <param name="Frame">Its frame on the stack, or null for a root known from events or the IL.</param>
internal sealed record Anchor((string Type, string Method) Raw, StackFrame? Frame)
{
    public static Anchor Of(StackFrame frame) => new((frame.OpenTypeName, frame.MethodName), frame);

    /// <summary>The method as callers' IL calls it: a state machine's MoveNext is its async method.</summary>
    public (string Type, string Method) Written => ApplicationCode.Written(Raw.Type, Raw.Method);
}

/// <summary>
/// The chain from the anchors (root first, then the application frames of the stack, outermost first) down to the
/// blocking call, with the methods the JIT inlined away put back from the IL: where a frame's IL offset is known, the
/// call at that offset says which method it called; that callee's IL leads on to the next anchor (or the blocking
/// call). Without an offset, the one path the IL allows is taken, and none when it allows several.
/// </summary>
internal sealed class ChainBuilder(ApplicationCode code, SourceLines? lines)
{
    /// <summary>The hops, and the call site of the blocking call in the last one (null when the IL does not show it).</summary>
    public (List<ChainHop> Hops, CallSite? Call) Build(IReadOnlyList<Anchor> anchors, Func<string, string, bool> isTarget)
    {
        var hops = new List<ChainHop>();
        CallSite? call = null;
        for (var k = 0; k < anchors.Count; k++)
        {
            var anchor = anchors[k];
            var last = k == anchors.Count - 1;
            var want = last ? isTarget : Matches(anchors[k + 1]);
            var (inserted, site) = Bridge(anchor, want, last);
            var exact = anchor.Frame?.Code is { Offset: >= 0 } frameSite ? lines?.At(frameSite) : null;
            hops.Add(Hop(anchor.Raw, anchor.Frame, anchor.Frame is null ? HopSource.Il : HopSource.Stack, exact ?? At(site)));
            for (var i = 0; i < inserted.Count; i++)
            {
                var next = i + 1 < inserted.Count ? Runs(inserted[i + 1]) : want;
                var innerSite = code.FirstSite(inserted[i].Type, inserted[i].Method, next);
                hops.Add(Hop(inserted[i], null, HopSource.Il, At(innerSite)));
                if (last && i == inserted.Count - 1)
                {
                    call = innerSite;
                }
            }
            if (last && inserted.Count == 0)
            {
                call = site;
            }
        }
        return (hops, call);
    }

    private SourceLine? At(CallSite? site) => site is { } s ? lines?.At(s.At) : null;

    private static ChainHop Hop((string Type, string Method) raw, StackFrame? frame, HopSource from, SourceLine? at)
    {
        var written = ApplicationCode.Written(raw.Type, raw.Method);
        var method = frame is not null ? UserMethod.From(frame) : UserMethod.Named(raw.Type, raw.Method);
        return new ChainHop(method, written, from) { At = at };
    }

    /// <summary>
    /// The application methods between <paramref name="anchor"/> and what <paramref name="want"/> accepts, and the site in
    /// the anchor's IL of the call that leads there.
    /// </summary>
    private (IReadOnlyList<(string Type, string Method)> Inserted, CallSite? Site) Bridge(Anchor anchor, Func<string, string, bool> want, bool towardsCall)
    {
        if (anchor.Frame?.Code is { Offset: >= 0 } at)
        {
            foreach (var site in Near(code.SitesIn(at.ModulePath, at.Token), at))
            {
                if (site.Pointer && towardsCall)
                {
                    continue;
                }
                if (want(site.Type, site.Method))
                {
                    return ([], site);
                }
                if (!site.Pointer && code.Implementation(site.Type, site.Method) is { } callee)
                {
                    if (code.Calls(callee.Type, callee.Method, want))
                    {
                        return ([callee], site);
                    }
                    if (code.PathTo(callee.Type, callee.Method, want) is { Count: > 0 } path)
                    {
                        return ([callee, .. path], site);
                    }
                }
            }
        }
        // No offset, or nothing near it leads on: the IL of the whole method.
        var (type, method) = anchor.Raw;
        if (code.FirstSite(type, method, want) is { } direct)
        {
            return ([], direct);
        }
        if (code.PathTo(type, method, want) is { Count: > 0 } inferred)
        {
            return (inferred, code.FirstSite(type, method, Runs(inferred[0])));
        }
        return ([], null);
    }

    /// <summary>
    /// The calls of a frame's method nearest its IL offset: the runtime's map gives the offset where the native code of
    /// that IL began (a statement, or the call itself), so the calls at and after it come first, then those before it.
    /// Only the statement's calls count when the PDB bounds it.
    /// </summary>
    private IEnumerable<CallSite> Near(IReadOnlyList<CallSite> sites, CodeSite at)
    {
        var span = lines?.Span(at);
        var inStatement = span is { } s ? sites.Where(c => c.At.Offset >= s.Start && c.At.Offset < s.End).ToList() : [.. sites];
        return [.. inStatement.Where(c => c.At.Offset >= at.Offset).OrderBy(c => c.At.Offset),
            .. inStatement.Where(c => c.At.Offset < at.Offset).OrderByDescending(c => c.At.Offset)];
    }

    private Func<string, string, bool> Matches(Anchor next) => Calling(next, code);

    /// <summary>A callee is <paramref name="next"/> when it is that method, or the async method whose state machine it is, or an interface or base method it implements.</summary>
    internal static Func<string, string, bool> Calling(Anchor next, ApplicationCode code)
    {
        var raw = next.Raw;
        var written = next.Written;
        return (type, method) =>
            (type == raw.Type && method == raw.Method)
            || (type == written.Type && method == written.Method)
            || (method == written.Method && code.IsAssignableTo(written.Type, type));
    }

    // A call site runs m when it calls m, or an interface or abstract method whose one implementation is m.
    private Func<string, string, bool> Runs((string Type, string Method) m) =>
        (type, method) => (type == m.Type && method == m.Method) || code.Implementation(type, method) == m;
}
