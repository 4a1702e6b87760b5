"""C# framework detectors: exact Route / HttpCall / TopicUse / RpcUse facts per family
(``indexer/languages/csharp/frameworks``), with what must not be taken."""

from indexer.languages.csharp.extractor import EXTRACTOR
from indexer.model import Template


def extract(source: str, path: str = "Api/File.cs"):
    return EXTRACTOR.extract(path, source.encode())


def routes(ex):
    return [(r.framework, r.methods, "".join(f"{{{t}}}" if k != "lit" else t for k, t in r.path.parts),
             r.handler, r.handler_ref) for r in ex.routes]


def test_controllers_tokens_templates_and_constraints():
    ex = extract('''using Microsoft.AspNetCore.Mvc;
namespace Shop.Api;

[ApiController]
[Route("api/[controller]")]
public class OrdersController : ControllerBase
{
    [HttpGet]
    public IActionResult List() => Ok();

    [HttpGet("{id:int}")]
    public IActionResult Get(int id) => Ok();

    [HttpPost]
    public IActionResult Create([FromBody] Order o) => Ok();

    [HttpDelete("/admin/orders/{id?}")]
    public IActionResult Purge(int id) => Ok();

    [Route("[action]/{*rest}")]
    public IActionResult Search(string rest) => Ok();

    private void Helper() { }
}

public class HomeController : Controller
{
    [HttpGet("/")]
    public IActionResult Index() => View();
}

public class NotAController
{
    [HttpGet("x")]
    public void X() { }
}
''')
    assert routes(ex) == [
        ("aspnet", ["GET"], "/api/orders", "OrdersController.List", None),
        ("aspnet", ["GET"], "/api/orders/{id}", "OrdersController.Get", None),
        ("aspnet", ["POST"], "/api/orders", "OrdersController.Create", None),
        ("aspnet", ["DELETE"], "/admin/orders/{id}", "OrdersController.Purge", None),
        ("aspnet", ["*"], "/api/orders/search/{rest}", "OrdersController.Search", None),
        ("aspnet", ["GET"], "/", "HomeController.Index", None),
        ("aspnet", ["GET"], "/x", "NotAController.X", None),
    ]  # NotAController: public and named *Controller, a POCO controller to ASP.NET Core


def test_poco_controllers_are_public_concrete_attribute_routed_classes_named_controller():
    """ASP.NET Core discovers a public, concrete, non-generic class named ``*Controller`` without any
    base (the conduit app's ``UsersController(IMediator mediator)``), or any ``[Controller]`` class;
    never a ``[NonController]`` one, nor a ``*Controller`` class routing nothing by attributes."""
    ex = extract('''using Microsoft.AspNetCore.Mvc;
namespace Conduit.Features.Users;

[Route("users")]
public class UsersController(IMediator mediator)
{
    [HttpPost]
    public Task<UserEnvelope> Create([FromBody] Create.Command command) => mediator.Send(command);

    [HttpPost("login")]
    public Task<UserEnvelope> Login([FromBody] Login.Command command) => mediator.Send(command);
}

public class HealthController
{
    [HttpGet("/health")]
    public string Get() => "ok";
}

[Controller]
[Route("widgets")]
public class Widgets
{
    [HttpGet]
    public string List() => "";
}

[NonController]
[Route("hidden")]
public class HiddenController
{
    [HttpGet]
    public string Get() => "";
}

[Route("base")]
public abstract class CrudBaseController
{
    [HttpGet]
    public string All() => "";
}

[Route("generic")]
public class CrudController<T>
{
    [HttpGet]
    public string All() => "";
}

[Route("internal")]
internal class InternalController
{
    [HttpGet]
    public string Get() => "";
}

public class InputController
{
    public void Update() { }
}
''')
    assert routes(ex) == [
        ("aspnet", ["POST"], "/users", "UsersController.Create", None),
        ("aspnet", ["POST"], "/users/login", "UsersController.Login", None),
        ("aspnet", ["GET"], "/health", "HealthController.Get", None),
        ("aspnet", ["GET"], "/widgets", "Widgets.List", None),
    ]  # not HiddenController ([NonController]), CrudBaseController (abstract), CrudController<T>
    #    (generic), InternalController (not public), InputController (no attribute route: no
    #    /input/update)


