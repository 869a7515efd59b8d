using Tplab.Tests.Support;
using Xunit.Abstractions;

namespace Tplab.Tests.Corpus;

/// <summary>
/// The shop's CPU-bound endpoint: diagnose must find the target's own threads busy on the CPU, so the case runs with
/// the machine to itself. Beside the other lanes' processes on two cores the target got too few cycles to look
/// CPU-bound, and diagnose rightly said "clear" (seen once in a clean-clone run).
/// </summary>
[Collection(MachineAlone.Name)]
public sealed class ShopCorpusCpuTests(ITestOutputHelper output)
{
    [Theory]
    [InlineData("recommendations-cpu")]
    public Task Diagnose_CpuBoundShopEndpointUnderLoad_SaysCpuBoundWithTheHotMethod(string name) =>
        ShopCorpusTests.CheckAsync(name, null, output);
}
