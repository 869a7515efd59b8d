namespace Tplab.Load.Requests;

/// <summary>
/// Picks which template each request sends: a fixed, repeating order in which every template appears in proportion
/// to its weight, spread out rather than in runs (smooth weighted round-robin, as nginx balances upstreams).
/// Deterministic, so two runs of the same plan send the same sequence; thread-safe and allocation-free per pick.
/// </summary>
public sealed class RequestMix
{
    private readonly int[] _order;
    private long _next = -1;

    /// <summary>A mix over <paramref name="templates"/>; every weight must be at least 1.</summary>
    public RequestMix(IReadOnlyList<RequestTemplate> templates)
    {
        ArgumentNullException.ThrowIfNull(templates);
        if (templates.Count == 0)
        {
            throw new ArgumentException("a mix needs at least one template", nameof(templates));
        }
        var weights = templates.Select(t => t.Weight).ToArray();
        if (weights.Any(w => w < 1))
        {
            throw new ArgumentException("every weight must be at least 1", nameof(templates));
        }
        _order = SmoothOrder(weights);
    }

    /// <summary>The index of the template the next request sends.</summary>
    public int Next()
    {
        if (_order.Length == 1)
        {
            return 0;
        }
        var n = Interlocked.Increment(ref _next);
        return _order[(int)(n % _order.Length)];
    }

    // One cycle of smooth weighted round-robin: each step every template gains its weight, the richest is picked
    // and pays the total. A cycle has sum(weights) picks, each template exactly its weight times.
    private static int[] SmoothOrder(int[] weights)
    {
        long total = weights.Sum(w => (long)w);
        if (total > 1_000_000)
        {
            throw new ArgumentException("the weights add up to more than 1000000", nameof(weights));
        }
        var current = new long[weights.Length];
        var order = new int[total];
        for (var step = 0; step < total; step++)
        {
            var best = 0;
            for (var i = 0; i < weights.Length; i++)
            {
                current[i] += weights[i];
                if (current[i] > current[best])
                {
                    best = i;
                }
            }
            current[best] -= total;
            order[step] = best;
        }
        return order;
    }
}
