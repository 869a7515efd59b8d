namespace Tplab.Common;

/// <summary>
/// The one rule from a name to a file or folder name (a plan's name, a scenario's id, a finding's id, anything read
/// from a file that tplab then writes under a folder): one path segment of 1 to 64 ASCII letters, digits, '.', '-' and
/// '_', not starting with '.'. So no separator, no '..', no empty or hidden name, no control byte, the same on every
/// file system. Readers refuse a name that breaks it; writers check again before they build a path.
/// </summary>
public static class FileNames
{
    /// <summary>The rule in words, for error messages.</summary>
    public const string Rule = "must be 1 to 64 letters, digits, '.', '-' or '_', not starting with '.'";

    /// <summary>Whether <paramref name="name"/> can be used as one file or folder name.</summary>
    public static bool IsSafe(string? name) =>
        name is { Length: >= 1 and <= 64 } && name[0] != '.' && name.All(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '-' or '_');

    /// <summary>
    /// <paramref name="name"/> when it is safe; otherwise an <see cref="InvalidOperationException"/>: a reader should
    /// have refused it, so reaching a writer with it is a bug, never a path outside the folder.
    /// </summary>
    public static string Segment(string name) =>
        IsSafe(name) ? name : throw new InvalidOperationException($"'{name}' is not a safe file name ({Rule})");

    /// <summary>A safe name made from any text (e.g. a project's name): unsafe characters become '-', cut to 64; <paramref name="fallback"/> when nothing is left.</summary>
    public static string From(string? text, string fallback)
    {
        var chars = (text ?? "").Select(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '-' or '_' ? c : '-').ToArray();
        var name = new string(chars).TrimStart('.', '-');
        name = name.Length > 64 ? name[..64] : name;
        return IsSafe(name) ? name : fallback;
    }
}
