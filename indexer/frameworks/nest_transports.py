"""Which broker carries a NestJS microservice pattern: the queue linker's part for broker ``nest`` uses
(:mod:`indexer.frameworks.queues`).

A NestJS handler (``@MessagePattern('orders')``) or send (``client.emit('orders', o)``) is a use of
broker ``nest`` whose transport is configured elsewhere (:class:`~indexer.model.MessageTransport`
records, :mod:`indexer.languages.ecmascript.frameworks.nest_microservices`). Its transports are:

* the transport its own file names (:attr:`TopicUse.transport`: a typed ``ClientKafka``, a client the file
  creates, ``@MessagePattern(p, Transport.KAFKA)``), or the transport constant of the options another module
  writes for a client the file creates (:attr:`TopicUse.transport_via`: ``ClientProxyFactory.create(opts as any)``);
* a send through an injected client (:attr:`TopicUse.client`, the token): the ``ClientsModule``
  registrations (their options' transport, or that of the provider they name: ``useClass``, a function
  returning the options, :attr:`MessageTransport.via`) of that token in the nearest folder holding the sending file (the module beside or
  above it); when no folder above it registers the token, every registration of the token in the
  repository if they agree on one transport;
* a handler: the server bootstraps (``createMicroservice`` / ``connectMicroservice``; options imported
  from another module or returned by a function: the transport that constant or function records) of the nearest
  folder holding the handler's file that has any (``apps/orders/src/main.ts`` for
  ``apps/orders/src/orders.controller.ts``): a hybrid application's handlers listen on each.

Nest routes a pattern on Kafka as the topic of that name, on NATS as the subject, on Redis as the
channel, on MQTT as the topic (a handler's pattern a topic filter, ``+`` / ``#`` wildcards included): those
uses become topics of the ``kafka``, ``nats``, ``redis`` and ``mqtt`` brokers, joining the producers and
consumers other libraries and languages declare there (``exact``). TCP and RMQ keep broker ``nest`` (RMQ carries every pattern of a server on one queue, the pattern inside the
message: an RMQ send through a registered client also produces that queue on broker ``rabbitmq``, and
the RMQ server's bootstrap consumes it). A use whose transport nothing says goes to the broker the
determined uses of the same pattern all agree on (``inferred``), else stays ``nest`` (``exact``, as
before transports were read): a Nest TCP client never joins a Kafka topic.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from indexer.model import Template, TopicUse
from indexer.resolve.context import FileCtx

__all__ = ["FRAMEWORK", "NestTransports", "Route", "broker_of"]

FRAMEWORK = "nestjs-microservices"
"""The framework name of the NestJS microservice uses and transports."""

_BROKERS = {"kafka": "kafka", "nats": "nats", "redis": "redis", "mqtt": "mqtt"}
"""The transports whose pattern is the broker's own destination name; any other stays ``nest``."""
_HOLE = "\x00"

Render = Callable[[FileCtx, "str | None", Template], str]


def broker_of(transport: str) -> str:
    """The broker a pattern on a Nest ``transport`` (``kafka``, ``rmq``, ``tcp``...) is a topic of:
    ``kafka``, ``nats``, ``redis``, ``mqtt``, else ``nest``."""
    return _BROKERS.get(transport, "nest")


@dataclass(frozen=True, slots=True)
class Route:
    """Where one Nest use goes: ``brokers`` the brokers of its pattern's topic (empty: nothing says),
    ``queues`` the RabbitMQ queues an RMQ send through a registered client also produces."""

    brokers: tuple[str, ...]
    queues: tuple[str, ...] = ()


def _folder(path: str) -> str:
    return path.rpartition("/")[0]


def _holds(folder: str, path: str) -> bool:
    return not folder or path.startswith(folder + "/")


