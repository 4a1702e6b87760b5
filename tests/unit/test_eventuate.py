"""Eventuate Tram (ftgo-application's shape): commands sent by saga steps to the handlers of their
channel and type, domain events published per aggregate to the handlers of that aggregate type, as
topics of broker ``eventuate`` (:mod:`indexer.languages.java.frameworks.eventuate`); the uses a
file's detector reads, and the PRODUCES / CONSUMES edges the linker makes, with what must not link
(another command on the same channel, another aggregate, a file without Eventuate)."""

from __future__ import annotations

from tests.resolution_harness import edges, extract_fixture, resolve_fixture

FIXTURE = """
// --- path: kitchen-api/src/main/java/ftgo/kitchen/api/KitchenServiceChannels.java ---
package ftgo.kitchen.api;

public class KitchenServiceChannels {
  public static final String COMMAND_CHANNEL = "kitchenService";
  public static final String TICKET_EVENT_CHANNEL = "ftgo.kitchen.domain.Ticket";
}
// --- path: kitchen/src/main/java/ftgo/kitchen/handlers/KitchenServiceCommandHandler.java ---
package ftgo.kitchen.handlers;

import io.eventuate.tram.commands.consumer.CommandHandlers;
import io.eventuate.tram.sagas.participant.SagaCommandHandlersBuilder;
import ftgo.kitchen.api.*;

public class KitchenServiceCommandHandler {
  public CommandHandlers commandHandlers() {
    return SagaCommandHandlersBuilder
            .fromChannel(KitchenServiceChannels.COMMAND_CHANNEL)
            .onMessage(CreateTicket.class, this::createTicket)
            .onMessage(CancelTicket.class, cm -> cancel(cm))
            .andFromChannel("kitchenAdmin")
            .onMessage(CreateTicket.class, this::adminCreate)
            .build();
  }
  private Message createTicket(CommandMessage<CreateTicket> cm) { return null; }
  private Message cancel(CommandMessage<CancelTicket> cm) { return null; }
  private Message adminCreate(CommandMessage<CreateTicket> cm) { return null; }
}
// --- path: kitchen/src/main/java/ftgo/kitchen/domain/Ticket.java ---
package ftgo.kitchen.domain;

public class Ticket {}
// --- path: kitchen/src/main/java/ftgo/kitchen/domain/TicketDomainEventPublisher.java ---
package ftgo.kitchen.domain;

import io.eventuate.tram.events.aggregates.AbstractAggregateDomainEventPublisher;

public class TicketDomainEventPublisher extends AbstractAggregateDomainEventPublisher<Ticket, TicketDomainEvent> {
}
// --- path: kitchen/src/main/java/ftgo/kitchen/domain/KitchenService.java ---
package ftgo.kitchen.domain;

import io.eventuate.tram.events.aggregates.ResultWithDomainEvents;

public class KitchenService {
  private TicketDomainEventPublisher domainEventPublisher;
  private Notifier notifier;
  public void accept(Ticket ticket, List<TicketDomainEvent> events) {
    domainEventPublisher.publish(ticket, events);
    notifier.publish(ticket, events);
  }
}
// --- path: order/src/main/java/ftgo/order/sagas/KitchenServiceProxy.java ---
package ftgo.order.sagas;

import io.eventuate.tram.sagas.simpledsl.CommandEndpoint;
import io.eventuate.tram.sagas.simpledsl.CommandEndpointBuilder;
import ftgo.kitchen.api.*;

public class KitchenServiceProxy {
  public final CommandEndpoint<CreateTicket> create = CommandEndpointBuilder
          .forCommand(CreateTicket.class)
          .withChannel(KitchenServiceChannels.COMMAND_CHANNEL)
          .withReply(CreateTicketReply.class)
          .build();
}
// --- path: order/src/main/java/ftgo/order/sagas/CreateOrderSaga.java ---
package ftgo.order.sagas;

import io.eventuate.tram.sagas.simpledsl.SimpleSaga;

public class CreateOrderSaga implements SimpleSaga<State> {
  public CreateOrderSaga(KitchenServiceProxy kitchenService) {
    this.sagaDefinition = step()
            .invokeParticipant(kitchenService.create, State::makeCreateTicketCommand)
            .build();
  }
}
// --- path: order/src/main/java/ftgo/order/sagas/CancelOrderSaga.java ---
package ftgo.order.sagas;

import io.eventuate.tram.sagas.simpledsl.SimpleSaga;
import ftgo.kitchen.api.CancelTicket;
import ftgo.kitchen.api.KitchenServiceChannels;

public class CancelOrderSaga implements SimpleSaga<State> {
  private CommandWithDestination cancelTicket(State data) {
    return send(new CancelTicket(data.getOrderId()))
            .to(KitchenServiceChannels.COMMAND_CHANNEL)
            .build();
  }
}
// --- path: order/src/main/java/ftgo/order/domain/Order.java ---
package ftgo.order.domain;

public class Order {}
// --- path: order/src/main/java/ftgo/order/domain/OrderService.java ---
package ftgo.order.domain;

import io.eventuate.tram.events.publisher.DomainEventPublisher;

public class OrderService {
  private DomainEventPublisher publisher;
  public void create(long id, List<Object> events) {
    publisher.publish(Order.class, id, events);
  }
}
// --- path: delivery/src/main/java/ftgo/delivery/DeliveryMessageHandlers.java ---
package ftgo.delivery;

import io.eventuate.tram.events.subscriber.DomainEventHandlersBuilder;
import ftgo.kitchen.api.KitchenServiceChannels;

public class DeliveryMessageHandlers {
  public DomainEventHandlers domainEventHandlers() {
    return DomainEventHandlersBuilder
            .forAggregateType(KitchenServiceChannels.TICKET_EVENT_CHANNEL)
            .onEvent(TicketAcceptedEvent.class, this::handleTicketAccepted)
            .andForAggregateType("ftgo.order.domain.Order")
            .onEvent(OrderCreatedEvent.class, this::handleOrderCreated)
            .build();
  }
  public void handleTicketAccepted(DomainEventEnvelope<TicketAcceptedEvent> e) {}
  public void handleOrderCreated(DomainEventEnvelope<OrderCreatedEvent> e) {}
}
// --- path: plain/src/main/java/plain/Plain.java ---
package plain;

public class Plain {
  public Object handlers() {
    return Builder.fromChannel("kitchenService").onMessage(CreateTicket.class, this::handle);
  }
  public void handle(Object m) {}
  public void send(Object x, List<Object> events) { bus.publish(Order.class, 1, events); }
}
"""


