using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Features;

/// <summary>Feature switches from the flag service, read once per process.</summary>
public sealed class FeatureFlags(IReadOnlySet<string> on)
{
    public bool IsOn(string flag) => on.Contains(flag);
}

public static class FeatureFlagServices
{
    public static IServiceCollection AddFeatureFlags(this IServiceCollection services) =>
        services.AddSingleton(sp => FeatureFlagsLoader.Load(sp.GetRequiredService<IOptions<BoxOfficeOptions>>().Value));
}

public static class FeatureFlagsLoader
{
    public static FeatureFlags Load(BoxOfficeOptions options) => new(FetchAsync(options).Result);

    private static async Task<IReadOnlySet<string>> FetchAsync(BoxOfficeOptions options)
    {
        // The flag service is slow on a cold start.
        await Task.Delay(options.UpstreamDelayMs * 10);
        return new HashSet<string>(["big-carousel", "seat-preview"], StringComparer.Ordinal);
    }
}
