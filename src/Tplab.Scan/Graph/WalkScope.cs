namespace Tplab.Scan.Graph;

/// <summary>
/// Where the walk of a body stands: inside how many branches (a call under one runs only on some requests), and which
/// lock is held around it.
/// </summary>
internal sealed class WalkScope
{
    private readonly Stack<int> _locks = new();
    private int _branches;

    /// <summary>The walk is inside a branch (if/else, switch, catch, <c>?.</c>, <c>??</c>, after a fast path).</summary>
    public bool Conditional => _branches > 0;

    /// <summary>The innermost lock held, if any.</summary>
    public int? Lock => _locks.Count > 0 ? _locks.Peek() : null;

    /// <summary>Runs <paramref name="visit"/> inside one more branch.</summary>
    public void Branch(Action visit)
    {
        _branches++;
        try
        {
            visit();
        }
        finally
        {
            _branches--;
        }
    }

    /// <summary>Enters <paramref name="count"/> branches until <see cref="Leave"/>: the rest of a block after fast paths.</summary>
    public void Enter(int count = 1) => _branches += count;

    /// <summary>Leaves branches entered with <see cref="Enter"/>.</summary>
    public void Leave(int count = 1) => _branches -= count;

    /// <summary>Runs <paramref name="visit"/> with lock <paramref name="id"/> held.</summary>
    public void Holding(int id, Action visit)
    {
        _locks.Push(id);
        try
        {
            visit();
        }
        finally
        {
            _locks.Pop();
        }
    }
}
