using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Plans;

namespace Tplab.Lab.Running;

/// <summary>Turns the options into the experiments to run; unknown names are usage errors listing the known ones.</summary>
public static class LabSelection
{
    /// <summary>The experiments <paramref name="options"/> asks for, filtered and with any pool override applied.</summary>
    public static IReadOnlyList<Experiment> Select(LabOptions options)
    {
        IReadOnlyList<Experiment> experiments = options.PlanPath is { } plan
            ? [PlanReader.Read(plan)]
            : SeedExperiments.All(options.Profile);
        if (options.PlanPath is null && options.Experiments.Count > 0)
        {
            var unknown = options.Experiments.FirstOrDefault(n => !SeedExperiments.Names.Contains(n, StringComparer.Ordinal));
            if (unknown is not null)
            {
                throw TplabException.Usage($"--experiment: unknown experiment '{unknown}' (one of: {string.Join(", ", SeedExperiments.Names)})");
            }
            experiments = [.. experiments.Where(e => options.Experiments.Contains(e.Name, StringComparer.Ordinal))];
        }
        if (options.Variants.Count > 0)
        {
            var unknown = options.Variants.FirstOrDefault(v => !Variants.All.Contains(v.TrimStart('/'), StringComparer.Ordinal));
            if (unknown is not null)
            {
                throw TplabException.Usage($"--variant: unknown variant '{unknown}' (one of: {string.Join(", ", Variants.All)})");
            }
            var wanted = options.Variants.Select(v => v.TrimStart('/')).ToHashSet(StringComparer.Ordinal);
            experiments = [.. experiments
                .Select(e => e with { Scenarios = [.. e.Scenarios.Where(s => s.Variant is { } v && wanted.Contains(v))] })
                .Where(e => e.Scenarios.Count > 0)];
            if (experiments.Count == 0)
            {
                throw TplabException.Usage($"--variant {string.Join(",", options.Variants)}: no selected experiment has that variant");
            }
        }
        if (options.ThreadPoolOverride is { } pool)
        {
            // One scenario per variant is enough once every scenario gets the same pool settings.
            experiments = [.. experiments.Select(e => e with
            {
                Scenarios = [.. e.Scenarios.GroupBy(s => s.Variant ?? s.Id).Select(g => g.First() with { Id = g.Key + "-custom", ThreadPool = pool })],
                Lessons = [],
            })];
        }
        return experiments;
    }
}
