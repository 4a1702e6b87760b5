"""Spring Cloud AWS SQS -> :class:`~indexer.model.TopicUse` (broker ``sqs``, framework
``spring-cloud-aws``).

* consumes: ``@SqsListener("orders")`` / ``@SqsListener(value = ...)`` / ``queueNames = ...`` on a
  method (each queue named), at the annotation's name;
* produces: ``sqsTemplate.send("orders", payload)`` / ``sendAsync`` / ``convertAndSend`` with two or
  more arguments on an ``SqsTemplate`` / ``SqsOperations`` / ``SqsAsyncOperations`` (declared type,
  else the receiver's text); the lambda form ``send(to -> to.queue("orders")...)`` is read for its
  ``queue(...)`` argument.

Names are templates (literals, constants, ``${...}`` placeholders); a queue URL stands for its last
segment (the linker's rule for ``sqs``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.java.frameworks.common import GRAMMAR, JavaFile, compact, listener_uses
from indexer.model import FileExtraction, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "SQS_TYPES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "spring-cloud-aws"
SQS_TYPES = {"SqsTemplate": "sqs", "SqsOperations": "sqs", "SqsAsyncOperations": "sqs"}
_SENDS = frozenset({"send", "sendAsync", "convertAndSend"})
_MAX_WALK = 64


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's SQS listeners and sends to ``out.topics``."""
    jf = JavaFile.of(root, src, out)
    found = listener_uses(jf, "SqsListener", ("value", "queueNames"), FRAMEWORK, "sqs")
    if "Sqs" in src.text(root) and jf.calls_any(_SENDS):
        for _, m in run_query(query(GRAMMAR, "java/queries", "messaging"), root):
            if "name" not in m or src.text(m["name"][0]) not in _SENDS:
                continue
            name_node = m["name"][0]
            call = jf.call(name_node)
            caller = call.caller if call is not None else jf.enclosing(name_node)
            receiver = call.receiver if call is not None else compact(src, m["receiver"][0])
            if jf.client_kind(receiver, caller, SQS_TYPES) != "sqs":
                continue
            args = [c for c in m["args"][0].named_children if c.type not in ("line_comment", "block_comment")]
            queue = args[0] if len(args) >= 2 else (_lambda_queue(src, args[0]) if args else None)
            if queue is not None:
                found.append(TopicUse(FRAMEWORK, "produces", jf.template(queue), caller, src.line(name_node),
                                      src.col(name_node), broker="sqs"))
    found.sort(key=lambda u: (u.line, u.col))
    out.topics.extend(found)


def _lambda_queue(src: SourceText, node: Node) -> Node | None:
    """The argument of ``to.queue(...)`` inside ``send(to -> to.queue("q").payload(x))``."""
    if node.type != "lambda_expression":
        return None
    stack, seen = [node], 0
    while stack and seen < _MAX_WALK:
        n = stack.pop()
        seen += 1
        if n.type == "method_invocation" and src.text(n.child_by_field_name("name")) == "queue":
            args = [c for c in n.child_by_field_name("arguments").named_children if "comment" not in c.type]
            return args[0] if args else None
        stack.extend(reversed(n.named_children))
    return None
