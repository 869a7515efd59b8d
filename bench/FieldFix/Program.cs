using System.Collections.Immutable;
using System.Reflection;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.MSBuild;

// Usage: FieldFix PROJECT.csproj ID...   e.g. FieldFix app.csproj VSTHRD002 VSTHRD103
//        FieldFix PROJECT.csproj --make-async SITES.tsv   (Roslyn's "Make method async" after the user types each await: MakeAsync.cs)
if (args.Length < 2)
{
    Console.Error.WriteLine("usage: FieldFix PROJECT.csproj DIAGNOSTIC_ID... | FieldFix PROJECT.csproj --make-async SITES.tsv");
    return 2;
}
var ids = args[1..].ToHashSet(StringComparer.Ordinal);
using var workspace = MSBuildWorkspace.Create();
var project = await workspace.OpenProjectAsync(Path.GetFullPath(args[0]));
if (args[1] == "--make-async" && args.Length == 3)
{
    return await MakeAsync.RunAsync(project, args[2]);
}
var original = project.Solution;
var solution = original;

// The analyzers and code fixes of the project's own analyzer references (the package the user added).
var analyzers = project.AnalyzerReferences.SelectMany(r => r.GetAnalyzers(LanguageNames.CSharp))
    .Where(a => a.SupportedDiagnostics.Any(d => ids.Contains(d.Id))).ToImmutableArray();
var fixers = new List<CodeFixProvider>();
foreach (var path in project.AnalyzerReferences.Select(r => r.FullPath).OfType<string>().Where(p => p.Contains("threading", StringComparison.OrdinalIgnoreCase)))
{
    Type[] types;
    try
    {
        types = Assembly.LoadFrom(path).GetTypes();
    }
    catch (ReflectionTypeLoadException e)
    {
        types = [.. e.Types.OfType<Type>()];
    }
    foreach (var type in types.Where(t => !t.IsAbstract && typeof(CodeFixProvider).IsAssignableFrom(t) && t.GetConstructor(Type.EmptyTypes) is not null))
    {
        var fixer = (CodeFixProvider)Activator.CreateInstance(type)!;
        if (fixer.FixableDiagnosticIds.Any(ids.Contains))
        {
            fixers.Add(fixer);
        }
    }
}
Console.WriteLine($"analyzers: {analyzers.Length}, code fixes: {string.Join(", ", fixers.Select(f => f.GetType().Name))}");

var tried = new HashSet<string>(StringComparer.Ordinal);
int applied = 0, none = 0;
for (var round = 0; round < 1000; round++)
{
    var current = solution.GetProject(project.Id)!;
    var compilation = (await current.GetCompilationAsync())!;
    var diagnostics = await compilation.WithAnalyzers(analyzers, current.AnalyzerOptions).GetAnalyzerDiagnosticsAsync();
    var next = diagnostics.Where(d => ids.Contains(d.Id) && d.Location.IsInSource)
        .OrderBy(d => d.Location.SourceTree!.FilePath, StringComparer.Ordinal).ThenBy(d => d.Location.SourceSpan.Start)
        .FirstOrDefault(d => !tried.Contains(Key(d)));
    if (next is null)
    {
        break;
    }
    tried.Add(Key(next));
    var document = solution.GetDocument(next.Location.SourceTree)!;
    var actions = new List<CodeAction>();
    foreach (var fixer in fixers.Where(f => f.FixableDiagnosticIds.Contains(next.Id)))
    {
        await fixer.RegisterCodeFixesAsync(new CodeFixContext(document, next, (a, _) => actions.Add(a), CancellationToken.None));
    }
    var flat = actions.SelectMany(a => a.NestedActions.IsEmpty ? [a] : a.NestedActions).ToList();
    // The rewrite to await (VSTHRD002 also offers JoinableTaskFactory.Run, which needs the VS threading library).
    var action = flat.FirstOrDefault(a => a.Title.Contains("await", StringComparison.OrdinalIgnoreCase) || a.Title.Contains("Async", StringComparison.Ordinal))
        ?? flat.FirstOrDefault(a => !a.Title.Contains("JoinableTaskFactory", StringComparison.Ordinal) && !a.Title.Contains("Jtf", StringComparison.Ordinal));
    var where = $"{Path.GetFileName(next.Location.SourceTree!.FilePath)}:{next.Location.GetLineSpan().StartLinePosition.Line + 1}";
    if (action is null)
    {
        none++;
        Console.WriteLine($"no fix  {next.Id} {where} (offered: {string.Join(" | ", flat.Select(a => a.Title))})");
        continue;
    }
    var change = (await action.GetOperationsAsync(CancellationToken.None)).OfType<ApplyChangesOperation>().FirstOrDefault();
    if (change is null)
    {
        none++;
        continue;
    }
    solution = change.ChangedSolution;
    applied++;
    Console.WriteLine($"applied {next.Id} {where}: {action.Title}");
}
foreach (var id in solution.GetChanges(original).GetProjectChanges().SelectMany(p => p.GetChangedDocuments()))
{
    var document = solution.GetDocument(id)!;
    var text = await document.GetTextAsync();
    await File.WriteAllTextAsync(document.FilePath!, text.ToString(), new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
}
Console.WriteLine($"fixes applied: {applied}; diagnostics no fix changed: {none}");
return 0;

static string Key(Diagnostic d) =>
    $"{d.Id}|{d.Location.SourceTree!.FilePath}|{d.Location.SourceTree.GetText().Lines[d.Location.GetLineSpan().StartLinePosition.Line].ToString().Trim()}";
