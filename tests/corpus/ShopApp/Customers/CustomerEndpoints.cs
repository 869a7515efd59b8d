using Npgsql;
using ShopApp.Corpus;

namespace ShopApp.Customers;

public static class CustomerEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        // Find opens a connection and runs the query, both synchronously: the query (250 ms) holds most threads, unless
        // the server is slow to accept the pool's new connections (seen on a loaded machine: 5.5 threads in the open).
        ExpectedCulprit.Blocking("customers-npgsql", "GET", "/api/customers/3", "/api/customers/{id}",
            "Customers.CustomerRepository.Find", "NpgsqlCommand.ExecuteScalar", Place.MinimalApi)
            with
            {
                NeedsDatabase = true,
                OtherBlockingCall = "NpgsqlDataSource.OpenConnection",
                Chain =
                [
                    new("GET /api/customers/{id} handler", "Customers/CustomerEndpoints.cs", "Results.Ok(customers.Get(id))"),
                    new("CustomerService.Get", "Customers/CustomerEndpoints.cs", "repository.Find(id) ??"),
                    new("CustomerRepository.Find", "Customers/CustomerEndpoints.cs", "return command.ExecuteScalar()") { OrLine = "using var connection = DataSource.OpenConnection();" },
                ],
            },
        ExpectedCulprit.Healthy("customers-profile", "GET", "/api/customers/3/profile", "/api/customers/{id}/profile", Place.MinimalApi)
            with { NeedsDatabase = true },
    ];

    public static IServiceCollection AddCustomers(this IServiceCollection services, IConfiguration configuration)
    {
        var connectionString = configuration.GetConnectionString("Shop");
        if (!string.IsNullOrEmpty(connectionString))
        {
            services.AddSingleton(NpgsqlDataSource.Create(new NpgsqlConnectionStringBuilder(connectionString) { MaxPoolSize = 200 }.ConnectionString));
        }
        return services.AddScoped<CustomerRepository>().AddScoped<CustomerService>();
    }

    public static void MapCustomers(this IEndpointRouteBuilder app)
    {
        app.MapGet("/api/customers/{id:int}", (int id, CustomerService customers) => Results.Ok(customers.Get(id)));
        app.MapGet("/api/customers/{id:int}/profile", async (int id, CustomerRepository repository, CancellationToken ct) =>
            Results.Ok(await repository.FindAsync(id, ct)));
    }
}

public sealed record Customer(int Id, string Name);

public sealed class CustomerService(CustomerRepository repository)
{
    public Customer Get(int id) => repository.Find(id) ?? new Customer(id, "guest");
}

/// <summary>Customers in PostgreSQL. The query stands for a slow report query (pg_sleep).</summary>
public sealed class CustomerRepository(IServiceProvider services)
{
    private const string Query = "SELECT 'customer ' || @id::text FROM pg_sleep(0.25)";

    public Customer? Find(int id)
    {
        using var connection = DataSource.OpenConnection();
        using var command = new NpgsqlCommand(Query, connection);
        command.Parameters.AddWithValue("id", id);
        return command.ExecuteScalar() is string name ? new Customer(id, name) : null;
    }

    public async Task<Customer?> FindAsync(int id, CancellationToken ct)
    {
        await using var connection = await DataSource.OpenConnectionAsync(ct);
        await using var command = new NpgsqlCommand(Query, connection);
        command.Parameters.AddWithValue("id", id);
        return await command.ExecuteScalarAsync(ct) is string name ? new Customer(id, name) : null;
    }

    private NpgsqlDataSource DataSource =>
        services.GetService<NpgsqlDataSource>() ?? throw new InvalidOperationException("ConnectionStrings:Shop is not set");
}
