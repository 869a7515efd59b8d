namespace Tplab.Common.Output;

/// <summary>A format that writes one document of <typeparamref name="T"/> (a comparison, a tune result, merged logs).</summary>
public interface IDocumentFormat<in T> : IOutputFormat
{
    /// <summary>Writes <paramref name="value"/>; numbers in the invariant culture.</summary>
    void Write(T value, TextWriter writer);
}

/// <summary>A document format made of its name, what it is, the extensions that mean it, and the function that writes it.</summary>
public sealed record DocumentFormat<T>(string Name, string Description, IReadOnlyList<string> Extensions, Action<T, TextWriter> Writer) : IDocumentFormat<T>
{
    /// <inheritdoc />
    public bool MachineReadable { get; init; }

    /// <inheritdoc />
    public void Write(T value, TextWriter writer) => Writer(value, writer);
}
