"""Mediator (martinothamar/Mediator, the source-generated library) and the MediatR variants beside
``IRequestHandler`` (session 68, acc68c): ``Send(command)`` reaches the ``ICommandHandler`` /
``IQueryHandler`` of the command's type, ``CreateStream(query)`` its stream handler, ``Publish(event)``
every ``INotificationHandler``; an ``IRequestPreProcessor<T>`` runs for ``T`` (a generic one for every
request, like a pipeline behavior); a handler generic in its message handles no one type, and a ``Send`` on
a receiver that is no mediator sends nothing."""

from __future__ import annotations

from analysis.impact import SymbolQuery, blast_radius
from tests.golden.harness import index_files
from tests.resolution_harness import edges, resolve_fixture

APP = {
    "src/Web/ContributorsController.cs": '''
using Clean.UseCases;

namespace Clean.Web;

[ApiController]
[Route("api/contributors")]
public class ContributorsController(IMediator mediator, IEmailSender emailSender) : ControllerBase
{
    [HttpPost]
    public async Task<int> Create(string name)
    {
        var id = await mediator.Send(new CreateContributorCommand(name));
        await emailSender.Send(new WelcomeEmail(name));
        return id;
    }

    [HttpGet("{id}")]
    public Task<ContributorDto> Get(int id) => mediator.Send(new GetContributorQuery(id)).AsTask();

    [HttpDelete("{id}")]
    public async Task Delete(int id) => await mediator.Publish(new ContributorDeletedEvent(id));

    [HttpGet]
    public IAsyncEnumerable<ContributorDto> List() => mediator.CreateStream(new ListContributorsQuery());
}
''',
    "src/UseCases/Create.cs": '''
namespace Clean.UseCases;

public record CreateContributorCommand(string Name) : ICommand<int>;

public class CreateContributorHandler(IRepository<Contributor> repository)
    : ICommandHandler<CreateContributorCommand, int>
{
    public async ValueTask<int> Handle(CreateContributorCommand command, CancellationToken ct) => 1;
}

public class CreateContributorAudit : IRequestPreProcessor<CreateContributorCommand>
{
    public Task Process(CreateContributorCommand request, CancellationToken ct) => Task.CompletedTask;
}
''',
    "src/UseCases/Get.cs": '''
namespace Clean.UseCases;

public record GetContributorQuery(int Id) : IQuery<ContributorDto>;

public class GetContributorHandler : IQueryHandler<GetContributorQuery, ContributorDto>
{
    public ValueTask<ContributorDto> Handle(GetContributorQuery query, CancellationToken ct) => default;
}

public record ListContributorsQuery : IStreamQuery<ContributorDto>;

public record UpdateContributorCommand(int Id) : ICommand;

public class ListContributorsHandler : IStreamQueryHandler<ListContributorsQuery, ContributorDto>
{
    public async IAsyncEnumerable<ContributorDto> Handle(ListContributorsQuery query, CancellationToken ct) { yield break; }
}

public class UpdateContributorHandler : ICommandHandler<UpdateContributorCommand>
{
    public ValueTask<Unit> Handle(UpdateContributorCommand command, CancellationToken ct) => default;
}
''',
    "src/UseCases/Deleted.cs": '''
namespace Clean.UseCases;

public record ContributorDeletedEvent(int Id) : INotification;

public class NotifyOnDelete : INotificationHandler<ContributorDeletedEvent>
{
    public ValueTask Handle(ContributorDeletedEvent e, CancellationToken ct) => default;
}

public class AuditOnDelete : INotificationHandler<ContributorDeletedEvent>
{
    public ValueTask Handle(ContributorDeletedEvent e, CancellationToken ct) => default;
}
''',
    "src/UseCases/Behaviors.cs": '''
namespace Clean.UseCases;

public class RequestLogger<TRequest> : IRequestPreProcessor<TRequest> where TRequest : notnull
{
    public Task Process(TRequest request, CancellationToken ct) => Task.CompletedTask;
}

public class GenericHandler<TCommand> : ICommandHandler<TCommand> where TCommand : ICommand
{
    public ValueTask<Unit> Handle(TCommand command, CancellationToken ct) => default;
}

public class AuditAll<T> : INotificationHandler<T> where T : INotification
{
    public ValueTask Handle(T notification, CancellationToken ct) => default;
}

public class LoggingBehavior<TMessage, TResponse> : IPipelineBehavior<TMessage, TResponse>
{
    public ValueTask<TResponse> Handle(TMessage message, MessageHandlerDelegate<TMessage, TResponse> next, CancellationToken ct) => next(message, ct);
}
''',
}


