using Tplab.Scan.Graph;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Graph;

/// <summary>The walk's scope: branches nest and unwind, also when a visit throws; the innermost lock is the one held.</summary>
[ParallelSafe]
public sealed class WalkScopeTests
{
    [Fact]
    public void Branches_NestAndUnwind()
    {
        var scope = new WalkScope();
        Assert.False(scope.Conditional);
        scope.Branch(() =>
        {
            Assert.True(scope.Conditional);
            scope.Branch(() => Assert.True(scope.Conditional));
            Assert.True(scope.Conditional);
        });
        Assert.False(scope.Conditional);
        scope.Enter(2);
        Assert.True(scope.Conditional);
        scope.Leave(2);
        Assert.False(scope.Conditional);
    }

    [Fact]
    public void AVisitThatThrows_LeavesTheBranchAndTheLock()
    {
        var scope = new WalkScope();
        Assert.Throws<InvalidOperationException>(() => scope.Branch(() => scope.Holding(7, () => throw new InvalidOperationException())));
        Assert.False(scope.Conditional);
        Assert.Null(scope.Lock);
    }

    [Fact]
    public void Locks_TheInnermostIsHeld()
    {
        var scope = new WalkScope();
        scope.Holding(1, () =>
        {
            Assert.Equal(1, scope.Lock);
            scope.Holding(2, () => Assert.Equal(2, scope.Lock));
            Assert.Equal(1, scope.Lock);
        });
        Assert.Null(scope.Lock);
    }
}
