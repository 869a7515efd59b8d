using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix;
using Tplab.Tests.Support;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// The async sibling as the compiler binds it, on snippets compiled in memory: an array read or write takes the
/// Memory overload (no CA1835), and a token <c>--add-cancellation</c> plans — a parameter that does not exist yet
/// where the call is — is passed wherever an overload takes one.
/// </summary>
[ParallelSafe]
public sealed class FixSiblingTests
{
    private const string Code = """
        using System;
        using System.IO;
        using System.Net.Http;
        public static class Relay
        {
            public static int Copy(Stream from, Stream to, byte[] buffer, HttpClient client, HttpRequestMessage request)
            {
                var n = from.Read(buffer, 0, buffer.Length);
                to.Write(buffer, 0, n);
                using var response = client.Send(request);
                return n;
            }
        }
        """;

    private static async Task<string?> SiblingAsync(string method, string? token)
    {
        var (_, context, tree) = FixPartsTests.Load(Code);
        var model = await context.ModelAsync(tree);
        var call = FixPartsTests.Node<InvocationExpressionSyntax>(tree, i => i.Expression is MemberAccessExpressionSyntax m && m.Name.Identifier.ValueText == method);
        var symbol = (IMethodSymbol)model.GetSymbolInfo(call).Symbol!;
        return AsyncSiblings.Find(model, call, symbol, token)?.Call.ToString();
    }

    [Theory]
    // the array overloads become the Memory ones
    [InlineData("Read", null, "from.ReadAsync(buffer.AsMemory(0, buffer.Length))")]
    [InlineData("Write", null, "to.WriteAsync(buffer.AsMemory(0, n))")]
    // a token the fix is about to add to the method is passed, though it is not in scope yet
    [InlineData("Read", "cancellationToken", "from.ReadAsync(buffer.AsMemory(0, buffer.Length), cancellationToken)")]
    [InlineData("Send", "cancellationToken", "client.SendAsync(request, cancellationToken)")]
    [InlineData("Send", null, "client.SendAsync(request)")]
    public async Task Find_ArrayIoAndPlannedToken_BindsTheSiblingThatTakesThem(string method, string? token, string expected)
    {
        Assert.Equal(expected, await SiblingAsync(method, token));
    }
}
