using System.Text;
using Tplab.Load.Requests;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Requests;

[ParallelSafe]
public sealed class RequestMixTests
{
    private static RequestTemplate T(string path, int weight) =>
        new("GET", new Uri("http://127.0.0.1:1" + path), [], ReadOnlyMemory<byte>.Empty, weight);

    [Theory]
    // weights             picks  expected count per template
    [InlineData(new[] { 1 }, 5, new[] { 5 })]
    [InlineData(new[] { 3, 1 }, 8, new[] { 6, 2 })]
    [InlineData(new[] { 5, 2, 1 }, 16, new[] { 10, 4, 2 })]
    public void Next_OverWholeCycles_EachTemplateInProportionToItsWeight(int[] weights, int picks, int[] expected)
    {
        var mix = new RequestMix([.. weights.Select((w, i) => T("/" + i, w))]);
        var counts = new int[weights.Length];
        for (var i = 0; i < picks; i++)
        {
            counts[mix.Next()]++;
        }
        Assert.Equal(expected, counts);
    }

    [Fact]
    public void Next_WeightsThreeToOne_SpreadOutNotInRuns()
    {
        var mix = new RequestMix([T("/a", 3), T("/b", 1)]);
        var order = string.Concat(Enumerable.Range(0, 8).Select(_ => mix.Next() == 0 ? 'a' : 'b'));
        Assert.DoesNotContain("bb", order, StringComparison.Ordinal);
        Assert.DoesNotContain("aaaa", order, StringComparison.Ordinal);
    }

    [Fact]
    public void Next_ManyThreads_EveryPickCountedOnce()
    {
        var mix = new RequestMix([T("/a", 1), T("/b", 1)]);
        var counts = new int[2];
        Parallel.For(0, 10_000, _ => Interlocked.Increment(ref counts[mix.Next()]));
        Assert.Equal([5_000, 5_000], counts);
    }

    [Fact]
    public void Constructor_WeightBelowOne_Refused() =>
        Assert.Throws<ArgumentException>(() => new RequestMix([T("/a", 0)]));

    [Fact]
    public void Label_NoName_MethodAndPathWithQuery()
    {
        var t = new RequestTemplate("POST", new Uri("http://127.0.0.1:5080/orders?x=1"), [], Encoding.UTF8.GetBytes("{}"));
        Assert.Equal("POST /orders?x=1", t.Label);
        Assert.Equal("orders", (t with { Name = "orders" }).Label);
    }
}
