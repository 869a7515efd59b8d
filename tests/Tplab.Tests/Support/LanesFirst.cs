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
    // By the lanes' measured spans, longest first (a clean-clone run, 2026-11-29: serial 597 s, lab 598 s with the
    // orders service's classes, diagnose 495 s, watch 287 s, corpus 207 s, fix 207 s): with fix third, the corpus
    // lane waited for a slot until 500 s and ended the suite at 824 s.
    private static readonly string[] Lanes = [TestCollections.Serial, TestCollections.Lab, TestCollections.Diagnose, TestCollections.Watch, TestCollections.Corpus, TestCollections.Fix];

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
