using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace Tplab.Scan.Rules;

/// <summary>Where a stream's bytes come from, as far as source tells.</summary>
internal enum StreamOrigin
{
    Unknown,
    Memory,
    RequestBody,
    ResponseBody,
    File,
    Network,
    Pipe,
}

/// <summary>
/// Reads where a stream (or a reader/writer over one) comes from: the request or response body, a file, a socket,
/// memory. A synchronous read of a MemoryStream holds no thread; of a file or socket it does; of a Stream whose
/// origin the code does not show, it probably does (a warning).
/// </summary>
internal static class StreamOrigins
{
    private static readonly string[] MemoryTypes =
        ["System.IO.MemoryStream", "System.IO.UnmanagedMemoryStream", "Microsoft.IO.RecyclableMemoryStream", "System.IO.StringReader", "System.IO.StringWriter"];

    // Streams and readers that wrap another stream: their origin is the inner one's.
    private static readonly string[] Wrappers =
    [
        "System.IO.StreamReader", "System.IO.StreamWriter", "System.IO.BinaryReader", "System.IO.BinaryWriter", "System.IO.BufferedStream",
        "System.IO.Compression.GZipStream", "System.IO.Compression.DeflateStream", "System.IO.Compression.BrotliStream",
        "System.IO.Compression.ZLibStream", "System.Security.Cryptography.CryptoStream", "System.Net.Security.SslStream",
    ];

    /// <param name="callers">When given, a parameter's origin is read from what every caller passes.</param>
    public static StreamOrigin Classify(IOperation? op, IOperation body, IArgumentSource? callers = null, int depth = 0)
    {
        op = Ops.Unwrap(op);
        if (op is null || depth > 4)
        {
            return StreamOrigin.Unknown;
        }
        var byType = ByStaticType(op.Type);
        if (byType is not StreamOrigin.Unknown)
        {
            return byType;
        }
        switch (op)
        {
            case IPropertyReferenceOperation { Property.Name: "Body" } p when Ops.NameOf(p.Property.ContainingType) == "Microsoft.AspNetCore.Http.HttpRequest":
                return StreamOrigin.RequestBody;
            case IPropertyReferenceOperation { Property.Name: "Body" } p when Ops.NameOf(p.Property.ContainingType) == "Microsoft.AspNetCore.Http.HttpResponse":
                return StreamOrigin.ResponseBody;
            case IPropertyReferenceOperation { Property.Name: "StandardOutput" or "StandardError" or "StandardInput" or "BaseStream" } p:
                return Ops.NameOf(p.Property.ContainingType) == "System.Diagnostics.Process" ? StreamOrigin.Pipe : Classify(p.Instance, body, callers, depth + 1);
            case IObjectCreationOperation c when Wrappers.Contains(Ops.NameOf(c.Type)):
                var inner = c.Arguments.Length > 0 ? c.Arguments[0].Value : null;
                return inner?.Type?.SpecialType == SpecialType.System_String ? StreamOrigin.File : Classify(inner, body, callers, depth + 1);
            case IInvocationOperation i:
                return ByFactory(i, body, callers, depth);
            case IAwaitOperation a:
                return Classify(a.Operation, body, callers, depth + 1);
            case ICoalesceOperation c:
                // GetManifestResourceStream(name) ?? throw ...: the stream is the left side's.
                return Combine(Ops.Unwrap(c.WhenNull) is IThrowOperation ? [Classify(c.Value, body, callers, depth + 1)]
                    : [Classify(c.Value, body, callers, depth + 1), Classify(c.WhenNull, body, callers, depth + 1)]);
            case ILocalReferenceOperation l:
                return Combine(Ops.ValuesOf(l.Local, body).Select(v => Classify(v, body, callers, depth + 1)));
            case IParameterReferenceOperation p when callers is not null && depth < 3:
                return Combine(callers.ArgumentsFor(p.Parameter).Take(20).Select(a => Classify(a.Value, a.Body, callers, depth + 1)));
            default:
                return StreamOrigin.Unknown;
        }
    }

