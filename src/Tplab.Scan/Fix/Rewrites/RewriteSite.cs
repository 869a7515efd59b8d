using Microsoft.CodeAnalysis;
using Tplab.Blocking;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>The blocking site a rewrite works on: the call's node, its semantic model, the finding's call and its catalogue row.</summary>
internal sealed record RewriteSite(SemanticModel Model, SyntaxNode Node, BlockingCall Call, AsyncRewrite Row, bool ConfigureAwait);
