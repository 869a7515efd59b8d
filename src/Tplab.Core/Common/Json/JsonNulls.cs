using System.Collections;
using System.Collections.Concurrent;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Tplab.Common.Json;

/// <summary>
/// A record read from a file, checked for nulls its type does not allow in lists: <c>"findings": [null]</c> is refused,
/// and a list that is absent or <c>null</c> (<c>"scenarios": null</c>) becomes the empty list its type promises. System.Text.Json fills them in without a word (its RespectNullableAnnotations does
/// not look into lists), and the command then fails far away with an internal error; here the first one is named by its
/// path (<c>scenarios[0]</c>) as a <see cref="JsonException"/>, which every reader already turns into its one line.
/// </summary>
public static class JsonNulls
{
    private const int MaxDepth = 64;

    // What a type's check needs of it, read by reflection once per type (a cache holds hundreds of thousands of records).
    private static readonly ConcurrentDictionary<Type, Plan> Plans = new();

    /// <summary>Fills absent lists with empty ones; throws a <see cref="JsonException"/> naming the first null element (or unfillable list) under <paramref name="root"/>.</summary>
    public static T Check<T>(T root)
        where T : class
    {
        if (Find(root, 0) is { } path)
        {
            throw new JsonException("null where a value is required", "$" + path, null, null);
        }
        return root;
    }

    // The path below value of its first null where none may be, or null; the path is built only when one is found.
    private static string? Find(object value, int depth)
    {
        var plan = Plans.GetOrAdd(value.GetType(), Plan.Of);
        if (depth > MaxDepth || plan.Kind == PlanKind.Leaf)
        {
            return null;
        }
        if (plan.Kind == PlanKind.Dictionary)
        {
            foreach (DictionaryEntry entry in (IDictionary)value)
            {
                if (entry.Value is { } v && Find(v, depth + 1) is { } found)
                {
                    return $".{entry.Key}{found}";
                }
            }
            return null;
        }
        if (plan.Kind == PlanKind.List)
        {
            var i = 0;
            foreach (var item in (IEnumerable)value)
            {
                if (item is null)
                {
                    if (!plan.ElementsMayBeNull)
                    {
                        return $"[{i}]";
                    }
                }
                else if (!plan.LeafElements && Find(item, depth + 1) is { } found)
                {
                    return $"[{i}]{found}";
                }
                i++;
            }
            return null;
        }
        foreach (var property in plan.Properties)
        {
            var child = property.Info.GetValue(value);
            if (child is null)
            {
                // A list the type says is never null; a missing scalar or record is left to the reader (the source
                // generator gives a missing init-only field null whatever its initializer says, and readers expect it).
                if (property.NotNullList)
                {
                    // Absent or null: the empty list its initializer meant (a list the reader then finds empty says so itself).
                    if (Empty(property.Info.PropertyType) is not { } empty || !property.Info.CanWrite)
                    {
                        return "." + property.Name;
                    }
                    property.Info.SetValue(value, empty);
                }
                continue;
            }
            if (Find(child, depth + 1) is { } found)
            {
                return "." + property.Name + found;
            }
        }
        return null;
    }

    private enum PlanKind
    {
        Leaf,
        Dictionary,
        List,
        Record,
    }

    private sealed record Property(PropertyInfo Info, string Name, bool NotNullList);

    private sealed record Plan(PlanKind Kind, bool ElementsMayBeNull, bool LeafElements, IReadOnlyList<Property> Properties)
    {
        public static Plan Of(Type type)
        {
            if (type.IsPrimitive || type.IsEnum || type == typeof(string) || type == typeof(decimal) || type == typeof(DateTime) || type == typeof(DateTimeOffset)
                || type == typeof(TimeSpan) || type == typeof(Guid) || type == typeof(JsonElement) || typeof(System.Text.Json.Nodes.JsonNode).IsAssignableFrom(type))
            {
                return new Plan(PlanKind.Leaf, false, false, []);
            }
            if (typeof(IDictionary).IsAssignableFrom(type))
            {
                return new Plan(PlanKind.Dictionary, false, false, []);
            }
            if (typeof(IEnumerable).IsAssignableFrom(type))
            {
                var element = ElementOf(type);
                // Elements of a value type or a string hold nothing to look into (a string's null is the list's to judge).
                var leaf = element is not null && (element.IsValueType || element == typeof(string));
                return new Plan(PlanKind.List, ElementMayBeNull(element), leaf, []);
            }
            if (type.Namespace?.StartsWith("Tplab", StringComparison.Ordinal) != true)
            {
                return new Plan(PlanKind.Leaf, false, false, []); // only tplab's own records say which of their fields may be null
            }
            var context = new NullabilityInfoContext();
            var properties = type.GetProperties(BindingFlags.Public | BindingFlags.Instance)
                .Where(p => p.GetIndexParameters().Length == 0 && p.GetCustomAttribute<JsonIgnoreAttribute>() is null && (p.CanWrite || IsConstructorParameter(type, p)))
                .Select(p => new Property(p, p.GetCustomAttribute<JsonPropertyNameAttribute>()?.Name ?? JsonNamingPolicy.CamelCase.ConvertName(p.Name),
                    IsList(p.PropertyType) && context.Create(p).ReadState == NullabilityState.NotNull))
                .ToList();
            return new Plan(PlanKind.Record, false, false, properties);
        }
    }

    private static Type? ElementOf(Type type) => type.IsArray ? type.GetElementType() : type.GetInterfaces().Append(type)
        .FirstOrDefault(i => i.IsGenericType && i.GetGenericTypeDefinition() == typeof(IEnumerable<>))?.GetGenericArguments()[0];

    private static object? Empty(Type type)
    {
        if (type.IsArray)
        {
            return Array.CreateInstance(type.GetElementType()!, 0);
        }
        if (type.IsInterface && type.IsGenericType && type.GetGenericArguments() is [var element])
        {
            var array = Array.CreateInstance(element, 0);
            return type.IsInstanceOfType(array) ? array : null;
        }
        if (type.IsInterface && type.IsGenericType && type.GetGenericArguments() is [var key, var item])
        {
            var map = Activator.CreateInstance(typeof(Dictionary<,>).MakeGenericType(key, item));
            return type.IsInstanceOfType(map) ? map : null;
        }
        return type.IsClass && !type.IsAbstract && type.GetConstructor(Type.EmptyTypes) is not null ? Activator.CreateInstance(type) : null;
    }

    private static bool IsList(Type type) => type != typeof(string) && typeof(IEnumerable).IsAssignableFrom(type);

    private static bool IsConstructorParameter(Type type, PropertyInfo property) =>
        type.GetConstructors().Any(c => c.GetParameters().Any(p => string.Equals(p.Name, property.Name, StringComparison.OrdinalIgnoreCase)));

    // A list of a value type holds no null; a list of a reference type says by its declared element nullability, which
    // reflection cannot see on a runtime type: lists of tplab's records and of strings never hold null in any format.
    private static bool ElementMayBeNull(Type? element) =>
        element is null || (element != typeof(string) && element.Namespace?.StartsWith("Tplab", StringComparison.Ordinal) != true && !element.IsValueType)
            || Nullable.GetUnderlyingType(element) is not null;
}
