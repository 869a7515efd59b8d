namespace System.Text.Json.Serialization;

/// <summary>
/// Compile-only stand-in for System.Text.Json's attribute on the shared <c>BaselineKey</c> (scan writes baselines; the
/// analyzer never serialises, and a compiler cannot load System.Text.Json from a package).
/// </summary>
[AttributeUsage(AttributeTargets.Property | AttributeTargets.Field)]
internal sealed class JsonIgnoreAttribute : Attribute;
