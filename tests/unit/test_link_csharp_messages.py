"""C# messages dispatched by type and handed to a wrapper or an outbox first: the PRODUCES /
CONSUMES edges the linker keeps (``TopicUse.handed_as``: only when the callee declares a parameter of
the bus's message base type), with the calls that must not produce."""

from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import REPO, edges, extract_fixture, resolve_fixture, short

FIXTURE = """
// --- path: Ordering/IntegrationEventService.cs ---
namespace Shop.Ordering;

public interface IOrderingIntegrationEventService
{
    Task AddAndSaveEventAsync(IntegrationEvent evt);
    Task Audit(OrderShippedIntegrationEvent evt);
}

public class OrderingIntegrationEventService(IEventBus eventBus) : IOrderingIntegrationEventService
{
    public Task AddAndSaveEventAsync(IntegrationEvent evt) => Task.CompletedTask;
    public Task Audit(OrderShippedIntegrationEvent evt) => Task.CompletedTask;
    public Task Publish(IntegrationEvent evt) => eventBus.PublishAsync(evt);
}
// --- path: Ordering/Entity.cs ---
namespace Shop.Ordering;

public abstract class Entity
{
    public void AddDomainEvent(INotification eventItem) { }
    public void Track(object anything) { }
}

public class Order : Entity
{
    public void Ship()
    {
        AddDomainEvent(new OrderShippedDomainEvent(this));
        Track(new OrderCancelledDomainEvent(this));
    }
}
// --- path: Ordering/OrderShippedDomainEventHandler.cs ---
namespace Shop.Ordering;

public class OrderShippedDomainEventHandler(IOrderingIntegrationEventService service)
    : INotificationHandler<OrderShippedDomainEvent>
{
    public async Task Handle(OrderShippedDomainEvent e, CancellationToken token)
    {
        var evt = new OrderShippedIntegrationEvent(e.Order.Id);
        await service.AddAndSaveEventAsync(evt);
        await service.Audit(new OrderShippedIntegrationEvent(0));
        await service.AddAndSaveEventAsync(e.Integration);
    }
}
// --- path: Basket/OrderShippedIntegrationEventHandler.cs ---
namespace Shop.Basket;

public class OrderShippedIntegrationEventHandler : IIntegrationEventHandler<OrderShippedIntegrationEvent>
{
    public Task Handle(OrderShippedIntegrationEvent e) => Task.CompletedTask;
}
"""


def test_messages_handed_to_a_wrapper_of_the_base_type_reach_their_handlers():
    result = resolve_fixture(FIXTURE)
    assert edges(result, "PRODUCES") == [
        "Ordering/Entity.Order.Ship(0) -> topic:inprocess:OrderShippedDomainEvent",
        "Ordering/OrderShippedDomainEventHandler.OrderShippedDomainEventHandler.Handle(2)"
        " -> topic:rabbitmq:OrderShippedIntegrationEvent",
    ]  # Track: takes object; Audit: takes the concrete event; e.Integration: a member of unknown value
    assert edges(result, "CONSUMES") == [
        "Basket/OrderShippedIntegrationEventHandler.OrderShippedIntegrationEventHandler.Handle(1)"
        " -> topic:rabbitmq:OrderShippedIntegrationEvent",
        "Ordering/OrderShippedDomainEventHandler.OrderShippedDomainEventHandler.Handle(2)"
        " -> topic:inprocess:OrderShippedDomainEvent",
    ]
    produced = [e for f in result.files for e in f.edges if e.kind == "PRODUCES"]
    assert sorted(e.props.get("match") for e in produced) == ["inferred", "inferred"]


