using System.Globalization;

namespace FixProbes.Attachments;

/// <summary>Attachments staged in a folder beside the app (emptied at start): each saved one is a copy of the template, cut to size.</summary>
public sealed class AttachmentStore
{
    private readonly string _folder = Directory.CreateDirectory(Path.Combine(AppContext.BaseDirectory, "attachments")).FullName;
    private readonly object _template = new();
    private int _saved;

    public string Save(string name, int size)
    {
        var template = Path.Combine(_folder, "template.bin");
        lock (_template)
        {
            if (!File.Exists(template))
            {
                File.WriteAllBytes(template, [.. Enumerable.Range(0, 4096).Select(i => (byte)i)]);
            }
        }
        var number = Interlocked.Increment(ref _saved);
        var target = Path.Combine(_folder, string.Create(CultureInfo.InvariantCulture, $"{Path.GetFileName(name)}-{number}.bin"));
        using var input = File.OpenRead(template);
        using var output = File.Create(target);
        var buffer = new byte[1024];
        var left = Math.Clamp(size, 0, 4096);
        var copied = 0;
        while (left > 0)
        {
            var read = input.Read(buffer, 0, Math.Min(buffer.Length, left));
            if (read == 0)
            {
                break;
            }
            output.Write(buffer, 0, read);
            left -= read;
            copied += read;
        }
        return string.Create(CultureInfo.InvariantCulture, $"{name}: {copied} bytes");
    }

    public string List() =>
        string.Join('\n', new DirectoryInfo(_folder).GetFiles("*.bin").OrderBy(f => f.Name, StringComparer.Ordinal)
            .Select(f => string.Create(CultureInfo.InvariantCulture, $"{f.Name} {f.Length}")));
}
