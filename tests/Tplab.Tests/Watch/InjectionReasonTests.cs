using Tplab.Watch.Verdicts;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch;

/// <summary>Reason codes of event 55, decoded from the raw integer (ClrEtwAll.man 0–7, the managed pool's 8).</summary>
[ParallelSafe]
public sealed class InjectionReasonTests
{
    [Theory]
    [InlineData(0, InjectionReason.Warmup, "Warmup")]
    [InlineData(1, InjectionReason.Initializing, "Initializing")]
    [InlineData(2, InjectionReason.RandomMove, "RandomMove")]
    [InlineData(3, InjectionReason.ClimbingMove, "ClimbingMove")]
    [InlineData(4, InjectionReason.ChangePoint, "ChangePoint")]
    [InlineData(5, InjectionReason.Stabilizing, "Stabilizing")]
    [InlineData(6, InjectionReason.Starvation, "Starvation")]
    [InlineData(7, InjectionReason.ThreadTimedOut, "ThreadTimedOut")]
    // Not in the manifest's value map: only the managed enum of .NET 6+ names it.
    [InlineData(8, InjectionReason.CooperativeBlocking, "CooperativeBlocking")]
    // Codes a future runtime may add stay visible by number.
    [InlineData(9, InjectionReason.Unknown, "Unknown(9)")]
    [InlineData(-1, InjectionReason.Unknown, "Unknown(-1)")]
    public void FromCode_DecodesByName(long code, InjectionReason reason, string name)
    {
        Assert.Equal(reason, InjectionReasons.FromCode(code));
        Assert.Equal(name, InjectionReasons.Name(InjectionReasons.FromCode(code), code));
    }
}
