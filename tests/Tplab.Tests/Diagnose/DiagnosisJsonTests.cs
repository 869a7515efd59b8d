using Tplab.Common;
using Tplab.Diagnose;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Output;
using Tplab.Diagnose.Stacks;
using Tplab.Tests.Support;
using static Tplab.Tests.Diagnose.Stacks;

namespace Tplab.Tests.Diagnose;

/// <summary>The schema-3 document: one definition for writing and reading, valid against docs/schemas/diagnosis.schema.json, in names users know.</summary>
[ParallelSafe]
public sealed class DiagnosisJsonTests
{
    private const string Here = "Tplab.Tests.Diagnose.";

    [Fact]
    public void Document_WrittenThenRead_IsTheSameDocument()
    {
        var document = DiagnosisJsonWriter.ToDocument(SampleDiagnosis());

        var json = DiagnosisJson.Write(document);
        var read = DiagnosisJson.Read(json);

        Assert.Equal(json, DiagnosisJson.Write(read));
        Assert.Equal(3, read.SchemaVersion);
        Assert.Contains("\"schemaVersion\": 3", json, StringComparison.Ordinal);
        var culprit = Assert.Single(read.Culprits);
        Assert.Equal(document.Culprits[0].Chain, culprit.Chain);
        Assert.Equal(document.Culprits[0].Context, culprit.Context);
        Assert.Equal(document.Culprits[0].Place, culprit.Place);
        Assert.Equal(document.Culprits[0].BlockingKind, culprit.BlockingKind);
    }

    [Fact]
    public void Read_FileWrittenBeforeTheRename_ReadsTheSame()
    {
        // Diagnoses written before schemaVersion called their version "schema", as no other format did.
        var json = DiagnosisJson.Write(DiagnosisJsonWriter.ToDocument(SampleDiagnosis()));
        var old = json.Replace("\"schemaVersion\": 3", "\"schema\": 3", StringComparison.Ordinal);
        Assert.NotEqual(json, old);

        Assert.Equal(json, DiagnosisJson.Write(DiagnosisJson.Read(old)));
    }

    [Theory]
    [InlineData("{\"schema\": 2, \"culprits\": []}", "schema 2")]
    [InlineData("{\"schemaVersion\": \"3\", \"culprits\": []}", "schema 0")] // a string: one line, not an internal error
    [InlineData("[1]", "not a diagnosis")]
    [InlineData("not json", "not a diagnosis")]
    public void Read_AnotherSchemaOrNotJson_IsOneLineUsageError(string json, string message)
    {
        var error = Assert.Throws<TplabException>(() => DiagnosisJson.Read(json));

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Theory]
    [InlineData("place", "nowhere")]
    [InlineData("verdict", "nowhere")]
    [InlineData("blockingKind", "nowhere")]
    public void Read_AWordThatNamesNothing_IsRefusedNotTakenForTheFirstValue(string field, string word)
    {
        var json = DiagnosisJson.Write(DiagnosisJsonWriter.ToDocument(SampleDiagnosis()));
        var edited = System.Text.RegularExpressions.Regex.Replace(json, $"\"{field}\": \"[^\"]*\"", $"\"{field}\": \"{word}\"");
        Assert.NotEqual(json, edited);

        var error = Assert.Throws<TplabException>(() => DiagnosisJson.Read(edited));

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains(word, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Fact]
    public void Outputs_ForStateMachinesLambdasAndInvokers_HoldNoNameNobodyWrote()
    {
        var text = new StringWriter();
        new DiagnosisTextWriter().Write(SampleDiagnosis(), text);
        var json = DiagnosisJson.Write(DiagnosisJsonWriter.ToDocument(SampleDiagnosis()));

        foreach (var invented in new[] { "lambda_method", "d__", "<>c", "MoveNext" })
        {
            Assert.DoesNotContain(invented, text.ToString(), StringComparison.Ordinal);
            Assert.DoesNotContain(invented, json, StringComparison.Ordinal);
        }
        Assert.Contains("GET /api/things/{id} handler", text.ToString(), StringComparison.Ordinal);
        Assert.Contains("\"from\": \"il\"", json, StringComparison.Ordinal);
        Assert.Contains("\"place\": \"minimal-api\"", json, StringComparison.Ordinal);
    }

    [SchemaFact]
    public async Task Document_OfAChainWithLines_ValidatesAgainstTheSchema()
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-diagnosis-{Guid.NewGuid():N}.json");
        await File.WriteAllTextAsync(path, DiagnosisJson.Write(DiagnosisJsonWriter.ToDocument(SampleDiagnosis())));
        try
        {
            await SchemaValidation.AssertValidAsync(SchemaValidation.SchemaOf("diagnosis"), path);
        }
        finally
        {
            File.Delete(path);
        }
    }

    /// <summary>A culprit whose handler was inlined into its compiled invoker, reached through an async helper's state machine.</summary>
    private static Diagnosis SampleDiagnosis()
    {
        var app = typeof(RegistrationSample).Assembly.Location;
        using var code = ApplicationCode.Load([app], new LibraryCode());
        using var lines = new SourceLines([app]);
        var grouper = new BlockedStackGrouper(new StackClassifier(), 20, null, code, lines);
        var frames = Of(
            One("System.Private.CoreLib!System.Threading.Tasks.Task.Wait()"),
            One("Anonymously Hosted DynamicMethods Assembly!dynamicClass.lambda_method4(pMT: 0x1,class System.Object,pMT: 0x2)"),
            One("Microsoft.AspNetCore.Routing!Microsoft.AspNetCore.Routing.EndpointMiddleware.Invoke(class Microsoft.AspNetCore.Http.HttpContext)"),
            One("app!" + Here + "IlEndpoints+<>c+<<Map>b__0_0>d.MoveNext()"),
            PoolBottom);
        grouper.Add(new ThreadObservation(1, 0, 1000, frames, ObservationSource.Sample));
        var (groups, summary) = grouper.Complete(TimeSpan.FromSeconds(1), 0.2);
        return new Diagnosis(42, "shop", new Version(10, 0, 1), DiagnosisVerdict.Blocked, groups, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2),
            new StackEvidence(1000, 3, 1.1, summary.PoolThreadsSeen, summary.BlockedThreads, null))
        {
            SourceRoot = lines.Root,
            LinesMissing = lines.Note,
            PoolUnavailable = "not watched",
        };
    }
}