def _uses(path: str) -> list[tuple[str, str, tuple, str | None, int]]:
    ex = next(e for e, _, _ in extract_fixture(FIXTURE) if e.path == path)
    return [(u.framework, u.role, u.topic.parts, u.owner, u.line) for u in ex.topics if u.broker == "eventuate"]


def test_command_handlers_consume_their_channel_and_type() -> None:
    assert _uses("kitchen/src/main/java/ftgo/kitchen/handlers/KitchenServiceCommandHandler.java") == [
        ("eventuate-tram", "consumes", (("ref", "KitchenServiceChannels.COMMAND_CHANNEL"), ("lit", "/CreateTicket")),
         "KitchenServiceCommandHandler.createTicket", 11),
        # a lambda handler: owned by the method building the chain
        ("eventuate-tram", "consumes", (("ref", "KitchenServiceChannels.COMMAND_CHANNEL"), ("lit", "/CancelTicket")),
         "KitchenServiceCommandHandler.commandHandlers", 12),
        ("eventuate-tram", "consumes", (("lit", "kitchenAdmin/CreateTicket"),), "KitchenServiceCommandHandler.adminCreate", 14),
    ]


def test_publishers_and_endpoints() -> None:
    assert _uses("kitchen/src/main/java/ftgo/kitchen/domain/KitchenService.java") == [
        ("eventuate-tram", "produces", (("ref", "domainEventPublisher.aggregateType"),), "KitchenService.accept", 9),
        ("eventuate-tram", "produces", (("ref", "notifier.aggregateType"),), "KitchenService.accept", 10),
    ]
    publisher = next(e for e, _, _ in extract_fixture(FIXTURE) if e.path.endswith("TicketDomainEventPublisher.java"))
    assert [(c.qualname, c.value.parts) for c in publisher.constants] == [
        ("TicketDomainEventPublisher.aggregateType", (("lit", "ftgo.kitchen.domain.Ticket"),))]
    proxy = next(e for e, _, _ in extract_fixture(FIXTURE) if e.path.endswith("KitchenServiceProxy.java"))
    assert [(c.qualname, c.value.parts) for c in proxy.constants] == [
        ("KitchenServiceProxy.create", (("ref", "KitchenServiceChannels.COMMAND_CHANNEL"), ("lit", "/CreateTicket")))]
    assert _uses("plain/src/main/java/plain/Plain.java") == []  # no Eventuate import: nothing


