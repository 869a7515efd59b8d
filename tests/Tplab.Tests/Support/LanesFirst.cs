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
    // By the lanes' measured spans, longest first (a clean clone on a fresh machine, 2026-11-29: serial 306 s, the
    // orders service 289 s, diagnose 294 s, watch 215 s, corpus 209 s with the fix harness's build, fix 190 s, lab 122 s).
    // With the orders service's classes and the lab's in one lane, that lane (411 s) ended the suite's parallel part.
    private static readonly string[] Lanes = [TestCollections.Serial, TestCollections.Orders, TestCollections.Diagnose, TestCollections.Watch, TestCollections.Corpus, TestCollections.Fix, TestCollections.Lab];

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
