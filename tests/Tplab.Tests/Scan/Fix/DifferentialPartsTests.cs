using Tplab.Tests.Scan.Fix.Differential;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>The differential harness's pure parts: an app's .http file read, and which fixed endpoints the requests reached.</summary>
[ParallelSafe]
public sealed class DifferentialPartsTests
{
    [Fact]
    public void HttpFile_FixProbes_ReadsRequestsAbortsAndObservers()
    {
        var requests = HttpFile.Read(Path.Combine(RepoPaths.Root, "tests", "corpus", "FixProbes", "FixProbes.http"));

        var timeout = Assert.Single(requests, r => r.PathAndQuery == "/quotes/ABC-1?scenario=timeout");
        Assert.Equal("GET", timeout.Method);
        Assert.Null(timeout.AbortAfter);
        Assert.False(timeout.Observes);
        var aborted = Assert.Single(requests, r => r.PathAndQuery == "/orders/7/archive");
        Assert.Equal("POST", aborted.Method);
        Assert.Equal(TimeSpan.FromMilliseconds(100), aborted.AbortAfter);
        Assert.Equal(["/activity", "/attachments"], requests.Where(r => r.Observes).Select(r => r.PathAndQuery));
    }

    [Theory]
    [InlineData("{\"type\":\"https://tools.ietf.org/html/rfc9110#section-15.5.5\",\"title\":\"Not Found\",\"status\":404,\"traceId\":\"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00\"}",
        "{\"type\":\"https://tools.ietf.org/html/rfc9110#section-15.5.5\",\"title\":\"Not Found\",\"status\":404,\"traceId\":\"…\"}")]
    [InlineData("{\"requestId\": \"0HN1:00000002\", \"order\": 7}", "{\"requestId\": \"…\", \"order\": 7}")]
    [InlineData("created 3f2504e0-4f89-11d3-9a0c-0305e82c3301 at 2026-11-28T19:20:01.1234567Z", "created {guid} at {time}")]
    [InlineData("200 list price for ABC-1", "200 list price for ABC-1")]
    public void PerRequestValues_TraceIdsGuidsAndTimes_MaskedTheRestKept(string body, string masked) =>
        Assert.Equal(masked, PerRequestValues.Mask(body));

    [Fact]
    public void HttpFile_HeadersAndBody_KeptWithVariablesFilled()
    {
        var file = Write("""
            @host = http://localhost:5000
            @token = abc

            ### create
            # @name create
            POST {{host}}/api/items HTTP/1.1
            Content-Type: application/json
            Authorization: Bearer {{token}}

            {"name": "x"}
            """);
        var request = Assert.Single(HttpFile.Read(file));
        Assert.Equal(("create", "POST", "/api/items"), (request.Name, request.Method, request.PathAndQuery));
        Assert.Equal([KeyValuePair.Create("Content-Type", "application/json"), KeyValuePair.Create("Authorization", "Bearer abc")], request.Headers);
        Assert.Equal("{\"name\": \"x\"}", request.Body);
    }

    [Theory]
    // a URL that is not on {{host}}: the harness could not point it at both apps
    [InlineData("GET https://example.com/x")]
    // no URL at all
    [InlineData("GET")]
    public void HttpFile_RequestOffTheHost_IsRefusedByLine(string line)
    {
        var file = Write("@host = http://localhost:5000\n\n###\n" + line + "\n");
        var error = Assert.Throws<InvalidDataException>(() => HttpFile.Read(file));
        Assert.Contains(line, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("GET /orders/{id:int}", "GET /orders/7", true)]
    [InlineData("GET /orders/{id:int}", "GET /orders/7?x=1", true)]
    [InlineData("POST /attachments/{name}", "POST /attachments/invoice?size=3000", true)]
    [InlineData("GET /files/{**path}", "GET /files/a/b/c", true)]
    // another method, another path, a segment more
    [InlineData("GET /orders/{id:int}", "POST /orders/7", false)]
    [InlineData("GET /orders/{id:int}", "GET /orders", false)]
    [InlineData("GET /orders/{id:int}", "GET /orders/7/lines", false)]
    public void FixedEndpointsNotCalled_RequestAgainstRoute_MatchesByTemplate(string endpoint, string called, bool matches)
    {
        var finding = new FixedFinding("tp-0000000000", "fixed", null, "A.B.C", "Thread.Sleep", "A.cs", 1, [endpoint, "hosted-service A.Worker.ExecuteAsync"], null);
        var report = new DifferentialReport("App", 0, "", [finding], new BuildOutcome("a.dll", ""), new BuildOutcome("a.dll", ""), [called], [], 0, TimeSpan.Zero);
        Assert.Equal([endpoint], report.FixedEndpoints);
        Assert.Equal(matches ? Array.Empty<string>() : [endpoint], report.FixedEndpointsNotCalled);
    }

    private static string Write(string text)
    {
        var file = Path.Combine(Directory.CreateTempSubdirectory("tplab-http-").FullName, "app.http");
        File.WriteAllText(file, text);
        return file;
    }
}
