using System.Runtime.CompilerServices;

namespace System.Collections.Generic;

/// <summary>.NET 5's comparer by reference, for the shared <c>FindingBuilder</c> on netstandard2.0.</summary>
internal sealed class ReferenceEqualityComparer : IEqualityComparer<object?>
{
    public static ReferenceEqualityComparer Instance { get; } = new();

    private ReferenceEqualityComparer()
    {
    }

    public new bool Equals(object? x, object? y) => ReferenceEquals(x, y);

    public int GetHashCode(object? obj) => RuntimeHelpers.GetHashCode(obj!);
}
