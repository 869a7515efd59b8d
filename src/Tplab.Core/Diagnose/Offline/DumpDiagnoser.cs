namespace Tplab.Diagnose.Offline;

/// <summary>Placeholder replaced by the ClrMD reader in the next commit.</summary>
public static class DumpDiagnoser
{
    /// <summary>Not yet.</summary>
    public static Diagnosis Diagnose(string path, DiagnoseOptions options) => throw Common.TplabException.Usage($"--dump {path}: not built yet");
}