OVERLOADS = """
// --- path: Orders/OrderEvents.cs ---
using MassTransit;
namespace Shop.Orders;

public class OrderEventsHandler : INotificationHandler<OrderPlaced>, INotificationHandler<OrderShipped>,
    IRequestHandler<CancelOrder, bool>
{
    public Task Handle(OrderPlaced e, CancellationToken ct) => Task.CompletedTask;
    public Task Handle(OrderShipped e, CancellationToken ct) => Task.CompletedTask;
    public Task<bool> Handle(CancelOrder c, CancellationToken ct) => Task.FromResult(true);
    public void Handle(string unrelated) { }
}

public class AuditConsumer : IConsumer<OrderPlaced>, IConsumer<OrderShipped>
{
    public Task Consume(ConsumeContext<OrderShipped> ctx) => Task.CompletedTask;
    public Task Consume(ConsumeContext<OrderPlaced> ctx) => Task.CompletedTask;
}

public class Untyped : INotificationHandler<OrderPlaced>, INotificationHandler<OrderShipped>
{
    public Task Handle(dynamic e, CancellationToken ct) => Task.CompletedTask;
    public Task Handle(object e, CancellationToken ct) => Task.CompletedTask;
}
"""


def test_a_class_handling_several_message_types_consumes_each_in_the_overload_taking_it():
    """brk45 (MEDIUM): every message of a class implementing INotificationHandler<A> and <B> was
    consumed by its first Handle overload (a 1,000-type handler: 1,000 CONSUMES on one method)."""
    result = resolve_fixture(OVERLOADS)
    consumes = sorted((short(e.src), short(e.dst), e.line) for f in result.files for e in f.edges if e.kind == "CONSUMES")
    assert consumes == [
        ("Orders/OrderEvents.AuditConsumer.Consume(1)", "topic:rabbitmq:OrderShipped", 15),
        ("Orders/OrderEvents.AuditConsumer.Consume(1)#2", "topic:rabbitmq:OrderPlaced", 16),
        ("Orders/OrderEvents.OrderEventsHandler.Handle(2)", "topic:inprocess:OrderPlaced", 7),
        ("Orders/OrderEvents.OrderEventsHandler.Handle(2)#2", "topic:inprocess:OrderShipped", 8),
        ("Orders/OrderEvents.OrderEventsHandler.Handle(2)#3", "topic:inprocess:CancelOrder", 9),
        # no overload declares the message's type: the class's first, at the class
        ("Orders/OrderEvents.Untyped.Handle(2)", "topic:inprocess:OrderPlaced", 19),
        ("Orders/OrderEvents.Untyped.Handle(2)", "topic:inprocess:OrderShipped", 19),
    ]


NESTED = """
// --- path: Features/Users/Create.cs ---
namespace Conduit.Features.Users;

public class Create
{
    public record Command(string Name) : IRequest<string>;

    public class Handler : IRequestHandler<Command, string>
    {
        public Task<string> Handle(Command message, CancellationToken ct) => Task.FromResult("");
    }
}
// --- path: Features/Articles/Create.cs ---
namespace Conduit.Features.Articles;

public class Create
{
    public record Command(string Title) : IRequest<string>;

    public class Handler : IRequestHandler<Create.Command, string>
    {
        public Task<string> Handle(Command message, CancellationToken ct) => Task.FromResult("");
    }
}
// --- path: Features/Articles/Details.cs ---
namespace Conduit.Features.Articles;

public class Details
{
    public record Query(string Slug) : IRequest<string>;

    public class QueryHandler : IRequestHandler<Query, string>
    {
        public Task<string> Handle(Query message, CancellationToken ct) => Task.FromResult("");
    }
}
// --- path: Features/Articles/Published.cs ---
namespace Conduit.Features.Articles;

public record ArticlePublished(string Slug) : INotification;

public class Notify : INotificationHandler<ArticlePublished>, INotificationHandler<ExternalEvent>
{
    public Task Handle(ArticlePublished e, CancellationToken ct) => Task.CompletedTask;
    public Task Handle(ExternalEvent e, CancellationToken ct) => Task.CompletedTask;
}
// --- path: Features/Users/UsersController.cs ---
namespace Conduit.Features.Users;

public class UsersController(IMediator mediator)
{
    public Task<string> Create(Create.Command command, CancellationToken ct) => mediator.Send(command, ct);
}
// --- path: Features/Articles/ArticlesController.cs ---
namespace Conduit.Features.Articles;

public class ArticlesController(IMediator mediator)
{
    public Task<string> Create(Create.Command command) => mediator.Send(command);
    public Task<string> Get(string slug) => mediator.Send(new Details.Query(slug));
    public Task Publish(string slug) => mediator.Publish(new ArticlePublished(slug));
    public Task Relay() => mediator.Publish(new ExternalEvent());
}
"""


