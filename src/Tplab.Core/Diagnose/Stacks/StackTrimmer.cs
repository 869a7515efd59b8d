using Tplab.Blocking;

namespace Tplab.Diagnose.Stacks;

/// <summary>Shortens a blocked stack to what explains it: from the wait down to a couple of frames below the user frame, without async plumbing.</summary>
public static class StackTrimmer
{
    /// <summary>Frames below the user frame that are kept, to show who called it (an MVC action invoker, Task.Run).</summary>
    private const int CallerFrames = 2;

    /// <summary>At most <paramref name="maxFrames"/> frame names, top first; an elided middle is marked with "…".</summary>
    public static IReadOnlyList<string> Trim(BlockedStack stack, int maxFrames) => Trim(stack, maxFrames, Name);

    /// <summary>As <see cref="Trim(BlockedStack, int)"/>, each frame named by <paramref name="name"/>.</summary>
    public static IReadOnlyList<string> Trim(BlockedStack stack, int maxFrames, Func<StackFrame, string> name)
    {
        ArgumentNullException.ThrowIfNull(stack);
        ArgumentNullException.ThrowIfNull(name);
        var frames = stack.Frames;
        var anchor = stack.User?.Frame ?? stack.Boundary;
        var userIndex = anchor is not null ? IndexOf(frames, anchor) : -1;
        var end = userIndex >= 0 ? Math.Min(frames.Count, userIndex + 1 + CallerFrames) : frames.Count;
        var kept = new List<string>();
        for (var i = 0; i < end; i++)
        {
            if (!IsPlumbing(frames[i]))
            {
                kept.Add(name(frames[i]));
            }
        }
        if (kept.Count <= maxFrames)
        {
            return kept;
        }
        // Keep the top (the wait) and the bottom (the user frame and its caller); elide the driver's middle.
        var bottom = Math.Min(CallerFrames + 2, maxFrames / 2);
        var top = maxFrames - bottom - 1;
        return [.. kept.Take(top), "…", .. kept.Skip(kept.Count - bottom)];
    }

    private static int IndexOf(IReadOnlyList<StackFrame> frames, StackFrame frame)
    {
        for (var i = 0; i < frames.Count; i++)
        {
            if (ReferenceEquals(frames[i], frame))
            {
                return i;
            }
        }
        return -1;
    }

    private static bool IsPlumbing(StackFrame frame) =>
        frame.IsUnresolved
        || (frame.MethodName == "Start" && frame.OpenTypeName.StartsWith("System.Runtime.CompilerServices.", StringComparison.Ordinal)
            && frame.OpenTypeName.Contains("MethodBuilder", StringComparison.Ordinal));

    private static string Name(StackFrame frame) => frame.OpenTypeName.Length == 0 ? frame.MethodName : frame.OpenTypeName + "." + frame.MethodName;
}
