using Xunit.Abstractions;

[assembly: TestCollectionOrderer("Tplab.Tests.Support.LanesFirst", "Tplab.Tests")]

namespace Tplab.Tests.Support;

/// <summary>
/// The order xunit starts the collections in: the serial collection and the process lanes first, the longest first
/// (BENCHMARKS.md, "The suite's time"), then the other named collections, then the parallel-safe classes. They are the
/// suite's critical path: each runs its tests one after another, so the suite cannot end before the longest of them.
/// xunit's default order is a hash of each collection's id (stable, arbitrary): lanes landed among and behind the ~200
/// "parallel: …" classes, and in a measured run the corpus lane's first test ended 23 minutes in. The parallel-safe
/// classes, short, fill the slots the lanes leave.
/// </summary>
public sealed class LanesFirst : ITestCollectionOrderer
{
    // The fix harness first: its class fixture (about a minute of builds and runs, in no test's time) ended a
    // fresh-machine run when it came last in the corpus lane. Then by the lanes' measured spans, longest first (a clean
    // clone, 2026-11-29: serial 306-366 s, diagnose 294-356 s, the orders service 289-322 s, watch 215-251 s, fix
    // 141-194 s, corpus 128-150 s, lab 122-165 s). With the orders service's classes and the lab's in one lane, that
    // lane (411 s) ended the suite's parallel part.
    private static readonly string[] Lanes = [TestCollections.FixHarness, TestCollections.Serial, TestCollections.Diagnose, TestCollections.Orders, TestCollections.Watch, TestCollections.Fix, TestCollections.Corpus, TestCollections.Lab];

    /// <inheritdoc/>
    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections) =>
        testCollections.OrderBy(Rank).ThenBy(c => c.DisplayName, StringComparer.Ordinal);

    private static int Rank(ITestCollection collection)
    {
        var lane = Array.IndexOf(Lanes, collection.DisplayName);
        return lane >= 0 ? lane
            : collection.DisplayName.StartsWith(TestCollections.ParallelPrefix, StringComparison.Ordinal) ? Lanes.Length + 1
            : Lanes.Length;
    }
}
