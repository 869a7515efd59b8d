using System.Runtime.InteropServices;
using Tplab.Common;

namespace Tplab.Launch;

/// <summary>Finds the <c>dotnet</c> host and the target's files that ship next to tplab.</summary>
public static class DotnetHost
{
    /// <summary>Assembly name of the target service.</summary>
    public const string TargetAssembly = "Tplab.Target";

    /// <summary>The dotnet host that runs this process's runtime.</summary>
    public static string Path
    {
        get
        {
            var fromEnv = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH");
            if (!string.IsNullOrEmpty(fromEnv) && File.Exists(fromEnv))
            {
                return fromEnv;
            }
            // <root>/shared/Microsoft.NETCore.App/<version>/ → <root>/dotnet
            var runtimeDir = RuntimeEnvironment.GetRuntimeDirectory().TrimEnd('/', '\\');
            var root = Directory.GetParent(runtimeDir)?.Parent?.Parent?.FullName;
            var exe = OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet";
            var candidate = root is null ? null : System.IO.Path.Combine(root, exe);
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
