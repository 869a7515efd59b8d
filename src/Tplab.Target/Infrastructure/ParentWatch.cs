namespace Tplab.Target.Infrastructure;

/// <summary>
/// Ends this process when the launcher goes away. The launcher holds our stdin pipe open;
/// when it exits for any reason (even kill -9) the kernel closes it and the read returns EOF.
/// </summary>
internal static class ParentWatch
{
    public static void ExitWhenStdinCloses()
    {
        var thread = new Thread(() =>
        {
            var stdin = Console.OpenStandardInput();
            var buffer = new byte[256];
            try
            {
                while (stdin.Read(buffer, 0, buffer.Length) > 0)
                {
                }
            }
            catch (IOException)
            {
            }
            Environment.Exit(0);
        })
        {
            IsBackground = true,
            Name = "tplab parent watch",
        };
        thread.Start();
    }
}
