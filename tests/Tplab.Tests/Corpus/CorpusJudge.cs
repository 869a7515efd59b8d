using ShopApp.Corpus;
using Tplab.Diagnose;

namespace Tplab.Tests.Corpus;

/// <summary>Compares diagnose's and watch's answers with what the corpus expects; every difference in words.</summary>
internal static class CorpusJudge
{
    public static IReadOnlyList<string> Differences(CorpusOutcome outcome)
    {
        var expected = outcome.Expected;
        var diagnosis = outcome.Diagnosis;
        var differences = new List<string>();
        if (expected.Illness == Illness.Blocking)
        {
            if (outcome.Top is not { } top)
            {
                differences.Add($"expected {expected.BlockingCall} in {expected.UserMethod}, diagnose said clear");
            }
            else
            {
                var userMethod = "ShopApp." + expected.UserMethod;
                if (top.UserFrame?.FullName != userMethod)
                {
                    differences.Add($"user method: expected {userMethod}, got {top.UserFrame?.FullName ?? "(no application frame)"}");
                }
                if (top.BlockingCall.Name != expected.BlockingCall)
                {
                    differences.Add($"blocking call: expected {expected.BlockingCall}, got {top.BlockingCall.Name}");
                }
            }
        }
        else if (expected.Illness == Illness.CpuBound)
        {
            // A different illness from blocking: no culprit, the verdict cpu-bound and the hot method named.
            var hot = diagnosis.HotMethods.Count > 0 ? diagnosis.HotMethods[0].Method.FullName : null;
            if (diagnosis.Verdict != DiagnosisVerdict.CpuBound)
            {
                differences.Add($"expected cpu-bound, diagnose said {(diagnosis.Verdict == DiagnosisVerdict.Clear ? "clear" : outcome.Said)}");
            }
            else if (hot != "ShopApp." + expected.UserMethod)
            {
                differences.Add($"hot method: expected ShopApp.{expected.UserMethod}, got {hot}");
            }
        }
        else if (diagnosis.Verdict != DiagnosisVerdict.Clear)
        {
            differences.Add($"expected no culprit ({expected.Illness}), diagnose said {outcome.Said}");
        }
        // "starving" is met by a watch that saw starvation and then the runtime's compensation catch up (recovering).
        var poolRight = expected.Pool is null || outcome.PoolWord == expected.Pool || (expected.Pool == "starving" && outcome.PoolWord == "recovering");
        if (!poolRight)
        {
            differences.Add($"watch: expected {expected.Pool}, got {outcome.PoolWord} ({diagnosis.Pool?.Evidence})");
        }
        return differences;
    }
}
