"""Plain Apache Kafka clients in Kotlin -> :class:`~indexer.model.TopicUse` (framework
``kafka-clients``, broker ``kafka``), in a file importing from ``org.apache.kafka.clients``.

* consumes: ``c.subscribe(listOf(topic))`` (any collection builder of
  :func:`~indexer.languages.kotlin.frameworks.common.elements`, one fact per element; a ``Pattern``
  subscription names no topic) on a consumer: a receiver whose declared or constructed type is one of
  :data:`~indexer.frameworks.jvm.KAFKA_CONSUMERS`, a ``KafkaConsumer(...)`` written in place, or the
  implicit receiver of an ``apply`` / ``run`` / ``with`` block on one (``val consumer =
  KafkaConsumer<K, V>(props).apply { subscribe(listOf(topic)) }``, opentelemetry-demo's
  fraud-detection). The topic is consumed where records are read: by each function calling ``poll``
  on the same consumer (a local: in the subscribing function; a property: in the functions of its
  class or file), at that ``poll``; with no such ``poll``, by the subscribing function, at
  ``subscribe``.
* produces: ``p.send(ProducerRecord(topic, ...))`` on a producer (declared or constructed type in
  :data:`~indexer.frameworks.jvm.KAFKA_PRODUCERS`, ``KafkaProducer(...)`` in place, or the implicit
  receiver of a block on one), the record written in place or a local of the same function bound
  once to ``ProducerRecord(...)``; at ``send``, owned by the enclosing function.

A receiver of unknown type counts when its text contains ``consumer`` / ``producer``
(case-insensitive). Topics are templates (:func:`~indexer.languages.kotlin.frameworks.common.template`):
literals, constants as ``ref`` (the linker resolves them through
:mod:`~indexer.languages.kotlin.frameworks.kotlin_constants`), ``System.getenv("T") ?: "orders"`` its
default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import KAFKA_CLIENTS_PACKAGE, KAFKA_CONSUMERS, KAFKA_PRODUCERS
from indexer.languages.kotlin.frameworks.common import (
    callee,
    caller_at,
    declared_type,
    elements,
    short_type,
    string_arg,
    template,
)
from indexer.model import FileExtraction, Template, TopicUse, is_call_ref

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("kotlin",)
FRAMEWORK = "kafka-clients"
_SCOPE_FUNCTIONS = frozenset({"apply", "run"})
"""Scope functions whose block's implicit receiver is the call's receiver (``with(x) { }`` too)."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Kafka client subscriptions (with the functions polling them) and record sends
    to ``out.topics``."""
    if not any(i.module.startswith(KAFKA_CLIENTS_PACKAGE) for i in out.imports):
        return
    found: list[TopicUse] = []
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "call_expression":
            continue
        name_node, receiver = callee(n)
        if name_node is None:
            continue
        name = src.text(name_node)
        if name == "subscribe":
            found.extend(_subscription(n, name_node, receiver, src, out))
        elif name == "send":
            use = _send(n, name_node, receiver, src, out)
            if use is not None:
                found.append(use)
    out.topics.extend(sorted(found, key=lambda t: (t.line, t.col, t.owner or "", t.topic.parts)))






def _is_client(receiver: Node | None, site: Node, kinds: frozenset[str], word: str, src: SourceText,
               out: FileExtraction) -> tuple[bool, str | None]:
    """Whether ``receiver`` (``None``: the implicit receiver at ``site``) is a client of ``kinds``, and
    the name of the variable holding it (``None`` when it is built in place or unnamed)."""
    if receiver is None:
        block_receiver = _block_receiver(site, src)
        if block_receiver is None:
            return False, None
        ok, name = _is_client(block_receiver, block_receiver, kinds, word, src, out)
        return ok, (name if name is not None else _holder(block_receiver, src)) if ok else None
    if receiver.type == "call_expression":
        head = receiver.named_children[0] if receiver.named_children else None
        return head is not None and head.type == "simple_identifier" and src.text(head) in kinds, None
    text = src.text(receiver).removeprefix("this.")
    if not text.isidentifier():
        return False, None
    declared = declared_type(out, _scope_of(site, src, out), text)
    if declared is not None:
        return short_type(declared) in kinds, text
    return word in text.lower(), text


def _scope_of(site: Node, src: SourceText, out: FileExtraction) -> str | None:
    """The qualname of the function holding ``site``: the caller the extractor recorded for the nearest
    call around it."""
    n: Node | None = site
    while n is not None and n.type != "call_expression":
        n = n.parent
    if n is None:
        return None
    name_node, _ = callee(n)
    return caller_at(out, src.line(name_node), src.col(name_node)) if name_node is not None else None


def _block_receiver(site: Node, src: SourceText) -> Node | None:
    """The receiver of the nearest ``x.apply { }`` / ``x.run { }`` / ``with(x) { }`` block around ``site``."""
    n = site.parent
    while n is not None and n.type not in ("function_declaration", "class_body", "source_file"):
        if n.type == "lambda_literal" and n.parent is not None and n.parent.type == "annotated_lambda":
            call = n.parent.parent.parent if n.parent.parent is not None else None
            if call is not None and call.type == "call_expression":
                name_node, receiver = callee(call)
                name = src.text(name_node) if name_node is not None else ""
                if receiver is not None and name in _SCOPE_FUNCTIONS:
                    return receiver
                if receiver is None and name == "with":
                    return string_arg(src, call, 0)
        n = n.parent
    return None


def _holder(value: Node, src: SourceText) -> str | None:
    """The name of the property or local a client built at ``value`` is stored in (``val consumer =
    KafkaConsumer(props).apply { ... }``), ``None`` when it is not stored."""
    n: Node | None = value
    while n is not None and n.type in ("call_expression", "navigation_expression", "call_suffix", "annotated_lambda",
                                       "simple_identifier", "navigation_suffix", "parenthesized_expression"):
        n = n.parent
    return _holder_name(n, src) if n is not None and n.type == "property_declaration" else None


def _topics(src: SourceText, call: Node) -> list[Template]:
    arg = string_arg(src, call, 0)
    if arg is None:
        return []
    return [t for t in (template(src, e) for e in elements(arg)) if any(k != "hole" and not is_call_ref(x) for k, x in t.parts)]


def _subscription(call: Node, name_node: Node, receiver: Node | None, src: SourceText,
                  out: FileExtraction) -> list[TopicUse]:
    ok, holder = _is_client(receiver, call, KAFKA_CONSUMERS, "consumer", src, out)
    if not ok:
        return []
    topics = _topics(src, call)
    if not topics:
        return []
    line, col = src.line(name_node), src.col(name_node)
    caller = caller_at(out, line, col)
    polls = _polls(out, holder, caller) if holder is not None else []
    sites = polls or [(caller, line, col)]
    return [TopicUse(FRAMEWORK, "consumes", t, owner, ln, cl) for owner, ln, cl in sites for t in topics]


def _polls(out: FileExtraction, holder: str, caller: str | None) -> list[tuple[str | None, int, int]]:
    """The ``poll`` call sites on the consumer held in ``holder``: in ``caller`` when ``holder`` is its
    local, else (a property of a class or the file) in the functions of that class or file."""
    local = any(b.scope == caller and b.name == holder for b in out.bindings) if caller is not None else False
    prop = None if local else next((d for d in out.definitions if d.kind == "field" and d.name == holder
                                    and (d.parent is None or caller is None or caller.startswith(f"{d.parent}."))),
                                   None)
    if not local and prop is None:
        return []
    found = []
    for c in out.calls:
        if c.name != "poll" or c.receiver not in (holder, f"this.{holder}") or c.caller is None:
            continue
        inside = c.caller == caller or c.caller.startswith(f"{caller}.") if local \
            else prop.parent is None or c.caller.startswith(f"{prop.parent}.")  # type: ignore[union-attr]
        if inside:
            found.append((c.caller, c.line, c.col))
    return sorted(set(found), key=lambda s: (s[1], s[2]))


def _send(call: Node, name_node: Node, receiver: Node | None, src: SourceText, out: FileExtraction) -> TopicUse | None:
    record = string_arg(src, call, 0)
    built = _record(record, call, src) if record is not None else None
    if built is None:
        return None
    line, col = src.line(name_node), src.col(name_node)
    caller = caller_at(out, line, col)
    ok, _ = _is_client(receiver, call, KAFKA_PRODUCERS, "producer", src, out)
    topic = string_arg(src, built, 0)
    if not ok or topic is None:
        return None
    t = template(src, topic)
    if not any(k != "hole" and not is_call_ref(x) for k, x in t.parts):
        return None
    return TopicUse(FRAMEWORK, "produces", t, caller, line, col)


def _record(arg: Node, site: Node, src: SourceText) -> Node | None:
    """The ``ProducerRecord(...)`` call ``arg`` is (in place) or names (a local of the enclosing function
    bound once), ``None`` otherwise."""
    if arg.type == "call_expression":
        head = arg.named_children[0] if arg.named_children else None
        return arg if head is not None and head.type == "simple_identifier" and src.text(head) == "ProducerRecord" \
            else None
    if arg.type != "simple_identifier":
        return None
    fn = site.parent
    while fn is not None and fn.type != "function_declaration":
        fn = fn.parent
    if fn is None:
        return None
    name = src.text(arg)
    bound: list[Node] = []
    stack = [fn]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type == "property_declaration" and _holder_name(n, src) == name:
            bound.extend(c for c in n.named_children if c.type == "call_expression")
    return _record(bound[0], site, src) if len(bound) == 1 else None


def _holder_name(decl: Node, src: SourceText) -> str | None:
    var = next((c for c in decl.named_children if c.type == "variable_declaration"), None)
    name = next((c for c in var.named_children if c.type == "simple_identifier"), None) if var is not None else None
    return src.text(name) if name is not None else None
