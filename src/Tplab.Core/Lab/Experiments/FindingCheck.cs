namespace Tplab.Lab.Experiments;

/// <summary>
/// A static finding a plan scenario checks (written by <c>tplab scan --plan</c>): the root it was found on, the user
/// method and blocking call it names, in the words scan and diagnose share, so the run can say whether diagnose named
/// the same under load.
/// </summary>
/// <param name="Rule">The scan's rule id: the blocking kind (<c>sync-over-async</c>, <c>sleep</c>...).</param>
/// <param name="Root">The root as the scan keys it: <c>GET /orders/{id:int}</c>, <c>hosted-service Shop.CacheRefresher.ExecuteAsync</c>.</param>
/// <param name="UserMethod">The innermost application method, <c>Namespace.Type.Method</c> (a lambda named after the method holding it).</param>
/// <param name="BlockingCall">The blocking call in the catalogue's words (<c>Thread.Sleep</c>, <c>Task.Result</c>).</param>
/// <param name="Severity">error, warning or note, as the scan rated it.</param>
/// <param name="At">Where the blocking call is: <c>file:line</c>, relative to the scanned folder.</param>
public sealed record FindingCheck(string Rule, string Root, string UserMethod, string BlockingCall, string Severity, string? At);
