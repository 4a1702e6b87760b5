"""Kafka topics produced and consumed with kafka-python, confluent-kafka and aiokafka.

Found (rules in ``indexer/languages/python/queries/kafka.scm``), only in a file importing from ``kafka``,
``confluent_kafka`` or ``aiokafka``:

* produces: ``p.send("topic", value)`` / ``p.send_and_wait(...)`` on a kafka-python ``KafkaProducer``
  or aiokafka ``AIOKafkaProducer``, ``p.produce("topic", ...)`` on a confluent-kafka ``Producer`` /
  ``SerializingProducer`` (topic as the first argument or ``topic=``);
* consumes: ``KafkaConsumer("t1", "t2", ...)`` / ``AIOKafkaConsumer("t", ...)`` (each positional
  argument), ``c.subscribe(["t"])`` / ``subscribe(topics=[...])`` on any of the libraries' consumers
  (a list, a tuple or one expression; ``pattern=`` subscriptions name no topic), and
  ``c.assign([TopicPartition("t", 0)])``.

A receiver is a producer / consumer when it is built in place (``KafkaProducer(...).send(...)``) or
bound to one as the extractor's bindings record it (locals, module variables, ``self.x``, annotated
parameters). Each topic becomes a :class:`~indexer.model.TopicUse` whose ``topic`` is a template (a
literal, a constant's ``ref``, an f-string) and whose ``owner`` is the enclosing function's qualname
(``None`` at module level). Faust agents are not detected.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from indexer.languages.python.frameworks.common import Args, Context, compact, library_kind, scope_of, template
from indexer.languages.base import SourceText, query, run_query
from indexer.model import FileExtraction, TopicUse

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_PRODUCERS = {
    ("kafka", "KafkaProducer"): "kafka-python",
    ("confluent_kafka", "Producer"): "confluent-kafka",
    ("confluent_kafka", "SerializingProducer"): "confluent-kafka",
    ("aiokafka", "AIOKafkaProducer"): "aiokafka",
}
_CONSUMERS = {
    ("kafka", "KafkaConsumer"): "kafka-python",
    ("confluent_kafka", "Consumer"): "confluent-kafka",
    ("confluent_kafka", "DeserializingConsumer"): "confluent-kafka",
    ("aiokafka", "AIOKafkaConsumer"): "aiokafka",
}
_PRODUCE_METHODS = {"kafka-python": ("send",), "aiokafka": ("send", "send_and_wait"), "confluent-kafka": ("produce",)}


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the Kafka topics one parsed Python file produces to / consumes from to ``out``."""
    ctx = Context(src, out)
    if not ctx.imports.uses("kafka", "confluent_kafka", "aiokafka"):
        return
    for _, caps in run_query(query("python", "python/queries", "kafka"), root):
        if "ctor" in caps:
            _consumer_construction(ctx, caps)
        else:
            _call(ctx, caps)


def _use(ctx: Context, framework: str, role: str, topic: Node, owner: str | None, at: Node) -> None:
    src = ctx.src
    ctx.out.topics.append(TopicUse(framework, role, template(src, topic), owner, src.line(at), src.col(at)))


def _consumer_construction(ctx: Context, caps: dict[str, list[Node]]) -> None:
    src = ctx.src
    callee = caps["ctor.callee"][0]
    framework = library_kind(ctx.imports.qualify(compact(src, callee)), _CONSUMERS)
    if framework is None:
        return
    at = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
    owner = scope_of(caps["ctor"][0], src)
    for topic in Args.of(src, caps["args"][0]).positional:
        _use(ctx, framework, "consumes", topic, owner, at)


def _kind(ctx: Context, receiver: Node, scope: str | None, table: dict[tuple[str, str], str]) -> str | None:
    """The framework of ``table`` whose client ``receiver`` is (built in place or bound), or ``None``."""
    src = ctx.src
    if receiver.type == "call":
        callee = receiver.child_by_field_name("function")
        return library_kind(ctx.imports.qualify(compact(src, callee)), table) if callee is not None else None
    return ctx.bound_to(scope, compact(src, receiver), table)


def _elements(node: Node) -> Iterator[Node]:
    """The elements of a list / tuple / set literal, or the node itself."""
    if node.type in ("list", "tuple", "set"):
        yield from (c for c in node.named_children if c.type != "comment")
    else:
        yield node


def _call(ctx: Context, caps: dict[str, list[Node]]) -> None:
    src = ctx.src
    method_node = caps["method"][0]
    method = src.text(method_node)
    receiver = caps["receiver"][0]
    owner = scope_of(caps["call"][0], src)
    args = Args.of(src, caps["args"][0])
    if method in ("subscribe", "assign"):
        framework = _kind(ctx, receiver, owner, _CONSUMERS)
        if framework is None:
            return
        arg = args.get(0, "topics" if method == "subscribe" else "partitions")
        if arg is None:
            return
        for element in _elements(arg):
            if method == "assign":  # TopicPartition("t", 0)
                if element.type != "call":
                    continue
                element = Args.of(src, element.child_by_field_name("arguments")).get(0, "topic")
                if element is None:
                    continue
            _use(ctx, framework, "consumes", element, owner, method_node)
        return
    framework = _kind(ctx, receiver, owner, _PRODUCERS)
    if framework is None or method not in _PRODUCE_METHODS[framework]:
        return
    topic = args.get(0, "topic")
    if topic is not None:
        _use(ctx, framework, "produces", topic, owner, method_node)