class NestTransports:
    """The transports of a repository's Nest uses (see the module docstring); built once per link
    from every file's :class:`~indexer.model.MessageTransport` records."""

    def __init__(self, ctxs: Sequence[FileCtx], render: Render) -> None:
        self.ctxs = ctxs
        self.render = render
        self.servers: dict[str, list[tuple[str, str]]] = defaultdict(list)  # folder -> (transport, queue)
        self.clients: dict[str, list[tuple[str, str, str]]] = defaultdict(list)  # token -> (folder, transport, queue)
        for fc in ctxs:
            for t in fc.ex.transports:
                if t.framework != FRAMEWORK:
                    continue
                queue = self.render(fc, None, t.queue) if t.queue.parts else ""
                queue = "" if _HOLE in queue else queue
                if t.role == "server":
                    transport = t.transport
                    if not transport and t.name.parts:  # options of another module: their recorded transport
                        named = self.render(fc, None, t.name)
                        transport = "" if _HOLE in named else named
                    self.servers[_folder(fc.path)].append((transport, queue))
                elif t.role == "client" and t.name.parts:
                    token = self.render(fc, None, t.name)
                    transport = t.transport
                    if not transport and t.via.parts:  # useClass / a provider function: its recorded transport
                        named = self.render(fc, None, t.via)
                        transport = "" if _HOLE in named else named
                    if token and _HOLE not in token:
                        self.clients[token].append((_folder(fc.path), transport, queue))
        self._agreed: dict[str, set[str]] | None = None

    def route(self, fc: FileCtx, use: TopicUse) -> Route:
        """The brokers (and RabbitMQ queues) of a Nest use; no brokers when nothing says its transport."""
        found: list[tuple[str, str]] = []
        from_token = False
        if use.client is not None and use.role == "produces":
            token = self.render(fc, use.owner, use.client)
            if token and _HOLE not in token:
                found, from_token = self._registered(fc.path, token), True
        transport = use.transport
        if not transport and use.transport_via is not None:  # a client of options another module writes
            named = self.render(fc, use.owner, use.transport_via)
            transport = "" if _HOLE in named else named
        if transport:
            queues = [q for t, q in found if t == transport]
            found = [(transport, queues[0] if queues else "")]
        elif use.role == "consumes":
            found = self._served(fc.path)
        known = [(t, q) for t, q in found if t]
        brokers = tuple(sorted({broker_of(t) for t, _ in known}))
        queues = tuple(sorted({q for t, q in known if t == "rmq" and q})) if from_token else ()
        return Route(brokers, queues)

    def agreed(self, name: str) -> str | None:
        """The one broker the determined Nest uses of the pattern ``name`` (rendered) are on, if they
        are on one; ``None`` when none is determined or they differ."""
        if self._agreed is None:
            self._agreed = defaultdict(set)
            for fc in self.ctxs:
                for use in fc.ex.topics:
                    if use.framework != FRAMEWORK or use.broker != "nest":
                        continue
                    brokers = self.route(fc, use).brokers
                    text = self.render(fc, use.owner, use.topic) if brokers else ""
                    if text and _HOLE not in text:
                        self._agreed[text].update(brokers)
        brokers = self._agreed.get(name, set())
        return next(iter(brokers)) if len(brokers) == 1 else None

    def _served(self, path: str) -> list[tuple[str, str]]:
        """The server transports of the nearest folder holding ``path`` that declares any."""
        folder = _folder(path)
        while True:
            if folder in self.servers:
                return self.servers[folder]
            if not folder:
                return []
            folder = _folder(folder)

    def _registered(self, path: str, token: str) -> list[tuple[str, str]]:
        """The registrations of ``token`` in the nearest folder holding ``path``; else all of the
        repository when they agree on one transport; else none."""
        regs = self.clients.get(token, [])
        above = [r for r in regs if _holds(r[0], path)]
        if above:
            nearest = max(len(r[0]) for r in above)
            return [(t, q) for f, t, q in above if len(f) == nearest]
        if len({t for _, t, _ in regs}) == 1:
            return [(t, q) for _, t, q in regs]
        return []
