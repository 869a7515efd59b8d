using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Checks;

/// <summary>
/// TPFIX004: a token given to a call that had none (only with <c>--add-cancellation</c>) makes a cancelled request stop
/// there with an <c>OperationCanceledException</c>; the finding's text says what it now skips.
/// </summary>
internal static class CancellationNote
{
    public static string Say(SyntaxNode site, string token, string newCall)
    {
        var (container, _) = AsyncRules.Container(site);
        var statement = site.AncestorsAndSelf().OfType<StatementSyntax>().FirstOrDefault();
        var name = container switch
        {
            MethodDeclarationSyntax m => m.Identifier.ValueText,
            LocalFunctionStatementSyntax l => l.Identifier.ValueText,
            _ => "the lambda",
        };
        var rest = statement?.Parent is BlockSyntax block ? block.Statements.SkipWhile(s => s != statement).Skip(1).ToList() : [];
        var skipped = rest.Count == 0
            ? $"the rest of {name}'s callers after it"
            : $"the rest of {name} (lines {ThreadAffinity.Line(rest[0])}-{rest[^1].GetLocation().GetLineSpan().EndLinePosition.Line + 1}) and its callers' code after it";
        return FixReasons.Cancellation.Say($"{newCall} now takes {token}: when the request is cancelled it throws OperationCanceledException there, skipping {skipped}");
    }
}
