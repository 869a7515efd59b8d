using System.Runtime.Loader;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Mvc.ApplicationParts;
using Microsoft.AspNetCore.Mvc.Controllers;
using Microsoft.AspNetCore.Routing;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Stacks;
using Tplab.Scan;
using Tplab.Scan.Graph;
using Tplab.Scan.Loading;
using Tplab.Scan.Roots;
using Microsoft.Extensions.DependencyInjection;

namespace Tplab.Tests.Blocking;

/// <summary>
/// One MVC source compiled in memory against ASP.NET Core's shared framework, read both ways the route model is read:
/// by scan (Roslyn's symbols, <see cref="RootFinder"/>) and by diagnose (the emitted DLL's metadata and IL,
/// <see cref="ApplicationCode"/>).
/// </summary>
internal sealed class RouteModelSnippet : IDisposable
{
    private readonly DirectoryInfo _folder;
    private readonly ApplicationCode _il;

    public RouteModelSnippet(string code)
    {
        using var workspace = new AdhocWorkspace();
        var projectId = ProjectId.CreateNewId();
        var options = new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable);
        var solution = workspace.CurrentSolution
            .AddProject(ProjectInfo.Create(projectId, VersionStamp.Default, "Lab", "Lab", LanguageNames.CSharp, compilationOptions: options, metadataReferences: References.Value))
            .AddDocument(DocumentId.CreateNewId(projectId), "Controllers.cs", SourceText.From(code), filePath: "/lab/Controllers.cs");
        var project = solution.GetProject(projectId)!;
        var compilation = project.GetCompilationAsync().GetAwaiter().GetResult()!;
        var errors = compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        Assert.True(errors.Count == 0, "the snippet does not compile: " + string.Join("; ", errors.Take(3)));
        using (var loaded = new LoadedCode(null, new ScanInput("/lab", null, []), [new LoadedProject(project, compilation, [])], [], []))
        {
            Roots = RootFinder.Find(Scanner.Index(loaded), CancellationToken.None).Roots;
        }
        _folder = Directory.CreateTempSubdirectory("tplab-routes-");
        var dll = Path.Combine(_folder.FullName, "Lab.dll");
        var emitted = compilation.WithOptions(options.WithOptimizationLevel(OptimizationLevel.Release)).Emit(dll);
        Assert.True(emitted.Success, "the snippet does not emit: " + string.Join("; ", emitted.Diagnostics.Take(3)));
        _il = ApplicationCode.Load([dll], new LibraryCode());
        _image = File.ReadAllBytes(dll);
    }

    private readonly byte[] _image;

    /// <summary>scan's entry points.</summary>
    public IReadOnlyList<EntryPoint> Roots { get; }

    /// <summary>scan's routes for an action on a concrete controller (simple names), "VERB /route" sorted.</summary>
    public IReadOnlyList<string> Scan(string controller, string method) =>
        [.. Roots.Where(r => r.Place == Tplab.Blocking.CodePlace.MvcAction && r.Controller?.Name == controller && r.Node.Symbol.Name == method)
            .Select(r => r.Endpoint!.ToString()).Order(StringComparer.Ordinal)];

    /// <summary>diagnose's routes for the same action, read from the DLL.</summary>
    public IReadOnlyList<string> Diagnose(string controllerFullName, string method) =>
        [.. _il.ActionRoutes(controllerFullName, method).Select(r => $"{r.Verb} {r.Route}").Order(StringComparer.Ordinal)];

    /// <summary>
    /// ASP.NET Core's own route table for the snippet's attribute-routed actions, "Controller.Method VERB /route": the
    /// assembly loaded as the only application part, MVC's endpoints read from the app's data sources; the app is built,
    /// never started (no port).
    /// </summary>
    public async Task<IReadOnlySet<string>> AspNetCoreRoutesAsync()
    {
        var assembly = new AssemblyLoadContext("tplab-routes-" + Guid.NewGuid().ToString("N")).LoadFromStream(new MemoryStream(_image));
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { ContentRootPath = _folder.FullName });
        builder.Services.AddControllers().ConfigureApplicationPartManager(m =>
        {
            m.ApplicationParts.Clear();
            m.ApplicationParts.Add(new AssemblyPart(assembly));
        });
        await using var app = builder.Build();
        app.MapControllers();
        var routes = new HashSet<string>(StringComparer.Ordinal);
        foreach (var endpoint in ((IEndpointRouteBuilder)app).DataSources.SelectMany(d => d.Endpoints).OfType<RouteEndpoint>())
        {
            if (endpoint.Metadata.GetMetadata<ControllerActionDescriptor>() is not { AttributeRouteInfo: not null } action)
            {
                continue;
            }
            var methods = endpoint.Metadata.GetMetadata<IHttpMethodMetadata>()?.HttpMethods is { Count: > 0 } m ? m : ["ANY"];
            foreach (var method in methods)
            {
                routes.Add($"{action.ControllerTypeInfo.Name}.{action.MethodInfo.Name} {method} /{endpoint.RoutePattern.RawText?.TrimStart('/')}");
            }
        }
        return routes;
    }

    /// <summary>diagnose's minimal API registrations, read from the DLL's IL: "VERB /route" sorted.</summary>
    public IReadOnlyList<string> DiagnoseMaps() => [.. _il.Endpoints.Select(e => $"{e.Verb} {e.Route}").Order(StringComparer.Ordinal)];

    public void Dispose()
    {
        _il.Dispose();
        _folder.Delete(recursive: true);
    }

    // The runtime's assemblies and ASP.NET Core's shared framework beside it: the app's attributes are read by their real types.
    private static readonly Lazy<MetadataReference[]> References = new(() =>
    {
        var runtime = Path.GetDirectoryName(typeof(object).Assembly.Location)!;
        var aspNet = Path.Combine(runtime, "..", "..", "Microsoft.AspNetCore.App", Path.GetFileName(runtime));
        Assert.True(Directory.Exists(aspNet), $"the ASP.NET Core shared framework this repository needs is missing ({aspNet})");
        return [.. Directory.EnumerateFiles(runtime, "*.dll").Concat(Directory.EnumerateFiles(aspNet, "*.dll"))
            .Where(IsManaged).Select(p => MetadataReference.CreateFromFile(p))];
    });

    private static bool IsManaged(string path)
    {
        try
        {
            System.Reflection.AssemblyName.GetAssemblyName(path);
            return true;
        }
        catch (BadImageFormatException)
        {
            return false;
        }
    }
}
