"""NestJS microservices (``@nestjs/microservices``): message and event patterns a ``ClientProxy`` sends to
the ``@MessagePattern`` / ``@EventPattern`` handlers of another service -> :class:`~indexer.model.TopicUse`
(framework ``nestjs-microservices``, broker ``nest``).

A pattern is the destination whatever the transport (TCP, Redis, NATS, RabbitMQ, Kafka, MQTT: the
transport is configured in another file, ``NestFactory.createMicroservice`` / ``ClientsModule``), so
the topic is the pattern as Nest routes it (``transformPatternToRoute`` of
``@nestjs/microservices/utils``): a string or number as its text, an object with its keys sorted,
string values quoted and others not, no spaces (``{ cmd: 'sum' }`` -> ``{"cmd":"sum"}``).

* ``consumes``: a method decorated ``@MessagePattern(p)`` or ``@EventPattern(p)`` (the decorator
  imported from ``@nestjs/microservices``, or written ``x.MessagePattern``); ``owner`` the method,
  position its name.
* ``produces``: ``X.send(p, data)`` (request / response) and ``X.emit(p, data)`` (an event) where ``X``
  is a client: a binding of the file types it as one of :data:`CLIENT_TYPES` (a constructor parameter
  property ``@Inject('USER_SERVICE') private readonly client: ClientProxy``, a ``@Client(...)`` field, a
  parameter). A receiver of any other or no type is not read (``socket.emit``, an ``EventEmitter``,
  supertest's ``.send(body)``). ``owner``: the code around the call.

A pattern is a :meth:`~indexer.languages.ecmascript.frameworks.common.JsFile.template` (literals,
constants); an object pattern whose keys are not all plain names or strings, or whose values are not
literals or constants, names no destination (no use). Only files importing ``@nestjs/microservices``
are read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, js_file, unwrap
from indexer.languages.ecmascript.frameworks.nest import decorated_method
from indexer.model import FileExtraction, Template, TopicUse, drop_generics

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["BROKER", "CLIENT_TYPES", "LANGUAGES", "detect", "pattern_route"]

LANGUAGES = ("javascript", "typescript")

FRAMEWORK = "nestjs-microservices"
BROKER = "nest"
PACKAGE = "@nestjs/microservices"

CLIENT_TYPES = frozenset({"ClientProxy", "ClientTCP", "ClientRedis", "ClientNats", "ClientRMQ", "ClientKafka",
                          "ClientMqtt", "ClientKafkaProxy"})
"""The client classes of ``@nestjs/microservices`` whose ``send`` / ``emit`` reach a pattern's handlers."""
_HANDLERS = frozenset({"MessagePattern", "EventPattern"})
_BARE = frozenset({"number", "true", "false"})
"""Literal node types Nest writes into an object pattern's route without quotes."""
_MAX_KEYS = 32
"""Most keys of an object pattern read (a bigger object names no destination)."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's NestJS microservice pattern handlers and sends to ``out``."""
    if not any(i.module == PACKAGE or i.module.startswith(PACKAGE + "/") for i in out.imports):
        return
    jf = js_file(root, src, out)
    matches = jf.matches("nest_microservices")
    if not matches:
        return
    clients = _clients(out)
    for caps in matches:
        if "handler" in caps:
            _handler(jf, out, caps)
        elif clients:
            _send(jf, out, caps, clients)


def _short(type_text: str) -> str:
    return drop_generics(type_text).rsplit(".", 1)[-1]


def _clients(out: FileExtraction) -> frozenset[str]:
    """The receivers a binding of the file types as a client (:data:`CLIENT_TYPES`)."""
    return frozenset(b.name for b in out.bindings if b.type and _short(b.type) in CLIENT_TYPES)


