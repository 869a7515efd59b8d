namespace Tplab.Common.Output;

/// <summary>
/// An output format of a command, known by its <c>--format</c> name. Each command has its own small interface on
/// top (what the format writes: <c>ISummaryFormat</c>, <c>IWatchFormat</c>, <c>IComparisonFormat</c>…) and one
/// <see cref="FormatCatalogue{TFormat}"/> that lists its formats once.
/// </summary>
public interface IOutputFormat
{
    /// <summary>The <c>--format</c> name.</summary>
    string Name { get; }

    /// <summary>One line for <c>--help</c> and docs.</summary>
    string Description { get; }

    /// <summary>The file extensions (with the dot, lower case) that mean this format when <c>--output</c> comes without <c>--format</c>.</summary>
    IReadOnlyList<string> Extensions => [];

    /// <summary>
    /// Whether a program reads it (JSON, CSV, a histogram log) rather than a person: it must have stdout to itself,
    /// and a command's progress goes to stderr beside it.
    /// </summary>
    bool MachineReadable => false;
}
