using System.Text;
using Tplab.Common;

namespace Tplab.Scan.Fix.Applying;

/// <summary>A file's bytes and permissions before the fix wrote it: what a revert puts back.</summary>
public sealed record OriginalFile(byte[] Bytes, UnixFileMode Mode);

/// <summary>
/// Writes a fix into the files, all or none: each file's original bytes and mode are kept, every new file is staged
/// beside its target (<see cref="AtomicFile"/>, with the original's mode before it appears) before any is renamed over
/// its original, and when a rename fails (or <c>--verify</c>'s command fails or is interrupted) every file already
/// replaced gets its original bytes and mode back. A file keeps its BOM and its line endings (the rewrite writes none of
/// its own). Where a fix may write at all is <see cref="ApplyScope"/>'s rule, checked before.
/// </summary>
public static class FixFiles
{
    private static readonly byte[] Bom = [0xEF, 0xBB, 0xBF];

    /// <summary>
    /// Writes every file of <paramref name="files"/>; returns the originals (by path) to revert with.
    /// <paramref name="beforeFirstRename"/> gets them once every file is staged, before the first is replaced (the journal).
    /// </summary>
    public static IReadOnlyDictionary<string, OriginalFile> Write(IReadOnlyList<FileChange> files, Action<IReadOnlyDictionary<string, OriginalFile>>? beforeFirstRename = null)
    {
        ArgumentNullException.ThrowIfNull(files);
        var originals = new Dictionary<string, OriginalFile>(StringComparer.Ordinal);
        foreach (var f in files)
        {
            byte[] bytes;
            try
            {
                bytes = File.ReadAllBytes(f.Path);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                throw new TplabException(ExitCodes.OutputFailed, $"cannot read {f.Relative}: {e.Message}; nothing was changed", e);
            }
            if (Decode(bytes) is not { } text)
            {
                throw new TplabException(ExitCodes.OutputFailed, $"{f.Relative} is not UTF-8: tplab fix does not rewrite it; nothing was changed");
            }
            if (!string.Equals(text, f.Before, StringComparison.Ordinal))
            {
                throw new TplabException(ExitCodes.OutputFailed, $"{f.Relative} changed while tplab fix ran; nothing was changed (run it again)");
            }
            if (IsReadOnly(f.Path))
            {
                throw new TplabException(ExitCodes.OutputFailed, $"{f.Relative} is read-only; nothing was changed");
            }
            originals[f.Path] = new OriginalFile(bytes, ModeOf(f.Path));
        }
        var staged = new List<(FileChange File, AtomicFile Staged)>();
        try
        {
            foreach (var f in files)
            {
                var file = AtomicFile.Create(f.Path);
                staged.Add((f, file));
                file.Writer.Write((originals[f.Path].Bytes.AsSpan().StartsWith(Bom) ? "\uFEFF" : "") + f.After);
                SetMode(file, originals[f.Path].Mode);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            staged.ForEach(s => s.Staged.Dispose());
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write the fix: {e.Message}; nothing was changed", e);
        }
        try
        {
            beforeFirstRename?.Invoke(originals);
        }
        catch
        {
            staged.ForEach(s => s.Staged.Dispose());
            throw;
        }
        var committed = new List<FileChange>();
        try
        {
            foreach (var (f, file) in staged)
            {
                file.Commit();
                committed.Add(f);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            staged.ForEach(s => s.Staged.Dispose());
            Revert(committed.ToDictionary(c => c.Path, c => originals[c.Path], StringComparer.Ordinal));
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write the fix: {e.Message}; every file was restored", e);
        }
        return originals;
    }

    /// <summary>
    /// Refuses (exit 8, nothing written) a file that is not UTF-8 on disk (UTF-16, Latin-1): the patch is UTF-8 text,
    /// which <c>git apply</c> would not match against its bytes, and <c>--apply</c> would change its encoding.
    /// </summary>
    public static void CheckUtf8(FileChange file)
    {
        ArgumentNullException.ThrowIfNull(file);
        byte[] bytes;
        try
        {
            bytes = File.ReadAllBytes(file.Path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot read {file.Relative}: {e.Message}; nothing was written", e);
        }
        if (Decode(bytes) is null)
        {
            var what = bytes.AsSpan().StartsWith((byte[])[0xFF, 0xFE]) || bytes.AsSpan().StartsWith((byte[])[0xFE, 0xFF]) ? "UTF-16" : "not UTF-8 (Latin-1 or another 8-bit encoding)";
            throw new TplabException(ExitCodes.OutputFailed,
                $"{file.Relative} is {what}: a patch of it would not apply and tplab fix does not rewrite it; save it as UTF-8 (a BOM is kept) and run fix again; nothing was written");
        }
    }

    /// <summary>Puts the original bytes and modes back, each file whole.</summary>
    public static void Revert(IReadOnlyDictionary<string, OriginalFile> originals)
    {
        ArgumentNullException.ThrowIfNull(originals);
        foreach (var (path, original) in originals)
        {
            using var file = AtomicFile.Create(path);
            var writer = (StreamWriter)file.Writer;
            writer.Flush();
            writer.BaseStream.Write(original.Bytes);
            SetMode(file, original.Mode);
            file.Commit();
        }
    }

    private static string? Decode(byte[] bytes)
    {
        var bom = bytes.AsSpan().StartsWith(Bom);
        try
        {
            return new UTF8Encoding(false, throwOnInvalidBytes: true).GetString(bytes, bom ? 3 : 0, bytes.Length - (bom ? 3 : 0));
        }
        catch (DecoderFallbackException)
        {
            return null;
        }
    }

    private static UnixFileMode ModeOf(string path) => OperatingSystem.IsWindows() ? default : File.GetUnixFileMode(path);

    private static void SetMode(AtomicFile file, UnixFileMode mode)
    {
        if (!OperatingSystem.IsWindows())
        {
            file.SetMode(mode);
        }
    }

    private static bool IsReadOnly(string path)
    {
        if (File.GetAttributes(path).HasFlag(FileAttributes.ReadOnly))
        {
            return true;
        }
        return !OperatingSystem.IsWindows() && (File.GetUnixFileMode(path) & (UnixFileMode.UserWrite | UnixFileMode.GroupWrite | UnixFileMode.OtherWrite)) == 0;
    }
}
