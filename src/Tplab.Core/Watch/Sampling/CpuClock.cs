using System.Diagnostics;
using Tplab.Processes;

namespace Tplab.Watch.Sampling;

/// <summary>
/// A process's CPU use between two readings, in percent of the cores it may use: the same measure the runtime's gate
/// thread uses on Linux (process CPU time / elapsed / the process's own Environment.ProcessorCount, which follows its
/// affinity and cgroup quota), so "CPU 3%" is what the pool itself saw.
/// </summary>
public sealed class CpuClock : IDisposable
{
    private readonly Process? _process;
    private TimeSpan _lastCpu;
    private long _lastTimestamp;

    private readonly double _cores;
    private (long Busy, long Total)? _lastMachine = ProcessCpu.MachineCpuTicks();

    /// <summary>Starts measuring <paramref name="processId"/> at <paramref name="timestamp"/>, out of <paramref name="cores"/> cores.</summary>
    public CpuClock(int processId, long timestamp, double cores)
    {
        _cores = cores;
        try
        {
            _process = Process.GetProcessById(processId);
            _lastCpu = _process.TotalProcessorTime;
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            _process = null;
        }
        _lastTimestamp = timestamp;
    }

    /// <summary>The whole machine's busy CPU, in percent of all its cores, over the interval of the last <see cref="Read"/>; null when unreadable.</summary>
    public double? MachineBusyPercent { get; private set; }

    /// <summary>CPU percent since the previous reading, or null once the process is gone.</summary>
    public double? Read(long timestamp, long frequency)
    {
        if (_process is null)
        {
            return null;
        }
        try
        {
            _process.Refresh();
            var cpu = _process.TotalProcessorTime;
            var wall = (timestamp - _lastTimestamp) / (double)frequency;
            var percent = wall <= 0 ? 0 : (cpu - _lastCpu).TotalSeconds / wall / _cores * 100;
            _lastCpu = cpu;
            _lastTimestamp = timestamp;
            var machine = ProcessCpu.MachineCpuTicks();
            MachineBusyPercent = machine is { } m && _lastMachine is { } l && m.Total > l.Total
                ? Math.Clamp((m.Busy - l.Busy) * 100.0 / (m.Total - l.Total), 0, 100)
                : null;
            _lastMachine = machine;
            return Math.Clamp(percent, 0, 100);
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception or IOException)
        {
            return null;
        }
    }

    public void Dispose() => _process?.Dispose();
}
