"""Spring AMQP (RabbitMQ) -> :class:`~indexer.model.TopicUse` (broker ``rabbitmq``, framework
``spring-rabbit``) and :class:`~indexer.model.QueueBinding`.

* consumes: ``@RabbitListener(queues = ...)`` / ``queuesToDeclare = @Queue("q")`` on a method, and
  ``bindings = @QueueBinding(value = @Queue("q"), exchange = @Exchange("x"), key = {"k1", "k2"})``
  (the queue is consumed and each key is a binding of it); a class-level ``@RabbitListener`` gives its
  queues to each ``@RabbitHandler`` method. At the annotation's name.
* produces: ``convertAndSend`` / ``send`` / ``convertSendAndReceive`` / ``sendAndReceive`` on a
  ``RabbitTemplate`` / ``RabbitOperations`` / ``AmqpTemplate`` / ``RabbitMessagingTemplate`` (declared
  type, else the receiver's text): with three or more arguments ``(exchange, routingKey, message, ...)``
  (unless the third is a lambda or method reference: ``(routingKey, message, postProcessor)``), with
  two ``(routingKey, message)`` on the template's default exchange (``exchange`` is an empty
  template); one argument names no destination and is skipped.
* polling consumers: ``receive`` / ``receiveAndConvert`` / ``receiveAndReply`` on such a template,
  whose first argument names the queue (``receiveAndConvert(QUEUE, 10_000, type)``), consume it;
  ``receive()`` / ``receive(5000)`` read the template's default queue, named nowhere, and are skipped.
* bindings: ``BindingBuilder.bind(queue).to(exchange).with(key)`` (``.to(fanout)`` without ``with``:
  an empty key) and ``new Binding("q", DestinationType.QUEUE, "x", "k", args)``, owned by the
  enclosing method; a queue or exchange written as a bean method call (``ordersQueue()``), a
  parameter or a field is a ``ref`` the linker resolves like a constant.
* bean names: a ``@Bean`` method returning ``new Queue("q")``, ``QueueBuilder.durable("q")...``,
  ``new TopicExchange("x")`` (any ``*Exchange``) or ``ExchangeBuilder.topicExchange("x")...`` gives a
  :class:`~indexer.model.StringConstant` of the method's qualname (``RabbitConfig.ordersQueue``), so a
  binding naming the bean (or a parameter named like it) resolves to the name.

Names are templates (literals, constants, ``${...}`` placeholders); SpEL ``#{...}`` is a hole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.java.frameworks.common import (
    GRAMMAR,
    POLLING_RECEIVES,
    Annotation,
    JavaFile,
    compact,
    polled_destination,
)
from indexer.model import FileExtraction, QueueBinding, StringConstant, Template, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "RABBIT_TYPES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "spring-rabbit"
RABBIT_TYPES = {
    "RabbitTemplate": "rabbitmq",
    "RabbitOperations": "rabbitmq",
    "AmqpTemplate": "rabbitmq",
    "RabbitMessagingTemplate": "rabbitmq",
}
_SENDS = frozenset({"convertAndSend", "send", "convertSendAndReceive", "sendAndReceive"})
_CALLBACKS = ("lambda_expression", "method_reference")
_QUEUE_BUILDERS = ("Queue", "QueueBuilder")
_MAX_CHAIN = 32


def _args(node: Node | None) -> list[Node]:
    if node is None:
        return []
    return [c for c in node.named_children if c.type not in ("line_comment", "block_comment")]


def _spel(t: Template) -> Template:
    """SpEL (``#{...}``) is not a name the linker can resolve: a hole."""
    return Template(tuple(("hole", text) if kind == "lit" and text.startswith("#{") else (kind, text)
                          for kind, text in t.parts))


class _Detector:
    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.jf = JavaFile.of(root, src, out)
        self.root, self.src, self.out = root, src, out
        self.uses: list[TopicUse] = []

    def run(self) -> None:
        self._listeners()
        self._bean_names()
        if self.jf.calls_any(_SENDS | POLLING_RECEIVES | {"bind"}) or "Binding" in self.src.text(self.root):
            self._calls()
        self.uses.sort(key=lambda u: (u.line, u.col))
        self.out.topics.extend(self.uses)

    def _use(self, role: str, name: Template, owner: str | None, at: Node, exchange: Template | None = None) -> None:
        self.uses.append(TopicUse(FRAMEWORK, role, _spel(name), owner, self.src.line(at), self.src.col(at),
                                  broker="rabbitmq", exchange=exchange))

    def _ref(self, node: Node) -> Template:
        """A queue or exchange expression: a bean method call, parameter, field or name is a ``ref``."""
        src = self.src
        if node.type == "identifier":
            _, value = self.jf.local(node)
            if value is not None:
                return self._ref(value)
            return Template((("ref", src.text(node)),))
        if node.type == "method_invocation" and node.child_by_field_name("object") is None \
                and not _args(node.child_by_field_name("arguments")):
            return Template((("ref", src.text(node.child_by_field_name("name"))),))
        if node.type == "field_access":
            return Template((("ref", compact(src, node).removeprefix("this.")),))
        built = self._built_name(node)
        return built if built is not None else _spel(self.jf.template(node))

    def _listener(self, ann: Annotation, owner: str | None, at: Node, line_of: int | None = None) -> None:
        jf = self.jf
        for v in ann.values("queues") or []:
            self._use("consumes", jf.template(v), owner, at)
        for q in ann.values("queuesToDeclare") or []:
            if q.type == "annotation":
                name = Annotation.parse(self.src, q).values("value", "name")
                if name:
                    self._use("consumes", jf.template(name[0]), owner, at)
        for b in ann.values("bindings") or []:
            if b.type != "annotation":
                continue
            qb = Annotation.parse(self.src, b)
            queue = qb.values("value")
            qname = None
            if queue and queue[0].type == "annotation":
                names = Annotation.parse(self.src, queue[0]).values("value", "name")
                qname = _spel(jf.template(names[0])) if names else None
            if qname is None:
                continue  # an anonymous queue: no name another service can publish to
            self._use("consumes", qname, owner, at)
            exch = qb.values("exchange")
            if exch and exch[0].type == "annotation":
                xnames = Annotation.parse(self.src, exch[0]).values("value", "name")
                if xnames:
                    keys = [jf.template(k) for k in qb.values("key") or []] or [Template()]
                    for key in keys:
                        self.out.queue_bindings.append(QueueBinding(
                            FRAMEWORK, qname, _spel(jf.template(xnames[0])), _spel(key),
                            self.src.line(at), self.src.col(at), owner))

    def _listeners(self) -> None:
        jf = self.jf
        for decl, anns in jf.annotated("RabbitListener"):
            if decl.type == "method_declaration":
                owner = jf.qualname(decl)
                for ann in anns:
                    if ann.name == "RabbitListener":
                        self._listener(ann, owner, ann.name_node)
            elif decl.type == "class_declaration":
                for method in jf.methods(decl):
                    handler = next((a for a in jf.annotations(method) if a.name == "RabbitHandler"), None)
                    if handler is None:
                        continue
                    for ann in anns:
                        if ann.name == "RabbitListener":
                            self._listener(ann, jf.qualname(method), handler.name_node)

    def _bean_names(self) -> None:
        """``@Bean Queue orders() { return new Queue("orders"); }``: a constant ``Config.orders``."""
        jf = self.jf
        for decl, anns in jf.annotated("Bean"):
            if decl.type != "method_declaration" or not any(a.name == "Bean" for a in anns):
                continue
            rtype = compact(self.src, decl.child_by_field_name("type"))
            if not (rtype in ("Queue", "AnonymousQueue") or rtype.endswith("Exchange")):
                continue
            body = decl.child_by_field_name("body")
            ret = next((c for c in (body.named_children if body is not None else []) if c.type == "return_statement"),
                       None)
            value = next((c for c in ret.named_children), None) if ret is not None else None
            name = self._built_name(value) if value is not None else None
            q = jf.qualname(decl)
            if name is not None and q:
                self.out.constants.append(StringConstant(q, name))

    def _built_name(self, node: Node) -> Template | None:
        """The name given to ``new Queue("q", ...)`` / ``new XExchange("x")`` / a ``QueueBuilder`` or
        ``ExchangeBuilder`` chain."""
        if node.type == "object_creation_expression":
            tname = compact(self.src, node.child_by_field_name("type")).split("<", 1)[0]
            args = _args(node.child_by_field_name("arguments"))
            if (tname == "Queue" or tname.endswith("Exchange")) and args:
                return _spel(self.jf.template(args[0]))
            return None
        link: Node | None = node
        for _ in range(_MAX_CHAIN):
            if link is None or link.type != "method_invocation":
                return None
            obj = link.child_by_field_name("object")
            if obj is not None and compact(self.src, obj) in ("QueueBuilder", "ExchangeBuilder"):
                args = _args(link.child_by_field_name("arguments"))
                return _spel(self.jf.template(args[0])) if args else None
            link = obj
        return None

    def _calls(self) -> None:
        jf, src = self.jf, self.src
        for _, m in run_query(query(GRAMMAR, "java/queries", "messaging"), self.root):
            if "new" in m:
                self._new_binding(m)
                continue
            name_node = m["name"][0]
            name = src.text(name_node)
            call = jf.call(name_node)
            caller = call.caller if call is not None else jf.enclosing(name_node)
            args = _args(m["args"][0])
            if name == "bind":
                if compact(src, m["receiver"][0]) == "BindingBuilder" and args:
                    self._builder_binding(m["call"][0], args[0], caller)
                continue
            receiver = call.receiver if call is not None else compact(src, m["receiver"][0])
            if jf.client_kind(receiver, caller, RABBIT_TYPES) != "rabbitmq":
                continue
            if name in POLLING_RECEIVES:
                queue = polled_destination(args)
                if queue is not None:
                    self._use("consumes", jf.template(queue), caller, name_node)
                continue
            if len(args) < 2:
                continue
            if len(args) >= 3 and args[2].type not in _CALLBACKS:
                self._use("produces", jf.template(args[1]), caller, name_node, _spel(jf.template(args[0])))
            else:
                self._use("produces", jf.template(args[0]), caller, name_node, Template())

    def _builder_binding(self, bind_call: Node, queue: Node, owner: str | None) -> None:
        """``BindingBuilder.bind(q).to(x)[.with(k)]``: walk up the chain from ``bind``."""
        exchange: Node | None = None
        key: Template = Template()
        link = bind_call
        for _ in range(_MAX_CHAIN):
            parent = link.parent
            if parent is None or parent.type != "method_invocation" or parent.child_by_field_name("object") != link:
                break
            step = self.src.text(parent.child_by_field_name("name"))
            args = _args(parent.child_by_field_name("arguments"))
            if step == "to" and args:
                exchange = args[0]
            elif step == "with" and args:
                key = _spel(self.jf.template(args[0]))
            link = parent
        if exchange is None:
            return
        self.out.queue_bindings.append(QueueBinding(FRAMEWORK, self._ref(queue), self._ref(exchange), key,
                                                    self.src.line(bind_call), self.src.col(bind_call), owner))

    def _new_binding(self, m: dict[str, list[Node]]) -> None:
        """``new Binding("q", DestinationType.QUEUE, "x", "k", args)`` (a queue destination only)."""
        args = _args(m["new_args"][0])
        if len(args) < 4 or not compact(self.src, args[1]).endswith("QUEUE"):
            return
        node = m["new"][0]
        owner = self.jf.enclosing(node)
        self.out.queue_bindings.append(QueueBinding(
            FRAMEWORK, self._ref(args[0]), self._ref(args[2]), _spel(self.jf.template(args[3])),
            self.src.line(node), self.src.col(node), owner))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's RabbitMQ listeners, sends, bindings and queue / exchange bean names to ``out``."""
    _Detector(root, src, out).run()