def _fixture() -> str:
    return "".join(f"// --- path: {p.removeprefix('src/')} ---\n{text}" for p, text in APP.items())


def test_mediator_commands_queries_streams_and_notifications_reach_their_handlers() -> None:
    result = resolve_fixture(_fixture())
    web = "Web/ContributorsController.ContributorsController"
    assert edges(result, "PRODUCES") == [
        f"{web}.Create(1) -> topic:inprocess:Clean.UseCases.CreateContributorCommand",
        f"{web}.Create(1) -> topic:inprocess:IRequest",
        f"{web}.Delete(1) -> topic:inprocess:Clean.UseCases.ContributorDeletedEvent",
        f"{web}.Get(1) -> topic:inprocess:Clean.UseCases.GetContributorQuery",
        f"{web}.Get(1) -> topic:inprocess:IRequest",
        f"{web}.List(0) -> topic:inprocess:Clean.UseCases.ListContributorsQuery",
    ]  # emailSender.Send(new WelcomeEmail(..)): no mediator, no message
    assert edges(result, "CONSUMES") == [
        "UseCases/Behaviors.LoggingBehavior.Handle(3) -> topic:inprocess:IRequest",
        "UseCases/Behaviors.RequestLogger.Process(2) -> topic:inprocess:IRequest",
        "UseCases/Create.CreateContributorAudit.Process(2) -> topic:inprocess:Clean.UseCases.CreateContributorCommand",
        "UseCases/Create.CreateContributorHandler.Handle(2) -> topic:inprocess:Clean.UseCases.CreateContributorCommand",
        "UseCases/Deleted.AuditOnDelete.Handle(2) -> topic:inprocess:Clean.UseCases.ContributorDeletedEvent",
        "UseCases/Deleted.NotifyOnDelete.Handle(2) -> topic:inprocess:Clean.UseCases.ContributorDeletedEvent",
        "UseCases/Get.GetContributorHandler.Handle(2) -> topic:inprocess:Clean.UseCases.GetContributorQuery",
        "UseCases/Get.ListContributorsHandler.Handle(2) -> topic:inprocess:Clean.UseCases.ListContributorsQuery",
        "UseCases/Get.UpdateContributorHandler.Handle(2) -> topic:inprocess:Clean.UseCases.UpdateContributorCommand",
    ]  # GenericHandler<TCommand> / AuditAll<T>: no one type, no topic "TCommand" / "T" (a generic notification
    # handler runs for every Publish: not followed)


def _endpoints(store, target: str) -> list[str]:
    report = blast_radius(store, SymbolQuery(target))
    return sorted(f"{e.http_method} {e.path}" for e in report.endpoints)


def test_impact_of_a_handler_is_the_endpoints_sending_its_message(tmp_path) -> None:
    store = index_files(tmp_path, APP, "app")
    try:
        got = {t: _endpoints(store, t) for t in (
            "CreateContributorHandler.Handle", "GetContributorHandler.Handle", "ListContributorsHandler.Handle",
            "NotifyOnDelete.Handle", "UpdateContributorHandler.Handle", "CreateContributorAudit.Process",
            "RequestLogger.Process")}
    finally:
        store.close()
    assert got == {
        "CreateContributorHandler.Handle": ["POST /api/contributors"],
        "GetContributorHandler.Handle": ["GET /api/contributors/{}"],
        "ListContributorsHandler.Handle": ["GET /api/contributors"],
        "NotifyOnDelete.Handle": ["DELETE /api/contributors/{}"],
        "UpdateContributorHandler.Handle": [],  # nothing sends UpdateContributorCommand
        "CreateContributorAudit.Process": ["POST /api/contributors"],
        "RequestLogger.Process": ["GET /api/contributors/{}", "POST /api/contributors"],  # every Send
    }
