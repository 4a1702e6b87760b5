"""Identities of the shared ``Endpoint`` and ``Topic`` nodes (design: blast radius across HTTP and
queues): one node per route path and method, per GraphQL field, per gRPC method, per topic of a
broker, whichever repository serves or calls it, so a route and its clients meet on one id. Paths
are normalised (:func:`normalise_path`: scheme and host dropped, every path variable ``{}``) before
they become ids. Re-exported by :mod:`stores.contracts`."""

from __future__ import annotations

import re

__all__ = ["normalise_path", "GRAPHQL_OPERATIONS", "graphql_operation", "normalise_graphql_field", "GRPC_METHOD", "normalise_grpc_path", "endpoint_id", "declared_route", "topic_id", "topic_parts", "BROKERS", "unlinked_id", "UNLINKED_PREFIX", "UNLINKED_REASONS"]

_URL_BASE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://[^/]*")
_PATH_VARIABLE = re.compile(
    r"\{(?:[^{}]|\{[^{}]*\})*\}"  # {id}, {id:[0-9]+}, {id:[0-9]{3}} (Spring, JAX-RS, FastAPI, Nest templates)
    r"|<[^<>]*>"  # <id>, <int:id> (Flask, Django path())
    r"|\(\?P<[^>]*>(?:[^()]|\([^()]*\))*\)"  # (?P<id>[0-9]+) (Django re_path)
    r"|(?<=/):[A-Za-z_][A-Za-z0-9_]*(?:\((?:[^()]|\([^()]*\))*\))?\??"  # :id, :id(\\d+), :id? (Express)
    r"|\$\{[^{}]*\}"  # ${id} (template literal holes)
)


def normalise_path(path: str) -> str:
    """The key an HTTP path template is matched by (design: ``/owners/{id}`` == ``/owners/{ownerId}``).

    Drops a scheme and host (``http://customers-service/owners`` -> ``/owners``), the query string and
    fragment, regex anchors (``^``, ``$``: Django ``re_path``) and repeated or trailing slashes; every
    path variable (``{id}``, ``{id:\\d+}``, ``{id:[0-9]{3}}``, ``<int:id>``, ``(?P<id>\\d+)``, ``:id``,
    ``:id(\\d+)``, ``${id}``) becomes ``{}``, and so does a ``*`` segment (an Ant-style wildcard,
    ``/owners/*/pets``). The result starts with ``/``; the root is ``/``. Case is kept (paths are
    case-sensitive).
    """
    p = _URL_BASE.sub("", path.strip())
    p = _PATH_VARIABLE.sub("{}", p)
    p = p.split("?", 1)[0].split("#", 1)[0]
    p = p.replace("^", "").replace("$", "")
    segments = ["{}" if seg == "*" else seg for seg in p.split("/") if seg]
    return "/" + "/".join(segments)


GRAPHQL_OPERATIONS = ("QUERY", "MUTATION", "SUBSCRIPTION", "FIELD")
"""The "methods" of a GraphQL Endpoint: the operation type of a root field (``Query.owner`` is a
``QUERY``), ``FIELD`` for a field of any other type (``Owner.pets``, resolved as part of the
operations that select it). Never HTTP methods, so no HTTP client or any-method alias reaches them."""
_ROOT_TYPES = {"Query": "QUERY", "Mutation": "MUTATION", "Subscription": "SUBSCRIPTION"}


def graphql_operation(type_name: str) -> str:
    """The :data:`GRAPHQL_OPERATIONS` entry of a field of ``type_name``: ``Query`` -> ``QUERY``,
    ``Mutation`` -> ``MUTATION``, ``Subscription`` -> ``SUBSCRIPTION`` (the default root type names;
    a schema renaming its roots is not followed), any other type -> ``FIELD``."""
    return _ROOT_TYPES.get(type_name, "FIELD")


def normalise_graphql_field(path: str) -> str:
    """The key a GraphQL operation is matched by: ``Type.field`` with whitespace removed; no leading
    slash, the dot kept, case kept (GraphQL names are case-sensitive)."""
    return "".join(path.split())


GRPC_METHOD = "GRPC"
"""The "method" of a gRPC Endpoint (``endpoint:GRPC shop.v1.OrderService/GetOrder``): never an HTTP
method, so no HTTP client or any-method alias reaches it."""


def normalise_grpc_path(path: str) -> str:
    """The key a gRPC method is matched by: its wire path ``package.Service/Method`` (``Service/Method``
    when the .proto declares no package) without whitespace or leading ``/``; case kept, dots kept
    (never :func:`normalise_path`: a package is not a path segment)."""
    return "".join(path.split()).lstrip("/")


def declared_route(path: str) -> str | None:
    """The path template as an application declared it (``/items/{item_id}``, ``/owners/<int:id>``),
    kept on an EXPOSES edge as its ``route`` property when it differs from its :func:`normalise_path`
    form (the Endpoint's, ``/items/{}``), so that answers can name the parameters; ``None`` when it
    does not differ. Written as :func:`normalise_path` writes it, the variables aside: one leading
    ``/``, no scheme, host, query, regex anchors, repeated or trailing slash."""
    held: list[str] = []  # the variables set aside while the rest is cleaned ((?P<id>..) holds a ?)

    def hold(m: re.Match[str]) -> str:
        held.append(m.group(0))
        return f"\0{len(held) - 1}\0"

    p = _PATH_VARIABLE.sub(hold, _URL_BASE.sub("", path.strip()))
    p = p.split("?", 1)[0].split("#", 1)[0].removeprefix("^").removesuffix("$")
    shown = re.sub(r"\0(\d+)\0", lambda m: held[int(m.group(1))], "/" + "/".join(seg for seg in p.split("/") if seg))
    return shown if shown != normalise_path(path) else None


