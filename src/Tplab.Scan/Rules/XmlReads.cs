using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;

namespace Tplab.Scan.Rules;

/// <summary>
/// XML read or written whole: <c>XmlSerializer</c> over a stream, reader or writer, and <c>XmlDocument.Load</c>,
/// <c>XDocument.Load</c>, <c>XElement.Load</c> from a path (a file read on the calling thread) or over a stream or
/// reader. Synchronous I/O unless source shows the stream is memory (a <c>StringReader</c>, a <c>MemoryStream</c>).
/// </summary>
internal static class XmlReads
{
    /// <summary>Whether the call is one of the XML reads judged here.</summary>
    public static bool Handles(string type, string name) =>
        type == "System.Xml.Serialization.XmlSerializer"
        || type is "System.Xml.XmlDocument" or "System.Xml.Linq.XDocument" or "System.Xml.Linq.XElement" && name == "Load";

    public static Verdict? Judge(IOperation call, StackFrame frame, IOperation body, IArgumentSource? callers)
    {
        if (call is not IInvocationOperation xml)
        {
            return null;
        }
        var name = frame.MethodName;
        var serializer = frame.TypeName == "System.Xml.Serialization.XmlSerializer";
        if (serializer && name is not ("Deserialize" or "Serialize"))
        {
            return null;
        }
        var said = serializer ? "XmlSerializer." + name : BlockingCallCatalogue.ShortName(frame);
        // Loaded from a path (or a URI): the file is read whole on the calling thread.
        if (!serializer && xml.Arguments.FirstOrDefault()?.Value.Type?.SpecialType == SpecialType.System_String)
        {
            var fromFile = new BlockingCall(BlockingKind.SyncStreamIO, said, frame) { On = "a file" };
            return new Verdict(fromFile, Certainty.Certain, null, $"{said} reads the file whole");
        }
        if (xml.Arguments.FirstOrDefault(a => a.Value.Type is { } t && (Ops.IsOrDerives(t, "System.IO.Stream") || Ops.IsOrDerives(t, "System.IO.TextReader")
                || Ops.IsOrDerives(t, "System.IO.TextWriter") || Ops.IsOrDerives(t, "System.Xml.XmlReader") || Ops.IsOrDerives(t, "System.Xml.XmlWriter"))) is not { } xmlArgument)
        {
            return null;
        }
        var origin = StreamOrigins.Classify(xmlArgument.Value, body, callers);
        var named = new BlockingCall(BlockingKind.SyncStreamIO, said, frame) { On = StreamOrigins.Words(origin) };
        var whole = serializer ? "XmlSerializer reads the stream whole" : $"{said} reads the stream whole";
        return origin switch
        {
            StreamOrigin.Memory => null,
            StreamOrigin.Unknown when !Ops.IsOrDerives(xmlArgument.Value.Type, "System.IO.Stream") => null,
            StreamOrigin.Unknown => new Verdict(named, Certainty.Uncertain, "the stream's type is not known from source", whole),
            _ => new Verdict(named, Certainty.Certain, null, $"{(serializer ? "XmlSerializer" : said)} over {StreamOrigins.Words(origin)}"),
        };
    }
}
