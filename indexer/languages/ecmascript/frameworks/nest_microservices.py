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
  parameter), or the file assigns it ``ClientProxyFactory.create(options)``. A receiver of any other or
  no type is not read (``socket.emit``, an ``EventEmitter``, supertest's ``.send(body)``). ``owner``: the
  code around the call.

**Transports.** Which broker carries a pattern is configured apart from the handlers and sends, so each
use records what its own file knows (:attr:`TopicUse.transport`, :attr:`TopicUse.client`) and each
configuration is a :class:`~indexer.model.MessageTransport` the linker
(:mod:`indexer.frameworks.nest_transports`) reads:

* a server: the options of ``NestFactory.createMicroservice(M, options)``, ``app.connectMicroservice(options)``,
  ``moduleFixture.createNestMicroservice(options)`` (an object literal, or a variable of the file holding
  one): ``transport: Transport.KAFKA`` (``Transport`` of ``@nestjs/microservices``), none (TCP, Nest's
  default); an RMQ server also consumes its ``options.queue`` as a RabbitMQ queue (owner: the bootstrap
  function), as the queue's other consumers do. Options named by another identifier (imported from a
  configuration module) leave the record's transport empty and its ``name`` a ``ref`` to
  ``<options>.transport``: a program-level ``const options = {transport: Transport.KAFKA, ...}`` of a
  file importing ``@nestjs/microservices`` records that constant (``kafka``), which the linker
  renders through the import;
* a named client: each entry of ``ClientsModule.register([...])`` / ``registerAsync([...])`` (or
  ``{clients: [...]}``): its ``name`` and the options it holds or its ``useFactory`` returns; an entry that is
  a name (options imported: ``register([RedisClientOptions])``) refers to that object's ``name`` and
  ``transport`` constants; the entries of an exported array of clients are recorded where it is declared
  (:func:`_exported_clients`: ``register(kafkaClients)`` / ``register([...kafkaClients])`` in another module);
* a client of the file: ``@Client(options)`` on a field, ``X = ClientProxyFactory.create(options)`` (a field,
  ``this.x``, a variable; inside a ``{provide: token, useFactory}`` provider, a named client);
* a typed client (``ClientKafka``, ``ClientRMQ``, ``ClientNats``, ``ClientRedis``, ``ClientMqtt``,
  ``ClientTCP``) is of its class's transport; ``@MessagePattern(p, Transport.KAFKA)`` is on that one only.

A ``ClientProxy`` injected with ``@Inject(token)`` records the token; a client of the file records its
transport (an RMQ client with a queue also produces that RabbitMQ queue: ``sendToQueue`` on the default
exchange).

A pattern is a :meth:`~indexer.languages.ecmascript.frameworks.common.JsFile.template` (literals,
constants); an object pattern whose keys are not all plain names or strings, or whose values are not
literals or constants, names no destination (no use). Only files importing ``@nestjs/microservices``
are read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, js_file, unwrap
from indexer.languages.ecmascript.frameworks.nest import decorated_method
from indexer.model import FileExtraction, MessageTransport, StringConstant, Template, TopicUse, is_call_ref, simple_name

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["BROKER", "CLIENT_TYPES", "LANGUAGES", "TRANSPORT_FIELD", "TYPED_TRANSPORTS", "detect", "pattern_route"]

LANGUAGES = ("javascript", "typescript")

FRAMEWORK = "nestjs-microservices"
BROKER = "nest"
PACKAGE = "@nestjs/microservices"

CLIENT_TYPES = frozenset({"ClientProxy", "ClientTCP", "ClientRedis", "ClientNats", "ClientRMQ", "ClientKafka",
                          "ClientMqtt", "ClientKafkaProxy"})
"""The client classes of ``@nestjs/microservices`` whose ``send`` / ``emit`` reach a pattern's handlers."""
TYPED_TRANSPORTS = {"ClientTCP": "tcp", "ClientRedis": "redis", "ClientNats": "nats", "ClientRMQ": "rmq",
                    "ClientKafka": "kafka", "ClientMqtt": "mqtt", "ClientKafkaProxy": "kafka"}
