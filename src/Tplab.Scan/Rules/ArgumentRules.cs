using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;

namespace Tplab.Scan.Rules;

/// <summary>
/// Catalogue rows whose call blocks only for some arguments, as the frame cannot tell but source can:
/// <c>HashAlgorithm.ComputeHash</c> reads a stream (not a byte array, not memory), and EF Core's <c>RemoveRange</c>
/// enumerates its argument when it is a query (a list or an array is already in memory).
/// </summary>
internal static class ArgumentRules
{
    /// <summary>Whether <paramref name="matched"/> is one of these rows; then <paramref name="verdict"/> is the judgement (null: it does not block).</summary>
    public static bool Judge(IOperation call, BlockingCall matched, IOperation body, IArgumentSource? callers, out Verdict? verdict)
    {
        verdict = null;
        var type = matched.Frame.TypeName;
        if (call is not IInvocationOperation invocation)
        {
            return false;
        }
        if (type == "System.Security.Cryptography.HashAlgorithm")
        {
            verdict = ForHash(invocation, matched, body, callers);
            return true;
        }
        if (matched.Frame.MethodName == "RemoveRange" && type is "Microsoft.EntityFrameworkCore.DbSet`1" or "Microsoft.EntityFrameworkCore.DbContext")
        {
            verdict = ForRemoveRange(invocation, matched, body, callers);
            return true;
        }
        return false;
    }

    private static Verdict? ForHash(IInvocationOperation invocation, BlockingCall matched, IOperation body, IArgumentSource? callers)
    {
        // ComputeHash(byte[]) is CPU work; ComputeHash(Stream) reads the stream to its end on the calling thread.
        var stream = invocation.Arguments.FirstOrDefault(a => Ops.IsOrDerives(a.Value.Type, "System.IO.Stream"));
        if (stream is null)
        {
            return null;
        }
        var origin = StreamOrigins.Classify(stream.Value, body, callers);
        var call = matched with { On = StreamOrigins.Words(origin) };
        return origin switch
        {
            StreamOrigin.Memory => null,
            StreamOrigin.Unknown => new Verdict(call, Certainty.Uncertain, "the stream's type is not known from source", "ComputeHash reads the stream to its end"),
            _ => new Verdict(call, Certainty.Certain, null, $"ComputeHash reads {StreamOrigins.Words(origin)} to its end"),
        };
    }

    private static Verdict? ForRemoveRange(IInvocationOperation invocation, BlockingCall matched, IOperation body, IArgumentSource? callers)
    {
        // RemoveRange(params T[]) over entities in hand tracks them; over a query it runs the query to find them.
        var argument = invocation.Arguments.FirstOrDefault(a => a.Value.Type is not null && a.Parameter?.IsParams != true
            && Ops.Implements(a.Value.Type, "System.Collections.IEnumerable"));
        if (argument is null)
        {
            return null;
        }
        var value = Ops.Unwrap(argument.Value);
        var (origin, evidence) = Queries.Trace(value, body, callers);
        var call = matched with { On = "an EF Core query" };
        return origin switch
        {
            QueryOrigin.Database => new Verdict(call, Certainty.Certain, null, "enumerates a database query to find the entities: " + evidence),
            _ => QueryVerdicts.NotProven(call, (origin, evidence), value?.Type, "enumerates"),
        };
    }
}
