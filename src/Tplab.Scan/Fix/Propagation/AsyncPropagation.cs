using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// Carries async up from an await: the code that holds it (a method, local function, lambda or top-level statement)
/// is decided once — made async or named the reason it cannot — and the decision spreads through the parts below:
/// <see cref="AsyncMethod"/> (a method and its family, renamed together), <see cref="AsyncLambda"/> (by delegate type),
/// <see cref="CallerUpdate"/> (every reference awaited, or a boundary that waits on the task),
/// <see cref="LockToSemaphore"/> (a lock body that must await), <see cref="MutexToSemaphore"/> (a private mutex
/// a wait is on or an await is inside), <see cref="EventToCompletion"/> (an event a wait
/// is on, made a TaskCompletionSource) and <see cref="FilterReshape"/> (an MVC filter's async
/// twin). A caller that cannot be async (a constructor, an accessor, an operator, a lambda whose delegate returns no
/// task, a method implementing a package's interface, Main) waits on the task instead and is named as a boundary.
/// </summary>
internal sealed class AsyncPropagation
{
    private readonly Dictionary<SyntaxNode, string?> _decided = [];
    private readonly FixContext _context;
    private readonly int _maxMethods;
    private readonly CallerUpdate _callers;
    private readonly LockToSemaphore _locks;
    private readonly MutexToSemaphore _mutexes;
    private readonly EventToCompletion _events;
    private readonly AsyncLambda _lambdas;
    private readonly AsyncMethod _methods;

    public AsyncPropagation(Solution solution, ChangeSet changes, FixNaming naming, int maxMethods, CancellationToken cancellationToken, bool addCancellation = false)
    {
        _context = new FixContext(solution, changes, naming, cancellationToken, addCancellation) { MaxMethods = maxMethods };
        _maxMethods = maxMethods;
        _callers = new CallerUpdate(_context, RequireAwaitAsync, Reshaped);
        _locks = new LockToSemaphore(_context, RequireAwaitAsync, Reshaped);
        _mutexes = new MutexToSemaphore(_context, RequireAwaitAsync, Reshaped);
        _events = new EventToCompletion(_context, RequireAwaitAsync, Reshaped);
        _lambdas = new AsyncLambda(_context, Reshaped, new DelegateParameter(_context, _callers));
        _methods = new AsyncMethod(_context, _callers, new FilterReshape(_context, Reshaped), node => _decided[node] = null);
    }

    public List<Boundary> Boundaries => _callers.Boundaries;

    /// <summary>Places the compiler may reject that no edit covers (a changed method passed as a delegate).</summary>
    public List<string> Notes => _callers.Notes;

    /// <summary>The lock statements and mutex waits this fix turned into semaphores (their original nodes): the sites of other findings it removed.</summary>
    public IEnumerable<SyntaxNode> ConvertedGates => _locks.ConvertedLocks.Concat<SyntaxNode>(_mutexes.ConvertedWaits);

    /// <summary>What changed beyond the methods made async (a lock made a semaphore, a filter made async), for the report.</summary>
    public List<string> Reshaped { get; } = [];

    /// <summary>
    /// Every place this fix made await or wait on a task (the site, each caller), in the solution before the fix: where
    /// an exception now comes out as the awaited task's, for <see cref="ExceptionShape"/>.
    /// </summary>
    public List<SyntaxNode> Points { get; } = [];

    public Task<SemanticModel> ModelAsync(SyntaxTree tree) => _context.ModelAsync(tree);

    public string Where(SyntaxNode node) => _context.Where(node);

    /// <summary>The token at <paramref name="node"/> once the fix is planned: one in scope, or the parameter <c>--add-cancellation</c> gives its method.</summary>
    public string? Token(SemanticModel model, SyntaxNode node) => _context.Token(model, node);

    /// <summary>Turns the lock of <paramref name="lockStatement"/> (all its uses) into a SemaphoreSlim; null when done, else why not.</summary>
    public Task<string?> LockToSemaphoreAsync(LockStatementSyntax lockStatement) => _locks.ConvertAsync(lockStatement);

    /// <summary>Turns the mutex <paramref name="wait"/> waits on (all its uses) into a SemaphoreSlim; null when done, else why not.</summary>
    public Task<string?> MutexToSemaphoreAsync(InvocationExpressionSyntax wait) => _mutexes.ConvertAsync(wait);