"""The transport each typed client class of ``@nestjs/microservices`` sends over."""
_SERVERS = frozenset({"createMicroservice", "connectMicroservice", "createNestMicroservice"})
_CORE = "@nestjs/core"
"""Where ``NestFactory`` comes from: a bootstrap file may import nothing of ``@nestjs/microservices``."""
TRANSPORT_FIELD = "transport"
"""The member of a program-level options constant whose recorded value is its transport (``kafka``)."""
_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function", "function_declaration", "method_definition"})
_MAX_CLIENTS = 64
"""Most entries of one ``ClientsModule.register`` read."""
_HANDLERS = frozenset({"MessagePattern", "EventPattern"})
_BARE = frozenset({"number", "true", "false"})
"""Literal node types Nest writes into an object pattern's route without quotes."""
_MAX_KEYS = 32
"""Most keys of an object pattern read (a bigger object names no destination)."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's NestJS microservice pattern handlers and sends to ``out``."""
    if not any(i.module == PACKAGE or i.module.startswith(PACKAGE + "/") or i.module == _CORE for i in out.imports):
        return
    jf = js_file(root, src, out)
    _options_constants(jf, root, out)
    matches = jf.matches("nest_microservices")
    if not matches:
        _exported_clients(jf, root, out)
        return
    local: dict[str, tuple[str, Template]] = {}  # a client of the file: receiver -> (transport, RMQ queue)
    tokens: dict[str, Template] = {}  # receiver -> the @Inject token it holds
    vias: dict[str, Template] = {}  # a client of the file created from options of another module -> their transport ref
    for caps in matches:
        if "setup_call" in caps:
            _setup(jf, out, caps, local, vias)
        elif "client_field" in caps:
            found = _options(jf, caps["client_options"][0])
            if found is not None:
                field = jf.text(caps["client_field"][0])
                local[field] = local[f"this.{field}"] = found
        elif "injected" in caps:
            name = jf.text(caps["injected"][0])
            tokens[name] = tokens[f"this.{name}"] = jf.template(caps["token"][0])
    _exported_clients(jf, root, out)
    clients = _clients(out) | local.keys()
    for caps in matches:
        if "handler" in caps:
            _handler(jf, out, caps)
        elif "call" in caps and clients:
            _send(jf, out, caps, clients, local, tokens, vias)


def _transport_member(jf: JsFile, node: Node | None) -> str | None:
    """``Transport.KAFKA`` (or ``ms.Transport.KAFKA``, ``Transport['KAFKA']`` not) -> ``kafka``; ``None``
    for any other expression."""
    node = unwrap(node)
    if node is None or node.type != "member_expression":
        return None
    obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
    if obj is None or prop is None or jf.text(obj).rsplit(".", 1)[-1] != "Transport":
        return None
    return jf.text(prop).lower()


def _object(jf: JsFile, node: Node | None) -> Node | None:
    """The object literal an expression is, or holds (a local variable, or a module-level ``const`` of
    the file written once); ``None`` otherwise."""
    node = unwrap(node)
    if node is not None and node.type == "identifier":
        held = jf.local_value(node) or _module_const(jf, node)
        node = unwrap(held)
    return node if node is not None and node.type == "object" else None


def _held(jf: JsFile, node: Node | None) -> Node | None:
    """``node``, or the value a local or program-level ``const`` of the file it names holds
    (``const clients = [...]; ClientsModule.register(clients)``)."""
    if node is not None and node.type == "identifier":
        return unwrap(jf.local_value(node) or _module_const(jf, node))
    return node


def _module_const(jf: JsFile, ident: Node) -> Node | None:
    """The initialiser of the program-level ``const`` / ``let`` / ``var`` the identifier names (the
    file's only declarator of it), ``None`` when there is none or more than one."""
    found = jf.module_values(jf.text(ident))
    return found[0] if len(found) == 1 else None


