using Tplab.Fuzz;

namespace Tplab.Tests.Fuzz;

/// <summary>
/// Every input a fuzzer found (bench/fuzz.sh READER SECONDS saves them; they are copied to Fuzz/Found/READER/) is a
/// test row: the reader refuses it in one line with a documented code, or reads it; never another exception.
/// </summary>
public sealed class FoundInputsTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-fuzz-found-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static string Found => Path.Combine(AppContext.BaseDirectory, "Fuzz", "Found");

    public static TheoryData<string, string> Inputs()
    {
        var data = new TheoryData<string, string>();
        foreach (var folder in Directory.EnumerateDirectories(Found).Order(StringComparer.Ordinal))
        {
            foreach (var file in Directory.EnumerateFiles(folder).Order(StringComparer.Ordinal))
            {
                data.Add(Path.GetFileName(folder), Path.GetFileName(file));
            }
        }
        return data;
    }

    [Theory]
    [MemberData(nameof(Inputs))]
    public void Reader_FoundInput_RefusedInOneLineOrRead(string reader, string file)
    {
        Assert.True(Readers.All.ContainsKey(reader), $"Fuzz/Found/{reader} names no reader of bench/fuzz/Readers.cs");

        Readers.Run(reader, File.ReadAllBytes(Path.Combine(Found, reader, file)), _folder); // a FuzzDefect or any other exception fails
    }
}
