namespace Tplab.Blocking;

/// <summary>
/// A value an attribute hands MVC, as far as the code shows it: a string, a list of strings (HTTP methods), an int
/// (<c>Order</c>), null, or <see cref="Unknown"/> when it is computed in a way the reader cannot follow.
/// </summary>
public readonly record struct AttributeValue(object? Value, bool Known = true)
{
    /// <summary>A value the reader could not compute (a static field, a method call): said as unknown, never guessed.</summary>
    public static AttributeValue Unknown { get; } = new(null, Known: false);

    /// <summary>A known null: an argument not given, a property not set.</summary>
    public static AttributeValue Null { get; } = new(null);

    /// <summary>The value as a string, when it is one.</summary>
    public string? Text => Value as string;

    /// <summary>The value as a list of strings: a list, or one string; empty otherwise.</summary>
    public IReadOnlyList<string> Texts => Value switch
    {
        string s => [s],
        IReadOnlyList<string> list => list,
        _ => [],
    };
}

/// <summary>
/// One attribute on a controller or an action as MVC routing reads it, the same from source (scan, Roslyn's
/// <c>AttributeData</c>) and from metadata (diagnose): the attribute's class, the first ASP.NET Core class it derives
/// from with the arguments that class's constructor receives (through the app's own constructors, evaluated), the
/// properties the reader could evaluate (named arguments, property setters, the getters of an app's own provider), and
/// the interfaces the attribute's own class implements. <see cref="MvcRouteModel"/> decides what it means.
/// </summary>
/// <param name="Class">The attribute's class, full metadata name (<c>Shop.V3ApiControllerAttribute</c>).</param>
/// <param name="Framework">The first class of ASP.NET Core in its base chain, itself included (<c>Microsoft.AspNetCore.Mvc.RouteAttribute</c>); null when none.</param>
/// <param name="Arguments">What <paramref name="Framework"/>'s constructor receives, evaluated; empty when there is no framework class.</param>
/// <param name="Properties">By name: <c>Order</c>, <c>Name</c>, <c>Route</c>, and for an app's own provider <c>Template</c>, <c>HttpMethods</c>, <c>RouteKey</c>, <c>RouteValue</c>.</param>
/// <param name="Interfaces">The interfaces the attribute's class implements (full names): a framework class's own are known to the model.</param>
public sealed record RoutingAttribute(
    string Class,
    string? Framework,
    IReadOnlyList<AttributeValue> Arguments,
    IReadOnlyDictionary<string, AttributeValue> Properties,
    IReadOnlyCollection<string> Interfaces)
{
    /// <summary>A property's value: absent is null (a known null), not unknown.</summary>
    public AttributeValue Property(string name) => Properties.TryGetValue(name, out var value) ? value : AttributeValue.Null;

    /// <summary>The framework constructor's argument at <paramref name="index"/>, null when it has fewer.</summary>
    public AttributeValue Argument(int index) => index < Arguments.Count ? Arguments[index] : AttributeValue.Null;
}

/// <summary>
/// A controller or an action as routing sees it: its name and its attributes by level, its own first, then its base
/// class's (the method it overrides) and so on, as <c>GetCustomAttributes(inherit: true)</c> gathers them.
/// </summary>
/// <param name="Name">The class's simple name (<c>OrdersController</c>) or the method's (<c>GetAsync</c>).</param>
/// <param name="Levels">The attributes of each level, the declaring one first.</param>
public sealed record RoutedMember(string Name, IReadOnlyList<IReadOnlyList<RoutingAttribute>> Levels);