def _options(jf: JsFile, node: Node | None) -> tuple[str, Template] | None:
    """A microservice's or client's options as ``(transport, RMQ queue)``: ``transport`` as
    :func:`_transport_member` reads it, ``tcp`` when the object names none (Nest's default; ``""`` when
    it names a custom ``strategy`` / ``customClass``), ``""`` for an expression not read; ``None`` when
    ``node`` is no object literal."""
    obj = _object(jf, node)
    if obj is None:
        return None
    pairs = jf.object_pairs(obj)
    if "transport" in pairs:
        transport = _transport_member(jf, pairs["transport"]) or ""
    else:
        transport = "" if "strategy" in pairs or "customClass" in pairs else "tcp"
    queue = Template()
    if transport == "rmq":
        found = jf.object_pairs(_object(jf, pairs.get("options"))).get("queue")
        queue = jf.template(found) if found is not None else Template()
        if any(k == "hole" or is_call_ref(x) for k, x in queue.parts):
            queue = Template()
    return transport, queue


def _options_constants(jf: JsFile, root: Node, out: FileExtraction) -> None:
    """Record the transport of options a program-level declaration holds or returns, for a bootstrap or
    registration of another file (or this one) that names it (:data:`TRANSPORT_FIELD`):

    * ``[export] const options = { transport: Transport.KAFKA, ... }``: ``options.transport`` = ``kafka``;
    * a function returning such an object (``export function getKafkaOptions() { return {...} }``,
      ``export const getKafkaConfig = (cfg) => ({...})``): ``getKafkaOptions.transport``;
    * a class's method returning one: ``Class.method.transport`` (``KafkaConfig.getOptions()``), and for
      ``createClientOptions`` (Nest's ``ClientsModuleOptionsFactory``, the class ``registerAsync``'s
      ``useClass`` names) ``Class.transport``.

    An object whose transport is no ``Transport`` member records nothing."""
    if not any(i.module == PACKAGE or i.module.startswith(PACKAGE + "/") for i in out.imports):
        return
    for stmt in root.named_children:
        decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        if decl is None:
            continue
        named: list[tuple[str, Node | None]] = []
        if decl.type in ("lexical_declaration", "variable_declaration"):
            for d in decl.named_children:
                name = d.child_by_field_name("name") if d.type == "variable_declarator" else None
                value = unwrap(d.child_by_field_name("value")) if name is not None else None
                if name is not None and name.type == "identifier" and value is not None:
                    named.append((jf.text(name), value if value.type == "object" else _factory_result(jf, value)))
        elif decl.type == "function_declaration" and decl.child_by_field_name("name") is not None:
            named.append((jf.text(decl.child_by_field_name("name")), _factory_result(jf, decl)))
        elif decl.type == "class_declaration" and decl.child_by_field_name("name") is not None:
            cls, body = jf.text(decl.child_by_field_name("name")), decl.child_by_field_name("body")
            for m in body.named_children if body is not None else ():
                key = m.child_by_field_name("name") if m.type == "method_definition" else None
                if key is None:
                    continue
                returned = _factory_result(jf, m)
                named.append((f"{cls}.{jf.text(key)}", returned))
                if jf.text(key) == "createClientOptions":
                    named.append((cls, returned))
        for name, value in named:
            value = unwrap(value)
            pairs = jf.object_pairs(value) if value is not None and value.type == "object" else {}
            transport = _transport_member(jf, pairs.get("transport"))
            if transport:
                out.constants.append(StringConstant(f"{name}.{TRANSPORT_FIELD}", Template.of(transport)))


def _provider_ref(jf: JsFile, node: Node | None) -> Template:
    """Where options not written here come from, as a ``ref`` to the transport constant
    :func:`_options_constants` records: an identifier ``x`` (options imported) or a class named by
    ``useClass`` -> ``x.transport``; a call ``getKafkaOptions(...)`` / ``KafkaConfig.getOptions(...)`` ->
    ``getKafkaOptions.transport`` / ``KafkaConfig.getOptions.transport``, and on an instance of a class
    (``svc.getKafkaConfig()``, ``svc`` a ``new KafkaConfigService()`` or a parameter of that type)
    ``KafkaConfigService.getKafkaConfig.transport``; an empty template for anything else. A call no
    provider records (``config.get('kafka')``) renders to nothing: its transport stays unknown."""
    node = unwrap(node)
    if node is not None and node.type == "call_expression":
        node = unwrap(node.child_by_field_name("function"))
        if node is not None and node.type == "member_expression":
            obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
            if obj is None or obj.type != "identifier" or prop is None:
                return Template()
            cls = _instance_class(jf, obj)  # `svc.getKafkaConfig()` on a KafkaConfigService
            return Template((("ref", f"{cls or jf.text(obj)}.{jf.text(prop)}.{TRANSPORT_FIELD}"),))
    if node is None or node.type not in ("identifier", "member_expression"):
        return Template()
    return Template((("ref", f"{jf.text(node)}.{TRANSPORT_FIELD}"),))


