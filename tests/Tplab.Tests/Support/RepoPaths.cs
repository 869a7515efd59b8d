namespace Tplab.Tests.Support;

/// <summary>Folders of the checkout the tests run from.</summary>
internal static class RepoPaths
{
    /// <summary>The repository root (the folder holding Tplab.slnx).</summary>
    public static string Root { get; } = FindRoot();

    /// <summary>Where tests keep artifacts such as screenshots (git-ignored).</summary>
    public static string Artifacts(string kind) => Directory.CreateDirectory(Path.Combine(Root, "artifacts", kind)).FullName;

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Tplab.slnx")))
            {
                return dir.FullName;
            }
        }
        throw new InvalidOperationException("Tplab.slnx not found above " + AppContext.BaseDirectory);
    }
}
