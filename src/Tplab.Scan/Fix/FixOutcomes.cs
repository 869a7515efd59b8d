using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Output;
using Tplab.Scan.Fix.Propagation;
using Tplab.Scan.Fix.Selecting;

namespace Tplab.Scan.Fix;

/// <summary>A finding's outcome as the report says it: refused with its reason, or fixed with what changed, where and what is left.</summary>
internal static class FixOutcomes
{
    public static FixOutcome Of(FixTarget t, FixStatus status, string? reason, IReadOnlyList<string> changes, IReadOnlyList<TouchedFile> touched, IReadOnlyList<string> boundaries, IReadOnlyList<string> notes) =>
        new(t.Id, t.First.Call.Name, t.First.UserFrame, t.Site.File, t.Site.Line, t.Roots, status, reason, changes, touched, boundaries, notes);

    /// <summary>Nothing changed for <paramref name="t"/>: <paramref name="reason"/> names its id (<see cref="Checks.FixReasons"/>).</summary>
    public static FixOutcome Refused(FixTarget t, string reason) => Of(t, FixStatus.Refused, reason, [], [], [], []);

    /// <summary>Another selected finding that <paramref name="by"/> removed too (a lock or mutex it turned into a semaphore): the same outcome.</summary>
    public static FixOutcome AlsoFixed(FixTarget other, FixOutcome by) =>
        Of(other, by.Status, by.Reason, [$"its lock or mutex became a SemaphoreSlim(1, 1) in the fix of {by.Id}", .. by.Changes], by.Touched, by.Boundaries, by.Notes);

    /// <summary>Each file <paramref name="next"/> changes against <paramref name="current"/>, with the lines of the new text that differ.</summary>
    public static async Task<List<TouchedFile>> TouchedAsync(Solution current, Solution next, FixNaming naming, CancellationToken cancellationToken)
    {
        var touched = new List<TouchedFile>();
        foreach (var id in next.GetChanges(current).GetProjectChanges().SelectMany(p => p.GetChangedDocuments()))
        {
            var a = (await current.GetDocument(id)!.GetTextAsync(cancellationToken).ConfigureAwait(false)).ToString();
            var b = (await next.GetDocument(id)!.GetTextAsync(cancellationToken).ConfigureAwait(false)).ToString();
            var rel = naming.Relative(current.GetDocument(id)!.FilePath);
            if (a != b && touched.All(t => t.File != rel))
            {
                touched.Add(new TouchedFile(rel, UnifiedDiff.ChangedLines(a, b)));
            }
        }
        return touched;
    }

    /// <summary>
    /// The outcome of a kept rewrite: fixed, or partly fixed when a path waits at a boundary on the finding's chain;
    /// the site's edit, what was reshaped, the methods made async and renamed, the tokens added, and the notes.
    /// </summary>
    public static FixOutcome Kept(FixTarget target, SiteEdit? edit, AsyncPropagation propagation, ChangeSet changes, IReadOnlyList<Boundary> onChain,
        IReadOnlyList<TouchedFile> touched, string? cancellationNote, IReadOnlyList<string> warnings, FixOptions options)
    {
        var methods = changes.Containers.Count;
        var description = new List<string>();
        if (edit is not null)
        {
            description.Add(edit.Description);
        }
        description.AddRange(propagation.Reshaped);
        if (methods > 0)
        {
            description.Add(string.Create(CultureInfo.InvariantCulture, $"{methods} method(s) or lambda(s) made async"));
            var renamed = changes.Containers.Values.Select(c => c.NewName).OfType<string>().Distinct(StringComparer.Ordinal).ToList();
            if (renamed.Count > 0)
            {
                description.Add($"renamed with the Async suffix ({(options.Rename == RenameMode.Async ? "--rename async" : "the solution's convention")}), every reference updated: {string.Join(", ", renamed)}");
            }
        }
        var tokened = changes.Containers.Where(c => c.Value.AddToken is not null && c.Key is MethodDeclarationSyntax)
            .Select(c => c.Value.NewName ?? ((MethodDeclarationSyntax)c.Key).Identifier.ValueText).Distinct(StringComparer.Ordinal).ToList();
        if (tokened.Count > 0)
        {
            description.Add($"--add-cancellation: a CancellationToken parameter added to {string.Join(", ", tokened)}, passed where they are called with a token in scope");
        }
        var notes = (cancellationNote is null ? propagation.Notes : [cancellationNote, .. propagation.Notes]).Concat(warnings.Select(w => "new warning: " + w))
            .Concat(propagation.Boundaries.Except(onChain).Select(b => $"another caller waits on the task: {b}")).ToList();
        var status = onChain.Count > 0 ? FixStatus.PartlyFixed : FixStatus.Fixed;
        // Other selected findings on a lock or mutex this fix turned into a semaphore: that wait is gone with this change.
        var alsoFixed = propagation.ConvertedGates.SelectMany(FixSites.IdsIn).Where(id => id != target.Id).ToList();
        return Of(target, status, onChain.Count > 0 ? "async up to a caller that cannot be async; it waits on the task there" : null,
            description, touched, [.. onChain.Select(b => b.ToString())], notes) with { AlsoFixed = alsoFixed };
    }
}