def _instance_class(jf: JsFile, ident: Node) -> str | None:
    """The class a variable holds: ``new C(...)`` its local initialiser, the type annotation of the
    parameter of that name of the function around it (``(svc: KafkaConfigService) => ...``), else the one
    type the file's bindings of that name declare; ``None`` otherwise."""
    held = unwrap(jf.local_value(ident))
    if held is not None and held.type == "new_expression":
        ctor = held.child_by_field_name("constructor")
        return jf.text(ctor) if ctor is not None and ctor.type == "identifier" else None
    name = jf.text(ident)
    fn = ident.parent
    while fn is not None and fn.type not in _FUNCTIONS:
        fn = fn.parent
    params = fn.child_by_field_name("parameters") if fn is not None else None
    for p in params.named_children if params is not None else ():
        pattern, typed = p.child_by_field_name("pattern"), p.child_by_field_name("type")
        if pattern is not None and jf.text(pattern) == name and typed is not None and typed.named_children:
            return simple_name(jf.text(typed.named_children[0]))
    types = {simple_name(b.type) for b in jf.out.bindings if b.name == name and b.type}
    return next(iter(types)) if len(types) == 1 else None


def _factory_result(jf: JsFile, fn: Node | None) -> Node | None:
    """The expression a ``useFactory`` function (a function, method or arrow function) returns: an arrow
    function's expression body, or the value of its body's only top-level ``return``."""
    fn = unwrap(fn)
    if fn is None or fn.type not in ("arrow_function", "function_expression", "function", "function_declaration",
                                     "method_definition"):
        return None
    body = fn.child_by_field_name("body")
    if body is None:
        return None
    if body.type != "statement_block":
        return body
    returns = [c for c in body.named_children if c.type == "return_statement"]
    return returns[0].named_children[0] if len(returns) == 1 and returns[0].named_children else None


