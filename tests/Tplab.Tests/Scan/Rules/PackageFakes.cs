namespace Tplab.Tests.Scan.Rules;

/// <summary>
/// The few public types of ASP.NET Core, EF Core, NLog and Serilog that the rules read, under their real names,
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

        namespace NLog { public static class LogManager { public static void Flush() { } } }

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
