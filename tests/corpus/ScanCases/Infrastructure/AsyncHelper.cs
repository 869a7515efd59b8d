namespace ScanCases.Infrastructure;

/// <summary>
/// Runs an async method from synchronous code. Copied from the old identity samples: the work starts on the pool so
/// no synchronization context is captured, and the caller waits for it.
/// </summary>
public static class AsyncHelper
{
    private static readonly TaskFactory Factory = new(CancellationToken.None, TaskCreationOptions.None, TaskContinuationOptions.None, TaskScheduler.Default);

    public static T RunSync<T>(Func<Task<T>> work) => Factory.StartNew(work).Unwrap().GetAwaiter().GetResult();

    public static void RunSync(Func<Task> work) => Factory.StartNew(work).Unwrap().GetAwaiter().GetResult();
}
