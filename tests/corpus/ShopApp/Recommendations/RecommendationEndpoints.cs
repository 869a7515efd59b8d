using ShopApp.Corpus;

namespace ShopApp.Recommendations;

public static class RecommendationEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        // Score is small enough for the JIT to inline it into TopFor at Tier 1: the hot frame any profiler shows is TopFor.
        ExpectedCulprit.CpuBound("recommendations-cpu", "GET", "/api/recommendations/77", "/api/recommendations/{userId}",
            "Recommendations.RecommendationEngine.TopFor", Place.MinimalApi),
    ];

    public static void MapRecommendations(this IEndpointRouteBuilder app) =>
        app.MapGet("/api/recommendations/{userId:int}", (int userId, RecommendationEngine engine) => Results.Ok(engine.TopFor(userId, 5)));
}

/// <summary>Scores every product against the user's taste vector (in memory, no I/O).</summary>
public sealed class RecommendationEngine
{
    private const int Dimensions = 64;
    private const int Sessions = 8;
    private readonly float[][] _products;

    public RecommendationEngine()
    {
        var random = new Random(42);
        _products = [.. Enumerable.Range(0, 40_000).Select(_ => Enumerable.Range(0, Dimensions).Select(_ => (float)random.NextDouble()).ToArray())];
    }

    public IReadOnlyList<int> TopFor(int userId, int count)
    {
        // The user's taste is the blend of the last sessions' tastes; every product is scored against each.
        var random = new Random(userId);
        var scores = new float[_products.Length];
        for (var session = 0; session < Sessions; session++)
        {
            var taste = Enumerable.Range(0, Dimensions).Select(_ => (float)random.NextDouble()).ToArray();
            for (var p = 0; p < _products.Length; p++)
            {
                scores[p] += Score(taste, _products[p]);
            }
        }
        return [.. Enumerable.Range(0, scores.Length).OrderByDescending(i => scores[i]).Take(count)];
    }

    private static float Score(float[] taste, float[] product)
    {
        float dot = 0, a = 0, b = 0;
        for (var i = 0; i < taste.Length; i++)
        {
            dot += taste[i] * product[i];
            a += taste[i] * taste[i];
            b += product[i] * product[i];
        }
        return dot / MathF.Sqrt(a * b);
    }
}
