"""Where a message goes: the queue-side part of the framework linker (:mod:`indexer.frameworks.link`).

A :class:`~indexer.model.TopicUse` of a broker other than Kafka names its destination in one of
three ways, and :class:`QueueLinker` turns each into the ``(broker, name, match)`` destinations of
its PRODUCES / CONSUMES edges (``match`` says how sure the link is, like a CALLS edge's
``resolution``):

* **RabbitMQ**: a consumer names its queue (``exact``). A producer publishes to an exchange with a
  routing key (:attr:`TopicUse.exchange`, :attr:`TopicUse.topic`). The default exchange (``""``, or
  Spring's ``convertAndSend(routingKey, msg)`` without ``spring.rabbitmq.template.exchange``) routes
  to the queue named by the key (``exact``). A named exchange goes to the queues of the
  :class:`~indexer.model.QueueBinding` records of the repository on that exchange whose key equals the
  routing key (``exact``), or matches it as a topic-exchange pattern (``*`` one word, ``#`` any
  words) or is empty (a fanout binding) (``inferred``). An exchange no binding in the code names
  leaves the routing key as the queue's name (``name``).
* **Celery**: a task function consumes the queue of its task name (``name=``, else its module's
  dotted name and the function's: ``shop.tasks.cleanup``). ``cleanup.delay()`` (:attr:`TopicUse.target`)
  is resolved like a callee to the task's function and produces to its task name (``exact``); a
  target that is no task function is not linked (``unlinked_task``; in a repository without any
  Celery task such a call is no task call at all and is not counted). ``send_task("name")`` names
  the task (``name``).
* **Spring Cloud Stream** (:attr:`TopicUse.binding`): a functional binding (``orders-in-0``) or a
  ``StreamBridge.send`` name goes to
  ``spring.cloud.stream.bindings.<binding>.destination`` of the file's configuration (``exact``),
  else to the binding's own name (``name``: Spring uses it as the destination). Its broker is the
  binder the configuration names (``spring.cloud.stream.kafka.*`` / ``spring.kafka.*``: ``kafka``,
  ``spring.cloud.stream.rabbit.*`` / ``spring.rabbitmq.*``: ``rabbitmq``), else ``stream``. A
  functional bean in an application with no ``spring.cloud.stream`` configuration is not a binding
  (``unlinked_binding``).
* **A message dispatched by its type in process** (broker ``inprocess``, MediatR: the topic is the
  type as written, ``Create.Command``): the full name
  of the class the type resolves to (namespace, enclosing types, name), so the nested ``Command`` of
  each feature class is a topic of its own; the short name when it names no class of the repository.
* Any other use names its destination (JMS, SQS, SNS, NATS, Redis): ``exact`` when the name is a
  literal or constant. An SQS queue URL or SNS topic ARN stands for its last segment (the queue's or
  topic's name). A NATS publish also goes to every wildcard subscription of the repository that
  matches its subject (``orders.*``, ``orders.>``: ``inferred``); an MQTT publish likewise to every
  topic filter with wildcards matching its topic (``home/+/temp``, ``home/#``: :func:`mqtt_matches`), a
  shared subscription (``$share/group/...``) consuming the filter after its prefix.
* **A NestJS microservice pattern** (broker ``nest``): the broker its transport makes it a topic of
  (:mod:`indexer.frameworks.nest_transports`: ``kafka``, ``nats``, ``redis``, else ``nest``).
* **A message handed to a wrapper or an outbox** (:attr:`TopicUse.handed_as`, C#'s
  ``service.AddAndSaveEventAsync(new OrderShippedIntegrationEvent(...))``, an entity's
  ``AddDomainEvent(new OrderCancelledDomainEvent(this))``): :attr:`TopicUse.target` is resolved like a
  callee (a bare name also as a member of the class around it); when the function it names declares
  a parameter of one of the bus's message base types, the message's class is produced (``inferred``:
  a method taking the base type may keep the message without sending it, ``RemoveDomainEvent(e)``);
  otherwise nothing, and nothing counted (most calls handing an object over are no wrapper).
* **A use that needs a consumer** (:attr:`TopicUse.needs_consumer`: an Apex DML write raising its
  sObject's record events) is produced only when some file of the repository consumes that
  destination by name (a trigger on the sObject); otherwise nothing, and nothing counted.

Nothing here raises on odd facts: the caller counts what yields no destination.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from indexer.frameworks.nest_transports import FRAMEWORK as NEST, NestTransports
from indexer.frameworks.unlinked import nearest
from indexer.model import Template, TopicUse
from indexer.resolve.context import FileCtx
from indexer.resolve.language import Lookup
from indexer.resolve.values import EXTERNAL, ClassV, FuncV

__all__ = ["Destination", "MqttFilters", "QueueLinker", "mqtt_filter", "mqtt_matches", "nats_matches", "routing_matches", "stream_broker"]

Render = Callable[[FileCtx, "str | None", Template], str]
"""The linker's template rendering: constants substituted, ``${...}`` filled, unknown pieces ``\\x00``."""

