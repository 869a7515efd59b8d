using System.Security.Cryptography;

namespace ScanCases.Exports;

public sealed record ExportFile(string Name, long Bytes, string Description);

/// <summary>The nightly exports (sales, attendance) the back office downloads: CSV files in one folder on the host.</summary>
public sealed class ExportFolder
{
    private static readonly Dictionary<string, string> Descriptions = new(StringComparer.OrdinalIgnoreCase)
    {
        ["sales"] = "tickets sold per event and price band",
        ["attendance"] = "check-ins per gate and hour",
    };

    private readonly string _folder = Directory.CreateDirectory(Path.Combine(AppContext.BaseDirectory, "Exports")).FullName;

    public IReadOnlyList<ExportFile> List()
    {
        return Directory.EnumerateFiles(_folder, "*.csv")
            .Select(f => new FileInfo(f))
            .Select(f => new ExportFile(f.Name, f.Length, Describe(f.Name)))
            .ToList();
    }

    /// <summary>The back office checks each download against this before it loads the file.</summary>
    public string? Checksum(string name)
    {
        var path = PathOf(name);
        if (!File.Exists(path))
        {
            return null;
        }
        using var file = Open(path);
        using var sha = SHA256.Create();
        return Convert.ToHexString(sha.ComputeHash(file));
    }

    public Stream? Download(string name)
    {
        var path = PathOf(name);
        if (!File.Exists(path))
        {
            return null;
        }
        return new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 4096, useAsync: true);
    }

    /// <summary>What each kind of export holds, for the back office's picker: the known kinds joined to their descriptions.</summary>
    public static IReadOnlyList<ExportFile> Kinds()
    {
        var kinds = new List<string> { "sales", "attendance" };
        return kinds.Join(Descriptions, k => k, d => d.Key, (k, d) => new ExportFile(k + ".csv", 0, d.Value), StringComparer.OrdinalIgnoreCase).ToList();
    }

    private string PathOf(string name) => Path.Combine(_folder, Path.GetFileName(name));

    private static FileStream Open(string path) => File.OpenRead(path);

    private static string Describe(string file) =>
        Descriptions.TryGetValue(Path.GetFileNameWithoutExtension(file), out var text) ? text : "";
}