def test_nested_request_types_of_two_features_are_two_topics():
    """The vertical-slice layout (gothinkster/aspnetcore-realworld-example-app): every feature class
    nests its own ``Command`` / ``Query`` and handler. A message is the class its type resolves to
    (namespace and enclosing types), so a controller sending ``Create.Command`` of Users reaches the
    Users handler only; a type of no class in the repository stays its short name."""
    result = resolve_fixture(NESTED)
    assert edges(result, "PRODUCES") == [
        "Features/Articles/ArticlesController.ArticlesController.Create(1)"
        " -> topic:inprocess:Conduit.Features.Articles.Create.Command",
        "Features/Articles/ArticlesController.ArticlesController.Create(1) -> topic:inprocess:IRequest",
        "Features/Articles/ArticlesController.ArticlesController.Get(1)"
        " -> topic:inprocess:Conduit.Features.Articles.Details.Query",
        "Features/Articles/ArticlesController.ArticlesController.Get(1) -> topic:inprocess:IRequest",
        "Features/Articles/ArticlesController.ArticlesController.Publish(1)"
        " -> topic:inprocess:Conduit.Features.Articles.ArticlePublished",
        "Features/Articles/ArticlesController.ArticlesController.Relay(0) -> topic:inprocess:ExternalEvent",
        "Features/Users/UsersController.UsersController.Create(2)"
        " -> topic:inprocess:Conduit.Features.Users.Create.Command",
        "Features/Users/UsersController.UsersController.Create(2) -> topic:inprocess:IRequest",
    ]  # never topic:inprocess:Command nor Query, shared by every feature
    assert edges(result, "CONSUMES") == [
        "Features/Articles/Create.Create.Handler.Handle(2) -> topic:inprocess:Conduit.Features.Articles.Create.Command",
        "Features/Articles/Details.Details.QueryHandler.Handle(2) -> topic:inprocess:Conduit.Features.Articles.Details.Query",
        "Features/Articles/Published.Notify.Handle(2) -> topic:inprocess:Conduit.Features.Articles.ArticlePublished",
        "Features/Articles/Published.Notify.Handle(2)#2 -> topic:inprocess:ExternalEvent",
        "Features/Users/Create.Create.Handler.Handle(2) -> topic:inprocess:Conduit.Features.Users.Create.Command",
    ]


CYCLIC_LOCALS = """
// --- path: Payments/PaymentPublisher.cs ---
namespace Shop.Payments;
public class PaymentPublisher(IEventBus eventBus)
{
    public Task Paid(int id)
    {
        IntegrationEvent evt = new OrderPaidIntegrationEvent(id);
        return eventBus.PublishAsync(evt);
    }
    public Task Retry(bool again)
    {
        IntegrationEvent evt = new OrderPaidIntegrationEvent(1);
        evt = again ? evt : new OrderPaidIntegrationEvent(2);
        return eventBus.PublishAsync(evt);
    }
    public Task Swap(bool flag)
    {
        IntegrationEvent a = new OrderPaidIntegrationEvent(1);
        IntegrationEvent b = flag ? a : new OrderRefundedIntegrationEvent(2);
        a = flag ? b : a;
        return eventBus.PublishAsync(a);
    }
}
"""


def test_a_local_whose_values_come_back_to_itself_ends_instead_of_recursing():
    """jellyfin's EncodingHelper.cs and three more files: ``x = c ? x : new B()`` made the detector recurse
    until RecursionError, and the file lost every fact of the detector. The cycle is an unknown value
    now (no topic from it), and the file's other sends are kept."""
    extractions = extract_fixture(CYCLIC_LOCALS)
    assert [e for ex, _, _ in extractions for e in ex.errors] == []
    result = resolve_repository(REPO, extractions)
    assert edges(result, "PRODUCES") == [
        "Payments/PaymentPublisher.PaymentPublisher.Paid(1) -> topic:rabbitmq:OrderPaidIntegrationEvent",
    ]  # Retry and Swap: a value read from the local itself is not known, so neither links
