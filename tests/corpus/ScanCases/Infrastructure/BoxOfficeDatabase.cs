using Microsoft.EntityFrameworkCore;
using Npgsql;
using ScanCases.Tickets;

namespace ScanCases.Infrastructure;

/// <summary>Thrown when an endpoint needs PostgreSQL and ConnectionStrings:BoxOffice is not set.</summary>
public sealed class DatabaseNotConfiguredException()
    : Exception("ConnectionStrings:BoxOffice is not set: this endpoint needs PostgreSQL");

/// <summary>The box office's PostgreSQL, when configured: EF Core for tickets, Npgsql directly for reports.</summary>
public sealed class BoxOfficeDatabase(string? connectionString) : IDisposable
{
    private NpgsqlDataSource? _source;

    public bool IsConfigured => !string.IsNullOrEmpty(connectionString);

    public string ConnectionString => IsConfigured ? connectionString! : throw new DatabaseNotConfiguredException();

    public NpgsqlDataSource Source => _source ??= NpgsqlDataSource.Create(ConnectionString);

    public static void EnsureSchema(IServiceProvider services)
    {
        if (!services.GetRequiredService<BoxOfficeDatabase>().IsConfigured)
        {
            return;
        }
        using var scope = services.CreateScope();
        scope.ServiceProvider.GetRequiredService<BoxOfficeDb>().Database.EnsureCreated();
    }

    public void Dispose() => _source?.Dispose();
}

public static class BoxOfficeDatabaseServices
{
    public static IServiceCollection AddBoxOfficeDatabase(this IServiceCollection services, IConfiguration configuration) =>
        services
            .AddSingleton(new BoxOfficeDatabase(configuration.GetConnectionString("BoxOffice")))
            .AddDbContext<BoxOfficeDb>((sp, options) => options.UseNpgsql(sp.GetRequiredService<BoxOfficeDatabase>().ConnectionString));
}

public sealed class BoxOfficeDb(DbContextOptions<BoxOfficeDb> options) : DbContext(options)
{
    public DbSet<Ticket> Tickets => Set<Ticket>();

    public DbSet<CheckIn> CheckIns => Set<CheckIn>();
}

/// <summary>A missing or unreachable database is the operator's problem, not a bug: 503 with the reason.</summary>
public sealed class DatabaseUnavailableHandler : Microsoft.AspNetCore.Diagnostics.IExceptionHandler
{
    public async ValueTask<bool> TryHandleAsync(HttpContext httpContext, Exception exception, CancellationToken cancellationToken)
    {
        var reason = exception switch
        {
            DatabaseNotConfiguredException e => e.Message,
            NpgsqlException e => "database unreachable: " + e.Message,
            _ => null,
        };
        if (reason is null)
        {
            return false;
        }
        httpContext.Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
        await httpContext.Response.WriteAsJsonAsync(new { error = reason }, cancellationToken);
        return true;
    }
}
