// Added to the app's copy for the "asyncgenerator-adapted" row of bench/fix-field.sh: AsyncGenerator turns a `lock`
// into `using (await field.LockAsync())` over a type the user names in its `asyncLock` option (NHibernate names its own
// NHibernate.Util.AsyncLock); without one it stops with a NullReferenceException. This is that type, written as
// NHibernate's is: a SemaphoreSlim(1, 1) whose LockAsync returns the releaser.
namespace FieldBench
{
#pragma warning disable CA1001 // as NHibernate's: the semaphore lives as long as the lock, which is never disposed
    public sealed class AsyncLock
#pragma warning restore CA1001
    {
        private readonly SemaphoreSlim _semaphore = new(1, 1);
        private readonly Releaser _releaser;

        public AsyncLock() => _releaser = new Releaser(_semaphore);

        public async Task<IDisposable> LockAsync()
        {
            await _semaphore.WaitAsync().ConfigureAwait(false);
            return _releaser;
        }

        private sealed class Releaser(SemaphoreSlim semaphore) : IDisposable
        {
            public void Dispose() => semaphore.Release();
        }
    }
}
