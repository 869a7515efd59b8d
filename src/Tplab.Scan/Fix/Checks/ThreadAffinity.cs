using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Checks;

/// <summary>
/// TPFIX001: a new await between a thread-affine acquire and its release in the same body. The code after an await may
/// run on another pool thread, and these primitives are owned by the thread that took them: <c>Monitor.Exit</c> there
/// throws <c>SynchronizationLockException</c>, <c>ReaderWriterLockSlim</c> throws or stays held, a <c>Mutex</c> is
/// abandoned unless it becomes a semaphore with its region (a private, unnamed one does). (A <c>lock</c> statement is the compiler's own rule, CS1996: <see cref="AsyncRules"/> makes it a semaphore or a boundary.)
/// </summary>
internal static class ThreadAffinity
{
    // type → (acquire methods, release methods)
    private static readonly Dictionary<string, (string[] Acquire, string[] Release)> Primitives = new(StringComparer.Ordinal)
    {
        ["System.Threading.Monitor"] = (["Enter", "TryEnter"], ["Exit"]),
        ["System.Threading.ReaderWriterLockSlim"] = (["EnterReadLock", "EnterWriteLock", "EnterUpgradeableReadLock", "TryEnterReadLock", "TryEnterWriteLock", "TryEnterUpgradeableReadLock"], ["ExitReadLock", "ExitWriteLock", "ExitUpgradeableReadLock"]),
        ["System.Threading.ReaderWriterLock"] = (["AcquireReaderLock", "AcquireWriterLock", "UpgradeToWriterLock"], ["ReleaseReaderLock", "ReleaseWriterLock", "ReleaseLock", "DowngradeFromWriterLock"]),
        ["System.Threading.Mutex"] = (["WaitOne"], ["ReleaseMutex"]),
        ["System.Threading.SpinLock"] = (["Enter", "TryEnter"], ["Exit"]),
    };

    /// <summary>The primitive a private, unnamed instance of which fix can turn into a <c>SemaphoreSlim(1, 1)</c> instead of refusing (Propagation's <c>MutexToSemaphore</c>).</summary>
    public const string Mutex = "System.Threading.Mutex";

    /// <summary>Why an await at <paramref name="point"/> would leave a thread-affine region held by another thread; null when it is in none.</summary>
    public static string? Region(SemanticModel model, SyntaxNode point, SyntaxNode container, CancellationToken cancellationToken) =>
        Regions(model, point, container, cancellationToken).Select(r => Say(r)).FirstOrDefault();

    /// <summary>Each thread-owned region around <paramref name="point"/> in its body: the acquire before it, a release of the same primitive after it, and the primitive's type.</summary>
    public static IEnumerable<(InvocationExpressionSyntax Acquire, InvocationExpressionSyntax Release, string Type)> Regions(SemanticModel model, SyntaxNode point, SyntaxNode container, CancellationToken cancellationToken)
    {
        var calls = container.DescendantNodes().OfType<InvocationExpressionSyntax>().Where(i => AsyncSyntax.DirectlyIn(i, container)).ToList();
        foreach (var acquire in calls.Where(c => c.SpanStart < point.SpanStart))
        {
            if (Kind(model, acquire, release: false, cancellationToken) is not { } type)
            {
                continue;
            }
            var release = calls.FirstOrDefault(c => c.SpanStart > point.Span.End && Kind(model, c, release: true, cancellationToken) == type);
            if (release is not null)
            {
                yield return (acquire, release, type);
            }
        }
    }

    /// <summary>The TPFIX001 refusal for <paramref name="region"/>; <paramref name="kept"/> says why a Mutex there could not become a semaphore.</summary>
    public static string Say((InvocationExpressionSyntax Acquire, InvocationExpressionSyntax Release, string Type) region, string? kept = null)
    {
        var name = region.Type[(region.Type.LastIndexOf('.') + 1)..];
        return FixReasons.ThreadAffine.Say(
            $"it is between {name}.{Method(region.Acquire)} (line {Line(region.Acquire)}) and {name}.{Method(region.Release)} (line {Line(region.Release)}), a region its thread owns; after an await another thread would release it ({(name == "Monitor" ? "SynchronizationLockException" : "an exception, or the lock left held")}). "
            + (kept is null ? "Keep the wait out of the region, or use a SemaphoreSlim(1, 1) awaited with WaitAsync" : $"The Mutex cannot become a SemaphoreSlim(1, 1): {kept}. Keep the wait out of the region"));
    }

    private static string? Kind(SemanticModel model, InvocationExpressionSyntax call, bool release, CancellationToken cancellationToken)
    {
        if (model.GetSymbolInfo(call, cancellationToken).Symbol is not IMethodSymbol method)
        {
            return null;
        }
        // Mutex.WaitOne is WaitHandle's: the receiver's type says it is a mutex.
        var type = method.Name == "WaitOne" && call.Expression is MemberAccessExpressionSyntax ma
            ? model.GetTypeInfo(ma.Expression, cancellationToken).Type?.ToDisplayString()
            : method.ContainingType?.ToDisplayString();
        return type is not null && Primitives.TryGetValue(type, out var names) && (release ? names.Release : names.Acquire).Contains(method.Name, StringComparer.Ordinal) ? type : null;
    }

    private static string Method(InvocationExpressionSyntax call) => call.Expression switch
    {
        MemberAccessExpressionSyntax m => m.Name.Identifier.ValueText,
        SimpleNameSyntax s => s.Identifier.ValueText,
        _ => call.Expression.ToString(),
    };

    internal static int Line(SyntaxNode node) => node.GetLocation().GetLineSpan().StartLinePosition.Line + 1;
}