_HOLE = "\x00"


@dataclass(frozen=True, slots=True)
class Destination:
    """One destination of a use: the broker, the name (a queue, task, destination) and how sure."""

    broker: str
    name: str
    match: str


def routing_matches(pattern: str, key: str) -> bool:
    """Whether a RabbitMQ topic-exchange binding ``pattern`` matches the routing ``key``: words split
    at ``.``, ``*`` matches exactly one word, ``#`` zero or more. ``orders.*`` matches ``orders.new``,
    not ``orders`` nor ``orders.new.eu``; ``orders.#`` matches all three. One pass of a table over
    (pattern word, key word), O(pattern words x key words) whatever the ``#``s (a recursion trying
    every split for every ``#`` took 0.3 s a pair on 63 ``#``s against 256 words)."""
    want, have = pattern.split("."), key.split(".")
    if len(want) > 64 or len(have) > 256:
        return False
    if "#" not in want:
        return len(want) == len(have) and all(w == "*" or w == h for w, h in zip(want, have))
    want = [w for i, w in enumerate(want) if not (w == "#" and i and want[i - 1] == "#")]  # `#.#` is `#`
    m = len(have)
    rest = [False] * m + [True]  # rest[j]: want[i + 1:] matches have[j:] (past the last word: only the end)
    for w in reversed(want):
        here = [False] * (m + 1)
        if w == "#":
            here[m] = rest[m]
            for j in range(m - 1, -1, -1):
                here[j] = rest[j] or here[j + 1]  # no more words, or this one too
        else:
            for j in range(m):
                here[j] = (w == "*" or w == have[j]) and rest[j + 1]
        rest = here
    return rest[0]


def nats_matches(pattern: str, subject: str) -> bool:
    """Whether a NATS subscription ``pattern`` matches the published ``subject``: tokens split at
    ``.``, ``*`` matches one token, a final ``>`` one or more. ``orders.*`` matches ``orders.new``,
    not ``orders`` nor ``orders.new.eu``; ``orders.>`` matches the last two, not ``orders``."""
    want, have = pattern.split("."), subject.split(".")
    for i, w in enumerate(want):
        if w == ">" and i == len(want) - 1:
            return len(have) > i
        if i >= len(have) or (w != "*" and w != have[i]):
            return False
    return len(have) == len(want)


def mqtt_filter(name: str) -> str:
    """An MQTT subscription's topic filter without a shared-subscription prefix (``$share/<group>/``,
    ``$queue/``: the broker hands each message to one member of the group, the filter is the rest)."""
    if name.startswith("$share/"):
        return name.split("/", 2)[2] if name.count("/") >= 2 else name
    return name.removeprefix("$queue/")


