"""NestJS CQRS: commands, queries and events dispatched by their class (``@nestjs/cqrs``) as in-process
topics: the uses a file's detector reads, and the PRODUCES / CONSUMES edges the linker makes, with
the sends and handlers that must not link (another command's handler, a bus of another library, a
message of unknown class)."""

from __future__ import annotations

from tests.resolution_harness import edges, extract_fixture, resolve_fixture

FIXTURE = """
// --- path: src/users/commands/create-user.command.ts ---
export class CreateUserCommand {
  constructor(public readonly email: string) {}
}
// --- path: src/users/commands/delete-user.command.ts ---
export class DeleteUserCommand {
  constructor(public readonly id: string) {}
}
// --- path: src/users/queries/find-users.query.ts ---
export class FindUsersQuery {}
// --- path: src/users/events/user-created.event.ts ---
export class UserCreatedEvent {
  constructor(public readonly id: string) {}
}
export class UserDeletedEvent {}
// --- path: src/users/user.repository.ts ---
export class UserRepository {
  insert(email: string) { return email; }
  remove(id: string) { return id; }
  findAll() { return []; }
}
// --- path: src/users/user.entity.ts ---
import { AggregateRoot } from '@nestjs/cqrs';
import { UserCreatedEvent } from './events/user-created.event';

export class User extends AggregateRoot {
  create(id: string) {
    this.apply(new UserCreatedEvent(id));
  }
}

export class Plain {
  apply(x: unknown) { return x; }
  touch() { this.apply(new UserCreatedEvent('x')); }
}
// --- path: src/users/users.controller.ts ---
import { Controller, Post, Get, Delete } from '@nestjs/common';
import { CommandBus, QueryBus, EventBus, ICommand } from '@nestjs/cqrs';
import { CreateUserCommand } from './commands/create-user.command';
import { DeleteUserCommand } from './commands/delete-user.command';
import { FindUsersQuery } from './queries/find-users.query';
import { UserDeletedEvent } from './events/user-created.event';

@Controller('users')
export class UsersController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
    private readonly eventBus: EventBus,
    private readonly other: Scheduler,
  ) {}

  @Post()
  create() {
    return this.commandBus.execute(new CreateUserCommand('a@b.c'));
  }

  @Delete(':id')
  remove(id: string) {
    const command = new DeleteUserCommand(id);
    this.eventBus.publishAll([new UserDeletedEvent()]);
    return this.commandBus.execute(command);
  }

  @Get()
  list() {
    return this.queryBus.execute(new FindUsersQuery());
  }

  unknown(any: ICommand, make: () => ICommand) {
    this.commandBus.execute(any);
    this.commandBus.execute(make());
    this.other.execute(new CreateUserCommand('x'));
    this.queryBus.publish(new FindUsersQuery());
  }

  generic<T extends ICommand>(command: T) {
    return this.commandBus.execute(command);
  }
}
// --- path: src/users/handlers.ts ---
import { CommandHandler, QueryHandler, EventsHandler, ICommandHandler, Saga, ofType } from '@nestjs/cqrs';
import { map } from 'rxjs/operators';
import { CreateUserCommand } from './commands/create-user.command';
import { DeleteUserCommand } from './commands/delete-user.command';
import { FindUsersQuery } from './queries/find-users.query';
import { UserCreatedEvent, UserDeletedEvent } from './events/user-created.event';
import { UserRepository } from './user.repository';

@CommandHandler(CreateUserCommand)
export class CreateUserHandler implements ICommandHandler<CreateUserCommand> {
  constructor(private readonly repo: UserRepository) {}
  async execute(command: CreateUserCommand) {
    return this.repo.insert(command.email);
  }
}

@CommandHandler(DeleteUserCommand)
export class DeleteUserHandler {
  constructor(private readonly repo: UserRepository) {}
  async execute(command: DeleteUserCommand) {
    return this.repo.remove(command.id);
  }
}

@QueryHandler(FindUsersQuery)
export class FindUsersHandler {
  constructor(private readonly repo: UserRepository) {}
  execute() { return this.repo.findAll(); }
}

@EventsHandler(UserCreatedEvent, UserDeletedEvent)
export class AuditHandler {
  handle(event: UserCreatedEvent | UserDeletedEvent) { return event; }
}

export class UserSagas {
  @Saga()
  created = (events$) => events$.pipe(
    ofType(UserCreatedEvent),
    map((event) => new DeleteUserCommand(event.id)),
  );
}
// --- path: src/other/handlers.ts ---
import { CommandHandler } from 'some-other-cqrs';
import { CreateUserCommand } from '../users/commands/create-user.command';

@CommandHandler(CreateUserCommand)
export class NotNestHandler {
  execute() { return 1; }
}
"""

