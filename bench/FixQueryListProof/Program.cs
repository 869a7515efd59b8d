// The proof by running of fix's QueryListRewrite (bench/fix-querylist-proof.sh): EF Core's RemoveRange(query) as
// ScanCases' TicketRepository writes it, and as `tplab fix` rewrites it (RemoveRange(await query.ToListAsync())), each
// run on its own SQLite database seeded the same way, on the same paths, for each shape of the query fix rewrites
// (through a method of the app, EF's FromSqlRaw, a local): an event with tickets, an event without, a
// second release of the same event, and a context already disposed. Printed per path: the answer or the exception's
// type, the tickets left and the SQL commands each form sent. Exit 1 when a path differs.
using System.Data.Common;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Diagnostics;

var differences = 0;
// The query's shapes fix rewrites (FixQueryListTests' rows): through a method of the app, EF's FromSqlRaw, a local.
var shapes = new (string Name, Func<TicketRepository, int, Task<int>> Before, Func<TicketRepository, int, Task<int>> After)[]
{
    ("method", (repo, id) => repo.ReleaseEventBeforeAsync(id), (repo, id) => repo.ReleaseEventAfterAsync(id)),
    ("FromSqlRaw", (repo, id) => repo.ReleaseBySqlBeforeAsync(id), (repo, id) => repo.ReleaseBySqlAfterAsync(id)),
    ("local", (repo, id) => repo.ReleaseHeldBeforeAsync(id), (repo, id) => repo.ReleaseHeldAfterAsync(id)),
};
foreach (var (shape, releaseBefore, releaseAfter) in shapes)
{
    foreach (var path in new[] { "event-with-tickets", "event-without-tickets", "released-twice", "context-disposed" })
    {
        var before = await RunAsync(path, releaseBefore);
        var after = await RunAsync(path, releaseAfter);
        var same = before == after;
        differences += same ? 0 : 1;
        Console.WriteLine($"| {shape}: {path} | {before} | {after} | {(same ? "same" : "**differs**")} |");
    }
}
return differences == 0 ? 0 : 1;

static async Task<string> RunAsync(string path, Func<TicketRepository, int, Task<int>> release)
{
    using var connection = new SqliteConnection("Data Source=:memory:");
    connection.Open();
    var commands = new CommandCounter();
    var options = new DbContextOptionsBuilder<BoxOfficeDb>().UseSqlite(connection).AddInterceptors(commands).Options;
    using (var seed = new BoxOfficeDb(options))
    {
        seed.Database.EnsureCreated();
        seed.Tickets.AddRange(Enumerable.Range(1, 12).Select(i => new Ticket { EventId = i % 3 + 1, Seat = $"A{i}", Holder = $"h{i}" }));
        seed.SaveChanges();
    }
    commands.Count = 0;
    var db = new BoxOfficeDb(options);
    var repo = new TicketRepository(db);
    string answer;
    try
    {
        answer = path switch
        {
            "event-with-tickets" => (await release(repo, 2)).ToString(),
            "event-without-tickets" => (await release(repo, 9)).ToString(),
            "released-twice" => $"{await release(repo, 1)},{await release(repo, 1)}",
            _ => await Disposed(db, repo, release),
        };
    }
    catch (Exception e)
    {
        answer = e.GetType().Name;
    }
    var sent = commands.Count;
    using var check = new BoxOfficeDb(new DbContextOptionsBuilder<BoxOfficeDb>().UseSqlite(connection).Options);
    var left = string.Join(",", check.Tickets.OrderBy(t => t.Id).Select(t => t.Id));
    return $"{answer}; left {left}; {sent} commands";
}

static async Task<string> Disposed(BoxOfficeDb db, TicketRepository repo, Func<TicketRepository, int, Task<int>> release)
{
    await db.DisposeAsync();
    return (await release(repo, 2)).ToString();
}

public sealed class Ticket
{
    public int Id { get; set; }

    public int EventId { get; set; }

    public string Seat { get; set; } = "";

    public string Holder { get; set; } = "";
}

public sealed class BoxOfficeDb(DbContextOptions<BoxOfficeDb> options) : DbContext(options)
{
    public DbSet<Ticket> Tickets => Set<Ticket>();
}

public sealed class TicketRepository(BoxOfficeDb db)
{
    // ScanCases/Tickets/TicketServices.cs as written.
    public async Task<int> ReleaseEventBeforeAsync(int eventId)
    {
        db.Tickets.RemoveRange(OfEvent(eventId));
        return await db.SaveChangesAsync();
    }

    // As `tplab fix` rewrites it (the patch of ScanCases, FixQueryListTests).
    public async Task<int> ReleaseEventAfterAsync(int eventId)
    {
        db.Tickets.RemoveRange(await OfEvent(eventId).ToListAsync());
        return await db.SaveChangesAsync();
    }

    // A raw SQL query (EF's FromSqlRaw), as written and as rewritten.
    public async Task<int> ReleaseBySqlBeforeAsync(int eventId)
    {
        db.Tickets.RemoveRange(db.Tickets.FromSqlRaw("SELECT * FROM Tickets WHERE EventId = {0}", eventId));
        return await db.SaveChangesAsync();
    }

    public async Task<int> ReleaseBySqlAfterAsync(int eventId)
    {
        db.Tickets.RemoveRange(await db.Tickets.FromSqlRaw("SELECT * FROM Tickets WHERE EventId = {0}", eventId).ToListAsync());
        return await db.SaveChangesAsync();
    }

    // A query held in a local first, as written and as rewritten.
    public async Task<int> ReleaseHeldBeforeAsync(int eventId)
    {
        var held = db.Tickets.Where(ticket => ticket.EventId == eventId);
        db.Tickets.RemoveRange(held);
        return await db.SaveChangesAsync();
    }

    public async Task<int> ReleaseHeldAfterAsync(int eventId)
    {
        var held = db.Tickets.Where(ticket => ticket.EventId == eventId);
        db.Tickets.RemoveRange(await held.ToListAsync());
        return await db.SaveChangesAsync();
    }

    private IQueryable<Ticket> OfEvent(int eventId) => db.Tickets.Where(ticket => ticket.EventId == eventId);
}

public sealed class CommandCounter : DbCommandInterceptor
{
    public int Count { get; set; }

    public override InterceptionResult<DbDataReader> ReaderExecuting(DbCommand command, CommandEventData eventData, InterceptionResult<DbDataReader> result)
    {
        Count++;
        return result;
    }

    public override ValueTask<InterceptionResult<DbDataReader>> ReaderExecutingAsync(DbCommand command, CommandEventData eventData, InterceptionResult<DbDataReader> result, CancellationToken cancellationToken = default)
    {
        Count++;
        return ValueTask.FromResult(result);
    }
}
