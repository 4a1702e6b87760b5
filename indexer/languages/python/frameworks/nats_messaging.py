"""NATS through nats-py -> :class:`~indexer.model.TopicUse` (broker ``nats``, framework ``nats-py``);
only in a file importing ``nats``.

* ``nc.publish("subject", data)`` / ``js.publish(...)`` (``subject=`` too): produces to the subject;
* ``nc.subscribe("subject", cb=handler)`` (``subject=`` too; ``queue=`` groups change nothing): the
  subject is consumed by the handler when it names a function or method of this file, else by the
  function around the call. A subject with wildcards (``orders.*``, ``orders.>``) is its own node;
  the linker links a publish to every wildcard subscription matching it (``inferred``).

Subjects are templates (literals, constants, f-strings).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import Context, template
from indexer.languages.python.frameworks.pubsub_common import callback_owner, pubsub_calls
from indexer.model import FileExtraction, TopicUse

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "nats-py"


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's NATS publishes and subscriptions to ``out.topics``."""
    if not Context(src, out).imports.uses("nats"):
        return
    defs = {d.qualname for d in out.definitions if d.kind in ("function", "method")}
    for c in pubsub_calls(root, src):
        if c.method not in ("publish", "subscribe"):
            continue
        subject = c.args.get(0, "subject")
        if subject is None:
            continue
        line, col = src.line(c.at), src.col(c.at)
        if c.method == "publish":
            out.topics.append(TopicUse(FRAMEWORK, "produces", template(src, subject), c.scope, line, col, broker="nats"))
        else:
            owner = callback_owner(src, c.args.keywords.get("cb"), c.scope, defs) or c.scope
            out.topics.append(TopicUse(FRAMEWORK, "consumes", template(src, subject), owner, line, col, broker="nats"))
