using SharpFuzz;
using Tplab.Fuzz;

// tplab-fuzz READER: afl-fuzz's target (bench/fuzz.sh). tplab-fuzz READER FILE...: replays inputs (a crash throws).
if (args.Length == 0 || !Readers.All.ContainsKey(args[0]))
{
    Console.Error.WriteLine($"usage: tplab-fuzz READER [FILE...]; READER is one of {string.Join(", ", Readers.All.Keys)}");
    return 2;
}
var reader = args[0];
var folder = Directory.CreateTempSubdirectory("tplab-fuzz-").FullName;
try
{
    if (args.Length > 1)
    {
        foreach (var file in args.Skip(1))
        {
            Readers.Run(reader, File.ReadAllBytes(file), folder);
        }
        return 0;
    }
    Fuzzer.OutOfProcess.Run(stream =>
    {
        using var buffer = new MemoryStream();
        stream.CopyTo(buffer);
        Readers.Run(reader, buffer.ToArray(), folder);
    });
    return 0;
}
finally
{
    Directory.Delete(folder, recursive: true);
}