def endpoint_id(http_method: str, path: str) -> str:
    """Id (and name after the ``endpoint:`` prefix) of the shared Endpoint node for an upper-case
    HTTP method (``*``: any) and a path template: ``endpoint:GET /owners/{}``; for a GraphQL
    operation (:data:`GRAPHQL_OPERATIONS`) and ``Type.field``: ``endpoint:QUERY Query.owner``
    (:func:`normalise_graphql_field`, not :func:`normalise_path`); for :data:`GRPC_METHOD` and a gRPC
    wire path: ``endpoint:GRPC shop.v1.OrderService/GetOrder`` (:func:`normalise_grpc_path`)."""
    method = http_method.upper()
    if method in GRAPHQL_OPERATIONS:
        return f"endpoint:{method} {normalise_graphql_field(path)}"
    if method == GRPC_METHOD:
        return f"endpoint:{method} {normalise_grpc_path(path)}"
    return f"endpoint:{method} {normalise_path(path)}"


BROKERS = ("kafka", "rabbitmq", "jms", "stream", "celery", "sqs", "sns", "nats", "redis", "inprocess", "salesforce",
           "eventuate", "nest", "mqtt")
"""The message brokers a Topic node belongs to (its ``props["broker"]``): a topic, queue, channel,
subject or task of one broker is a different node from the same name on another (:func:`topic_id`).
``stream`` is a Spring Cloud Stream destination whose binder the configuration does not name;
``inprocess`` a message type dispatched inside one process (MediatR requests and notifications);
``salesforce`` a Salesforce platform event on the org's event bus (``EventBus.publish`` to the triggers
on it, named as the event: ``order_shipped__e``) or a record event of an sObject (DML to the triggers
on it: ``account.update``); ``eventuate`` an Eventuate Tram channel's messages of one kind (a command
type on a channel, ``kitchenService/CreateTicket``; an aggregate's domain events, named as the
aggregate's class; a command's reply, ``kitchenService/CreateTicket/CreateTicketReply``), whatever transport
carries the channel; ``nest`` a NestJS microservice message or event pattern on a TCP or RMQ transport
or one not found (``ClientProxy.send`` / ``emit`` to ``@MessagePattern`` / ``@EventPattern`` handlers; on Kafka,
NATS, Redis or MQTT the pattern is that broker's topic, subject or channel); ``mqtt`` an MQTT topic, or a
topic filter a subscription names (``home/+/temp``: the publishes it matches reach it too)."""


def topic_id(name: str, broker: str = "kafka") -> str:
    """Id of the shared Topic node of a destination of ``broker``: a Kafka topic keeps the id it always
    had, ``topic:orders``; any other broker's destination is ``topic:<broker>:<name>``
    (``topic:rabbitmq:orders``, ``topic:celery:shop.tasks.cleanup``), so a RabbitMQ queue and a Kafka
    topic of the same name are two nodes. The node's ``name`` is the bare name and its
    ``props["broker"]`` the broker (``kafka`` included)."""
    return f"topic:{name}" if broker == "kafka" else f"topic:{broker}:{name}"


def topic_parts(node_id: str) -> tuple[str, str]:
    """``(broker, name)`` of a Topic id made by :func:`topic_id` (``topic:rabbitmq:orders`` ->
    ``("rabbitmq", "orders")``; ``topic:orders`` -> ``("kafka", "orders")``). A Kafka topic whose name
    starts with a broker's name and a colon cannot be told apart from its id alone: read the node's
    ``props["broker"]`` where the node is at hand."""
    rest = node_id.removeprefix("topic:")
    head, sep, tail = rest.partition(":")
    return (head, tail) if sep and head in BROKERS and head != "kafka" else ("kafka", rest)


UNLINKED_PREFIX = "unlinked:"
"""The id prefix of the shared ``Unlinked`` nodes (:func:`unlinked_id`)."""
UNLINKED_REASONS = ("url", "url_ambiguous", "route_name", "route_name_ambiguous", "operation", "operation_no_spec",
                    "grpc_no_proto", "grpc_ambiguous", "grpc_rpc", "graphql_document", "graphql_no_schema", "topic", "task",
                    "binding")
"""Why a client call was not linked, the vocabulary of the ``Unlinked`` nodes: a URL naming no path, a URL of
unknown start whose known end several exposed endpoints end with (:mod:`indexer.frameworks.known_ends`), a URL
built from a route name no route of the repository has / several paths carry (``reverse("x")``), a
generated API client's operation no spec declares (or no spec at all), a gRPC service no ``.proto``
declares / several declare / without that rpc, a GraphQL document not found / a root field no schema
declares, a topic of unknown name, a ``.delay`` on no Celery task, an undeclared Spring Cloud Stream
binding. A reader lists them all by id (no scan of the nodes by label)."""


def unlinked_id(reason: str) -> str:
    """Id of the shared ``Unlinked`` node standing for one reason the framework linker could not join a
    client call (an HTTP request, a gRPC stub call, a GraphQL operation, a queue use) to an endpoint or
    topic: ``unlinked:url``, ``unlinked:grpc_ambiguous``, ``unlinked:topic`` (the reason as the index
    report counts it, without its ``unlinked_`` prefix). Each such call is an ``UNLINKED`` edge from the
    calling code to it (:mod:`indexer.frameworks.unlinked`). Raises ``ValueError`` for a reason not in
    :data:`UNLINKED_REASONS` (the linker's own words, never the indexed code's)."""
    bare = reason.removeprefix("unlinked_")
    if bare not in UNLINKED_REASONS:
        raise ValueError(f"{reason!r} is not one of the reasons {', '.join(UNLINKED_REASONS)}")
    return UNLINKED_PREFIX + bare