def test_sagas_reach_the_handlers_of_their_commands_and_publishers_their_aggregates_handlers() -> None:
    result = resolve_fixture(FIXTURE)
    produces = [e for e in edges(result, "PRODUCES") if "eventuate" in e]
    consumes = [e for e in edges(result, "CONSUMES") if "eventuate" in e]
    assert produces == [
        "kitchen/src/main/java/ftgo/kitchen/domain/KitchenService.KitchenService.accept(Ticket,List)"
        " -> topic:eventuate:ftgo.kitchen.domain.Ticket",
        "order/src/main/java/ftgo/order/domain/OrderService.OrderService.create(long,List) -> topic:eventuate:ftgo.order.domain.Order",
        "order/src/main/java/ftgo/order/sagas/CancelOrderSaga.CancelOrderSaga.cancelTicket(State)"
        " -> topic:eventuate:kitchenService/CancelTicket",
        "order/src/main/java/ftgo/order/sagas/CreateOrderSaga.CreateOrderSaga.CreateOrderSaga(KitchenServiceProxy)"
        " -> topic:eventuate:kitchenService/CreateTicket",
    ]  # not `notifier.publish(...)`: its class records no aggregate type
    assert consumes == [
        "delivery/src/main/java/ftgo/delivery/DeliveryMessageHandlers.DeliveryMessageHandlers.handleOrderCreated(DomainEventEnvelope)"
        " -> topic:eventuate:ftgo.order.domain.Order",
        "delivery/src/main/java/ftgo/delivery/DeliveryMessageHandlers.DeliveryMessageHandlers.handleTicketAccepted(DomainEventEnvelope)"
        " -> topic:eventuate:ftgo.kitchen.domain.Ticket",
        "kitchen/src/main/java/ftgo/kitchen/handlers/KitchenServiceCommandHandler.KitchenServiceCommandHandler.adminCreate(CommandMessage)"
        " -> topic:eventuate:kitchenAdmin/CreateTicket",
        "kitchen/src/main/java/ftgo/kitchen/handlers/KitchenServiceCommandHandler.KitchenServiceCommandHandler.commandHandlers()"
        " -> topic:eventuate:kitchenService/CancelTicket",
        "kitchen/src/main/java/ftgo/kitchen/handlers/KitchenServiceCommandHandler.KitchenServiceCommandHandler.createTicket(CommandMessage)"
        " -> topic:eventuate:kitchenService/CreateTicket",
    ]


