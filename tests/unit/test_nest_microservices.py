"""NestJS microservices (``@nestjs/microservices``): a gateway's ``ClientProxy.send`` / ``emit`` reach the
``@MessagePattern`` / ``@EventPattern`` handlers of another service, as topics of broker ``nest`` (the
shape of Denrox/nestjs-microservices-example: a REST gateway asking user, token and task services over
TCP). Exact uses and edges, with what must not link: another pattern's handler, a receiver that is no
client (``socket.emit``, supertest's ``send``), a decorator of another library, an object pattern of
unknown values."""

from __future__ import annotations

from tests.resolution_harness import edges, extract_fixture, resolve_fixture

FIXTURE = """
// --- path: gateway/src/users.controller.ts ---
import { Controller, Get, Inject } from '@nestjs/common';
import { ClientProxy, ClientKafka } from '@nestjs/microservices';
import { USER_CONFIRM } from './patterns';

@Controller('users')
export class UsersController {
  constructor(
    @Inject('USER_SERVICE') private readonly userServiceClient: ClientProxy,
    @Inject('AUDIT') private readonly audit: ClientKafka,
    private readonly socket: Server,
  ) {}

  @Get()
  public async getUserByToken(id: string) {
    const user = await this.userServiceClient.send('user_get_by_id', id).toPromise();
    this.audit.emit('user_read', { id });
    this.socket.emit('user_get_by_id', id);
    return user;
  }

  @Get('confirm')
  public confirm(link: string) {
    return this.userServiceClient.send(USER_CONFIRM, { link });
  }

  public sum(a: number, b: number, key: string) {
    const pattern = { role: 'math', cmd: 'sum' };
    this.userServiceClient.send<number>(pattern, [a, b]);
    this.userServiceClient.send({ cmd: key, ...rest }, [a, b]);
    return this.userServiceClient.send({ n: 1, ok: true }, []);
  }
}
// --- path: gateway/src/patterns.ts ---
export const USER_CONFIRM = 'user_confirm';
// --- path: gateway/test/users.e2e-spec.ts ---
import * as request from 'supertest';
import { ClientProxy } from '@nestjs/microservices';

describe('users', () => {
  it('posts', () => request(app).post('/users').send('user_get_by_id', 1));
});
// --- path: user/src/user.controller.ts ---
import { Controller } from '@nestjs/common';
import { MessagePattern, EventPattern } from '@nestjs/microservices';
import * as ms from '@nestjs/microservices';

@Controller()
export class UserController {
  @MessagePattern('user_get_by_id')
  public async getUserById(id: string) {
    return id;
  }

  @MessagePattern('user_confirm')
  public confirmUser(params: { link: string }) {
    return params.link;
  }

  @ms.MessagePattern({ cmd: 'sum', role: 'math' })
  public sum(data: number[]) {
    return data[0] + data[1];
  }

  @MessagePattern({ ok: true, n: 1 })
  public flags() {
    return 1;
  }

  @EventPattern('user_read')
  public audited(data: unknown) {
    return data;
  }
}
// --- path: other/src/listener.ts ---
import { MessagePattern } from './my-decorators';

export class NotNest {
  @MessagePattern('user_get_by_id')
  public handle() { return 0; }
}
"""

GATEWAY = "gateway/src/users.controller.UsersController"
USER = "user/src/user.controller.UserController"


def test_the_detector_reads_handlers_and_typed_client_sends() -> None:
    uses = sorted((ex.path, t.role, t.topic.parts, t.owner, t.broker, t.framework)
                  for ex, _, _ in extract_fixture(FIXTURE) for t in ex.topics)
    gw, us = "gateway/src/users.controller.ts", "user/src/user.controller.ts"
    fw = "nestjs-microservices"
    assert uses == [
        (gw, "produces", (("lit", "user_get_by_id"),), "UsersController.getUserByToken", "nest", fw),
        (gw, "produces", (("lit", "user_read"),), "UsersController.getUserByToken", "nest", fw),
        (gw, "produces", (("lit", '{"cmd":"sum","role":"math"}'),), "UsersController.sum", "nest", fw),
        (gw, "produces", (("lit", '{"n":1,"ok":true}'),), "UsersController.sum", "nest", fw),
        (gw, "produces", (("ref", "USER_CONFIRM"),), "UsersController.confirm", "nest", fw),
        (us, "consumes", (("lit", "user_confirm"),), "UserController.confirmUser", "nest", fw),
        (us, "consumes", (("lit", "user_get_by_id"),), "UserController.getUserById", "nest", fw),
        (us, "consumes", (("lit", "user_read"),), "UserController.audited", "nest", fw),
        (us, "consumes", (("lit", '{"cmd":"sum","role":"math"}'),), "UserController.sum", "nest", fw),
        (us, "consumes", (("lit", '{"n":1,"ok":true}'),), "UserController.flags", "nest", fw),
    ]  # not: this.socket.emit (a Server), supertest's send, { cmd: key, ...rest } (a spread), other/ (not Nest's)


def test_each_send_reaches_the_handler_of_its_pattern_only() -> None:
    result = resolve_fixture(FIXTURE)
    assert edges(result, "PRODUCES") == [
        f"{GATEWAY}.confirm(1) -> topic:nest:user_confirm",
        f"{GATEWAY}.getUserByToken(1) -> topic:nest:user_get_by_id",
        f"{GATEWAY}.getUserByToken(1) -> topic:user_read",  # a ClientKafka's: the Kafka topic
        f'{GATEWAY}.sum(3) -> topic:nest:{{"cmd":"sum","role":"math"}}',
        f'{GATEWAY}.sum(3) -> topic:nest:{{"n":1,"ok":true}}',
    ]
    assert edges(result, "CONSUMES") == [
        f"{USER}.audited(1) -> topic:user_read",  # no server transport: the one its sends agree on
        f"{USER}.confirmUser(1) -> topic:nest:user_confirm",
        f"{USER}.flags(0) -> topic:nest:{{\"n\":1,\"ok\":true}}",
        f"{USER}.getUserById(1) -> topic:nest:user_get_by_id",
        f'{USER}.sum(1) -> topic:nest:{{"cmd":"sum","role":"math"}}',
    ]  # NotNest.handle consumes nothing


CLIENT_FIELD = """
// --- path: app/app.controller.ts ---
import { Controller, Get } from '@nestjs/common';
import { Client, ClientProxy, Transport } from '@nestjs/microservices';

@Controller()
export class AppController {
  @Client({ transport: Transport.TCP })
  client: ClientProxy;

  @Get()
  call() {
    let pattern = { cmd: 'sum' };
    pattern = { cmd: 'other' };
    this.client.send(pattern, [1, 2]);
    return this.client.send<number>('x', [1, 2]);
  }
}
"""


def test_a_client_field_sends_and_a_reassigned_local_pattern_names_nothing() -> None:
    result = resolve_fixture(CLIENT_FIELD)
    assert edges(result, "PRODUCES") == ["app/app.controller.AppController.call(0) -> topic:nest:x"]
    assert result.link_outcomes == {"exposes": 1, "produces_nest": 1, "unlinked_topic": 1}  # the reassigned `pattern`
