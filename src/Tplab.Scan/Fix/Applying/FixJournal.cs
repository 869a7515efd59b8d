using System.Globalization;
using System.Text.Json.Serialization;
using Tplab.Common;
using Tplab.Common.Json;
using Tplab.Processes;

namespace Tplab.Scan.Fix.Applying;

/// <summary>One file's original, as the journal keeps it: full path, mode and bytes.</summary>
public sealed record JournalFile(string Path, int Mode, byte[] Bytes);

/// <summary>The journal's content: which tplab wrote it, and the originals of every file it is about to replace.</summary>
public sealed record JournalDocument(int ProcessId, IReadOnlyList<JournalFile> Files);

/// <summary>
/// <c>--apply</c>'s guard against SIGKILL: before the first file is replaced, the originals (bytes and modes) are written
/// whole to <c>.tplab-fix-journal.json</c> at the top of the tree; it is removed once the write is kept (verified, or no
/// <c>--verify</c>) or reverted. A journal left by a tplab that is gone (killed while it wrote or while the verify ran)
/// is restored by the next <c>tplab fix</c> on that tree before it loads anything, and said in one line: all or none
/// holds across a kill too. A journal of a tplab still running is left alone (it refuses the write: one fix at a time).
/// </summary>
public static class FixJournal
{
    /// <summary>The journal's name, at the top of the tree.</summary>
    public const string FileName = ".tplab-fix-journal.json";

    /// <summary>Writes the journal of <paramref name="originals"/> in <paramref name="tree"/>; returns its path.</summary>
    public static string Begin(string tree, IReadOnlyDictionary<string, OriginalFile> originals)
    {
        ArgumentNullException.ThrowIfNull(originals);
        var path = Path.Combine(tree, FileName);
        if (File.Exists(path))
        {
            throw TplabException.Usage($"{path}: another tplab fix is writing in this tree (or its journal was left); nothing was changed");
        }
        var document = new JournalDocument(Environment.ProcessId, [.. originals.Select(o => new JournalFile(o.Key, (int)o.Value.Mode, o.Value.Bytes))]);
        try
        {
            AtomicFile.Write(path, w => TplabJson.Write(document, JournalJson.Default.JournalDocument, w));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write the journal {path}: {e.Message}; nothing was changed", e);
        }
        return path;
    }

    /// <summary>Removes the journal: the write is kept or reverted.</summary>
    public static void End(string journal)
    {
        try
        {
            File.Delete(journal);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The files are as they must be; a journal left names a live tplab no more, and the next run restores
            // nothing it has not written: the originals it holds are what the files were before this run.
        }
    }

    /// <summary>
    /// Restores what a tplab killed mid-apply left in <paramref name="tree"/> (bytes and modes, each file whole), says
    /// so on <paramref name="progress"/> and removes the journal; nothing when there is none or its tplab still runs.
    /// </summary>
    public static void Recover(string tree, IScanProgress progress)
    {
        ArgumentNullException.ThrowIfNull(progress);
        var path = Path.Combine(tree, FileName);
        if (!File.Exists(path))
        {
            return;
        }
        var document = TplabJson.Read(File.ReadAllText(path), JournalJson.Default.JournalDocument, $"{path}: not a tplab fix journal");
        if (document.ProcessId != Environment.ProcessId && ProcessFiles.IsAlive(document.ProcessId))
        {
            return;
        }
        FixFiles.Revert(document.Files.ToDictionary(f => f.Path, f => new OriginalFile(f.Bytes, (UnixFileMode)f.Mode), StringComparer.Ordinal));
        File.Delete(path);
        progress.Line(string.Create(CultureInfo.InvariantCulture,
            $"tplab fix: a previous fix --apply was killed before it finished (process {document.ProcessId}): restored {document.Files.Count} file(s) as they were before it"));
    }
}

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = false, RespectRequiredConstructorParameters = true)]
[JsonSerializable(typeof(JournalDocument))]
internal sealed partial class JournalJson : JsonSerializerContext;