def test_minimal_apis_with_groups_lambdas_and_method_groups():
    ex = extract('''var app = WebApplication.Create(args);
var api = app.MapGroup("/api");
var todos = api.MapGroup("todos");
todos.MapGet("/{id}", (int id, TodoDb db) => db.Find(id));
todos.MapPost("/", Handlers.Create);
app.MapMethods("/ping", new[] { "GET", "HEAD" }, () => "pong");
app.MapGet(BuildPath(), () => 1);
app.Run();
''', "Program.cs")
    assert routes(ex) == [
        ("aspnet", ["GET"], "/api/todos/{id}", "GET /api/todos/{id}", None),
        ("aspnet", ["POST"], "/api/todos", None, "Handlers.Create"),
        ("aspnet", ["GET", "HEAD"], "/ping", "GET|HEAD /ping", None),
    ]  # MapGet(BuildPath(), ...): no literal path
    assert [(c.caller, c.name) for c in ex.calls if c.name == "Find"] == [("GET /api/todos/{id}", "Find")]


def test_http_clients_and_refit():
    ex = extract('''using System.Net.Http;
using Refit;
namespace Shop.Clients;

public class CatalogClient
{
    private const string Base = "http://catalog";
    private readonly HttpClient _http;

    public async Task<Product> Get(string id) => await _http.GetFromJsonAsync<Product>($"{Base}/products/{id}");
    public Task Add(Product p) => _http.PostAsJsonAsync("api/products", p);
    public Task Raw(string url) => _http.GetAsync(url);
    public Task Send() => _http.SendAsync(new HttpRequestMessage(HttpMethod.Delete, Base + "/cache"));
}

public interface IUsersApi
{
    [Get("/users/{id}")]
    Task<User> GetUser(int id);
    [Post("/users")]
    Task Create([Body] User u);
}
''')
    assert [(h.framework, h.method, h.url.parts, h.caller) for h in ex.http_calls] == [
        ("httpclient", "GET", (("lit", "http://catalog/products/"), ("hole", "id")), "CatalogClient.Get"),
        ("httpclient", "POST", (("lit", "api/products"),), "CatalogClient.Add"),
        ("httpclient", "DELETE", (("lit", "http://catalog/cache"),), "CatalogClient.Send"),
        ("refit", "GET", (("lit", "/users/{id}"),), "IUsersApi.GetUser"),
        ("refit", "POST", (("lit", "/users"),), "IUsersApi.Create"),
    ]  # GetAsync(url): a parameter, no URL known
    assert [(c.qualname, c.value) for c in ex.constants] == [("CatalogClient.Base", Template.of("http://catalog"))]


def test_kafka_and_masstransit():
    ex = extract('''using Confluent.Kafka;
using MassTransit;
namespace Shop.Messaging;

public static class Topics { public const string Orders = "orders"; }

public class Publisher
{
    private readonly IProducer<string, string> _p;
    private readonly IPublishEndpoint _bus;
    public async Task Send() {
        await _p.ProduceAsync(Topics.Orders, new Message<string, string>());
        await _bus.Publish(new OrderSubmitted { Id = 1 });
        await _bus.Publish<OrderShipped>(new { Id = 2 });
    }
    public void Listen(IConsumer<string, string> c) { c.Subscribe(new[] { "payments", "refunds" }); }
}

public class SubmittedConsumer : IConsumer<OrderSubmitted>
{
    public Task Consume(ConsumeContext<OrderSubmitted> ctx) => Task.CompletedTask;
}
''')
    assert [(t.framework, t.role, t.topic.parts, t.owner, t.broker) for t in ex.topics
            if not t.handed_as] == [
        ("confluent-kafka", "produces", (("lit", "orders"),), "Publisher.Send", "kafka"),
        ("masstransit", "produces", (("lit", "OrderSubmitted"),), "Publisher.Send", "rabbitmq"),
        ("masstransit", "produces", (("lit", "OrderShipped"),), "Publisher.Send", "rabbitmq"),
        ("confluent-kafka", "consumes", (("lit", "payments"),), "Publisher.Listen", "kafka"),
        ("confluent-kafka", "consumes", (("lit", "refunds"),), "Publisher.Listen", "kafka"),
        ("masstransit", "consumes", (("lit", "OrderSubmitted"),), "SubmittedConsumer.Consume", "rabbitmq"),
    ]
    assert extract('public class A { void M(X c) { c.Subscribe("t"); } }').topics == []  # no Kafka using