USERS = "src/users"
CREATE = f"topic:inprocess:{USERS}/commands/create-user.command.CreateUserCommand"
DELETE = f"topic:inprocess:{USERS}/commands/delete-user.command.DeleteUserCommand"
FIND = f"topic:inprocess:{USERS}/queries/find-users.query.FindUsersQuery"
CREATED = f"topic:inprocess:{USERS}/events/user-created.event.UserCreatedEvent"
DELETED = f"topic:inprocess:{USERS}/events/user-created.event.UserDeletedEvent"


def test_the_detector_reads_sends_handlers_aggregates_and_sagas() -> None:
    uses = [(ex.path, t.framework, t.role, t.topic.literal(), t.owner, t.broker)
            for ex, _, _ in extract_fixture(FIXTURE) for t in ex.topics]
    assert uses == [
        ("src/users/user.entity.ts", "nestjs-cqrs", "produces", "UserCreatedEvent", "User.create", "inprocess"),
        ("src/users/users.controller.ts", "nestjs-cqrs", "produces", "CreateUserCommand", "UsersController.create",
         "inprocess"),
        ("src/users/users.controller.ts", "nestjs-cqrs", "produces", "UserDeletedEvent", "UsersController.remove",
         "inprocess"),
        ("src/users/users.controller.ts", "nestjs-cqrs", "produces", "DeleteUserCommand", "UsersController.remove",
         "inprocess"),
        ("src/users/users.controller.ts", "nestjs-cqrs", "produces", "FindUsersQuery", "UsersController.list",
         "inprocess"),
        ("src/users/handlers.ts", "nestjs-cqrs", "consumes", "CreateUserCommand", "CreateUserHandler.execute",
         "inprocess"),
        ("src/users/handlers.ts", "nestjs-cqrs", "consumes", "DeleteUserCommand", "DeleteUserHandler.execute",
         "inprocess"),
        ("src/users/handlers.ts", "nestjs-cqrs", "consumes", "FindUsersQuery", "FindUsersHandler.execute", "inprocess"),
        ("src/users/handlers.ts", "nestjs-cqrs", "consumes", "UserCreatedEvent", "AuditHandler.handle", "inprocess"),
        ("src/users/handlers.ts", "nestjs-cqrs", "consumes", "UserDeletedEvent", "AuditHandler.handle", "inprocess"),
        ("src/users/handlers.ts", "nestjs-cqrs", "consumes", "UserCreatedEvent", "UserSagas.created", "inprocess"),
        ("src/users/handlers.ts", "nestjs-cqrs", "produces", "DeleteUserCommand", "UserSagas.created", "inprocess"),
    ]  # Plain.touch: no AggregateRoot; unknown(): a base type, a call's result, a bus of no CQRS type
    # (Scheduler), publish on a QueryBus; generic(): a type parameter; src/other: not @nestjs/cqrs


def test_each_send_reaches_the_handler_of_its_class_only() -> None:
    result = resolve_fixture(FIXTURE)
    assert edges(result, "PRODUCES") == [
        f"{USERS}/handlers.UserSagas.created(1) -> {DELETE}",
        f"{USERS}/user.entity.User.create(1) -> {CREATED}",
        f"{USERS}/users.controller.UsersController.create(0) -> {CREATE}",
        f"{USERS}/users.controller.UsersController.list(0) -> {FIND}",
        f"{USERS}/users.controller.UsersController.remove(1) -> {DELETE}",
        f"{USERS}/users.controller.UsersController.remove(1) -> {DELETED}",
    ]
    assert edges(result, "CONSUMES") == [
        f"{USERS}/handlers.AuditHandler.handle(1) -> {CREATED}",
        f"{USERS}/handlers.AuditHandler.handle(1) -> {DELETED}",
        f"{USERS}/handlers.CreateUserHandler.execute(1) -> {CREATE}",
        f"{USERS}/handlers.DeleteUserHandler.execute(1) -> {DELETE}",
        f"{USERS}/handlers.FindUsersHandler.execute(0) -> {FIND}",
        f"{USERS}/handlers.UserSagas.created(1) -> {CREATED}",
    ]  # not DeleteUserHandler <- CREATE, not NotNestHandler (another library's decorator)
