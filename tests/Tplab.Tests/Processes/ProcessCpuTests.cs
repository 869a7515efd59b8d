using Tplab.Processes;

namespace Tplab.Tests.Processes;

/// <summary>The /proc and cgroup texts ProcessCpu reads, parsed; and the figures of this very process.</summary>
public sealed class ProcessCpuTests
{
    [Theory]
    [InlineData("0-1", 2)]
    [InlineData("0-3,8,10-11", 7)]
    [InlineData("5", 1)]
    [InlineData("", null)]
    [InlineData("x-2", null)]
    public void CountCpuList_Lists_CountCpus(string list, int? expected) => Assert.Equal(expected, ProcessCpu.CountCpuList(list));

    [Theory]
    [InlineData("max 100000", null)]
    [InlineData("150000 100000", 1.5)]
    [InlineData("200000 100000", 2.0)]
    [InlineData("garbage", null)]
    public void QuotaOf_CpuMax_IsCores(string cpuMax, double? expected) => Assert.Equal(expected, ProcessCpu.QuotaOf(cpuMax));

    [Fact]
    public void StateAndName_OfAStatLineWithSpacesInTheName_AreRead()
    {
        const string stat = "1234 (.NET TP Worker) R 1 1234 1234 0 -1 4194624 120 0 0 0 3 1 0 0 20 0 21 0";

        Assert.Equal('R', ProcessCpu.StateOf(stat));
        Assert.Equal(ProcessCpu.PoolWorkerName, ProcessCpu.NameOf(stat));
    }

    [Theory]
    [InlineData("cpu  117845 66 24855 49965 262 0 3354 233 0 0", 146353L, 196580L)]
    [InlineData("cpu0 1 2 3 4 5 6 7 8", null, null)]
    [InlineData("cpu 1 2", null, null)]
    public void MachineCpuTicksOf_ProcStatLine_IsBusyAndTotal(string line, long? busy, long? total)
    {
        var ticks = ProcessCpu.MachineCpuTicksOf(line);

        Assert.Equal(busy, ticks?.Busy);
        Assert.Equal(total, ticks?.Total);
    }

    [Fact]
    public void AvailableCores_ThisProcess_IsWhatTheRuntimeSays()
    {
        Assert.Equal(Environment.ProcessorCount, ProcessCpu.AvailableCores(Environment.ProcessId), 3);
    }

    [Fact]
    public async Task PoolWorkerStates_ThisProcessWithABusyWorker_SeesIt()
    {
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        var busy = Task.Run(() =>
        {
            while (!stop.IsCancellationRequested)
            {
                Thread.SpinWait(1000);
            }
        });
        var states = ProcessCpu.PoolWorkerStates(Environment.ProcessId, 3, TimeSpan.FromMilliseconds(10));
        await stop.CancelAsync();
        await busy;

        Assert.NotNull(states);
        Assert.True(states.Value.Workers >= 1, $"{states.Value.Workers} pool workers seen");
        Assert.True(states.Value.Runnable > 0, "the spinning worker was not seen running");
    }
}
