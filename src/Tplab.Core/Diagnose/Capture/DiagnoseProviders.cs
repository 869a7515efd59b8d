using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Tplab.Runtime;

namespace Tplab.Diagnose.Capture;

/// <summary>
/// The one list of EventPipe providers diagnose records, so a live capture and a trace recorded with
/// <c>dotnet-trace collect</c> (<see cref="Offline.TraceRecipe"/>) hold the same events and go through the same analysis.
/// </summary>
public static class DiagnoseProviders
{
    /// <summary>Microsoft-Windows-DotNETRuntime: ContentionStart/Stop with stacks (a contended <c>lock</c>); the watch's constant.</summary>
    public const long ContentionKeyword = RuntimeProviders.ContentionKeyword;

    /// <summary>Microsoft-Windows-DotNETRuntime: MethodJitInliningSucceeded/Failed (Verbose), which name the caller an inlined method went into.</summary>
    public const long JitTracingKeyword = 0x1000;

    /// <summary>Microsoft-Windows-DotNETRuntime: MethodLoadVerbose (Verbose) of every method jitted during the capture: where its code is.</summary>
    public const long JitKeyword = 0x10;

    /// <summary>
    /// Microsoft-Windows-DotNETRuntime: MethodILToNativeMap beside each MethodLoadVerbose, which maps the code of a method
    /// jitted during the capture back to IL offsets (the rundown sends the maps of the code that existed before).
    /// </summary>
    public const long JittedMethodIlToNativeMapKeyword = 0x20000;

    /// <summary>Microsoft-Windows-DotNETRuntime: WaitHandleWait/Start (301) and /Stop (302), Verbose, .NET 9+.</summary>
    public const long WaitHandleKeyword = 0x40000000000;

    /// <summary>System.Threading.Tasks.TplEventSource TasksFlowActivityIds: gives ASP.NET Core's Start/Stop events activity ids that follow the request.</summary>
    public const long TasksFlowActivityIds = 0x80;

    /// <summary>Microsoft-Diagnostics-DiagnosticSource: Messages (1) | Events (2), the bridge of DiagnosticListener events to EventPipe.</summary>
    public const long DiagnosticSourceEvents = 0x3;

    public const string SampleProfiler = "Microsoft-DotNETCore-SampleProfiler";
    public const string Runtime = RuntimeProviders.DotNetRuntime;
    public const string Hosting = "Microsoft.AspNetCore.Hosting";
    public const string Tpl = "System.Threading.Tasks.TplEventSource";
    public const string DiagnosticSource = "Microsoft-Diagnostics-DiagnosticSource";

    /// <summary>DiagnosticListener event that carries the matched route's values (controller, action, parameters).</summary>
    public const string EndpointMatched = "Microsoft.AspNetCore.Routing.EndpointMatched";

    /// <summary>DiagnosticListener event MVC and Razor Pages raise before running an action: its method and route template.</summary>
    public const string BeforeAction = "Microsoft.AspNetCore.Mvc.BeforeAction";

    /// <summary>DiagnosticListener event Razor Pages raise before running a page handler (<c>OnGet</c>): its type and method.</summary>
    public const string BeforeHandlerMethod = "Microsoft.AspNetCore.Mvc.BeforeHandlerMethod";

    /// <summary>
    /// What the DiagnosticSource bridge extracts from ASP.NET Core's listener (one spec per line, as it requires): the route values of the
    /// matched endpoint, and the action MVC is about to run (its type, method and attribute-route template), which names
    /// an action even when the JIT inlined its frame away.
    /// </summary>
    public static readonly string FilterAndPayloadSpecs = string.Join("\n",
        $"Microsoft.AspNetCore/{EndpointMatched}:-Method=Request.Method;Path=Request.Path;Values=Request.RouteValues.*Enumerate",
        $"Microsoft.AspNetCore/{BeforeAction}:-Name=ActionDescriptor.DisplayName;Type=ActionDescriptor.ControllerTypeInfo.FullName;Action=ActionDescriptor.MethodInfo.Name;Template=ActionDescriptor.AttributeRouteInfo.Template",
        $"Microsoft.AspNetCore/{BeforeHandlerMethod}:-Type=HandlerMethodDescriptor.MethodInfo.DeclaringType.FullName;Action=HandlerMethodDescriptor.MethodInfo.Name");

    /// <summary>The providers of the session.</summary>
    public static IReadOnlyList<EventPipeProvider> All { get; } =
    [
        new(SampleProfiler, EventLevel.Informational),
        new(Runtime, EventLevel.Verbose, WaitHandleKeyword | ContentionKeyword | JitTracingKeyword | JitKeyword | JittedMethodIlToNativeMapKeyword),
        new(Hosting, EventLevel.Informational),
        new(Tpl, EventLevel.Informational, TasksFlowActivityIds),
        new(DiagnosticSource, EventLevel.Verbose, DiagnosticSourceEvents, new Dictionary<string, string> { ["FilterAndPayloadSpecs"] = FilterAndPayloadSpecs }),
    ];
}
