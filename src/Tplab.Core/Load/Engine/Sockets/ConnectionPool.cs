namespace Tplab.Load.Engine.Sockets;

/// <summary>
/// The connections of one event loop: a closed-loop user keeps its own (as each ab or wrk connection does); open-loop
/// requests take any idle one and open another when none is free, so the number of connections follows the number in
/// flight. The table index is the low half of each connection's epoll tag. Owned by the loop's thread.
/// </summary>
internal sealed class ConnectionPool
{
    private readonly List<Connection> _all = [];
    private readonly Stack<Connection> _idle = new();
    private readonly Dictionary<int, Connection> _users = [];

    public int Count => _all.Count;

    public Connection this[int index] => _all[index];

    /// <summary>The connection of <paramref name="user"/> (closed loop), or an idle one (open loop: user -1).</summary>
    public Connection Acquire(int user)
    {
        if (user >= 0)
        {
            if (!_users.TryGetValue(user, out var own))
            {
                own = New();
                _users[user] = own;
            }
            return own;
        }
        return _idle.TryPop(out var idle) ? idle : New();
    }

    /// <summary>An open-loop request would find a connection idle now.</summary>
    public bool HasIdle => _idle.Count > 0;

    /// <summary>Takes back a connection whose request ended (open loop: it becomes idle; a user's stays the user's).</summary>
    public void Release(Connection connection, int user)
    {
        if (user < 0)
        {
            _idle.Push(connection);
        }
    }

    private Connection New()
    {
        var connection = new Connection(_all.Count);
        _all.Add(connection);
        return connection;
    }
}