def mqtt_matches(pattern: str, topic: str) -> bool:
    """Whether an MQTT topic filter ``pattern`` matches the published ``topic`` (MQTT 3.1.1 / 5.0,
    section 4.7): levels split at ``/``, ``+`` matches exactly one level (an empty one too), a final
    ``#`` the parent level and any number below it; a filter starting with a wildcard does not match a
    topic starting with ``$`` (``$SYS/...``). ``home/+/temp`` matches ``home/kitchen/temp``, not
    ``home/kitchen/a/temp``; ``home/#`` matches ``home`` and ``home/a/b``. A ``#`` that is not the last
    level makes the filter invalid: it matches nothing."""
    want, have = pattern.split("/"), topic.split("/")
    if topic.startswith("$") and want[0] in ("+", "#"):
        return False
    for i, w in enumerate(want):
        if w == "#":
            return i == len(want) - 1
        if i >= len(have) or (w != "+" and w != have[i]):
            return False
    return len(have) == len(want)


_ENDS = "/"  # the key of the filters ending at a tree node (no level holds a "/")


class MqttFilters:
    """A set of MQTT topic filters as a tree of their levels, to find the ones matching a topic (the rule of
    :func:`mqtt_matches`) by walking the topic's levels once through it: each tree node is visited at most
    once per topic, so a publish costs at most the tree's size, not a split and comparison per filter (5,000
    publishes against 5,000 wildcard filters: 209 s of linking). Invalid filters (a ``#`` before the last level)
    are not kept: they match nothing."""

    __slots__ = ("_root", "size")  # size: the filters added

    def __init__(self, filters: Sequence[str] | set[str] = ()) -> None:
        self._root: dict[str, dict] = {}
        self.size = 0
        for f in filters:
            self.add(f)

    def add(self, pattern: str) -> None:
        """Keep the filter ``pattern``."""
        self.size += 1  # (kept or not: the count of filters given)
        levels = pattern.split("/")
        if "#" in levels[:-1]:
            return
        node = self._root
        for level in levels:
            node = node.setdefault(level, {})
        node.setdefault(_ENDS, {})[pattern] = {}

    def matching(self, topic: str) -> list[str]:
        """The filters matching the published ``topic``, sorted."""
        have = topic.split("/")
        out: list[str] = []
        stack: list[tuple[dict[str, dict], int]] = [(self._root, 0)]
        while stack:
            node, i = stack.pop()
            wild = not (i == 0 and topic.startswith("$"))  # `+` / `#` first do not match `$SYS/...`
            if wild and "#" in node:
                out.extend(node["#"].get(_ENDS, ()))
            if i == len(have):
                out.extend(node.get(_ENDS, ()))
                continue
            child = node.get(have[i])
            if child is not None:
                stack.append((child, i + 1))
            if wild and "+" in node and have[i] != "+":
                stack.append((node["+"], i + 1))
        return sorted(set(out))


def _mqtt_wildcard(name: str) -> bool:
    return any(level in ("+", "#") for level in name.split("/"))


def stream_broker(props: Mapping[str, str]) -> str:
    """The broker a Spring Cloud Stream application's bindings live on, from its configuration:
    ``kafka``, ``rabbitmq``, else ``stream`` (the binder is not named)."""
    keys = list(props)
    if any(k.startswith(("spring.cloud.stream.kafka.", "spring.kafka.")) for k in keys):
        return "kafka"
    if any(k.startswith(("spring.cloud.stream.rabbit.", "spring.rabbitmq.")) for k in keys):
        return "rabbitmq"
    return "stream"


