using System.Runtime.InteropServices;
using Tplab.Common;

namespace Tplab.Launch;

/// <summary>Finds the <c>dotnet</c> host and the target's files that ship next to tplab.</summary>
public static class DotnetHost
{
    /// <summary>Assembly name of the target service.</summary>
    public const string TargetAssembly = "Tplab.Target";

    /// <summary>The dotnet host that runs the target: the one running tplab, or the PATH's when tplab carries its own runtime.</summary>
    public static string Path
    {
        get
        {
            var fromEnv = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH");
            if (!string.IsNullOrEmpty(fromEnv) && File.Exists(fromEnv))
            {
                return fromEnv;
            }
            // <root>/shared/Microsoft.NETCore.App/<version>/ → <root>/dotnet. A self-contained tplab (./tplab's publish)
            // carries its runtime in its own folder: the target then runs on the machine's dotnet, found on the PATH.
            var runtimeDir = new DirectoryInfo(RuntimeEnvironment.GetRuntimeDirectory().TrimEnd('/', '\\'));
            var exe = OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet";
            var candidate = runtimeDir.Parent is { Name: "Microsoft.NETCore.App", Parent: { Name: "shared", Parent: { } root } }
                ? System.IO.Path.Combine(root.FullName, exe)
                : null;
            return candidate is not null && File.Exists(candidate) ? candidate : exe;
        }
    }

    /// <summary>Path of a file of the target next to tplab's own assemblies.</summary>
    public static string TargetFile(string extension)
    {
        var path = System.IO.Path.Combine(AppContext.BaseDirectory, TargetAssembly + extension);
        if (!File.Exists(path))
        {
            throw new TplabException(ExitCodes.Environment, $"the target service is missing: {path} (rebuild tplab)");
        }
        return path;
    }
}
