using Tplab.Tests.Support;
using Xunit.Abstractions;
using Xunit.Sdk;

namespace Tplab.Tests.Architecture;

/// <summary>How the suite's classes fall into collections: serial unless marked, marked classes apart, lanes by name.</summary>
[ParallelSafe]
public sealed class TestCollectionsTests
{
    private static readonly TestCollections Factory = new(new TestAssembly(Reflector.Wrap(typeof(TestCollections).Assembly)), new NullMessageSink());

    [Fact]
    public void Get_UnmarkedClass_IsInTheSerialCollection() =>
        Assert.Equal(TestCollections.Serial, Factory.Get(Reflector.Wrap(typeof(Unmarked))).DisplayName);

    [Fact]
    public void Get_ParallelSafeClasses_EachInACollectionOfItsOwn()
    {
        var a = Factory.Get(Reflector.Wrap(typeof(TestCollectionsTests)));
        var b = Factory.Get(Reflector.Wrap(typeof(FolderOrderTests)));
        Assert.NotEqual(a.UniqueID, b.UniqueID);
        Assert.NotEqual(TestCollections.Serial, a.DisplayName);
    }

    [Fact]
    public void Get_NamedCollection_KeepsItsNameAndDefinition()
    {
        var lane = Factory.Get(Reflector.Wrap(typeof(Laned)));
        Assert.Equal(TestCollections.Watch, lane.DisplayName);
        Assert.Same(lane, Factory.Get(Reflector.Wrap(typeof(Laned))));
        var shop = Factory.Get(Reflector.Wrap(typeof(Scan.Roots.RootFinderTests)));
        Assert.Equal(Scan.ShopScanCollection.Name, shop.DisplayName);
        Assert.NotNull(shop.CollectionDefinition);
    }

    [Fact]
    public void ClassesWithAProcessFixture_AreNeverParallelSafe()
    {
        var fixtures = new[] { typeof(TargetFixture), typeof(DownstreamFixture), typeof(StackFixture) };
        var wrong = typeof(TestCollections).Assembly.GetTypes()
            .Where(t => t.GetCustomAttributes(typeof(ParallelSafeAttribute), false).Length > 0)
            .Where(t => t.GetInterfaces().Any(i => i.IsGenericType && i.GetGenericTypeDefinition() == typeof(IClassFixture<>) && fixtures.Contains(i.GetGenericArguments()[0])))
            .Select(t => t.Name).ToList();
        Assert.True(wrong.Count == 0, "parallel-safe classes that start processes: " + string.Join(", ", wrong));
    }

    private sealed class Unmarked;

    [Collection(TestCollections.Watch)]
    private sealed class Laned;

    private sealed class NullMessageSink : LongLivedMarshalByRefObject, IMessageSink
    {
        public bool OnMessage(IMessageSinkMessage message) => true;
    }
}
