using System.Collections.Concurrent;
using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;

namespace Tplab.Scan.Incremental;

/// <summary>
/// Loads the analyzer assemblies a warm load's source generators live in (<see cref="WarmLoad"/>), as the compiler
/// does: one load context per folder, the assemblies the host already has (Roslyn, the runtime) shared with it so the
/// generators' types are the compiler's, the others (a generator's own dependencies) from the generator's folder.
/// </summary>
internal sealed class GeneratorLoader : IAnalyzerAssemblyLoader
{
    private readonly ConcurrentDictionary<string, FolderContext> _contexts = new(StringComparer.Ordinal);

    public void AddDependencyLocation(string fullPath)
    {
    }

    public Assembly LoadFromPath(string fullPath)
    {
        var folder = Path.GetDirectoryName(fullPath)!;
        var context = _contexts.GetOrAdd(folder, f => new FolderContext(f));
        lock (context)
        {
            var name = AssemblyName.GetAssemblyName(fullPath);
            return context.Assemblies.FirstOrDefault(a => AssemblyName.ReferenceMatchesDefinition(name, a.GetName())) ?? context.LoadFromAssemblyPath(fullPath);
        }
    }

    private sealed class FolderContext(string folder) : AssemblyLoadContext("tplab analyzers " + folder)
    {
        protected override Assembly? Load(AssemblyName assemblyName)
        {
            // The host's own copy first: Microsoft.CodeAnalysis and the runtime must be the ones the compilation uses.
            if (Default.Assemblies.FirstOrDefault(a => AssemblyName.ReferenceMatchesDefinition(assemblyName, a.GetName()) || a.GetName().Name == assemblyName.Name) is { } shared)
            {
                return shared;
            }
            var local = Path.Combine(folder, assemblyName.Name + ".dll");
            return File.Exists(local) ? LoadFromAssemblyPath(local) : null;
        }
    }
}