def test_grpc_servers_and_clients():
    ex = extract('''using Grpc.Core;
namespace cartservice.services;

public class CartService : Hipstershop.CartService.CartServiceBase
{
    public override Task<Cart> GetCart(GetCartRequest r, ServerCallContext ctx) => null;
}

internal class HealthCheckService : HealthBase { }

public class ApiController : ControllerBase { }

public class Checkout
{
    private readonly Hipstershop.PaymentService.PaymentServiceClient _pay;
    public async Task Run(GrpcChannel ch) {
        await _pay.ChargeAsync(new ChargeRequest());
        var cart = new Hipstershop.CartService.CartServiceClient(ch);
        cart.EmptyCart(new EmptyCartRequest());
        await new Hipstershop.CartService.CartServiceClient(ch).GetCartAsync(null);
    }
}
''')
    assert [(u.role, u.service, u.rpc, u.owner) for u in ex.rpc_uses] == [
        ("serves", "CartService", None, "CartService"),
        ("serves", "Health", None, "HealthCheckService"),
        ("calls", "PaymentService", "Charge", "Checkout.Run"),
        ("calls", "CartService", "EmptyCart", "Checkout.Run"),
        ("calls", "CartService", "GetCart", "Checkout.Run"),
    ]  # ControllerBase is no gRPC base


def test_minimal_api_groups_through_fluent_builder_calls():
    ex = extract('''public static class OrdersApi
{
    public static RouteGroupBuilder MapOrdersApi(this IEndpointRouteBuilder app)
    {
        var vApi = app.NewVersionedApi("Orders");
        var api = vApi.MapGroup("api/orders").HasApiVersion(1, 0).RequireAuthorization();
        var admin = api.MapGroup("/admin").WithTags("admin");
        api.MapGet("{orderId:int}", GetOrderAsync);
        api.MapPut("/cancel", CancelOrderAsync);
        admin.MapDelete("/{id}", PurgeAsync);
        var other = vApi.MapGroup("api/other").HasApiVersion(2, 0).ToString().Length;
        app.MapGet("/health", Health);
        return api;
    }
}
''')
    assert routes(ex) == [
        ("aspnet", ["GET"], "/api/orders/{orderId}", None, "GetOrderAsync"),
        ("aspnet", ["PUT"], "/api/orders/cancel", None, "CancelOrderAsync"),
        ("aspnet", ["DELETE"], "/api/orders/admin/{id}", None, "PurgeAsync"),
        ("aspnet", ["GET"], "/health", None, "Health"),
    ]  # `other` holds a property of a call on the group, no group; app's own routes keep no prefix


def test_grpc_client_named_through_a_using_alias_and_a_primary_constructor():
    ex = extract('''using GrpcBasketClient = eShop.Basket.API.Grpc.Basket.BasketClient;
using GrpcBasketItem = eShop.Basket.API.Grpc.BasketItem;

namespace eShop.WebApp.Services;

public class BasketService(GrpcBasketClient basketClient, GrpcBasketItem item)
{
    public async Task DeleteBasketAsync() => await basketClient.DeleteBasketAsync(new DeleteBasketRequest());
    public void Other() => item.CalculateSize();
}
''')
    assert [(u.role, u.service, u.rpc, u.owner) for u in ex.rpc_uses] == [
        ("calls", "Basket", "DeleteBasket", "BasketService.DeleteBasketAsync"),
    ]  # GrpcBasketItem aliases a message, no client: item.CalculateSize() calls no rpc


def test_http_client_urls_from_locals_and_readonly_fields():
    ex = extract('''using System.Net.Http.Json;
namespace Shop.Web;

public class CatalogService(HttpClient httpClient)
{
    private readonly string remoteServiceBaseUrl = "api/catalog/";
    private string mutableBase = "api/mutable/";

    public Task<Item?> GetItem(int id)
    {
        var uri = $"{remoteServiceBaseUrl}items/{id}";
        return httpClient.GetFromJsonAsync<Item>(uri);
    }

    public Task Twice(bool b)
    {
        var uri = "api/one";
        if (b) uri = "api/two";
        return httpClient.GetAsync(uri);
    }

    public Task Param(string uri) => httpClient.GetAsync(uri);

    public Task Mutable() => httpClient.GetAsync(mutableBase + "x");

    public Task Later()
    {
        var r = httpClient.DeleteAsync(path);
        var path = "api/late";
        return r;
    }
}
''')
    assert [(h.method, h.url.parts, h.caller) for h in ex.http_calls] == [
        ("GET", (("lit", "api/catalog/items/"), ("hole", "id")), "CatalogService.GetItem"),
        ("GET", (("hole", "mutableBase"), ("lit", "x")), "CatalogService.Mutable"),
    ]  # Twice: assigned again; Param: a parameter; Later: declared after its use; mutableBase: not readonly
    assert [(c.qualname, c.value) for c in ex.constants] == [
        ("CatalogService.remoteServiceBaseUrl", Template.of("api/catalog/"))]


