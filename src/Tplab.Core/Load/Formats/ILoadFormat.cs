using Tplab.Common.Output;
using Tplab.Load.Engine;
using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>An output format of <c>tplab load</c>, known by its <c>--format</c> name (<see cref="LoadFormats"/>).</summary>
public interface ILoadFormat : IOutputFormat;

/// <summary>A format that reads only the summary (text, the peers' layouts, json, hgrm).</summary>
public interface ISummaryFormat : ILoadFormat
{
    /// <summary>Writes <paramref name="summary"/>; numbers in the invariant culture.</summary>
    void Write(LoadSummary summary, TextWriter writer);

    /// <summary>True when the format prints percentiles from the exact latencies (<see cref="LoadOptions.ExactLatencies"/>).</summary>
    bool NeedsExactLatencies => false;
}

/// <summary>A format that reads the whole result, summary and records (html).</summary>
public interface IResultFormat : ILoadFormat
{
    /// <summary>Writes <paramref name="result"/>.</summary>
    void Write(LoadResult result, TextWriter writer);
}

/// <summary>A format written from the request records as they come (csv, hlog), so nothing accumulates in memory.</summary>
public interface IRecordFormat : ILoadFormat
{
    /// <summary>Starts writing to <paramref name="writer"/>; <paramref name="startedAt"/> turns offsets into wall-clock times.</summary>
    IRecordWriter Open(TextWriter writer, DateTimeOffset startedAt);
}

/// <summary>One record format being written.</summary>
public interface IRecordWriter
{
    /// <summary>One finished request, in completion order.</summary>
    void Write(in RequestRecord record);

    /// <summary>The run is over: write what is pending.</summary>
    void Complete();
}
