namespace System.Collections.Generic;

/// <summary>netstandard2.0 lacks <c>IReadOnlySet&lt;T&gt;</c>, which fix's linked <c>FixNaming</c> takes: the one member it reads.</summary>
internal interface IReadOnlySet<T> : IReadOnlyCollection<T>
{
    bool Contains(T item);
}

/// <summary>A <see cref="HashSet{T}"/> seen as the stand-in <see cref="IReadOnlySet{T}"/>.</summary>
internal sealed class ReadOnlySet<T>(IEnumerable<T> items, IEqualityComparer<T> comparer) : IReadOnlySet<T>
{
    private readonly HashSet<T> _set = new(items, comparer);

    public int Count => _set.Count;

    public bool Contains(T item) => _set.Contains(item);

    public IEnumerator<T> GetEnumerator() => _set.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => _set.GetEnumerator();
}
