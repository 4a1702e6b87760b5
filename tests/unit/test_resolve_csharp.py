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
