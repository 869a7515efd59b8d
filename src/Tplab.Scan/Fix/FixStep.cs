using Microsoft.CodeAnalysis;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;
using Tplab.Scan.Fix.Rewrites;
using Tplab.Scan.Fix.Selecting;

namespace Tplab.Scan.Fix;

/// <summary>
/// One finding's fix on the solution as earlier fixes left it: the site's <see cref="ISiteRewrite"/> (whatever its kind)
/// plans the edit and carries async up, the behaviour checks keep or refuse it, the build decides; the outcome and the
/// solution to go on from (unchanged when refused). Every refusal names its id (<see cref="FixReasons"/>).
/// </summary>
internal sealed class FixStep(BuildCheck check, FixNaming naming, FixOptions options, CancellationToken cancellationToken)
{
    public async Task<(FixOutcome, Solution)> RunAsync(Solution current, FixTarget target, (DocumentId Document, SyntaxAnnotation Mark) site)
    {
        (FixOutcome, Solution) Refused(FixReason reason, string why) => (FixOutcomes.Refused(target, reason.Say(why)), current);
        var document = current.GetDocument(site.Document)!;
        var syntaxRoot = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        if (syntaxRoot!.GetAnnotatedNodes(site.Mark).FirstOrDefault() is not { } node)
        {
            return Refused(FixReasons.RewrittenEarlier, "an earlier fix in this run rewrote the code around it: run tplab fix again");
        }
        if (await check.ErrorBeforeAsync(document.Project.Id, cancellationToken).ConfigureAwait(false) is { } before)
        {
            return Refused(FixReasons.BuildBefore, $"the project {document.Project.Name} does not compile before the fix ({before}): fix the build first");
        }
        var model = (await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false))!;
        var changes = new ChangeSet();
        var propagation = new AsyncPropagation(current, changes, naming, options.MaxMethods, cancellationToken, options.AddCancellation);
        var (edit, cancellationNote, refusal) = await PlanAsync(model, node, target, changes, propagation).ConfigureAwait(false);
        if (refusal is not null)
        {
            return (FixOutcomes.Refused(target, refusal), current);
        }
        if (edit is not null)
        {
            changes.Replace(node, edit.Replace);
            foreach (var ns in edit.Usings)
            {
                changes.Using(node.SyntaxTree, ns);
            }
        }
        var next = await changes.ApplyAsync(current, cancellationToken).ConfigureAwait(false);
        var (error, warnings) = await check.CheckAsync(next, current, cancellationToken).ConfigureAwait(false);
        if (error is not null)
        {
            return Refused(FixReasons.BuildAfter, $"the rewrite would not compile ({error}); nothing was changed for it");
        }
        var onChain = propagation.Boundaries.Where(b => target.Findings.Any(f => f.Chain.Any(h => h.Method == b.UserMethod))).ToList();
        // Every path from a root still waits at a boundary: the wait only moved, so the change is not worth making. The
        // boundaries name their own ids (the first one is the refusal's).
        if (onChain.Count > 0 && target.Findings.All(f => onChain.Any(b => f.Chain.Any(h => h.Method == b.UserMethod))))
        {
            return (FixOutcomes.Refused(target, $"every path to it passes a caller that cannot be async, so the wait would only move there: {string.Join("; ", onChain.Select(b => b.ToString()))}"), current);
        }
        var touched = await FixOutcomes.TouchedAsync(current, next, naming, cancellationToken).ConfigureAwait(false);
        return (FixOutcomes.Kept(target, edit, propagation, changes, onChain, touched, cancellationNote, warnings, options), next);
    }

    // The site's own edit (with the token --add-cancellation gives it, the aggregate kept where a catch reads it) and the
    // note on cancellation, once async is carried up from it; or the refusal.
    private async Task<(SiteEdit? Edit, string? CancellationNote, string? Refusal)> PlanAsync(SemanticModel model, SyntaxNode node, FixTarget target, ChangeSet changes, AsyncPropagation propagation)
    {
        var call = target.First.Call;
        var configureAwait = changes.ConfigureAwait(node.SyntaxTree);
        var (edit, refusal) = SiteRewrites.Rewrite(model, node, call, configureAwait);
        if (refusal is not null)
        {
            return (null, null, refusal);
        }
        try
        {
            if (await SiteRewrites.For(call).PropagateAsync(propagation, node, call).ConfigureAwait(false) is { } why)
            {
                return (null, null, why);
            }
        }
        catch (FixTooWideException e)
        {
            return (null, null, FixReasons.TooWide.Say(e.Message));
        }
        // --add-cancellation: the token in scope, or the one the method around the site gained; the call takes it where an overload does.
        var cancellationNote = default(string);
        if (edit is not null && propagation.Token(model, node) is { } token
            && SiteRewrites.Rewrite(model, node, call, configureAwait, token).Edit is { } withToken && withToken.Description != edit.Description)
        {
            edit = withToken;
            cancellationNote = CancellationNote.Say(node, token, edit.Description[(edit.Description.IndexOf('→', StringComparison.Ordinal) + 1)..].Split(" (with", 2)[0].Trim());
        }
        // The exception an await throws is the inner one: a catch up the chain that reads the aggregate keeps it, or the finding is refused.
        if (edit is not null && ExceptionShape.Changes(model, node, call, cancellationToken) && ExceptionShape.FirstObserver(propagation.Points, propagation.Where) is { } observer)
        {
            edit = ExceptionShape.KeepAggregate(node, configureAwait, observer);
            if (edit is null)
            {
                return (null, null, ExceptionShape.Refusal(call, observer));
            }
        }
        return (edit, cancellationNote, null);
    }
}
