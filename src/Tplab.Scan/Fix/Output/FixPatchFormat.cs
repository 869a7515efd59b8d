namespace Tplab.Scan.Fix.Output;

/// <summary><c>tplab fix --format patch</c> (the default without <c>--apply</c>): the whole change as one unified diff that <c>git apply</c> takes.</summary>
public sealed class FixPatchFormat : IFixFormat
{
    public string Name => "patch";

    public string Description => "a unified diff that git apply takes";

    public IReadOnlyList<string> Extensions => [".patch", ".diff"];

    public bool MachineReadable => true;

    public string? ChangesToMake => "a patch";

    public void Write(FixResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(result.Patch);
    }
}
