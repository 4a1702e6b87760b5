"""Endpoint classes of ASP.NET Core applications (session 68, acc68c): Ardalis.ApiEndpoints
(``EndpointBaseAsync.WithRequest<T>.WithActionResult<R>`` and the older ``BaseAsyncEndpoint<T, R>``: a
controller with one attribute-routed action) and FastEndpoints (``Endpoint<TRequest, TResponse>``,
``EndpointWithoutRequest``, ``Ep.Req<T>.Res<R>``, routed in ``Configure()`` by ``Get`` / ``Post`` /
``Verbs`` + ``Routes``, handled by ``HandleAsync`` / ``ExecuteAsync``), with what must not be a route:
a class of another base with ``[HttpGet]``, ``Get("/x")`` in the ``Configure()`` of a class that is no
endpoint, a ``Get`` on another receiver or outside ``Configure()``. Their functional tests' Ardalis.HttpClientTestExtensions
requests (``_client.GetAndDeserializeAsync<T>(url)``) are in-process requests; a cache's ``GetAndRefreshAsync`` is none."""

from __future__ import annotations

from analysis.impact import SymbolQuery, blast_radius
from tests.golden.harness import index_files
from tests.resolution_harness import edges, resolve_fixture, split_fixture

FIXTURE = """
// --- path: PublicApi/AuthEndpoints/AuthenticateEndpoint.cs ---
using Ardalis.ApiEndpoints;

namespace Shop.PublicApi.AuthEndpoints;

public class AuthenticateEndpoint : EndpointBaseAsync
    .WithRequest<AuthenticateRequest>
    .WithActionResult<AuthenticateResponse>
{
    [HttpPost("api/authenticate")]
    public override async Task<ActionResult<AuthenticateResponse>> HandleAsync(AuthenticateRequest request,
        CancellationToken cancellationToken = default) => Ok();

    public Task Helper() => Task.CompletedTask;
}

[Route("api/[controller]")]
public class CatalogItemsEndpoint : EndpointBaseSync.WithRequest<int>.WithResult<CatalogItem>
{
    [HttpGet("{id:int}")]
    public override CatalogItem Handle(int id) => new();
}

public class LegacyList : BaseAsyncEndpoint<ListRequest, ListResponse>
{
    [HttpGet("/api/legacy")]
    public override Task<ActionResult<ListResponse>> HandleAsync(ListRequest r, CancellationToken ct) => null;
}

public class NotAnEndpoint : EndpointHelper
{
    [HttpGet("/api/helper")]
    public Task Run() => Task.CompletedTask;
}
// --- path: Web/Contributors/Create.CreateContributorRequest.cs ---
namespace Clean.Web.Contributors;

public class CreateContributorRequest
{
    public const string Route = "/Contributors";
}

public class GetContributorByIdRequest
{
    public const string Route = "/Contributors/{ContributorId:int}";
}
// --- path: Web/Contributors/Create.cs ---
using FastEndpoints;
using Clean.UseCases;

namespace Clean.Web.Contributors;

public class Create(IMediator mediator) : Endpoint<CreateContributorRequest, CreateContributorResponse>
{
    public override void Configure()
    {
        Post(CreateContributorRequest.Route);
        AllowAnonymous();
    }

    public override async Task<CreateContributorResponse> ExecuteAsync(CreateContributorRequest request, CancellationToken ct)
        => await mediator.Send(new CreateContributorCommand(request.Name));
}

public class GetById : Endpoint<GetContributorByIdRequest, ContributorRecord>
{
    public override void Configure() => Get(GetContributorByIdRequest.Route);

    public override async Task HandleAsync(GetContributorByIdRequest request, CancellationToken ct) { }
}

public class List : EndpointWithoutRequest<ContributorListResponse>
{
    public override void Configure()
    {
        Get($"/{nameof(Project)}s", "/all-projects");
    }

    public override async Task HandleAsync(CancellationToken ct) { }
}

public class Upsert : Ep.Req<UpsertRequest>.Res<UpsertResponse>
{
    public override void Configure()
    {
        Verbs(Http.POST, Http.PUT);
        Routes("/Upserts/{id:int}", "/Upserts");
    }

    public override async Task HandleAsync(UpsertRequest r, CancellationToken ct)
    {
        await client.Get("/not-a-route");
    }
}

public class Ping : EndpointWithoutRequest
{
    public override void Configure()
    {
        Get("/ping");
    }
}

public class Settings
{
    public void Configure()
    {
        Get("/not-an-endpoint");
        options.Post("/nor-this");
    }
}
// --- path: UseCases/CreateContributorHandler.cs ---
using Clean.Web.Contributors;

namespace Clean.UseCases;

public record CreateContributorCommand(string Name) : ICommand<int>;

public class CreateContributorHandler : ICommandHandler<CreateContributorCommand, int>
{
    public ValueTask<int> Handle(CreateContributorCommand command, CancellationToken ct) => default;
}
"""