def test_integration_event_bus_publishers_and_handlers():
    ex = extract('''namespace Shop.Payments;

public class PaymentHandler(IEventBus eventBus, IOptions<PaymentOptions> options) :
    IIntegrationEventHandler<OrderStockConfirmedIntegrationEvent>
{
    public async Task Handle(OrderStockConfirmedIntegrationEvent @event)
    {
        IntegrationEvent result;
        if (options.Value.Succeeded)
            result = new PaymentSucceededIntegrationEvent(@event.OrderId);
        else
            result = new PaymentFailedIntegrationEvent(@event.OrderId);
        await eventBus.PublishAsync(result);
    }
}

public class GracePeriod
{
    private readonly IEventBus _eventBus;
    private readonly IMediator _mediator;
    public async Task Tick(int id, IntegrationEvent given)
    {
        var confirmed = new GracePeriodConfirmedIntegrationEvent(id);
        await _eventBus.PublishAsync(confirmed);
        _eventBus.Publish(id > 0 ? (IntegrationEvent)new OrderShippedIntegrationEvent(id) : new OrderCancelledIntegrationEvent(id));
        await _eventBus.PublishAsync(given);
        var built = Build(id);
        await _eventBus.PublishAsync(built);
        await _mediator.Publish(new OrderNotification(id));
    }
}

public class Other : IIntegrationEventHandler { public Task Handle(IntegrationEvent e) => null; }
''')
    assert [(t.framework, t.role, t.topic.literal(), t.owner, t.broker) for t in ex.topics
            if not t.handed_as] == [
        ("eventbus", "produces", "PaymentFailedIntegrationEvent", "PaymentHandler.Handle", "rabbitmq"),
        ("eventbus", "produces", "PaymentSucceededIntegrationEvent", "PaymentHandler.Handle", "rabbitmq"),
        ("eventbus", "produces", "GracePeriodConfirmedIntegrationEvent", "GracePeriod.Tick", "rabbitmq"),
        ("eventbus", "produces", "OrderShippedIntegrationEvent", "GracePeriod.Tick", "rabbitmq"),
        ("eventbus", "produces", "OrderCancelledIntegrationEvent", "GracePeriod.Tick", "rabbitmq"),
        ("eventbus", "consumes", "OrderStockConfirmedIntegrationEvent", "PaymentHandler.Handle", "rabbitmq"),
        ("mediatr", "produces", "OrderNotification", "GracePeriod.Tick", "inprocess"),
    ]  # given: a parameter of the base type; built: a call's result; _mediator: MediatR's, not the event bus;
    # Other: the non-generic interface