    // Every value seen: memory when all are memory; a real origin when one is; otherwise not known.
    private static StreamOrigin Combine(IEnumerable<StreamOrigin> seen)
    {
        var origins = seen.Distinct().ToList();
        return origins.Count == 0 ? StreamOrigin.Unknown
            : origins.All(o => o == StreamOrigin.Memory) ? StreamOrigin.Memory
            : origins.FirstOrDefault(o => o is not (StreamOrigin.Unknown or StreamOrigin.Memory));
    }

    /// <summary>The words for diagnose's "blocks on" field.</summary>
    public static string? Words(StreamOrigin origin) => origin switch
    {
        StreamOrigin.RequestBody => "the request body",
        StreamOrigin.ResponseBody => "the response body",
        StreamOrigin.File => "a file",
        StreamOrigin.Network => "a socket",
        StreamOrigin.Pipe => "a process pipe",
        _ => null,
    };

    // HttpClient reads the whole body into memory before Send/GetAsync return, unless asked for ResponseHeadersRead:
    // a stream over a buffered body holds no thread.
    private static StreamOrigin ResponseBody(IOperation? content, IOperation body, int depth)
    {
        if (Ops.Unwrap(content) is not IPropertyReferenceOperation { Property.Name: "Content" } property)
        {
            return StreamOrigin.Unknown;
        }
        var response = Ops.Unwrap(property.Instance);
        var sources = response is ILocalReferenceOperation local ? Ops.ValuesOf(local.Local, body).ToList() : response is null ? [] : [response];
        var calls = sources.Select(s => Ops.Unwrap(s is IAwaitOperation a ? a.Operation : s)).OfType<IInvocationOperation>().ToList();
        if (calls.Count == 0 || depth > 4)
        {
            return StreamOrigin.Unknown;
        }
        var streamed = calls.Any(c => c.Descendants().OfType<IFieldReferenceOperation>().Any(f => f.Field.Name == "ResponseHeadersRead"));
        var fromClient = calls.All(c => Ops.IsOrDerives(c.TargetMethod.ContainingType, "System.Net.Http.HttpClient") || Ops.IsOrDerives(c.TargetMethod.ContainingType, "System.Net.Http.HttpMessageInvoker"));
        return streamed ? StreamOrigin.Network : fromClient ? StreamOrigin.Memory : StreamOrigin.Unknown;
    }

    private static StreamOrigin ByStaticType(ITypeSymbol? type)
    {
        if (MemoryTypes.Any(m => Ops.IsOrDerives(type, m)))
        {
            return StreamOrigin.Memory;
        }
        if (Ops.IsOrDerives(type, "System.IO.FileStream"))
        {
            return StreamOrigin.File;
        }
        if (Ops.IsOrDerives(type, "System.Net.Sockets.NetworkStream"))
        {
            return StreamOrigin.Network;
        }
        return StreamOrigin.Unknown;
    }

    private static StreamOrigin ByFactory(IInvocationOperation i, IOperation body, IArgumentSource? callers, int depth)
    {
        var type = Ops.NameOf(i.TargetMethod.ContainingType);
        var name = i.TargetMethod.Name;
        return type switch
        {
            "System.IO.File" or "System.IO.FileInfo" when name.StartsWith("Open", StringComparison.Ordinal) || name.StartsWith("Create", StringComparison.Ordinal) || name == "AppendText" => StreamOrigin.File,
            "System.Net.Http.HttpContent" when name is "ReadAsStream" or "ReadAsStreamAsync" => ResponseBody(i.Instance, body, depth),
            // An embedded resource is mapped into memory with the assembly (an UnmanagedMemoryStream).
            "System.Reflection.Assembly" when name == "GetManifestResourceStream" => StreamOrigin.Memory,
            "System.Net.WebResponse" or "System.Net.HttpWebResponse" when name == "GetResponseStream" => StreamOrigin.Network,
            "System.Net.Sockets.TcpClient" when name == "GetStream" => StreamOrigin.Network,
            _ when name is "ConfigureAwait" or "GetAwaiter" => Classify(i.Instance, body, callers, depth + 1),
            // A stream one of the solution's methods returns: what it returns (a helper around GetManifestResourceStream).
            _ when callers is not null && depth < 4 && callers.ReturnedBy(i.TargetMethod) is { Count: > 0 } returned
                => Combine(returned.Take(10).Select(r => Classify(r.Value, r.Body, callers, depth + 1))),
            _ => StreamOrigin.Unknown,
        };
    }
}
