using System.Reflection;
using Microsoft.CodeAnalysis;

namespace Tplab.Analyzers.Summaries;

/// <summary>
/// The summaries of a compilation's references, read as symbols (their <c>AssemblyMetadata</c> attributes): the blocking
/// methods of the projects it references, and the assemblies whose summary is of a version this analyzer does not read.
/// </summary>
internal sealed class ReferencedSummaries
{
    private readonly Dictionary<(string Type, string Method), (SummaryLine Line, string Assembly)> _byFrame = [];

    private ReferencedSummaries()
    {
    }

    /// <summary>Every line, as catalogue rows for the rules.</summary>
    public IReadOnlyList<Tplab.Blocking.BlockingCallCatalogue.Entry> Entries { get; private set; } = [];

    /// <summary>Assemblies with a summary of another version or form: (assembly, key), each ignored.</summary>
    public IReadOnlyList<(string Assembly, string Key)> Unreadable { get; private set; } = [];

    /// <summary>The summary line of a called method, by its frame, with the assembly it came from.</summary>
    public (SummaryLine Line, string Assembly)? Of(string type, string method) =>
        _byFrame.TryGetValue((type, method), out var found) ? found : null;

    public static ReferencedSummaries Of(Compilation compilation, CancellationToken cancellationToken)
    {
        var summaries = new ReferencedSummaries();
        var unreadable = new List<(string, string)>();
        foreach (var reference in compilation.References)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (compilation.GetAssemblyOrModuleSymbol(reference) is not IAssemblySymbol assembly)
            {
                continue;
            }
            foreach (var attribute in assembly.GetAttributes())
            {
                if (attribute.AttributeClass?.ToDisplayString() != typeof(AssemblyMetadataAttribute).FullName
                    || attribute.ConstructorArguments.Length != 2
                    || attribute.ConstructorArguments[0].Value is not string key
                    || !key.StartsWith(BlockingSummary.KeyPrefix, StringComparison.Ordinal))
                {
                    continue;
                }
                var lines = key == BlockingSummary.Key ? BlockingSummary.Read(attribute.ConstructorArguments[1].Value as string) : null;
                if (lines is null)
                {
                    unreadable.Add((assembly.Identity.Name, key));
                    continue;
                }
                foreach (var line in lines)
                {
                    summaries._byFrame[(line.Type, line.Method)] = (line, assembly.Identity.Name);
                }
            }
        }
        summaries.Entries = [.. summaries._byFrame.Values.Select(v => v.Line.Entry)];
        summaries.Unreadable = unreadable;
        return summaries;
    }
}