REPLIES = """
// --- path: kitchen/src/main/java/ftgo/kitchen/api/KitchenServiceChannels.java ---
package ftgo.kitchen.api;

public class KitchenServiceChannels {
  public static final String COMMAND_CHANNEL = "kitchenService";
}
// --- path: kitchen/src/main/java/ftgo/kitchen/handlers/KitchenServiceCommandHandler.java ---
package ftgo.kitchen.handlers;

import io.eventuate.tram.sagas.participant.SagaCommandHandlersBuilder;
import ftgo.kitchen.api.*;
import static io.eventuate.tram.commands.consumer.CommandHandlerReplyBuilder.withFailure;
import static io.eventuate.tram.commands.consumer.CommandHandlerReplyBuilder.withSuccess;
import static io.eventuate.tram.sagas.participant.SagaReplyMessageBuilder.withLock;

public class KitchenServiceCommandHandler {
  public CommandHandlers commandHandlers() {
    return SagaCommandHandlersBuilder
            .fromChannel(KitchenServiceChannels.COMMAND_CHANNEL)
            .onMessage(CreateTicket.class, this::createTicket)
            .onMessage(CancelTicket.class, this::cancelTicket)
            .onMessage(ConfirmTicket.class, this::confirmTicket)
            .build();
  }
  private Message createTicket(CommandMessage<CreateTicket> cm) {
    try {
      CreateTicketReply reply = new CreateTicketReply(cm.getCommand().getOrderId());
      return withLock(Ticket.class, 1L).withSuccess(reply);
    } catch (RuntimeException e) {
      return withFailure();
    }
  }
  private Message cancelTicket(CommandMessage<CancelTicket> cm) {
    return withSuccess(new TicketCancelled());
  }
  private Message confirmTicket(CommandMessage<ConfirmTicket> cm) {
    return withSuccess(new TicketConfirmed());
  }
}
// --- path: order/src/main/java/ftgo/order/sagas/KitchenServiceProxy.java ---
package ftgo.order.sagas;

import io.eventuate.tram.sagas.simpledsl.CommandEndpointBuilder;
import ftgo.kitchen.api.*;

public class KitchenServiceProxy {
  public final CommandEndpoint<CreateTicket> create = CommandEndpointBuilder
          .forCommand(CreateTicket.class).withChannel(KitchenServiceChannels.COMMAND_CHANNEL).build();
  public final CommandEndpoint<CancelTicket> cancel = CommandEndpointBuilder
          .forCommand(CancelTicket.class).withChannel(KitchenServiceChannels.COMMAND_CHANNEL).build();
}
// --- path: order/src/main/java/ftgo/order/sagas/CreateOrderSagaState.java ---
package ftgo.order.sagas;

public class CreateOrderSagaState {
  public void handleCreateTicketReply(CreateTicketReply reply) {}
  public void handleCancelled(TicketCancelled reply) {}
}
// --- path: order/src/main/java/ftgo/order/sagas/CreateOrderSaga.java ---
package ftgo.order.sagas;

import io.eventuate.tram.sagas.simpledsl.SimpleSaga;
import ftgo.kitchen.api.*;

public class CreateOrderSaga implements SimpleSaga<CreateOrderSagaState> {
  public CreateOrderSaga(KitchenServiceProxy kitchenService) {
    this.sagaDefinition = step()
            .invokeParticipant(kitchenService.create, CreateOrderSagaState::makeCreateTicketCommand)
            .onReply(CreateTicketReply.class, CreateOrderSagaState::handleCreateTicketReply)
            .withCompensation(kitchenService.cancel, CreateOrderSagaState::makeCancelCommand)
            .onReply(TicketCancelled.class, CreateOrderSagaState::handleCancelled)
            .onReply(CreateTicketReply.class, CreateOrderSagaState::handleCreateTicketReply)
          .step()
            .onReply(TicketConfirmed.class, CreateOrderSagaState::handleCreateTicketReply)
            .build();
  }
}
// --- path: customers/src/main/java/co/customers/CustomerCommandHandler.java ---
package co.customers;

import io.eventuate.tram.commands.consumer.CommandMessage;
import io.eventuate.tram.commands.consumer.annotations.EventuateCommandHandler;

public class CustomerCommandHandler {
  @EventuateCommandHandler(subscriberId = "customerCommandDispatcher", channel = "customerService")
  public ReserveCreditResult reserveCredit(CommandMessage<ReserveCreditCommand> cm) {
    try {
      return new CustomerCreditReserved();
    } catch (CustomerNotFoundException e) {
      return new CustomerNotFound();
    }
  }
}
// --- path: orders/src/main/java/co/orders/CustomerServiceProxy.java ---
package co.orders;

import io.eventuate.tram.commands.consumer.CommandWithDestinationBuilder;

public class CustomerServiceProxy {
  public static final String CHANNEL = "customerService";
  public static final Class<CustomerNotFound> customerNotFoundReply = CustomerNotFound.class;

  public CommandWithDestination reserveCredit(long orderId, Long customerId) {
    return CommandWithDestinationBuilder.send(new ReserveCreditCommand(customerId, orderId)).to(CHANNEL).build();
  }
}
// --- path: orders/src/main/java/co/orders/CreateOrderSaga.java ---
package co.orders;

import io.eventuate.tram.sagas.simpledsl.SimpleSaga;

public class CreateOrderSaga implements SimpleSaga<CreateOrderSagaData> {
  private CustomerServiceProxy customerService;
  private SagaDefinition<CreateOrderSagaData> sagaDefinition =
          step()
            .invokeParticipant(this::reserveCredit)
            .onReply(CustomerServiceProxy.customerNotFoundReply, this::handleCustomerNotFound)
          .build();

  private void handleCustomerNotFound(CreateOrderSagaData data, CustomerNotFound reply) {}

  private CommandWithDestination reserveCredit(CreateOrderSagaData data) {
    return customerService.reserveCredit(data.getOrderId(), data.getCustomerId());
  }
}
"""


