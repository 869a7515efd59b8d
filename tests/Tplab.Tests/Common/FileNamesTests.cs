using Tplab.Common;
using Tplab.Lab.Experiments;

namespace Tplab.Tests.Common;

/// <summary>One rule from a name to a file name, for the built-in target's scenarios as for a user's plan.</summary>
public sealed class FileNamesTests
{
    [Theory]
    [InlineData("a", true)]
    [InlineData("sleep-min100.r2_x", true)]
    [InlineData("", false)]
    [InlineData(".hidden", false)]
    [InlineData("..", false)]
    [InlineData("a/b", false)]
    [InlineData("a\\b", false)]
    [InlineData("a\u001bb", false)]
    [InlineData("a b", false)]
    [InlineData("é", false)]
    public void IsSafe(string name, bool safe) => Assert.Equal(safe, FileNames.IsSafe(name));

    [Fact]
    public void Segment_UnsafeName_IsABugNeverAPath() =>
        Assert.Throws<InvalidOperationException>(() => FileNames.Segment("../../x"));

    [Theory]
    [InlineData(LabProfile.Quick)]
    [InlineData(LabProfile.Full)]
    public void SeedExperiments_EveryNameAndId_IsASafeFileName(LabProfile profile)
    {
        foreach (var experiment in SeedExperiments.All(profile))
        {
            Assert.True(FileNames.IsSafe(experiment.Name), experiment.Name);
            Assert.All(experiment.Scenarios, s => Assert.True(FileNames.IsSafe(s.Id), s.Id));
        }
    }
}
