using System.Collections;
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

    /// <summary>Fills absent lists with empty ones; throws a <see cref="JsonException"/> naming the first null element (or unfillable list) under <paramref name="root"/>.</summary>
    public static T Check<T>(T root)
        where T : class
    {
        if (Find(root, "$", 0, new NullabilityInfoContext()) is { } path)
        {
            throw new JsonException("null where a value is required", path, null, null);
        }
        return root;
    }

    private static string? Find(object value, string path, int depth, NullabilityInfoContext context)
    {
        var type = value.GetType();
        if (depth > MaxDepth || type.IsPrimitive || type.IsEnum || value is string or decimal or DateTime or DateTimeOffset or TimeSpan or Guid or JsonElement or System.Text.Json.Nodes.JsonNode)
        {
            return null;
        }
        if (value is IDictionary dictionary)
        {
            foreach (DictionaryEntry entry in dictionary)
            {
                if (entry.Value is { } v && Find(v, $"{path}.{entry.Key}", depth + 1, context) is { } found)
                {
                    return found;
                }
            }
            return null;
        }
        if (value is IEnumerable list)
        {
            var i = 0;
            var elementsMayBeNull = ElementMayBeNull(type);
            foreach (var item in list)
            {
                if (item is null && !elementsMayBeNull)
                {
                    return $"{path}[{i}]";
                }
                if (item is not null && Find(item, $"{path}[{i}]", depth + 1, context) is { } found)
                {
                    return found;
                }
                i++;
            }
            return null;
        }
        if (type.Namespace?.StartsWith("Tplab", StringComparison.Ordinal) != true)
        {
            return null; // only tplab's own records say which of their fields may be null
        }
        foreach (var property in type.GetProperties(BindingFlags.Public | BindingFlags.Instance))
        {
            if (property.GetIndexParameters().Length > 0 || property.GetCustomAttribute<JsonIgnoreAttribute>() is not null || !property.CanWrite && !IsConstructorParameter(type, property))
            {
                continue;
            }
            var child = property.GetValue(value);
            var name = $"{path}.{property.GetCustomAttribute<JsonPropertyNameAttribute>()?.Name ?? JsonNamingPolicy.CamelCase.ConvertName(property.Name)}";
            if (child is null)
            {
                // A list the type says is never null; a missing scalar or record is left to the reader (the source
                // generator gives a missing init-only field null whatever its initializer says, and readers expect it).
                if (IsList(property.PropertyType) && context.Create(property).ReadState == NullabilityState.NotNull)
                {
                    // Absent or null: the empty list its initializer meant (a list the reader then finds empty says so itself).
                    if (Empty(property.PropertyType) is not { } empty || !property.CanWrite)
                    {
                        return name;
                    }
                    property.SetValue(value, empty);
                }
                continue;
            }
            if (Find(child, name, depth + 1, context) is { } found)
            {
                return found;
            }
        }
        return null;
    }

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
    private static bool ElementMayBeNull(Type type)
    {
        var element = type.IsArray ? type.GetElementType() : type.GetInterfaces().Append(type)
            .FirstOrDefault(i => i.IsGenericType && i.GetGenericTypeDefinition() == typeof(IEnumerable<>))?.GetGenericArguments()[0];
        return element is null || (element != typeof(string) && element.Namespace?.StartsWith("Tplab", StringComparison.Ordinal) != true && !element.IsValueType)
            || Nullable.GetUnderlyingType(element) is not null;
    }
}
