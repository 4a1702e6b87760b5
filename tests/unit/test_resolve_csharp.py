"""C# call resolution: namespaces (file-scoped and block, enclosing namespaces, ``using`` and
aliases), partial classes merged across files, extension methods bound only on a compatible
receiver, overrides and interface implementations (dispatch), constructor injection (fields typed by
constructor parameters), ``base(...)`` / ``this(...)``; with what must stay unresolved."""

from tests.resolution_harness import check, edges

DOMAIN = """
// --- path: Domain/Order.cs ---
namespace Shop.Domain;

public class Order
{
    public decimal Total() => 0;
}

public class RushOrder : Order
{
    public RushOrder(int days) : base() { }
}
// --- path: Domain/OrderExtensions.cs ---
namespace Shop.Domain
{
    public static class OrderExtensions
    {
        public static string Describe(this Order o, string prefix) => prefix;
        public static string Describe(this Invoice i) => "";
    }

    public class Invoice { }
}
"""


def test_partial_classes_and_extension_methods():
    result = check(
        DOMAIN
        + """
// --- path: Services/OrderService.cs ---
using Shop.Domain;

namespace Shop.Services;

public partial class OrderService
{
    public void Place(Order o)
    {
        o.Describe("x");
        Audit(o);
        var r = new RushOrder(2);
        r.Describe("rush");
        new Invoice().Describe();
        "text".Describe("no");
    }
}
// --- path: Services/OrderService.Audit.cs ---
namespace Shop.Services;

public partial class OrderService
{
    private void Audit(Shop.Domain.Order o) { o.Total(); }
}
""",
        [
            # `: base()`: Order declares no constructor, the class stands for it
            "Domain/Order.RushOrder.RushOrder(1) -> Domain/Order.Order [inferred]",
            # o is an Order: the extension for Order (one argument after the receiver), not Invoice's
            "Services/OrderService.OrderService.Place(1) -> Domain/OrderExtensions.OrderExtensions.Describe(1) [exact]",
            # Audit is declared in the other part of the partial class
            "Services/OrderService.OrderService.Place(1) -> Services/OrderService.Audit.OrderService.Audit(1) [exact]",
            "Services/OrderService.OrderService.Place(1) -> Domain/Order.RushOrder.RushOrder(1) [exact]",
            # a RushOrder is an Order: the extension binds, inferred (through the base)
            "Services/OrderService.OrderService.Place(1) -> Domain/OrderExtensions.OrderExtensions.Describe(1) [inferred]",
            "Services/OrderService.OrderService.Place(1) -> Domain/OrderExtensions.Invoice [exact]",
            # new Invoice().Describe(): Invoice's own extension (no argument after the receiver)
            "Services/OrderService.OrderService.Place(1) -> Domain/OrderExtensions.OrderExtensions.Describe(0) [exact]",
            # "text".Describe("no"): a string has no extension of that name here: nothing binds
            "Services/OrderService.Audit.OrderService.Audit(1) -> Domain/Order.Order.Total(0) [exact]",
        ],
    )
    svc = next(f for f in result.files if f.file.path == "Services/OrderService.cs")
    assert [(u.name, u.receiver) for u in svc.unresolved] == [("Describe", '"text"')]


def test_interfaces_overrides_constructor_injection_and_aliases():
    result = check(
        """
// --- path: Core/IRepo.cs ---
namespace Shop.Core
{
    public interface IRepo { Item Find(int id); }

    public abstract class RepoBase : IRepo
    {
        public abstract Item Find(int id);
        public virtual void Log() { }
    }
}
// --- path: Infra/SqlRepo.cs ---
using Shop.Core;

namespace Shop.Infra;

public class SqlRepo : RepoBase
{
    public override Item Find(int id) { Log(); return null; }
}

public class MemRepo : IRepo
{
    public Item Find(int id) => null;
}
// --- path: Api/ItemsController.cs ---
using Shop.Core;
using Repo = Shop.Infra.SqlRepo;

namespace Shop.Api;

public class ItemsController
{
    private readonly IRepo _repo;

    public ItemsController(IRepo repo) { _repo = repo; }

    public Item Get(int id) => _repo.Find(id);

    public void Direct() { var r = new Repo(); r.Find(1); unknown.Find(2); }
}
""",
        [
            "Api/ItemsController.ItemsController.Get(1) -> Core/IRepo.IRepo.Find(1) [exact]",
            "Api/ItemsController.ItemsController.Get(1) -> Core/IRepo.RepoBase.Find(1) [inferred]",
            "Api/ItemsController.ItemsController.Get(1) -> Infra/SqlRepo.SqlRepo.Find(1) [inferred]",
            "Api/ItemsController.ItemsController.Get(1) -> Infra/SqlRepo.MemRepo.Find(1) [inferred]",
            # the alias names SqlRepo: its own Find, exactly
            "Api/ItemsController.ItemsController.Direct(0) -> Infra/SqlRepo.SqlRepo [exact]",
            "Api/ItemsController.ItemsController.Direct(0) -> Infra/SqlRepo.SqlRepo.Find(1) [exact]",
            # implicit this: the inherited Log of RepoBase
            "Infra/SqlRepo.SqlRepo.Find(1) -> Core/IRepo.RepoBase.Log(0) [inferred]",
        ],
    )
    assert sorted(edges(result, "INJECTS")) == ["Api/ItemsController.ItemsController -> Core/IRepo.IRepo"]
    assert sorted(edges(result, "OVERRIDES")) == [
        "Core/IRepo.RepoBase.Find(1) -> Core/IRepo.IRepo.Find(1)",
        "Infra/SqlRepo.MemRepo.Find(1) -> Core/IRepo.IRepo.Find(1)",
        "Infra/SqlRepo.SqlRepo.Find(1) -> Core/IRepo.RepoBase.Find(1)",
    ]
    api = next(f for f in result.files if f.file.path == "Api/ItemsController.cs")
    # unknown.Find: no type known; the name fallback sees three methods Find(1): nothing binds
    assert [(u.name, u.receiver) for u in api.unresolved] == [("Find", "unknown")]