def test_ardalis_and_fastendpoints_classes_expose_their_routes() -> None:
    result = resolve_fixture(FIXTURE)
    auth, web = "PublicApi/AuthEndpoints/AuthenticateEndpoint", "Web/Contributors/Create"
    assert edges(result, "EXPOSES") == [
        f"{auth}.AuthenticateEndpoint.HandleAsync(2) -> endpoint:POST /api/authenticate",
        f"{auth}.CatalogItemsEndpoint.Handle(1) -> endpoint:GET /api/catalogitemsendpoint/{{}}",
        f"{auth}.LegacyList.HandleAsync(2) -> endpoint:GET /api/legacy",
        f"{web}.Create.ExecuteAsync(2) -> endpoint:POST /Contributors",  # a class's constant, another file
        f"{web}.GetById.HandleAsync(2) -> endpoint:GET /Contributors/{{}}",  # {ContributorId:int}
        f"{web}.List.HandleAsync(1) -> endpoint:GET /Projects",  # $"/{nameof(Project)}s"
        f"{web}.List.HandleAsync(1) -> endpoint:GET /all-projects",
        f"{web}.Ping -> endpoint:GET /ping",  # no HandleAsync of its own: the class
        f"{web}.Upsert.HandleAsync(2) -> endpoint:POST /Upserts",
        f"{web}.Upsert.HandleAsync(2) -> endpoint:POST /Upserts/{{}}",
        f"{web}.Upsert.HandleAsync(2) -> endpoint:PUT /Upserts",
        f"{web}.Upsert.HandleAsync(2) -> endpoint:PUT /Upserts/{{}}",
    ]  # not: NotAnEndpoint's /api/helper, Settings.Configure's Get / options.Post, client.Get("/not-a-route")
    assert not any("Helper" in e for e in edges(result, "EXPOSES"))


def test_impact_of_a_command_handler_reaches_the_fastendpoint_sending_it(tmp_path) -> None:
    store = index_files(tmp_path, {f"src/{p}": text for p, text in split_fixture(FIXTURE).items()}, "app")
    try:
        report = blast_radius(store, SymbolQuery("CreateContributorHandler.Handle"))
        got = sorted(f"{e.http_method} {e.path} {e.handler.qualname}" for e in report.endpoints)
    finally:
        store.close()
    assert got == ["POST /Contributors Create.ExecuteAsync"]


TESTS = FIXTURE + """
// --- path: tests/Web.FunctionalTests/ContributorTests.cs ---
using Xunit;

public class ContributorTests(CustomWebApplicationFactory<Program> factory)
{
    private readonly HttpClient _client = factory.CreateClient();
    private readonly IDistributedCache cache;

    [Fact]
    public async Task Lists() => await _client.GetAndDeserializeAsync<ContributorListResponse>("/all-projects");

    [Fact]
    public async Task RejectsEmpty() => await _client.PostAndEnsureBadRequestAsync("/Contributors", null);

    [Fact]
    public async Task Other()
    {
        await cache.GetAndRefreshAsync("/ping");
        await _client.GetAndDeserialize("/ping");
    }
}
"""


def test_ardalis_http_client_test_extensions_are_in_process_requests() -> None:
    result = resolve_fixture(TESTS)
    assert [e for e in edges(result, "CALLS_HTTP") if e.startswith("tests/")] == [
        "tests/Web.FunctionalTests/ContributorTests.ContributorTests.Lists(0) -> endpoint:GET /all-projects",
        "tests/Web.FunctionalTests/ContributorTests.ContributorTests.RejectsEmpty(0) -> endpoint:POST /Contributors",
    ]  # cache.GetAndRefreshAsync: no client; GetAndDeserialize: no Async, no extension of the library
