namespace Tplab.Tests.Support;

/// <summary>
/// Tests that measure the machine's CPU as the target sees it (a CPU-bound verdict): no other test runs beside them.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MachineAlone
{
    public const string Name = "machine-alone";
}
