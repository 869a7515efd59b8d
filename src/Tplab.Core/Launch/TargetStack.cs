using Tplab.Common;
using Tplab.Postgres;

namespace Tplab.Launch;

/// <summary>What a target depends on, started once and shared by the targets started from it.</summary>
public sealed record TargetStackOptions
{
    /// <summary>An existing downstream to call; null starts a private one.</summary>
    public Uri? Downstream { get; init; }

    /// <summary>An existing database; null starts a private PostgreSQL when the binaries are installed.</summary>
    public string? ConnectionString { get; init; }

    /// <summary>False skips the database entirely (the db variants answer 503).</summary>
    public bool Database { get; init; } = true;

    /// <summary>
    /// The connection string the user gave (<c>--pg</c>), else <c>$TPLAB_PG</c> when set, else null (a private PostgreSQL):
    /// the one place the environment's fallback is read, under the name the target reads it by.
    /// </summary>
    public static string? ConnectionStringOrEnvironment(string? given) =>
        given ?? (System.Environment.GetEnvironmentVariable(Tplab.Target.TargetCommandLine.ConnectionStringVariable) is { } s && !string.IsNullOrWhiteSpace(s) ? s : null);
}

/// <summary>
/// The downstream service and the database that targets call, started once; fresh targets are started
/// from it (one per lab scenario, so no pool history leaks between them). Disposing stops everything.
/// </summary>
public sealed class TargetStack : IServiceLauncher, IAsyncDisposable
{
    private TargetProcess? _downstream;
    private PrivatePostgres? _postgres;

    private TargetStack()
    {
    }

    /// <summary>Address of the downstream service.</summary>
    public Uri Downstream { get; private set; } = null!;

    /// <summary>Connection string of the database, or null when there is none.</summary>
    public string? ConnectionString { get; private set; }

    /// <summary>Why there is no database, in one line; null when there is one.</summary>
    public string? DatabaseUnavailable { get; private set; }

    /// <summary>Why the database the stack started is gone (killed mid-run, say); null while it runs or when tplab did not start it.</summary>
    public string? DatabaseLost => _postgres?.Lost;

    /// <summary>The private PostgreSQL, when tplab started one.</summary>
    public PrivatePostgres? PrivatePostgres => _postgres;

    /// <summary>Starts what is not given: the downstream and, when wanted and installed, a private PostgreSQL.</summary>
    public static async Task<TargetStack> StartAsync(TargetStackOptions options, CancellationToken cancellationToken = default)
    {
        var stack = new TargetStack();
        try
        {
            if (options.Downstream is { } given)
            {
                stack.Downstream = given;
            }
            else
            {
                stack._downstream = await TargetProcess.StartDownstreamAsync(0, cancellationToken).ConfigureAwait(false);
                stack.Downstream = stack._downstream.BaseAddress;
            }

            if (!options.Database)
            {
                stack.DatabaseUnavailable = "database disabled (--no-db)";
            }
            else if (options.ConnectionString is { } cs)
            {
                stack.ConnectionString = cs;
            }
            else if (PostgresBinaries.Find() is null)
            {
                stack.DatabaseUnavailable = PostgresBinaries.HowToEnable;
            }
            else
            {
                stack._postgres = await PrivatePostgres.StartAsync(cancellationToken: cancellationToken).ConfigureAwait(false);
                stack.ConnectionString = stack._postgres.ConnectionString;
            }
            return stack;
        }
        catch
        {
            await stack.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>Starts a fresh target wired to this stack's downstream and database.</summary>
    public Task<TargetProcess> StartTargetAsync(ThreadPoolSettings settings, int port = 0, CancellationToken cancellationToken = default) =>
        TargetProcess.StartTargetAsync(
            new TargetOptions { Port = port, Downstream = Downstream, ConnectionString = ConnectionString, ThreadPool = settings },
            cancellationToken);

    /// <inheritdoc/>
    public bool StartsFresh => true;

    /// <inheritdoc/>
    async Task<IServiceInstance> IServiceLauncher.StartAsync(ThreadPoolSettings settings, CancellationToken cancellationToken) =>
        await StartTargetAsync(settings, 0, cancellationToken).ConfigureAwait(false);

    public async ValueTask DisposeAsync()
    {
        var errors = new List<Exception>();
        foreach (var part in new IAsyncDisposable?[] { _downstream, _postgres })
        {
            try
            {
                if (part is not null)
                {
                    await part.DisposeAsync().ConfigureAwait(false);
                }
            }
            catch (Exception e) when (e is IOException or InvalidOperationException or TplabException)
            {
                errors.Add(e);
            }
        }
        _downstream = null;
        _postgres = null;
    }
}
