namespace Tplab.Tests.Scan.Rules;

/// <summary>
/// The few public types of ASP.NET Core, EF Core, NLog, Serilog, System.IO.Abstractions, the distributed cache and
/// LibGit2Sharp that the rules read, under their real names,
/// compiled apart and referenced by a snippet as a package would be (the snippets see only the runtime's assemblies).
/// </summary>
internal static class PackageFakes
{
    public const string Code = """

        namespace Microsoft.AspNetCore.Http
        {
            public interface IFormCollection { }
            public interface IFormFile
            {
                string FileName { get; }
                Stream OpenReadStream();
                void CopyTo(Stream target);
                Task CopyToAsync(Stream target, CancellationToken cancellationToken = default);
            }
            public abstract class HttpRequest
            {
                public abstract Stream Body { get; set; }
                public abstract Task<IFormCollection> ReadFormAsync(CancellationToken cancellationToken = default);
            }
            public abstract class HttpContext { public abstract HttpRequest Request { get; } }
            public static class HttpRequestRewindExtensions { public static void EnableBuffering(this HttpRequest request) { } }
            public static class HttpRequestJsonExtensions
            {
                public static ValueTask<T?> ReadFromJsonAsync<T>(this HttpRequest request, CancellationToken cancellationToken = default) => default;
            }
        }

        namespace Microsoft.AspNetCore.Builder
        {
            public interface IApplicationBuilder { }
            public static class UseMiddlewareExtensions { public static IApplicationBuilder UseMiddleware<T>(this IApplicationBuilder app) => app; }
        }

        namespace Microsoft.AspNetCore.Mvc
        {
            public abstract class ControllerBase { public Microsoft.AspNetCore.Http.HttpRequest Request => null!; }
            [AttributeUsage(AttributeTargets.Parameter)] public sealed class FromBodyAttribute : Attribute { }
            [AttributeUsage(AttributeTargets.Class)] public sealed class ApiControllerAttribute : Attribute { }
        }

        namespace Microsoft.EntityFrameworkCore
        {
            public abstract class DbSet<T> : IQueryable<T> where T : class
            {
                public Type ElementType => typeof(T);
                public System.Linq.Expressions.Expression Expression => throw new NotSupportedException();
                public IQueryProvider Provider => throw new NotSupportedException();
                public IEnumerator<T> GetEnumerator() => throw new NotSupportedException();
                System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();
                public virtual void RemoveRange(IEnumerable<T> entities) { }
                public virtual void RemoveRange(params T[] entities) { }
            }
            public class DbContext { public virtual void RemoveRange(IEnumerable<object> entities) { } }
        }

        namespace System.IO.Abstractions
        {
            public interface IFileSystem
            {
                IFile File { get; }
                IDirectory Directory { get; }
                IFileInfoFactory FileInfo { get; }
                IDirectoryInfoFactory DirectoryInfo { get; }
                IFileStreamFactory FileStream { get; }
            }
            public interface IFile
            {
                bool Exists(string path);
                void Delete(string path);
                void Move(string source, string target, bool overwrite);
                string ReadAllText(string path);
                IEnumerable<string> ReadLines(string path);
                Task<string> ReadAllTextAsync(string path, CancellationToken cancellationToken = default);
            }
            public interface IDirectory
            {
                bool Exists(string path);
                string[] GetFiles(string path, string searchPattern);
                IEnumerable<string> EnumerateFiles(string path, string searchPattern, SearchOption searchOption);
                void Delete(string path, bool recursive);
            }
            public interface IFileInfo { string Name { get; } long Length { get; } FileSystemStream OpenRead(); void Delete(); }
            public interface IDirectoryInfo { IEnumerable<IFileInfo> EnumerateFiles(string searchPattern); }
            public interface IFileInfoFactory { IFileInfo New(string fileName); }
            public interface IDirectoryInfoFactory { IDirectoryInfo New(string path); }
            public interface IFileStreamFactory
            {
                FileSystemStream New(string path, FileMode mode, FileAccess access, FileShare share, int bufferSize, bool useAsync);
            }
            public abstract class FileSystemStream : Stream { }
        }

        namespace Microsoft.Extensions.Caching.Distributed
        {
            public interface IDistributedCache
            {
                byte[]? Get(string key);
                Task<byte[]?> GetAsync(string key, CancellationToken token = default);
                void Remove(string key);
                Task RemoveAsync(string key, CancellationToken token = default);
            }
            public static class DistributedCacheExtensions
            {
                public static string? GetString(this IDistributedCache cache, string key) => null;
                public static Task<string?> GetStringAsync(this IDistributedCache cache, string key, CancellationToken token = default) => Task.FromResult<string?>(null);
            }
        }

        namespace NLog { public static class LogManager { public static void Flush() { } } }

        namespace LibGit2Sharp
        {
            public sealed class Signature { }
            public sealed class PullOptions { }
            public sealed class PushOptions { }
            public sealed class CommitOptions { }
            public sealed class MergeResult { }
            public sealed class Remote { }
            public sealed class Commit { }
            public sealed class RepositoryStatus { }
            public sealed class Network { public void Push(Remote remote, string pushRefSpec, PushOptions pushOptions) { } }
            public interface IRepository : IDisposable { Network Network { get; } RepositoryStatus RetrieveStatus(); }
            public sealed class Repository : IRepository
            {
                public Repository(string path) { }
                public Network Network => new();
                public RepositoryStatus RetrieveStatus() => new();
                public Commit Commit(string message, Signature author, Signature committer, CommitOptions options) => new();
                public void Dispose() { }
                public static string Clone(string sourceUrl, string workdirPath) => workdirPath;
            }
            public static class RepositoryExtensions
            {
                public static Commit Commit(this IRepository repository, string message, Signature author, Signature committer) => new();
            }
            public static class Commands
            {
                public static MergeResult Pull(Repository repository, Signature merger, PullOptions options) => new();
                public static void Stage(IRepository repository, string path) { }
            }
        }

        namespace Serilog
        {
            public static class Log
            {
                public static void CloseAndFlush() { }
                public static ValueTask CloseAndFlushAsync() => default;
            }
        }
        """;
}