def test_global_usings_hold_for_the_files_of_their_project():
    check(
        """
// --- path: Ordering.API/GlobalUsings.cs ---
global using Shop.Ordering.IntegrationEvents;
using Shop.Ordering.Unrelated;
// --- path: Ordering.API/IntegrationEvents/EventService.cs ---
namespace Shop.Ordering.IntegrationEvents;

public interface IEventService { void Save(int id); }
// --- path: Ordering.API/Unrelated/Helper.cs ---
namespace Shop.Ordering.Unrelated;

public static class Helper { public static void Help() { } }
// --- path: Shared/Store.cs ---
namespace Shop.Shared;

public class Store  // namesakes: no call below may bind by name alone
{
    public void Save(int id) { }
    public static void Help() { }
}
// --- path: Ordering.API/Handlers/ShippedHandler.cs ---
namespace Shop.Ordering.Handlers;

public class ShippedHandler
{
    private readonly IEventService _events;
    public void Handle(int id)
    {
        _events.Save(id);
        Helper.Help();
    }
}
// --- path: Catalog.API/Handlers/PriceHandler.cs ---
namespace Shop.Catalog.Handlers;

public class PriceHandler
{
    private readonly IEventService _events;
    public void Handle(int id) { _events.Save(id); }
}
""",
        [
            # GlobalUsings.cs's `global using` holds for every file under Ordering.API/
            "Ordering.API/Handlers/ShippedHandler.ShippedHandler.Handle(1) -> "
            "Ordering.API/IntegrationEvents/EventService.IEventService.Save(1) [exact]",
            # its plain `using` holds for itself only: Helper stays unresolved; PriceHandler is in
            # another project (Catalog.API/): IEventService is not in scope there
        ],
    )


def test_types_the_repository_declares_nowhere_are_a_librarys():
    result = check(
        """
// --- path: Tests/Mocks/MockSettingsService.cs ---
namespace Shop.Tests.Mocks;

public class MockSettingsService  // namesakes of library methods: no library call may bind to them
{
    public void Remove(string key) { }
    public static object Create(object a, object b) => a;
}
// --- path: App/Store.cs ---
using grpc = global::Grpc.Core;
namespace Shop.App;

public class PaymentMethod { public bool IsEqualTo(int id) => true; }

public class Store<TContext>
{
    private readonly TContext _context;
    private readonly List<PaymentMethod> _methods = new();
    public void Save() { }
    public bool Run(int id, Dictionary<string, int> counts)
    {
        var claims = new List<string>();
        claims.Remove("sub");
        counts.Remove("a");
        JsonContent.Create(claims, null);
        grpc::Marshallers.Create(null, null);
        _context.Save();
        return _methods.Any(p => p.IsEqualTo(id));
    }
}
""",
        [
            # a type parameter (TContext) is no library type: its call still binds by name
            "App/Store.Store.Run(2) -> App/Store.Store.Save(0) [name]",
            # a LINQ lambda's parameter: an element of the List<PaymentMethod> it is handed
            "App/Store.Store.Run(2) -> App/Store.PaymentMethod.IsEqualTo(1) [inferred]",
        ],
    )
    store = next(f for f in result.files if f.file.path == "App/Store.cs")
    # claims / counts / _methods (List, Dictionary), JsonContent and grpc::Marshallers (the alias of a
    # namespace the repository does not declare): external, none unresolved, none bound to the mock
    assert store.unresolved == []


def test_typed_parameters_of_an_inline_route_handler_type_its_calls():
    check(
        """
// --- path: Data/WebhooksContext.cs ---
namespace Shop.Data;

public class WebhooksContext : DbContext { public void Track(int id) { } }
public class Mock { public void Remove(object o) { } public void Track(int id) { } }
// --- path: Api/WebHooksApi.cs ---
using Shop.Data;
namespace Shop.Api;

public static class WebHooksApi
{
    public static void Map(IEndpointRouteBuilder app)
    {
        app.MapDelete("/api/webhooks/{id}", async Task<IResult> (WebhooksContext context, int id) =>
        {
            context.Track(id);
            context.Remove(id);
            await context.SaveChangesAsync();
            return TypedResults.Ok();
        });
    }
}
""",
        [
            # the lambda's declared parameter types its receiver: WebhooksContext.Track, exactly; Remove and
            # SaveChangesAsync are DbContext's (external), never Mock's by name
            "Api/WebHooksApi.WebHooksApi.Map.DELETE /api/webhooks/{id}(2) -> Data/WebhooksContext.WebhooksContext.Track(1) [exact]",
        ],
    )
