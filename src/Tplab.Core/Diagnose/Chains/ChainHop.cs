using Tplab.Diagnose.Code;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Chains;

/// <summary>How a hop of the chain is known.</summary>
public enum HopSource
{
    /// <summary>Its frame was on the sampled stacks.</summary>
    Stack,

    /// <summary>The JIT inlined it away: recovered from the application's IL (the caller's IL names the call).</summary>
    Il,
}

/// <summary>
/// One method of the chain from the root (an endpoint's handler, a middleware, a hosted service, a timer, a factory)
/// down to the blocking call, with the line of its call to the next hop (for the last hop, of the blocking call).
/// </summary>
/// <param name="Method">The method, compiler-generated names folded into the one written.</param>
/// <param name="Raw">The method as the IL names it (<c>Shop.Endpoints+&lt;&gt;c</c>, <c>&lt;Map&gt;b__0_0</c>; an async method by its own name): what calls match.</param>
/// <param name="From">Seen on the stack, or recovered from the IL.</param>
public sealed record ChainHop(UserMethod Method, (string Type, string Method) Raw, HopSource From)
{
    /// <summary>The line of the call to the next hop (the last hop: of the blocking call); null without a matching PDB.</summary>
    public SourceLine? At { get; init; }

    /// <summary>
    /// The name a developer knows: <c>PriceClient.GetPrice</c>, <c>FxEndpoints.AddFx (lambda)</c>, and a minimal API
    /// handler by its route, <c>GET /orders/{id} handler</c>.
    /// </summary>
    public string Name { get; init; } = Method.DisplayName;

    /// <summary><c>Name (File.cs:42)</c>, or the name alone without a line.</summary>
    public override string ToString() => At is { } at ? $"{Name} ({at})" : Name;
}
