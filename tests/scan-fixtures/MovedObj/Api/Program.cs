var builder = WebApplication.CreateBuilder(args);
var app = builder.Build();

app.MapGet("/report", () =>
{
    Thread.Sleep(200); // the legacy report's pacing
    return "ready";
});

app.Run();