def _setup(jf: JsFile, out: FileExtraction, caps: dict[str, list[Node]], local: dict[str, tuple[str, Template]],
           vias: dict[str, Template]) -> None:
    """A server bootstrap, a ``ClientsModule`` registration or a ``ClientProxyFactory.create``: its
    :class:`MessageTransport` records (and an RMQ server's queue consumption; a factory client into
    ``local``; one created from options another module writes, ``create(kafkaOptions as any)``, into ``local``
    with no transport and ``vias`` with the :func:`_provider_ref` of those options)."""
    setup, call = jf.text(caps["setup"][0]), caps["setup_call"][0]
    receiver = jf.receiver(caps["setup_receiver"][0]).rsplit(".", 1)[-1]
    args = [a for a in caps["setup_args"][0].named_children if a.type != "comment"]
    line, col = jf.pos(call)
    if setup in _SERVERS:
        found = _options(jf, args[1] if setup == "createMicroservice" and len(args) > 1 else
                         args[0] if args and setup != "createMicroservice" else None)
        options = unwrap(args[1] if setup == "createMicroservice" and len(args) > 1 else
                         args[0] if args and setup != "createMicroservice" else None)
        ref = _provider_ref(jf, options) if found is None else Template()
        if ref.parts:  # options of another module, or a function's
            out.transports.append(MessageTransport(FRAMEWORK, "server", "", ref, Template(), line, col))
        if found is None:
            return
        transport, queue = found
        out.transports.append(MessageTransport(FRAMEWORK, "server", transport, Template(), queue, line, col))
        if queue.parts:
            out.topics.append(TopicUse(FRAMEWORK, "consumes", queue, jf.code_scope(call), line, col, broker="rabbitmq"))
    elif setup in ("register", "registerAsync") and receiver == "ClientsModule" and args:
        entries = _held(jf, unwrap(args[0]))
        if entries is not None and entries.type == "object":  # registerAsync({ clients: [...] })
            entries = _held(jf, unwrap(jf.object_pairs(entries).get("clients")))
        if entries is None or entries.type != "array":
            return
        for entry in entries.named_children[:_MAX_CLIENTS]:
            if entry.type == "identifier" and setup == "register":
                # `register([RedisClientOptions])`, the options imported: their `name` and `transport` constants
                eline, ecol = jf.pos(entry)
                held = jf.text(entry)
                out.transports.append(MessageTransport(FRAMEWORK, "client", "", Template((("ref", f"{held}.name"),)),
                                                       Template(), eline, ecol,
                                                       Template((("ref", f"{held}.{TRANSPORT_FIELD}"),))))
                continue
            pairs = jf.object_pairs(entry)
            if "name" not in pairs:
                continue
            options = _factory_result(jf, pairs["useFactory"]) if "useFactory" in pairs else entry
            found = _options(jf, options) if setup == "register" or "useFactory" in pairs else None
            transport, queue = found if found is not None else ("", Template())
            provider = pairs.get("useClass") or pairs.get("useExisting")
            via = _provider_ref(jf, provider if provider is not None else options) if found is None else Template()
            eline, ecol = jf.pos(entry)
            out.transports.append(MessageTransport(FRAMEWORK, "client", transport, jf.template(pairs["name"]), queue,
                                                   eline, ecol, via))
    elif setup == "create" and receiver == "ClientProxyFactory" and args:
        found = _options(jf, args[0])
        if found is not None:
            _factory_client(jf, out, call, found, local)
            return
        via = _provider_ref(jf, args[0])
        if via.parts:
            before = set(local)
            _factory_client(jf, out, call, ("", Template()), local, via)
            vias.update(dict.fromkeys(set(local) - before, via))


def _exported_clients(jf: JsFile, root: Node, out: FileExtraction) -> None:
    """The named clients of an exported program-level array (``export const kafkaClients: ClientProviderOptions[] =
    [{ name: 'ORDERS', transport: Transport.KAFKA, ... }]``), which another module registers
    (``ClientsModule.register(kafkaClients)``, ``register([...kafkaClients])``): a ``client``
    :class:`MessageTransport` each, as a registration of this file would record (an entry already recorded here,
    registered in this file too, is not recorded twice). Only an array with an entry naming a ``Transport`` member
    is read (another exported array of objects with a ``name`` is no client list)."""
    seen = {(t.line, t.col) for t in out.transports if t.role == "client"}
    for stmt in root.named_children:
        decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else None
        if decl is None or decl.type not in ("lexical_declaration", "variable_declaration"):
            continue
        for d in decl.named_children:
            value = unwrap(d.child_by_field_name("value")) if d.type == "variable_declarator" else None
            if value is None or value.type != "array":
                continue
            entries = [e for e in value.named_children[:_MAX_CLIENTS] if e.type == "object"]
            read = [(e, jf.object_pairs(e)) for e in entries]
            if not any("name" in pairs and _transport_member(jf, pairs.get("transport")) for _, pairs in read):
                continue
            for entry, pairs in read:
                found = _options(jf, entry) if "name" in pairs else None
                eline, ecol = jf.pos(entry)
                if found is None or (eline, ecol) in seen:
                    continue
                transport, queue = found
                out.transports.append(MessageTransport(FRAMEWORK, "client", transport, jf.template(pairs["name"]), queue,
                                                       eline, ecol))


