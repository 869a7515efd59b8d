using Tplab.Scan.Graph;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Graph;

/// <summary>
/// The walk's scope: branches nest and unwind, also when a visit throws; the innermost lock is the one held. What a
/// visit sees is recorded and asserted after it, so a visit that never runs fails the test instead of passing it.
/// </summary>
[ParallelSafe]
public sealed class WalkScopeTests
{
    [Fact]
    public void Branches_NestAndUnwind()
    {
        var scope = new WalkScope();
        var seen = new List<bool> { scope.Conditional };
        scope.Branch(() =>
        {
            seen.Add(scope.Conditional);
            scope.Branch(() => seen.Add(scope.Conditional));
            seen.Add(scope.Conditional);
        });
        seen.Add(scope.Conditional);
        scope.Enter(2);
        seen.Add(scope.Conditional);
        scope.Leave(2);
        seen.Add(scope.Conditional);

        Assert.Equal([false, true, true, true, false, true, false], seen);
    }

    [Fact]
    public void AVisitThatThrows_LeavesTheBranchAndTheLock()
    {
        var scope = new WalkScope();
        int? held = null;

        Assert.Throws<InvalidOperationException>(() => scope.Branch(() => scope.Holding(7, () =>
        {
            held = scope.Lock;
            throw new InvalidOperationException();
        })));

        Assert.Equal(7, held);
        Assert.False(scope.Conditional);
        Assert.Null(scope.Lock);
    }

    [Fact]
    public void Locks_TheInnermostIsHeld()
    {
        var scope = new WalkScope();
        var held = new List<int?>();
        scope.Holding(1, () =>
        {
            held.Add(scope.Lock);
            scope.Holding(2, () => held.Add(scope.Lock));
            held.Add(scope.Lock);
        });
        held.Add(scope.Lock);

        Assert.Equal([1, 2, 1, null], held);
    }
}
