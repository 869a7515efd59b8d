using System.Globalization;
using Spectre.Console;
using Spectre.Console.Rendering;
using Tplab.Reports.Terminal;

namespace Tplab.Watch.Survey;

/// <summary><c>tplab ps</c>'s table: one row per .NET process, numbers right-aligned, the verdict last (with why when a process could not be read).</summary>
public static class SurveyTable
{
    /// <summary>The table of <paramref name="rows"/>, or a line saying there is no process to list.</summary>
    public static IRenderable Render(IReadOnlyList<SurveyedProcess> rows)
    {
        ArgumentNullException.ThrowIfNull(rows);
        var table = new Table { Border = TableBorder.None, ShowHeaders = true };
        // The PID is what a reader acts on: never squeezed, whatever width a long verdict takes.
        table.AddColumn(new TableColumn("PID").RightAligned().PadLeft(0).NoWrap());
        table.AddColumn("NAME");
        table.AddColumn("RUNTIME");
        table.AddColumn(new TableColumn("THREADS").RightAligned());
        table.AddColumn(new TableColumn("QUEUE").RightAligned());
        // A long reason wraps under the verdict; the columns before it keep their width.
        table.AddColumn(new TableColumn("VERDICT"));
        foreach (var r in rows)
        {
            table.AddRow(
                N(r.ProcessId), Cells.Escape(r.Name), r.RuntimeVersion?.ToString() ?? "?", N(r.PoolThreads), N(r.QueueLength),
                Cells.Escape(r.Error is null ? r.Verdict : $"{r.Verdict} ({r.Error})"));
        }
        return rows.Count == 0 ? new Rows(table, new Text("(no .NET process this user can attach to)")) : table;
    }

    private static string N(long? v) => v?.ToString(CultureInfo.InvariantCulture) ?? "-";
}