def _factory_client(jf: JsFile, out: FileExtraction, call: Node, found: tuple[str, Template],
                    local: dict[str, tuple[str, Template]], via: Template | None = None) -> None:
    """Where ``ClientProxyFactory.create(options)`` goes: ``this.x = ...`` / ``x = ...`` / a field /
    a ``const`` (a client of the file), or the ``useFactory`` of a ``{provide: token}`` provider (a
    named client; ``via``: the transport ref of options another module writes, :attr:`MessageTransport.via`)."""
    node = call
    while node.parent is not None and node.parent.type in ("await_expression", "parenthesized_expression",
                                                           "as_expression", "non_null_expression"):
        node = node.parent
    parent = node.parent
    if parent is None:
        return
    if parent.type == "assignment_expression":
        left = parent.child_by_field_name("left")
        if left is not None:
            local[jf.receiver(left)] = found
    elif parent.type == "variable_declarator":
        local[jf.text(parent.child_by_field_name("name"))] = found
    elif parent.type == "public_field_definition":
        name = jf.text(parent.child_by_field_name("name"))
        local[name] = local[f"this.{name}"] = found
    else:  # { provide: 'MATH', useFactory: () => ClientProxyFactory.create(...) }
        fn = parent if parent.type in ("arrow_function", "function_expression") else \
            parent.parent.parent if parent.type == "return_statement" and parent.parent is not None else None
        pair = fn.parent if fn is not None else None
        if pair is None or pair.type != "pair" or jf.text(pair.child_by_field_name("key")) != "useFactory":
            return
        token = jf.object_pairs(pair.parent).get("provide")
        if token is not None:
            line, col = jf.pos(call)
            out.transports.append(MessageTransport(FRAMEWORK, "client", found[0], jf.template(token), found[1],
                                                   line, col, via or Template()))


def _clients(out: FileExtraction) -> frozenset[str]:
    """The receivers a binding of the file types as a client (:data:`CLIENT_TYPES`)."""
    return frozenset(b.name for b in out.bindings if b.type and simple_name(b.type) in CLIENT_TYPES)


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
    args = caps["handler"][0].named_children[-1].child_by_field_name("arguments")
    rest = [a for a in args.named_children if a.type != "comment"][1:] if args is not None else []
    transport = _transport_member(jf, rest[0]) if rest else None  # @MessagePattern('x', Transport.KAFKA)
    out.topics.append(TopicUse(FRAMEWORK, "consumes", topic, d.qualname, d.name_line, d.name_col, broker=BROKER,
                               transport=transport))


def _send(jf: JsFile, out: FileExtraction, caps: dict[str, list[Node]], clients: frozenset[str],
          local: dict[str, tuple[str, Template]], tokens: dict[str, Template], vias: dict[str, Template]) -> None:
    """``client.send(p, data)`` / ``client.emit(p, data)`` on a client: the code around it produces ``p``
    (with the client's transport when the file says it, else its injection token; an RMQ client of the
    file with a queue produces that queue too)."""
    receiver = jf.receiver(caps["receiver"][0])
    if receiver not in clients:
        return
    topic = pattern_route(jf, caps["pattern"][0])
    if topic is None:
        return
    call = caps["call"][0]
    line, col = jf.pos(call)
    scope = jf.code_scope(call)
    transport, queue = local.get(receiver, (None, Template()))
    if transport is None:
        typed = [TYPED_TRANSPORTS.get(simple_name(b.type)) for b in out.bindings if b.name == receiver and b.type]
        transport = next((t for t in typed if t), None)
    token = tokens.get(receiver) if receiver not in local else None
    out.topics.append(TopicUse(FRAMEWORK, "produces", topic, scope, line, col, broker=BROKER,
                               transport=transport or None, client=token, transport_via=vias.get(receiver)))
    if queue.parts:
        out.topics.append(TopicUse(FRAMEWORK, "produces", queue, scope, line, col, broker="rabbitmq",
                                   exchange=Template()))


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
        return found if found.parts and not any(k == "hole" or is_call_ref(x) for k, x in found.parts) else None
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
        if not found.parts or any(kind == "hole" or is_call_ref(x) for kind, x in found.parts):
            return None
        bare = value.type in _BARE
        parts.extend([*([] if bare else [("lit", '"')]), *found.parts, *([] if bare else [("lit", '"')])])
    parts.append(("lit", "}"))
    return parts
