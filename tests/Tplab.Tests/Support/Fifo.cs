using System.Runtime.InteropServices;

namespace Tplab.Tests.Support;

/// <summary>A named pipe for the tests of readers that must not wait on one: made with mkfifo(3), no child process.</summary>
internal static class Fifo
{
    /// <summary>Makes a FIFO at <paramref name="path"/>, mode 600.</summary>
    public static void Make(string path)
    {
        if (MakeFifo(path, Convert.ToUInt32("600", 8)) != 0)
        {
            throw new IOException($"mkfifo {path} failed: errno {Marshal.GetLastPInvokeError()}");
        }
    }

    [DllImport("libc", EntryPoint = "mkfifo", SetLastError = true)]
    [DefaultDllImportSearchPaths(DllImportSearchPath.SafeDirectories)]
    private static extern int MakeFifo([MarshalAs(UnmanagedType.LPUTF8Str)] string path, uint mode);
}
