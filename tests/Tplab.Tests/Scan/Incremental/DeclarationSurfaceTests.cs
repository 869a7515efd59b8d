using Microsoft.CodeAnalysis.CSharp;
using Tplab.Scan.Incremental;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Incremental;

/// <summary>
/// A source's declaration surface: the same across edits inside member bodies (what no referencing project sees),
/// whitespace and plain comments; different for every edit a referencing project's compiler or generators can see. Pure syntax.
/// </summary>
[ParallelSafe]
public sealed class DeclarationSurfaceTests
{
    private const string Before = """
        namespace Shop;
        /// <summary>Orders.</summary>
        [Serializable]
        public sealed class Orders(int size)
        {
            public const int Max = 10;
            private readonly int _size = size;
            public int Count { get { return _size; } }
            public int Twice => _size * 2;
            public int this[int i] => i;
            public Orders() : this(1) { System.Threading.Thread.Sleep(1); }
            public int Find(int id) { var f = (int x) => x; return f(id); }
            public int Add(int a) => a + 1;
            public System.Collections.Generic.IEnumerable<int> All() { return new[] { 1 }; }
            public static Orders operator +(Orders a, Orders b) { return a; }
        }
        """;

    public static TheoryData<string, string, string, bool> Edits => new()
    {
        { "a statement in a method", "var f = (int x) => x; return f(id);", "System.Threading.Thread.Sleep(5); return id;", true },
        { "an expression body of a method", "=> a + 1;", "=> a + 2;", true },
        { "a property's expression body", "=> _size * 2;", "=> _size + _size;", true },
        { "an indexer's expression body", "this[int i] => i;", "this[int i] => i + 0;", true },
        { "an accessor's body", "get { return _size; }", "get { return _size + 0; }", true },
        { "a constructor's body", "{ System.Threading.Thread.Sleep(1); }", "{ }", true },
        { "an operator's body", "{ return a; }", "{ return b; }", true },
        { "a comment inside a body", "return f(id);", "return f(id); /* found */", true },
        { "a comment between members", "public const int Max", "// the most\n    public const int Max", true },
        { "blank lines and indentation", "public const int Max", "\n\n        public  const int Max", true },
        { "a nullable directive", "public const int Max", "#nullable enable\n    public const int Max", false },
        { "a method's signature", "public int Find(int id)", "public long Find(int id)", false },
        { "a method added", "public int Add(int a)", "public void Extra() { } public int Add(int a)", false },
        { "an attribute", "[Serializable]", "[Obsolete]", false },
        { "a constant's value", "Max = 10;", "Max = 11;", false },
        { "a field initializer", "_size = size;", "_size = size + 1;", false },
        { "a constructor initializer", ": this(1)", ": this(2)", false },
        { "a documentation comment", "<summary>Orders.</summary>", "<summary>The orders.</summary>", false },
        { "a body that becomes an iterator", "{ return new[] { 1 }; }", "{ yield return 1; }", false },
        { "accessibility", "public int Add(int a)", "internal int Add(int a)", false },
    };

    [Theory]
    [MemberData(nameof(Edits))]
    public void Of_AnEdit_KeepsTheSurfaceOnlyInsideBodies(string edit, string from, string to, bool same)
    {
        Assert.Contains(from, Before, StringComparison.Ordinal);
        var before = DeclarationSurface.Of(CSharpSyntaxTree.ParseText(Before));
        var after = DeclarationSurface.Of(CSharpSyntaxTree.ParseText(Before.Replace(from, to, StringComparison.Ordinal)));

        Assert.True(same == (before == after), $"{edit}: the surface {(same ? "changed" : "stayed the same")}");
        Assert.Matches("^[0-9a-f]{64}$", before);
    }

    [Fact]
    public void Of_TopLevelStatements_AreSurface()
    {
        // A top-level program's synthesized Main takes its signature from its statements (await, return a value).
        var before = DeclarationSurface.Of(CSharpSyntaxTree.ParseText("System.Console.WriteLine(1);\n"));
        var after = DeclarationSurface.Of(CSharpSyntaxTree.ParseText("await System.Threading.Tasks.Task.Yield();\n"));

        Assert.NotEqual(before, after);
    }

    [Fact]
    public void Of_YieldInALambdaOrLocalFunction_DoesNotMakeTheMethodAnIterator()
    {
        const string Plain = "class C { object M() { return 1; } }";
        const string Local = "class C { object M() { System.Collections.Generic.IEnumerable<int> L() { yield return 1; } return L(); } }";

        Assert.Equal(DeclarationSurface.Of(CSharpSyntaxTree.ParseText(Plain)), DeclarationSurface.Of(CSharpSyntaxTree.ParseText(Local)));
    }
}
