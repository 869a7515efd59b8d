namespace Tplab.Scan.Loading;

/// <summary>
/// Which projects have restore output, where MSBuild looks for it: the SDK's <c>ProjectAssetsFile</c> is
/// <c>$(MSBuildProjectExtensionsPath)project.assets.json</c>, <c>obj/</c> by default, but a Directory.Build.props that
/// sets <c>BaseIntermediateOutputPath</c> or <c>MSBuildProjectExtensionsPath</c> moves it. Where every project has
/// <c>obj/project.assets.json</c> nothing more is asked; otherwise MSBuild's restore graph of the projects scanned says
/// where each one's output goes, once per scan.
/// </summary>
internal sealed class RestoreState
{
    private readonly IReadOnlyDictionary<string, string> _assets;

    private RestoreState(IReadOnlyDictionary<string, string> assets) => _assets = assets;

    public static async Task<RestoreState> ReadAsync(LoadTarget target, string folder, IReadOnlyList<ProjectFile> projects, IScanProgress progress, CancellationToken cancellationToken)
    {
        if (projects.All(p => File.Exists(DefaultAssets(p))))
        {
            return new RestoreState(new Dictionary<string, string>());
        }
        progress.Status("asking MSBuild where the restore output is...");
        return new RestoreState(await Restorer.AssetsFilesAsync(target.Path, folder, cancellationToken).ConfigureAwait(false));
    }

    /// <summary>The project's <c>project.assets.json</c> as MSBuild evaluates it (the SDK's default place when MSBuild did not say).</summary>
    public string AssetsFile(ProjectFile project) => _assets.TryGetValue(Path.GetFullPath(project.Path), out var path) ? path : DefaultAssets(project);

    /// <summary>Whether <c>dotnet restore</c> has written the project's restore output.</summary>
    public bool IsRestored(ProjectFile project) => File.Exists(AssetsFile(project));

    private static string DefaultAssets(ProjectFile project) => Path.Combine(Path.GetDirectoryName(project.Path)!, "obj", "project.assets.json");
}
