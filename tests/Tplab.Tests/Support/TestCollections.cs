using System.Collections.Concurrent;
using Xunit.Abstractions;
using Xunit.Sdk;

[assembly: CollectionBehavior("Tplab.Tests.Support.TestCollections", "Tplab.Tests")]

namespace Tplab.Tests.Support;

/// <summary>
/// Marks a test class that shares nothing with any other test: no child process, no port it did not get from the
/// kernel, no fixed path, no environment variable, no machine-wide state, and nothing timed. Such a class runs in a
/// collection of its own, in parallel with the others. A class without this mark (and without a
/// <see cref="CollectionAttribute"/>) runs in the one serial collection: the safe default for a test added later.
/// </summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
public sealed class ParallelSafeAttribute : Attribute;

/// <summary>
/// How the suite's classes are grouped into xunit collections (tests/Tplab.Tests/README.md): a named
/// <see cref="CollectionAttribute"/> first; then a <see cref="ParallelSafeAttribute"/> class in a collection of its own
/// (parallel); every other class in <see cref="Serial"/>, where the process tests run one after another, never two
/// of them on the machine at once.
/// </summary>
public sealed class TestCollections : IXunitTestCollectionFactory
{
    /// <summary>The collection of every class that did not say it may run in parallel.</summary>
    public const string Serial = "serial: processes, ports, timing";

    /// <summary>The start of the name of a <see cref="ParallelSafeAttribute"/> class's own collection.</summary>
    public const string ParallelPrefix = "parallel: ";

    /// <summary>
    /// Process lanes: serial collections that run beside <see cref="Serial"/> and each other. A class goes into one only
    /// when it shares nothing with the other lanes (its processes on port 0 or its own ports, its own folders, no
    /// count of processes machine-wide by name or command line). Classes that count processes of one program share a
    /// lane (the orders service: <see cref="Orders"/>).
    /// </summary>
    public const string Corpus = "process lane: corpus";

    /// <summary>
    /// Every class that starts the user's own service of the tests (tests/Tplab.OrdersService): some count its
    /// processes by command line (none left behind), so no two of them run at once.
    /// </summary>
    public const string Orders = "process lane: orders service";

    /// <inheritdoc cref="Corpus"/>
    public const string Lab = "process lane: lab";

    /// <inheritdoc cref="Corpus"/>
    public const string Diagnose = "process lane: diagnose";

    /// <inheritdoc cref="Corpus"/>
    public const string Watch = "process lane: watch";

    /// <summary>
    /// <c>fix</c> end to end on copies of the orders service (an MSBuild load, the fix, its compile check each), in
    /// process: each copy in a folder of its own, no port, nothing counted machine-wide. Its classes share the copies
    /// they only read (<c>Scan/Fix/OrdersCopies</c>).
    /// </summary>
    public const string Fix = "process lane: fix";

    /// <summary>
    /// The differential harness (<c>Scan/Fix/FixDifferentialTests</c>): its class fixture builds the fix probes before
    /// and after the fix and runs both, about a minute that no test's time shows; in a lane of its own that starts
    /// first, so that minute is not the suite's last (it was, at the end of the corpus lane).
    /// </summary>
    public const string FixHarness = "process lane: fix harness";

    private readonly ITestAssembly _assembly;
    private readonly Dictionary<string, ITypeInfo> _definitions;
    private readonly ConcurrentDictionary<string, ITestCollection> _collections = new(StringComparer.Ordinal);

    public TestCollections(ITestAssembly testAssembly, IMessageSink diagnosticMessageSink)
    {
        ArgumentNullException.ThrowIfNull(testAssembly);
        _ = diagnosticMessageSink; // the constructor xunit calls takes it; nothing here to report
        _assembly = testAssembly;
        _definitions = testAssembly.Assembly.GetTypes(false)
            .Select(t => (Type: t, Attribute: t.GetCustomAttributes(typeof(CollectionDefinitionAttribute)).FirstOrDefault()))
            .Where(d => d.Attribute is not null)
            .ToDictionary(d => (string?)d.Attribute!.GetConstructorArguments().FirstOrDefault() ?? "Collection for " + d.Type.Name, d => d.Type, StringComparer.Ordinal);
    }

    /// <inheritdoc/>
    public string DisplayName => "tplab: parallel-safe classes apart, the rest serial";

    /// <inheritdoc/>
    public ITestCollection Get(ITypeInfo testClass)
    {
        ArgumentNullException.ThrowIfNull(testClass);
        var name = testClass.GetCustomAttributes(typeof(CollectionAttribute)).FirstOrDefault()?.GetConstructorArguments().FirstOrDefault() as string
            ?? (testClass.GetCustomAttributes(typeof(ParallelSafeAttribute)).Any() ? ParallelPrefix + testClass.Name : Serial);
        return _collections.GetOrAdd(name, n => new TestCollection(_assembly, _definitions.GetValueOrDefault(n), n));
    }
}
