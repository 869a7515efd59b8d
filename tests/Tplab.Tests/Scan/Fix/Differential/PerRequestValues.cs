using System.Text.RegularExpressions;

namespace Tplab.Tests.Scan.Fix.Differential;

/// <summary>
/// The parts of an answer that are new on every request whatever the code: ProblemDetails' <c>traceId</c> (a W3C trace
/// parent or an ASP.NET Core request id), GUIDs, and timestamps. Masked before answers are compared, so two builds of
/// the same app answer alike and sixteen copies of one request give one answer; anything else stays as written.
/// </summary>
internal static partial class PerRequestValues
{
    public static string Mask(string body) =>
        Timestamp().Replace(Guid().Replace(TraceId().Replace(body, "$1\"…\""), "{guid}"), "{time}");

    [GeneratedRegex("(\"(?:traceId|requestId)\"\\s*:\\s*)\"[^\"]*\"", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex TraceId();

    [GeneratedRegex("\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b", RegexOptions.CultureInvariant)]
    private static partial Regex Guid();

    [GeneratedRegex("\\b\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:\\d{2})?", RegexOptions.CultureInvariant)]
    private static partial Regex Timestamp();
}
