using System.Diagnostics;
using System.Runtime.InteropServices;
using Microsoft.AspNetCore.Mvc;

namespace Tplab.Target.Controllers;

/// <summary>The pool as the process sees it (seed 004 recorded the thread count every second).</summary>
[ApiController]
public sealed class ThreadsController : ControllerBase
{
    /// <summary>Runtime configuration knobs tplab can pass; their values show whether the runtime took them.</summary>
    public static readonly string[] KnownKnobs =
    [
        "System.Threading.ThreadPool.MinThreads",
        "System.Threading.ThreadPool.MaxThreads",
        "System.Threading.ThreadPool.HillClimbing.Disable",
        "System.Threading.ThreadPool.Blocking.CooperativeBlocking",
        "System.Threading.ThreadPool.DisableStarvationDetection",
        "System.GC.Server",
    ];

    [HttpGet("/threads")]
    public IActionResult Threads()
    {
        ThreadPool.GetMinThreads(out var minWorker, out var minIo);
        ThreadPool.GetMaxThreads(out var maxWorker, out var maxIo);
        using var process = Process.GetCurrentProcess();
        return Ok(new
        {
            processId = Environment.ProcessId,
            osThreadCount = process.Threads.Count,
            threadPoolThreadCount = ThreadPool.ThreadCount,
            pendingWorkItemCount = ThreadPool.PendingWorkItemCount,
            completedWorkItemCount = ThreadPool.CompletedWorkItemCount,
            minWorkerThreads = minWorker,
            minIoThreads = minIo,
            maxWorkerThreads = maxWorker,
            maxIoThreads = maxIo,
            processorCount = Environment.ProcessorCount,
            runtimeVersion = RuntimeInformation.FrameworkDescription,
            knobs = KnownKnobs.ToDictionary(k => k, k => AppContext.GetData(k)?.ToString()),
        });
    }

    /// <summary>A trivial endpoint for throughput benchmarks of the load generator.</summary>
    [HttpGet("/")]
    public IActionResult Root() => Content("tplab target\n", "text/plain");
}
