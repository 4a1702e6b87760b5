"""Spring for Apache Kafka -> :class:`~indexer.model.TopicUse` (framework ``spring-kafka``).

* consumes: ``@KafkaListener(topics = ...)`` on a method (one topic per ``topics`` element and per
  ``topicPartitions = @TopicPartition(topic = ...)``), at the annotation's name; a class-level
  ``@KafkaListener`` gives its topics to each ``@KafkaHandler`` method of the class, at that
  method's ``KafkaHandler`` annotation. ``topicPattern`` subscriptions are not topics and are skipped.
* produces: ``send(topic, ...)`` (two or more arguments: the first is the topic) on a KafkaTemplate,
  and ``send(record)`` where the record is ``new ProducerRecord<>(topic, ...)`` (written in place or
  in a local declared once) or a message built with ``setHeader(KafkaHeaders.TOPIC, topic)``; at
  ``send``, owned by the enclosing method. The receiver is a KafkaTemplate when its declared type is
  ``KafkaTemplate``, ``KafkaOperations``, ``RoutingKafkaTemplate``, ``ReplyingKafkaTemplate`` or
  ``ReactiveKafkaProducerTemplate``, or, when no declared type is found, when its text contains
  ``kafkatemplate`` / ``kafkaoperations`` (case-insensitive). ``sendDefault`` names no topic.
* produces: ``@SendTo("topic")`` on a listener method (the method or its class has
  ``@KafkaListener``); ``@SendTo`` elsewhere is messaging / WebSocket and is skipped.

Topics are templates: literals, constants (``ref``), ``${kafka.topic}`` placeholders kept in the
literal for the linker; a SpEL expression (``#{...}``) is a ``hole``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import GRAMMAR, Annotation, JavaFile, compact
from indexer.frameworks import KAFKA_TEMPLATES
from indexer.languages.base import query, run_query
from indexer.model import FileExtraction, Template, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["KAFKA_TYPES", "LANGUAGES", "detect", "record_topic"]

LANGUAGES = ("java",)
FRAMEWORK = "spring-kafka"
KAFKA_TYPES = {name: "kafka" for name in KAFKA_TEMPLATES}
_MAX_CHAIN = 32
_SEND = frozenset({"send"})


def _args(node: Node | None) -> list[Node]:
    if node is None:
        return []
    return [c for c in node.named_children if c.type not in ("line_comment", "block_comment")]


def _topic(t: Template) -> Template:
    """SpEL (``#{...}``) is not a topic name the linker can resolve: a hole."""
    if len(t.parts) == 1 and t.parts[0][0] == "lit" and t.parts[0][1].startswith("#{"):
        return Template((("hole", t.parts[0][1]),))
    return t


class _Detector:
    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.jf = JavaFile.of(root, src, out)
        self.root, self.src, self.out = root, src, out

    def run(self) -> None:
        found: list[TopicUse] = []
        found += self._listeners()
        found += self._sends()
        found.sort(key=lambda u: (u.line, u.col))
        self.out.topics.extend(found)

    def _use(self, role: str, topic: Template, owner: str | None, at: Node) -> TopicUse:
        return TopicUse(FRAMEWORK, role, _topic(topic), owner, self.src.line(at), self.src.col(at))

    def _listener_topics(self, ann: Annotation) -> list[Template]:
        topics = [self.jf.template(v) for v in ann.values("topics") or []]
        for tp in ann.values("topicPartitions") or []:
            if tp.type == "annotation":
                topics += [self.jf.template(v) for v in Annotation.parse(self.src, tp).values("topic") or []]
        return topics

    def _listeners(self) -> list[TopicUse]:
        jf = self.jf
        found: list[TopicUse] = []
        for decl, anns in jf.annotated("KafkaListener", "SendTo"):
            if decl.type == "method_declaration":
                owner = jf.qualname(decl)
                cls = decl.parent.parent if decl.parent is not None else None
                cls_anns = jf.annotations(cls) if cls is not None else []
                listener = any(a.name == "KafkaListener" for a in anns + cls_anns)
                for ann in anns:
                    if ann.name == "KafkaListener":
                        found += [self._use("consumes", t, owner, ann.name_node) for t in self._listener_topics(ann)]
                    elif ann.name == "SendTo" and listener:
                        for v in ann.values("value") or []:
                            found.append(self._use("produces", jf.template(v), owner, ann.name_node))
            elif decl.type == "class_declaration":
                topics = [t for a in anns if a.name == "KafkaListener" for t in self._listener_topics(a)]
                for method in jf.methods(decl):
                    handler = next((a for a in jf.annotations(method) if a.name == "KafkaHandler"), None)
                    if handler is not None:
                        owner = jf.qualname(method)
                        found += [self._use("consumes", t, owner, handler.name_node) for t in topics]
        return found

    def _sends(self) -> list[TopicUse]:
        jf = self.jf
        found: list[TopicUse] = []
        if not jf.calls_any(_SEND):
            return found
        for _, m in run_query(query(GRAMMAR, "java/queries", "kafka"), self.root):
            name_node = m["name"][0]
            call = jf.call(name_node)
            caller = call.caller if call is not None else jf.enclosing(name_node)
            receiver = call.receiver if call is not None else compact(self.src, m["receiver"][0])
            if jf.client_kind(receiver, caller, KAFKA_TYPES) != "kafka":
                continue
            args = _args(m["args"][0])
            topic_node = args[0] if len(args) >= 2 else (record_topic(self.jf, self.src, args[0]) if args else None)
            if topic_node is not None:
                found.append(self._use("produces", jf.template(topic_node), caller, name_node))
        return found

def record_topic(jf: JavaFile, src: SourceText, node: Node) -> Node | None:
    """The topic expression of a ``send(record)`` argument, when it is visible in the method: a
    ``new ProducerRecord<>(topic, ...)`` written in place or held by a local declared once, or a message
    built with ``setHeader(KafkaHeaders.TOPIC, topic)``; ``None`` otherwise."""
    if node.type == "identifier":
        _, value = jf.local(node)
        if value is None:
            return None
        node = value
    if node.type == "object_creation_expression":
        tname = compact(src, node.child_by_field_name("type")).split("<", 1)[0]
        args = _args(node.child_by_field_name("arguments"))
        return args[0] if tname.endswith("ProducerRecord") and args else None
    link: Node | None = node
    for _ in range(_MAX_CHAIN):  # a Message built with setHeader(KafkaHeaders.TOPIC, topic)
        if link is None or link.type != "method_invocation":
            break
        if src.text(link.child_by_field_name("name")) == "setHeader":
            args = _args(link.child_by_field_name("arguments"))
            if len(args) == 2 and compact(src, args[0]).endswith("TOPIC"):
                return args[1]
        link = link.child_by_field_name("object")
    return None


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Kafka listeners and sends to ``out.topics``."""
    _Detector(root, src, out).run()