def _handler(jf: JsFile, out: FileExtraction, caps: dict[str, list[Node]]) -> None:
    """``@MessagePattern(p)`` / ``@EventPattern(p)`` on a method: the method consumes ``p``."""
    name = jf.text(caps["name"][0])
    short = name.rpartition(".")[2]
    module = jf.imported(name.split(".", 1)[0])
    if short not in _HANDLERS or module is None or not (module == PACKAGE or module.startswith(PACKAGE + "/")):
        return  # a decorator of the file's own (or another library's) named so is not Nest's
    method = decorated_method(caps["handler"][0])
    d = jf.definition_named(method.child_by_field_name("name")) if method is not None else None
    topic = pattern_route(jf, caps["pattern"][0])
    if d is None or topic is None:
        return
    out.topics.append(TopicUse(FRAMEWORK, "consumes", topic, d.qualname, d.name_line, d.name_col, broker=BROKER))


def _send(jf: JsFile, out: FileExtraction, caps: dict[str, list[Node]], clients: frozenset[str]) -> None:
    """``client.send(p, data)`` / ``client.emit(p, data)`` on a typed client: the code around it
    produces ``p``."""
    if jf.receiver(caps["receiver"][0]) not in clients:
        return
    topic = pattern_route(jf, caps["pattern"][0])
    if topic is None:
        return
    call = caps["call"][0]
    line, col = jf.pos(call)
    out.topics.append(TopicUse(FRAMEWORK, "produces", topic, jf.code_scope(call), line, col, broker=BROKER))


def pattern_route(jf: JsFile, node: Node) -> Template | None:
    """A pattern expression as the route Nest matches it by (see the module docstring): a string,
    number, template or constant as its template; an object literal as ``{"key":value,...}`` with its
    keys sorted (string and other values as :meth:`JsFile.template`, quoted unless a number or boolean
    literal; a nested object likewise); a local variable holding an object literal
    (:meth:`JsFile.local_value`) is that object. ``None`` for an empty template, an object with a
    computed or spread member, or one of more than :data:`_MAX_KEYS` keys."""
    node = unwrap(node) or node
    held = jf.local_value(node)  # `const pattern = { cmd: 'sum' }; client.send(pattern, data)` (Nest's docs)
    if held is not None and (unwrap(held) or held).type == "object":
        node = unwrap(held) or held
    if node.type != "object":
        found = jf.template(node)
        return found if found.parts and not any(k == "hole" for k, _ in found.parts) else None
    parts = _object_route(jf, node, 0)
    return Template.merged(parts) if parts is not None else None


def _locale_key(key: str) -> tuple[str, str]:
    """A sort key near ``String.prototype.localeCompare``'s order, which Nest sorts a pattern's keys
    by: case-insensitive first, a lower-case letter before its upper case."""
    return key.lower(), key.swapcase()


def _object_route(jf: JsFile, node: Node, depth: int) -> list[tuple[str, str]] | None:
    members = node.named_children
    if depth > 4 or len(members) > _MAX_KEYS:
        return None
    pairs: dict[str, Node] = {}
    for c in members:
        if c.type == "comment":
            continue
        if c.type != "pair":
            return None  # a spread, a method, a shorthand property: not read
        key = c.child_by_field_name("key")
        value = c.child_by_field_name("value")
        if key is None or value is None:
            return None
        if key.type == "string":
            k = jf.string(key)
        elif key.type in ("property_identifier", "number"):
            k = jf.text(key)
        else:
            return None  # a computed key
        if k is None:
            return None
        pairs[k] = unwrap(value) or value
    parts: list[tuple[str, str]] = [("lit", "{")]
    for i, k in enumerate(sorted(pairs, key=_locale_key)):
        value = pairs[k]
        parts.append(("lit", ("," if i else "") + f'"{k}":'))
        if value.type == "object":
            inner = _object_route(jf, value, depth + 1)
            if inner is None:
                return None
            parts.extend(inner)
            continue
        found = Template.of(value.type) if value.type in ("true", "false") else jf.template(value)
        if not found.parts or any(kind == "hole" for kind, _ in found.parts):
            return None
        bare = value.type in _BARE
        parts.extend([*([] if bare else [("lit", '"')]), *found.parts, *([] if bare else [("lit", '"')])])
    parts.append(("lit", "}"))
    return parts