    /// <summary>Turns the event <paramref name="wait"/> waits on (all its uses) into a TaskCompletionSource; null when done, else why not.</summary>
    public Task<string?> EventToCompletionAsync(InvocationExpressionSyntax wait) => _events.ConvertAsync(wait);

    /// <summary>Makes the code around <paramref name="node"/> able to await; null when it can, else why not.</summary>
    public async Task<string?> RequireAwaitAsync(SyntaxNode node)
    {
        var changes = _context.Changes;
        var (container, blocker) = AsyncRules.Container(node);
        if (blocker is not null)
        {
            // A lock body cannot hold an await: the lock becomes a SemaphoreSlim where every use of it can change too.
            if (container is not LockStatementSyntax l)
            {
                return FixReasons.AwaitNotAllowed.Say(blocker);
            }
            return await _locks.ConvertAsync(l).ConfigureAwait(false) is { } why
                ? FixReasons.LockKept.Say($"it is inside lock ({l.Expression}), where await is not allowed (CS1996), and the lock cannot become a SemaphoreSlim(1, 1): {why}")
                : await RequireAwaitAsync(l).ConfigureAwait(false);
        }
        if (container is null)
        {
            return FixReasons.AwaitNotAllowed.Say("it is not inside a method");
        }
        Points.Add(node);
        // What an await here would change at run time (a thread-owned region, the thread's identity): it keeps waiting,
        // unless the region is a private mutex's, which becomes a semaphore with it.
        var model = await _context.ModelAsync(node.SyntaxTree).ConfigureAwait(false);
        foreach (var region in ThreadAffinity.Regions(model, node, container, _context.CancellationToken))
        {
            var kept = region.Type == ThreadAffinity.Mutex ? await _mutexes.ConvertAsync(region.Acquire).ConfigureAwait(false) : null;
            if (region.Type != ThreadAffinity.Mutex || kept is not null)
            {
                return ThreadAffinity.Say(region, kept);
            }
        }
        if (ThreadIdentity.ReadAfter(model, node, container, _context.CancellationToken) is { } behaviour)
        {
            return behaviour;
        }
        if (_decided.TryGetValue(container, out var known))
        {
            if (known is null && changes.Containers.TryGetValue(container, out var existing))
            {
                existing.Awaits = true;
            }
            return known;
        }
        _decided[container] = null;
        var reason = await DecideAsync(container).ConfigureAwait(false);
        _decided[container] = reason;
        if (reason is null && changes.Containers.TryGetValue(container, out var change))
        {
            change.Awaits = true;
        }
        if (changes.MethodCount > _maxMethods)
        {
            throw new FixTooWideException(FixTooWideException.Say(_maxMethods, $"{changes.MethodCount} planned so far"));
        }
        return reason;
    }

    private async Task<string?> DecideAsync(SyntaxNode container)
    {
        var model = await _context.ModelAsync(container.SyntaxTree).ConfigureAwait(false);
        switch (container)
        {
            case GlobalStatementSyntax:
                return null;
            case AnonymousFunctionExpressionSyntax lambda:
                return await _lambdas.DecideAsync(model, lambda).ConfigureAwait(false);
            case LocalFunctionStatementSyntax local:
                return (local.Modifiers.Any(Microsoft.CodeAnalysis.CSharp.SyntaxKind.AsyncKeyword) ? null : ThreadIdentity.SetsContext(model, local, _context.CancellationToken)) ?? await _methods.LocalFunctionAsync(model, local).ConfigureAwait(false);
            case MethodDeclarationSyntax method:
                return (method.Modifiers.Any(Microsoft.CodeAnalysis.CSharp.SyntaxKind.AsyncKeyword) ? null : ThreadIdentity.SetsContext(model, method, _context.CancellationToken))
                    ?? await _methods.MethodAsync(model, method).ConfigureAwait(false);
            case ConstructorDeclarationSyntax:
                return FixReasons.CannotBeAsync.Say("a constructor cannot be async: build the value in an async factory method or initialise it at startup");
            case AccessorDeclarationSyntax or ArrowExpressionClauseSyntax:
                return FixReasons.CannotBeAsync.Say("a property accessor cannot be async: turn the property into an async method");
            case OperatorDeclarationSyntax or ConversionOperatorDeclarationSyntax:
                return FixReasons.CannotBeAsync.Say("an operator cannot be async");
            case DestructorDeclarationSyntax:
                return FixReasons.CannotBeAsync.Say("a finalizer cannot be async");
            default:
                return FixReasons.AwaitNotAllowed.Say("a field initialiser cannot await: initialise it in an async method");
        }
    }
}
