"""Spring for Apache Kafka in Kotlin -> :class:`~indexer.model.TopicUse` (framework ``spring-kafka``,
as for Java).

* consumes: ``@KafkaListener(topics = ["a", "b"])`` (or ``topics = "a"``, ``arrayOf(...)``) on a
  function, one fact per topic, at the annotation's name, owned by the function; ``topicPattern``
  subscriptions are no topics.
* produces: ``send(topic, ...)`` (two or more arguments) on a receiver whose declared type is one of
  :data:`~indexer.frameworks.jvm.KAFKA_TEMPLATES` (a constructor property ``private val kafka:
  KafkaTemplate<String, Order>``, a local, a parameter), or, with no declared type, whose text
  contains ``kafkatemplate`` (case-insensitive); at ``send``, owned by the enclosing function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import KAFKA_LISTENERS, KAFKA_TEMPLATES
from indexer.languages.kotlin.frameworks.common import declarations, declared_type, definition_of, string_arg, template
from indexer.model import FileExtraction, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("kotlin",)
FRAMEWORK = "spring-kafka"


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Kafka listeners and KafkaTemplate sends to ``out.topics``."""
    for decl, anns in declarations(src, root):
        if decl.type != "function_declaration":
            continue
        for ann in anns:
            if ann.name not in KAFKA_LISTENERS:
                continue
            d = definition_of(out, src, decl)
            for v in ann.values("topics", "value") or []:
                out.topics.append(TopicUse(FRAMEWORK, "consumes", template(src, v), d.qualname if d else None,
                                           src.line(ann.name_node), src.col(ann.name_node)))
    sends = [c for c in out.calls if c.name == "send" and c.receiver and (c.arity >= 2 or c.arity < 0)]
    if not sends:
        return
    by_pos = {(c.line, c.col): c for c in sends}
    found: list[TopicUse] = []
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "navigation_suffix":
            continue
        name = n.named_children[0] if n.named_children else None
        site = by_pos.get((src.line(name), src.col(name))) if name is not None else None
        call = n.parent.parent if n.parent is not None else None
        if site is None or call is None or call.type != "call_expression":
            continue
        first = site.receiver.split(".")[1 if site.receiver.startswith("this.") else 0]
        declared = declared_type(out, site.caller, first)
        kind = declared.rsplit(".", 1)[-1] in KAFKA_TEMPLATES if declared else "kafkatemplate" in site.receiver.lower()
        topic = string_arg(src, call, 0)
        if kind and topic is not None:
            found.append(TopicUse(FRAMEWORK, "produces", template(src, topic), site.caller, site.line, site.col))
    out.topics.extend(sorted(found, key=lambda t: (t.line, t.col)))
