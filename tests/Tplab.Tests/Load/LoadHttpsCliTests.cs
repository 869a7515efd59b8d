using System.Diagnostics;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text.Json;
using Tplab.Common;
using Tplab.Processes;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load;

/// <summary>
/// https on loopback as a user has it: their own ASP.NET Core app (tests/Tplab.OrdersService) in its own process, served by
/// Kestrel with a self-signed certificate made here and given through Kestrel's standard configuration keys.
/// </summary>
[Collection(TestCollections.Orders)]
public sealed class LoadHttpsCliTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);
    private const string ListeningPrefix = "Now listening on: ";

    [Fact]
    public async Task SelfSignedCertificate_InsecureLoads_WithoutItNoRequestSucceeds()
    {
        var dir = Directory.CreateTempSubdirectory("tplab-https-");
        try
        {
            var pfx = Path.Combine(dir.FullName, "loopback.pfx");
            await File.WriteAllBytesAsync(pfx, SelfSigned().Export(X509ContentType.Pfx, "test"));
            var info = new ProcessStartInfo(DotnetHost.Path)
            {
                ArgumentList = { "Tplab.OrdersService.dll", "--urls", "https://127.0.0.1:0" },
                WorkingDirectory = OrdersService.Folder,
            };
            info.Environment["Kestrel__Certificates__Default__Path"] = pfx;
            info.Environment["Kestrel__Certificates__Default__Password"] = "test";
            await using var app = ChildProcess.Start(info, "the orders service over https", WhenTplabEnds.Kill);
            var listening = await app.WaitForLineAsync(l => l.Contains(ListeningPrefix, StringComparison.Ordinal), TimeSpan.FromSeconds(60));
            var url = listening[(listening.IndexOf(ListeningPrefix, StringComparison.Ordinal) + ListeningPrefix.Length)..].Trim().TrimEnd('/') + "/health";
            Assert.StartsWith("https://127.0.0.1:", url, StringComparison.Ordinal);

            var json = Path.Combine(dir.FullName, "out.json");
            var (code, _, stderr) = await TplabCli.RunAsync(Limit, "load", url, "--insecure", "-c", "2", "-n", "20", "-q", "--format", "json", "-o", json);
            Assert.True(code == ExitCodes.Ok, stderr);
            using (var doc = JsonDocument.Parse(await File.ReadAllTextAsync(json)))
            {
                var root = doc.RootElement;
                Assert.Equal("httpclient", root.GetProperty("engine").GetString());
                Assert.Equal(20, root.GetProperty("succeeded").GetInt64());
                Assert.Equal(20, root.GetProperty("statusCodes").GetProperty("200").GetInt64());
            }

            // Without --insecure the certificate is refused: every request fails and the run says why in one line.
            (code, var stdout, stderr) = await TplabCli.RunAsync(Limit, "load", url, "-c", "1", "-n", "3", "-q");
            Assert.Equal(ExitCodes.Unreachable, code);
            var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
            Assert.True(line.Contains("could not be reached: tls: ", StringComparison.Ordinal) && line.Contains("certificate", StringComparison.Ordinal), line);
            Assert.DoesNotContain("   at ", stdout + stderr, StringComparison.Ordinal);
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    // A server certificate for 127.0.0.1 and localhost, valid for a day, trusted by nobody.
    private static X509Certificate2 SelfSigned()
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddIpAddress(System.Net.IPAddress.Loopback);
        names.AddDnsName("localhost");
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], critical: false));
        return request.CreateSelfSigned(DateTimeOffset.UtcNow.AddHours(-1), DateTimeOffset.UtcNow.AddDays(1));
    }
}
