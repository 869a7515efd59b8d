using System.Xml;
using System.Xml.Linq;

namespace Tplab.Scan.Loading;

/// <summary>What tplab reads from a project file before MSBuild loads it: whether it is C# and whether it is a test project (where its restore output is, <see cref="RestoreState"/> asks MSBuild).</summary>
public sealed record ProjectFile(string Path)
{
    // The packages that make a project a test project, whatever its name or folder.
    private static readonly string[] TestPackages =
    [
        "Microsoft.NET.Test.Sdk", "xunit", "xunit.core", "xunit.v3", "NUnit", "MSTest.TestFramework", "MSTest", "MSTest.Sdk", "TUnit",
    ];

    /// <summary><c>Orders.Api</c> for <c>src/Orders.Api/Orders.Api.csproj</c>.</summary>
    public string Name => System.IO.Path.GetFileNameWithoutExtension(Path);

    /// <summary>A C# project (.csproj): the only kind scan reads.</summary>
    public bool IsCSharp => Path.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// A test project: <c>IsTestProject</c> set, the MSTest SDK, or a test framework package referenced in the project
    /// file (a test project set up only by Directory.Build.props is found after loading, by its references).
    /// </summary>
    public bool IsTestProject
    {
        get
        {
            var root = Read();
            if (root is null)
            {
                return false;
            }
            if (((string?)root.Attribute("Sdk"))?.StartsWith("MSTest.Sdk", StringComparison.OrdinalIgnoreCase) == true)
            {
                return true;
            }
            var isTest = root.Descendants().Where(e => e.Name.LocalName == "IsTestProject").Select(e => e.Value.Trim()).LastOrDefault();
            if (isTest is not null)
            {
                return string.Equals(isTest, "true", StringComparison.OrdinalIgnoreCase);
            }
            return root.Descendants().Where(e => e.Name.LocalName == "PackageReference")
                .Select(e => (string?)e.Attribute("Include") ?? "")
                .Any(p => TestPackages.Contains(p, StringComparer.OrdinalIgnoreCase));
        }
    }

    /// <summary>The project file's root element, or null when it cannot be read as XML.</summary>
    internal XElement? Read()
    {
        try
        {
            using var reader = XmlReader.Create(Path, new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit });
            return XDocument.Load(reader).Root;
        }
        catch (Exception e) when (e is IOException or XmlException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