class QueueLinker:
    """The destinations of queue uses across the files of one repository (see the module docstring).

    ``render`` is the linker's template rendering; ``props_for(path)`` a file's Spring configuration."""

    def __init__(self, resolver: Lookup, ctxs: Sequence[FileCtx], render: Render,
                 props_for: Callable[[str], Mapping[str, str]]) -> None:
        self.r = resolver
        self.render = render
        self.props_for = props_for
        self.bindings: dict[str, list[tuple[str, str]]] = defaultdict(list)  # exchange -> (key, queue)
        self.tasks: dict[tuple[str, str], str] = {}  # (path, qualname) of a Celery task -> its name
        self.subjects: set[str] = set()  # NATS subjects subscribed to with wildcards
        self.filters: set[str] = set()  # MQTT topic filters subscribed to with wildcards
        self._filter_tree: MqttFilters | None = None  # the same, as a tree (built when a publish is linked)
        self.consumed: set[tuple[str, str]] = set()  # (broker, name) of every destination consumed by name
        self.nest = NestTransports(ctxs, render)
        for fc in ctxs:
            for b in fc.ex.queue_bindings:
                queue, exchange = self._name(fc, b.owner, b.queue), self._name(fc, b.owner, b.exchange)
                key = self.render(fc, b.owner, b.key)
                if queue and exchange is not None and _HOLE not in key:
                    self.bindings[exchange].append((key, queue))
            for use in fc.ex.topics:
                if use.role == "consumes" and use.binding is None and use.topic.parts:
                    consumed = self.render(fc, use.owner, use.topic)
                    if _HOLE not in consumed:
                        self.consumed.add((use.broker, consumed))
                if use.broker == "nats" and use.role == "consumes":
                    subject = self.render(fc, use.owner, use.topic)
                    if _HOLE not in subject and ("*" in subject.split(".") or subject.endswith(">")):
                        self.subjects.add(subject)
                if use.role == "consumes" and (use.broker == "mqtt" or use.framework == NEST and use.broker == "nest"):
                    self._mqtt_filter(fc, use)
                if use.broker == "celery" and use.role == "consumes" and use.owner:
                    name = self.render(fc, None, use.topic) if use.topic.parts else f"{fc.module_key}.{use.owner}"
                    if name and _HOLE not in name:
                        self.tasks[(fc.path, use.owner)] = name

    def _mqtt_filter(self, fc: FileCtx, use: TopicUse) -> None:
        """Keep the topic filter of an MQTT subscription (a NestJS pattern's on an MQTT transport) that has
        wildcards: every publish it matches reaches it (:meth:`destinations`)."""
        name = self.render(fc, use.owner, use.topic)
        if _HOLE in name or not _mqtt_wildcard(name):
            return
        if use.broker == "mqtt" or "mqtt" in self.nest.route(fc, use).brokers:
            self.filters.add(mqtt_filter(name))

    def _name(self, fc: FileCtx, scope: str | None, tpl: Template) -> str | None:
        """A binding's queue or exchange name (``None``: unknown)."""
        text = self.render(fc, scope, tpl)
        return None if _HOLE in text else text

    def destinations(self, fc: FileCtx, use: TopicUse) -> tuple[list[Destination], str | None]:
        """The destinations of ``use`` and, when there are none, why (an ``unlinked_*`` outcome)."""
        if use.handed_as:
            return self._handed(fc, use)
        if use.framework == NEST and use.broker == "nest":
            return self._nest(fc, use)
        if use.broker == "celery" and use.target is not None:
            return self._task(fc, use)
        if use.binding is not None:
            return self._stream(fc, use)
        if use.broker == "celery" and use.role == "consumes":
            task = self.tasks.get((fc.path, use.owner or ""))
            return ([Destination("celery", task, "exact")], None) if task else ([], "unlinked_task")
        name = self._message_class(fc, use, self.render(fc, use.owner, use.topic))
        if use.broker in ("sqs", "sns"):  # a queue URL's / topic ARN's last segment is the name
            name = name.rstrip("/").rsplit("/" if use.broker == "sqs" else ":", 1)[-1]
        if not name or _HOLE in name:
            return [], "unlinked_topic"
        if use.broker == "nats" and use.role == "produces":
            found = [Destination("nats", name, "exact")]
            found += [Destination("nats", s, "inferred") for s in sorted(self.subjects) if s != name
                      and nats_matches(s, name)]
            return found, None
        if use.broker == "mqtt":
            return self._mqtt(use, name), None
        if use.needs_consumer and use.role == "produces" and (use.broker, name) not in self.consumed:
            return [], "no_consumer"  # a record event no trigger of the repository runs on
        if use.broker == "rabbitmq" and use.role == "produces" and use.exchange is not None:
            return self._rabbit(fc, use, name), None
        match = "name" if use.broker == "celery" else "exact"  # send_task("name"): a name only
        return [Destination(use.broker, name, match)], None

    def _mqtt(self, use: TopicUse, name: str) -> list[Destination]:
        """An MQTT subscription consumes its topic filter (``$share/<group>/`` dropped); a publish produces
        its topic and reaches every wildcard filter of the repository matching it (``inferred``; a filter
        never reaches another filter's publishers the other way)."""
        if use.role == "consumes":
            return [Destination("mqtt", mqtt_filter(name), "exact")]
        found = [Destination("mqtt", name, "exact")]
        if not _mqtt_wildcard(name):
            if self._filter_tree is None or self._filter_tree.size != len(self.filters):
                self._filter_tree = MqttFilters(self.filters)  # (filters are only added: a new count, a new tree)
            found += [Destination("mqtt", f, "inferred") for f in self._filter_tree.matching(name) if f != name]
        return found

    def handler(self, fc: FileCtx, use: TopicUse) -> str | None:
        """The node id of the function a consumer's :attr:`TopicUse.target` names (resolved like a
        callee from the use's owner: ``this.onReply``, ``State.handleReply``), when it is one of the
        repository; ``None`` otherwise (the owner consumes)."""
        assert use.target is not None
        v = self.r.resolve_expr(fc, use.owner, use.target)
        return v.f.id if isinstance(v, FuncV) and v.f.file.repo == self.r.repo else None

    def _nest(self, fc: FileCtx, use: TopicUse) -> tuple[list[Destination], str | None]:
        """A NestJS pattern on the brokers of its transports (each as that broker's own use would go:
        a NATS send reaches the wildcard subscriptions too), an RMQ send's queues on ``rabbitmq``;
        with no transport known, on the broker the determined uses of the pattern agree on
        (``inferred``), else ``nest``."""
        name = self.render(fc, use.owner, use.topic)
        if not name or _HOLE in name:
            return [], "unlinked_topic"
        route = self.nest.route(fc, use)
        found: list[Destination] = []
        for broker in route.brokers:
            found += self.destinations(fc, replace(use, broker=broker))[0] if broker != "nest" else \
                [Destination("nest", name, "exact")]
        found += [Destination("rabbitmq", q, "exact") for q in route.queues]
        if not route.brokers:
            agreed = self.nest.agreed(name)
            found.append(Destination(agreed, name, "inferred") if agreed and agreed != "nest" else
                         Destination("nest", name, "exact"))
        return found, None

    def near(self, use: TopicUse, what: str) -> list[str]:
        """What an unlinked ``use`` naming ``what`` may have meant (:func:`indexer.frameworks.unlinked.nearest`):
        the Celery task names most like its last part (a ``.delay`` on no task), else the names of its
        broker's destinations the repository consumes most like it."""
        if use.broker == "celery":
            by_last: dict[str, list[str]] = {}
            for n in sorted(set(self.tasks.values())):
                by_last.setdefault(n.rsplit(".", 1)[-1], []).append(n)
            return [n for last in nearest(what.rsplit(".", 1)[-1], by_last) for n in by_last[last]]
        return nearest(what, (name for broker, name in self.consumed if broker == use.broker))

    def _message_class(self, fc: FileCtx, use: TopicUse, name: str) -> str:
        """The destination of a use whose topic ``name`` is its message's type as written (broker
        ``inprocess``: MediatR dispatches by the message's class): the full name of the repository
        class it resolves to (``Conduit.Features.Users.Create.Command``: namespace, then the
        enclosing types), looked up from the use's scope, else (a method of the scope named like
        the type's first part: ``UsersController.Create`` sending a ``Create.Command``) from the
        file's top level; the short name when it names no class of the repository. Any other
        broker's ``name`` is returned as it is."""
        if use.broker != "inprocess" or not name or _HOLE in name:
            return name
        v = self.r.resolve_expr(fc, use.owner, name)
        if not isinstance(v, ClassV) and "." in name:
            v = self.r.resolve_expr(fc, None, name)
        if not isinstance(v, ClassV) or v.c.file.repo != self.r.repo:
            return name.rsplit(".", 1)[-1]
        ns = v.c.file.module_key  # C#'s namespace; ``global`` for a file declaring none
        return f"{ns}.{v.c.qualname}" if ns and ns != "global" else v.c.qualname

    def _rabbit(self, fc: FileCtx, use: TopicUse, key: str) -> list[Destination]:
        assert use.exchange is not None
        exchange = self.render(fc, use.owner, use.exchange)
        if not use.exchange.parts and use.framework == "spring-rabbit":
            exchange = self.props_for(fc.path).get("spring.rabbitmq.template.exchange", "")
        if _HOLE in exchange:
            return [Destination("rabbitmq", key, "name")]
        if exchange == "":
            return [Destination("rabbitmq", key, "exact")]
        bound = self.bindings.get(exchange)
        if not bound:
            return [Destination("rabbitmq", key, "name")]
        out: dict[str, str] = {}
        for pattern, queue in bound:
            if pattern == key:
                out[queue] = "exact"
            elif (pattern == "" or routing_matches(pattern, key)) and queue not in out:
                out[queue] = "inferred"
        return [Destination("rabbitmq", q, m) for q, m in sorted(out.items())]

    def _task(self, fc: FileCtx, use: TopicUse) -> tuple[list[Destination], str | None]:
        assert use.target is not None
        if not self.tasks:  # no Celery task in this repository: ``x.s()`` / ``x.delay()`` is something else
            return [], "not_celery"
        v = self.r.resolve_expr(fc, use.owner, use.target)
        if isinstance(v, FuncV):
            name = self.tasks.get((v.f.file.path, v.f.qualname))
            if name:
                return [Destination("celery", name, "exact")], None
        return [], "unlinked_task"

    def _handed(self, fc: FileCtx, use: TopicUse) -> tuple[list[Destination], str | None]:
        """A message handed to a wrapper or an outbox: the topic, ``inferred``, when ``use.target``
        resolves to a function of the repository declaring a parameter of a type in
        ``use.handed_as`` (a bus's message base type); else nothing, silently (most calls handing a
        new object over are no wrapper)."""
        assert use.target is not None
        v = self.r.resolve_expr(fc, use.owner, use.target)
        if (v is None or v is EXTERNAL) and "." not in use.target:  # a bare call in a method: maybe a member of its class
            v = self.r.resolve_expr(fc, use.owner, f"this.{use.target}")
        if not isinstance(v, FuncV) or not any(
                p.type and p.type.rsplit(".", 1)[-1].rstrip("?") in use.handed_as for p in v.f.d.params):
            return [], "not_wrapper"
        name = self._message_class(fc, use, self.render(fc, use.owner, use.topic))
        return ([Destination(use.broker, name, "inferred")], None) if name and _HOLE not in name else ([], None)

    def _stream(self, fc: FileCtx, use: TopicUse) -> tuple[list[Destination], str | None]:
        assert use.binding is not None
        props = self.props_for(fc.path)
        if not any(k.startswith(("spring.cloud.stream.", "spring.cloud.function.")) for k in props):
            return [], "unlinked_binding"
        binding = use.binding
        if not binding:  # StreamBridge.send(name, ...): the name is a template
            binding = self.render(fc, use.owner, use.topic)
            if not binding or _HOLE in binding:
                return [], "unlinked_binding"
        elif not _declared_function(props, binding):
            return [], "unlinked_binding"
        dest = props.get(f"spring.cloud.stream.bindings.{binding}.destination")
        broker = stream_broker(props)
        if dest:
            return [Destination(broker, d.strip(), "exact") for d in dest.split(",") if d.strip()], None
        return [Destination(broker, binding, "name")], None


def _declared_function(props: Mapping[str, str], binding: str) -> bool:
    """Whether the function of a functional binding (``orders-in-0``: ``orders``) is active: named in
    ``spring.cloud.function.definition`` (``a;b``, ``a|b``), or no definition is given (Spring binds
    the functional beans it finds)."""
    definition = props.get("spring.cloud.function.definition")
    if not definition:
        return True
    name = re.sub(r"-(?:in|out)-\d+$", "", binding)
    return name in re.split(r"[;|,\s]+", definition)