def test_command_handlers_replies_reach_the_reply_handlers_of_the_saga_step_that_sent_the_command() -> None:
    result = resolve_fixture(REPLIES)

    def replies(kind: str) -> list[str]:  # the edges of reply topics, <channel>/<Command>/<Reply>
        return [e for e in edges(result, kind) if e.rpartition("topic:eventuate:")[2].count("/") == 2]

    kitchen = "kitchen/src/main/java/ftgo/kitchen/handlers/KitchenServiceCommandHandler.KitchenServiceCommandHandler"
    state = "order/src/main/java/ftgo/order/sagas/CreateOrderSagaState.CreateOrderSagaState"
    assert replies("PRODUCES") == [
        "customers/src/main/java/co/customers/CustomerCommandHandler.CustomerCommandHandler.reserveCredit(CommandMessage)"
        " -> topic:eventuate:customerService/ReserveCreditCommand/CustomerNotFound",  # a returned reply object
        f"{kitchen}.cancelTicket(CommandMessage) -> topic:eventuate:kitchenService/CancelTicket/TicketCancelled",
        f"{kitchen}.createTicket(CommandMessage) -> topic:eventuate:kitchenService/CreateTicket/CreateTicketReply",
    ]  # not: withFailure() (Failure), TicketConfirmed, CustomerCreditReserved: no saga step handles them
    assert replies("CONSUMES") == [
        f"{state}.handleCancelled(TicketCancelled) -> topic:eventuate:kitchenService/CancelTicket/TicketCancelled",
        # after withCompensation(...) a reply handler is the compensation's: none of CancelTicket's handlers replies it
        f"{state}.handleCreateTicketReply(CreateTicketReply) -> topic:eventuate:kitchenService/CancelTicket/CreateTicketReply",
        f"{state}.handleCreateTicketReply(CreateTicketReply) -> topic:eventuate:kitchenService/CreateTicket/CreateTicketReply",
        "orders/src/main/java/co/orders/CreateOrderSaga.CreateOrderSaga.handleCustomerNotFound(CreateOrderSagaData,CustomerNotFound)"
        " -> topic:eventuate:customerService/ReserveCreditCommand/CustomerNotFound",  # this::reserveCredit -> the proxy's
    ]  # not: the second step's onReply (no participant invoked in it)


def test_the_annotation_api_consumes_and_a_proxy_method_stands_for_its_command() -> None:
    result = resolve_fixture(REPLIES)
    assert [e for e in edges(result, "CONSUMES") if e.endswith("topic:eventuate:customerService/ReserveCreditCommand")] == [
        "customers/src/main/java/co/customers/CustomerCommandHandler.CustomerCommandHandler.reserveCredit(CommandMessage)"
        " -> topic:eventuate:customerService/ReserveCreditCommand"]
    proxy = next(e for e, _, _ in extract_fixture(REPLIES) if e.path.endswith("co/orders/CustomerServiceProxy.java"))
    assert sorted((c.qualname, c.value.parts) for c in proxy.constants) == [
        ("CustomerServiceProxy.CHANNEL", (("lit", "customerService"),)),  # (the extractor's)
        ("CustomerServiceProxy.customerNotFoundReply", (("lit", "CustomerNotFound"),)),
        ("CustomerServiceProxy.reserveCredit", (("ref", "CHANNEL"), ("lit", "/ReserveCreditCommand"))),
    ]