def test_mediatr_requests_notifications_wrappers_and_pipeline_behaviors():
    ex = extract('''namespace Shop.Ordering;

public record CancelOrderCommand(int OrderNumber) : IRequest<bool>;

public static class OrdersApi
{
    public static async Task<bool> Cancel(CancelOrderCommand command, Guid id, [AsParameters] OrderServices services)
    {
        var wrapped = new IdentifiedCommand<CancelOrderCommand, bool>(command, id);
        return await services.Mediator.Send(wrapped);
    }
    public static Task<OrderDraftDTO> Draft(CreateOrderDraftCommand command, OrderServices services)
        => services.Mediator.Send(command);
    public static void Nothing(OrderServices services, IRequest<bool> any)
    {
        services.Mediator.Send(any);
        services.Mediator.Send(Make());
        services.Messenger.Send(new ProductCountChanged(1));
        WeakReferenceMessenger.Default.Send(new ProductCountChanged(0));
    }
}

public abstract class IdentifiedCommandHandler<T, R>(IMediator mediator) : IRequestHandler<IdentifiedCommand<T, R>, R>
    where T : IRequest<R>
{
    public async Task<R> Handle(IdentifiedCommand<T, R> message, CancellationToken token)
    {
        var command = message.Command;
        return await mediator.Send(command, token);
    }
    public Task<R> Again(T inner) => mediator.Send(inner);
}

public class CancelOrderCommandHandler(IPublisher publisher) : IRequestHandler<CancelOrderCommand, bool>
{
    public async Task<bool> Handle(CancelOrderCommand command, CancellationToken token)
    {
        await publisher.Publish(new OrderCancelledDomainEvent(command.OrderNumber));
        return true;
    }
}

public class OrderCancelledDomainEventHandler : INotificationHandler<OrderCancelledDomainEvent>
{
    public Task Handle(OrderCancelledDomainEvent e, CancellationToken token) => Task.CompletedTask;
}

public class LoggingBehavior<TRequest, TResponse> : IPipelineBehavior<TRequest, TResponse> where TRequest : IRequest<TResponse>
{
    public Task<TResponse> Handle(TRequest request, RequestHandlerDelegate<TResponse> next, CancellationToken t) => next();
}

public class Unrelated : IRequestHandler { public Task Handle(object o) => null; }
''')
    assert [(t.framework, t.role, t.topic.literal(), t.owner, t.broker) for t in ex.topics
            if not t.handed_as] == [
        ("mediatr", "produces", "CancelOrderCommand", "OrdersApi.Cancel", "inprocess"),
        ("mediatr", "produces", "IdentifiedCommand", "OrdersApi.Cancel", "inprocess"),
        ("mediatr", "produces", "IRequest", "OrdersApi.Cancel", "inprocess"),
        ("mediatr", "produces", "CreateOrderDraftCommand", "OrdersApi.Draft", "inprocess"),
        ("mediatr", "produces", "IRequest", "OrdersApi.Draft", "inprocess"),
        ("mediatr", "produces", "OrderCancelledDomainEvent", "CancelOrderCommandHandler.Handle", "inprocess"),
        ("mediatr", "consumes", "IdentifiedCommand", "IdentifiedCommandHandler.Handle", "inprocess"),
        ("mediatr", "consumes", "CancelOrderCommand", "CancelOrderCommandHandler.Handle", "inprocess"),
        ("mediatr", "consumes", "OrderCancelledDomainEvent", "OrderCancelledDomainEventHandler.Handle", "inprocess"),
        ("mediatr", "consumes", "IRequest", "LoggingBehavior.Handle", "inprocess"),
    ]  # any: the base type; Make(): a call's result; Messenger / WeakReferenceMessenger: no mediator;
    # message.Command and inner (a type parameter): unknown; Publish: no pipeline; bool: no message;
    # Unrelated: the non-generic interface
    bases = ("IRequest", "IBaseRequest", "INotification", "ICommand", "IBaseCommand", "IQuery", "IBaseQuery",
             "IMessage", "IStreamRequest", "IStreamCommand", "IStreamQuery", "IStreamMessage")  # + Mediator's
    assert [(t.framework, t.topic.literal(), t.owner, t.target, t.handed_as) for t in ex.topics if t.handed_as] == [
        ("eventbus", "IdentifiedCommand", "OrdersApi.Cancel", "services.Mediator.Send", ("IntegrationEvent",)),
        ("eventbus", "ProductCountChanged", "OrdersApi.Nothing", "services.Messenger.Send", ("IntegrationEvent",)),
        ("eventbus", "ProductCountChanged", "OrdersApi.Nothing", "WeakReferenceMessenger.Default.Send",
         ("IntegrationEvent",)),
        ("eventbus", "OrderCancelledDomainEvent", "CancelOrderCommandHandler.Handle", "publisher.Publish",
         ("IntegrationEvent",)),
        ("mediatr", "ProductCountChanged", "OrdersApi.Nothing", "services.Messenger.Send", bases),
        ("mediatr", "ProductCountChanged", "OrdersApi.Nothing", "WeakReferenceMessenger.Default.Send", bases),
    ]  # candidates handed to a callee: the linker keeps those whose callee takes a base type; a bus's own
    # sends are none of its candidates; command / any (parameters), Make() (a result): never candidates


def test_conventionally_routed_controllers_answer_controller_slash_action():
    ex = extract('''using Microsoft.AspNetCore.Mvc;
namespace Identity.Quickstart;

public class AccountController : Controller
{
    [HttpGet]
    public async Task<IActionResult> Login(string returnUrl) => View();

    [HttpPost]
    [ValidateAntiForgeryToken]
    public async Task<IActionResult> Login(LoginInputModel model, string button) => View();

    public IActionResult AccessDenied() => View();

    [HttpGet("/account/external/{scheme}")]
    public IActionResult External(string scheme) => View();

    [NonAction]
    public void Audit() { }

    private void Helper() { }

    public override void OnActionExecuting(ActionExecutingContext context) { }
}

[ApiController]
public class PingController : ControllerBase
{
    [HttpGet]
    public IActionResult Ping() => Ok();
}
''')
    assert routes(ex) == [
        ("aspnet", ["GET"], "/account/login", "AccountController.Login", None),
        ("aspnet", ["POST"], "/account/login", "AccountController.Login", None),
        ("aspnet", ["*"], "/account/accessdenied", "AccountController.AccessDenied", None),
        ("aspnet", ["GET"], "/account/external/{scheme}", "AccountController.External", None),
        ("aspnet", ["GET"], "/", "PingController.Ping", None),
    ]  # Audit ([NonAction]), Helper (private), OnActionExecuting (Controller's own): no actions
