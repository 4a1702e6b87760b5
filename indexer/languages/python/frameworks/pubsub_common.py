"""What the Python pub/sub detectors (``boto3_messaging``, ``nats_messaging``, ``redis_pubsub``) share
(not a detector: not in the registry): the calls of ``queries/pubsub.scm`` and a callback's
qualname."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, compact, scope_of

__all__ = ["PubSubCall", "callback_owner", "pubsub_calls"]


@dataclass(slots=True)
class PubSubCall:
    """One call: the method's name node, its name, receiver text, arguments and enclosing scope."""

    at: Node
    method: str
    receiver: str
    args: Args
    scope: str | None


def pubsub_calls(root: Node, src: SourceText) -> Iterator[PubSubCall]:
    """Every ``x.send_message(...)`` / ``receive_message`` / ``publish`` / ``subscribe`` call of a file."""
    for _, caps in run_query(query("python", "python/queries", "pubsub"), root):
        method_node = caps["method"][0]
        yield PubSubCall(method_node, src.text(method_node), compact(src, caps["receiver"][0]),
                         Args.of(src, caps["args"][0]), scope_of(caps["call"][0], src))


def callback_owner(src: SourceText, node: Node | None, scope: str | None, defs: set[str]) -> str | None:
    """The qualname of the function or method of this file a callback expression names (``cb``,
    ``self.on_message``, a function of an enclosing scope), or ``None``."""
    if node is None:
        return None
    text = compact(src, node)
    if text.startswith(("self.", "cls.")) and scope:
        cls = scope.rpartition(".")[0]
        name = f"{cls}.{text.split('.', 1)[1]}" if cls else None
        return name if name in defs else None
    s = scope
    while s:
        if f"{s}.{text}" in defs:
            return f"{s}.{text}"
        s = s.rpartition(".")[0]
    return text if text in defs else None
