"""Redis pub/sub through redis-py -> :class:`~indexer.model.TopicUse` (broker ``redis``, framework
``redis-py``); only in a file importing ``redis``.

* ``r.publish("channel", message)``: produces to the channel;
* ``p.subscribe("a", "b")`` (each positional channel, consumed by the function around the call) and
  ``p.subscribe(channel=handler)`` (a keyword names the channel, consumed by the handler when it is
  a function or method of this file; a ``**{...}`` mapping is not read). Pattern
  subscriptions (``psubscribe``) are not followed.

Channels are templates (literals, constants, f-strings).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import Context, template
from indexer.languages.python.frameworks.pubsub_common import callback_owner, pubsub_calls
from indexer.model import FileExtraction, Template, TopicUse

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "redis-py"


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Redis publishes and channel subscriptions to ``out.topics``."""
    if not Context(src, out).imports.uses("redis"):
        return
    defs = {d.qualname for d in out.definitions if d.kind in ("function", "method")}
    for c in pubsub_calls(root, src):
        line, col = src.line(c.at), src.col(c.at)
        if c.method == "publish":
            channel = c.args.get(0, "channel")
            if channel is not None and len(c.args.positional) + len(c.args.keywords) >= 2:
                out.topics.append(TopicUse(FRAMEWORK, "produces", template(src, channel), c.scope, line, col,
                                           broker="redis"))
        elif c.method == "subscribe":
            for channel in c.args.positional:
                out.topics.append(TopicUse(FRAMEWORK, "consumes", template(src, channel), c.scope, line, col,
                                           broker="redis"))
            for name, handler in c.args.keywords.items():
                owner = callback_owner(src, handler, c.scope, defs) or c.scope
                out.topics.append(TopicUse(FRAMEWORK, "consumes", Template.of(name), owner, line, col, broker="redis"))
