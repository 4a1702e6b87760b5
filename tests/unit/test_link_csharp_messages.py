"""C# messages dispatched by type and handed to a wrapper or an outbox first: the PRODUCES /
CONSUMES edges the linker keeps (``TopicUse.handed_as``: only when the callee declares a parameter of
the bus's message base type), with the calls that must not produce."""

from tests.resolution_harness import edges, resolve_fixture

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
