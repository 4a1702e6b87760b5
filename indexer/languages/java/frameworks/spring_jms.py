"""Spring JMS -> :class:`~indexer.model.TopicUse` (broker ``jms``, framework ``spring-jms``).

* consumes: ``@JmsListener(destination = "orders")`` on a method, at the annotation's name;
* produces: ``convertAndSend(destination, message, ...)`` / ``send(destination, creator)`` /
  ``convertSendAndReceive`` / ``sendAndReceive`` with two or more arguments on a ``JmsTemplate`` /
  ``JmsOperations`` / ``JmsMessagingTemplate`` (declared type, else the receiver's text); the first
  argument is the destination's name (a ``Destination`` object gives a hole, left unlinked). One
  argument sends to the template's default destination, which the code does not name: skipped.
* polling consumers: ``receive(destination)`` / ``receiveAndConvert`` / ``receiveSelected...`` on
  such a template consume the destination their first argument names; ``receive()`` (the default
  destination) is skipped.

Names are templates (literals, constants, ``${...}`` placeholders).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.java.frameworks.common import (
    GRAMMAR,
    POLLING_RECEIVES,
    JavaFile,
    compact,
    listener_uses,
    polled_destination,
)
from indexer.model import FileExtraction, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["JMS_TYPES", "LANGUAGES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "spring-jms"
JMS_TYPES = {"JmsTemplate": "jms", "JmsOperations": "jms", "JmsMessagingTemplate": "jms"}
_SENDS = frozenset({"convertAndSend", "send", "convertSendAndReceive", "sendAndReceive"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's JMS listeners and sends to ``out.topics``."""
    jf = JavaFile.of(root, src, out)
    found = listener_uses(jf, "JmsListener", ("destination",), FRAMEWORK, "jms")
    if jf.calls_any(_SENDS | POLLING_RECEIVES):
        for _, m in run_query(query(GRAMMAR, "java/queries", "messaging"), root):
            name = src.text(m["name"][0]) if "name" in m else None
            if name not in _SENDS and name not in POLLING_RECEIVES:
                continue
            name_node = m["name"][0]
            call = jf.call(name_node)
            caller = call.caller if call is not None else jf.enclosing(name_node)
            receiver = call.receiver if call is not None else compact(src, m["receiver"][0])
            args = [c for c in m["args"][0].named_children if c.type not in ("line_comment", "block_comment")]
            if jf.client_kind(receiver, caller, JMS_TYPES) != "jms":
                continue
            if name in POLLING_RECEIVES:
                dest = polled_destination(args)
                if dest is not None:
                    found.append(TopicUse(FRAMEWORK, "consumes", jf.template(dest), caller, src.line(name_node),
                                          src.col(name_node), broker="jms"))
            elif len(args) >= 2:
                found.append(TopicUse(FRAMEWORK, "produces", jf.template(args[0]), caller, src.line(name_node),
                                      src.col(name_node), broker="jms"))
    found.sort(key=lambda u: (u.line, u.col))
    out.topics.extend(found)
