using Npgsql;

namespace Tplab.Target.Infrastructure;

/// <summary>Thrown by the db routes when the target was started without a connection string.</summary>
internal sealed class DatabaseNotConfiguredException()
    : Exception("no database configured: start serve with --pg CONNSTRING, or install PostgreSQL (Debian package postgresql) so tplab starts a private one");

/// <summary>The database the db variants wait on. The pool is sized so that it is never the bottleneck.</summary>
public sealed class Database(NpgsqlDataSource? source) : IDisposable
{
    /// <summary>Pool size: above every seed's concurrency (siege-db runs 120 users).</summary>
    public const int MaxPoolSize = 500;

    public static Database Create(string? connectionString)
    {
        if (connectionString is null)
        {
            return new Database(null);
        }
        var builder = new NpgsqlConnectionStringBuilder(connectionString)
        {
            MaxPoolSize = MaxPoolSize,
            Timeout = 5,
            CommandTimeout = 0,
        };
        return new Database(NpgsqlDataSource.Create(builder.ConnectionString));
    }

    public NpgsqlDataSource Source => source ?? throw new DatabaseNotConfiguredException();

    /// <summary>The statement every db variant runs: the database waits, the client waits on it.</summary>
    public static NpgsqlCommand SleepCommand(NpgsqlConnection connection, int ms)
    {
        var command = new NpgsqlCommand("SELECT pg_sleep(@s)", connection);
        command.Parameters.AddWithValue("s", ms / 1000.0);
        return command;
    }

    public void Dispose() => source?.Dispose();
}
