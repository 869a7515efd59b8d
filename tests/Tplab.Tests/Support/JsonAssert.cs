using System.Collections;
using System.Reflection;
using System.Text.Json.Nodes;

namespace Tplab.Tests.Support;

/// <summary>JSON compared as data, not as bytes (escaping and field order may change; values may not).</summary>
internal static class JsonAssert
{
    /// <summary>Asserts that <paramref name="actual"/> holds the same JSON value as <paramref name="expected"/>.</summary>
    public static void Equal(string expected, string actual, Func<JsonNode?, JsonNode?>? adjust = null)
    {
        var a = JsonNode.Parse(expected);
        var b = JsonNode.Parse(actual);
        if (adjust is not null)
        {
            b = adjust(b);
        }
        Assert.True(JsonNode.DeepEquals(a, b), $"the JSON differs at {FirstDifference(a, b, "$")}\nexpected: {Cut(a)}\nactual:   {Cut(b)}");
    }

    /// <summary>
    /// Asserts that every public property of <paramref name="record"/> holds something other than its type's default
    /// (a non-empty string or collection): a round-trip test built on it then covers every field, and a new field fails
    /// it until the test sets it too.
    /// </summary>
    public static void EveryFieldSet(object record)
    {
        ArgumentNullException.ThrowIfNull(record);
        foreach (var p in record.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance).Where(p => p.GetIndexParameters().Length == 0 && p.CanWrite))
        {
            var value = p.GetValue(record);
            var empty = value is null
                || (value is string s && s.Length == 0)
                || (value is ICollection c && c.Count == 0)
                || (value.GetType().IsValueType && value.Equals(Activator.CreateInstance(value.GetType())));
            Assert.False(empty, $"{record.GetType().Name}.{p.Name} is not set: a round trip would not cover it");
        }
    }

    private static string FirstDifference(JsonNode? a, JsonNode? b, string path)
    {
        if (a is JsonObject oa && b is JsonObject ob)
        {
            foreach (var key in oa.Select(kv => kv.Key).Union(ob.Select(kv => kv.Key)))
            {
                if (!oa.ContainsKey(key) || !ob.ContainsKey(key) || !JsonNode.DeepEquals(oa[key], ob[key]))
                {
                    return oa.ContainsKey(key) && ob.ContainsKey(key) ? FirstDifference(oa[key], ob[key], $"{path}.{key}") : $"{path}.{key} (only on one side)";
                }
            }
        }
        if (a is JsonArray aa && b is JsonArray ab)
        {
            for (var i = 0; i < Math.Min(aa.Count, ab.Count); i++)
            {
                if (!JsonNode.DeepEquals(aa[i], ab[i]))
                {
                    return FirstDifference(aa[i], ab[i], $"{path}[{i}]");
                }
            }
            return $"{path} (lengths {aa.Count} and {ab.Count})";
        }
        return $"{path}: {a?.ToJsonString() ?? "null"} vs {b?.ToJsonString() ?? "null"}";
    }

    private static string Cut(JsonNode? node)
    {
        var text = node?.ToJsonString() ?? "null";
        return text.Length > 400 ? text[..400] + "…" : text;
    }
}
