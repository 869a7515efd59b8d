using Tplab.Blocking;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Stacks;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary>Following calls through an application's IL (this test assembly stands in for the app).</summary>
[ParallelSafe]
public sealed class ApplicationCodeTests
{
    private static readonly Func<string, string, bool> IsGetResult =
        (type, method) => BlockingCallCatalogue.Match(new StackFrame("", type, method))?.Name == "GetAwaiter().GetResult()";

    [Fact]
    public void PathTo_HelperTheJitCouldInline_IsFoundAndAnAsyncMethodsOwnAwaitIsNot()
    {
        using var code = ApplicationCode.Load([typeof(IlShop).Assembly.Location], new LibraryCode());
        var type = typeof(IlShop).FullName!;

        Assert.False(code.Calls(type, nameof(IlShop.Handler), IsGetResult));
        Assert.True(code.Calls(type, nameof(IlShop.Load), IsGetResult));
        // FetchAsync's state machine calls its awaiter's GetResult too, but that is an await, not a blocking call.
        Assert.Equal([(type, nameof(IlShop.Load))], code.PathTo(type, nameof(IlShop.Handler), IsGetResult));
    }

    [Fact]
    public void Load_MissingOrLibraryFiles_AreSkipped()
    {
        using var code = ApplicationCode.Load(["/nonexistent/App.dll", typeof(object).Assembly.Location], new LibraryCode());

        Assert.Equal(0, code.MethodCount);
    }
}

/// <summary>Shaped like a page handler calling a renderer that blocks on its own async helper.</summary>
internal static class IlShop
{
    public static int Handler(int id) => Load(id) + 1;

    public static int Load(int id) => FetchAsync(id).GetAwaiter().GetResult();

    private static async Task<int> FetchAsync(int id)
    {
        await Task.Yield();
        return id;
    }
}
