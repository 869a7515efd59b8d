namespace ShopApp.Integration;

public sealed class ThumbnailService(ImageTool tool)
{
    public object Render(int id)
    {
        var exitCode = tool.Run("0.3");
        return new { id, rendered = exitCode == 0 };
    }
}

/// <summary>Runs the image tool (stand-in: <c>sleep</c>) and waits for it.</summary>
public sealed class ImageTool
{
    public int Run(string arguments)
    {
        using var process = System.Diagnostics.Process.Start(new System.Diagnostics.ProcessStartInfo("sleep", arguments)
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
        })!;
        process.WaitForExit();
        return process.ExitCode;
    }
}
