"""Calls in Kotlin that may hand a topic or URL to a wrapper of the application: ``publisher.publish("orders", m)``
where ``fun publish(topic: String, m: Any) { kafkaTemplate.send(topic, m) }``.

Fact (:class:`~indexer.model.UrlArgCall`): each call of a name or dotted name (``name(args)`` /
``receiver.name(args)``, positional arguments only, no trailing lambda) one of whose arguments may name a destination
(the shared rule: :func:`indexer.frameworks.arg_call_rule.keeps`), each argument its
:func:`~indexer.languages.kotlin.frameworks.common.template` (a string, a string template, a constant's name), at
most :data:`~indexer.frameworks.arg_call_rule.MAX_PER_FILE`. A topic use naming a parameter the function assigns
before it is made unknown (:func:`~indexer.frameworks.arg_call_rule.reassigned`; Kotlin parameters are ``val``, so
only a shadowing local can). The linker keeps the calls whose callee resolves to a wrapper
(:mod:`indexer.frameworks.topic_wrappers`). The position is the callee name's (the extractor's call site's).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.frameworks import ARG_CALLS_PER_FILE as MAX_PER_FILE
from indexer.frameworks import arg_call
from indexer.languages.kotlin.frameworks.common import template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("kotlin",)

_WS = re.compile(r"\s+")
_ARG_NODES = frozenset({"string_literal", "simple_identifier", "navigation_expression", "additive_expression"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's candidate wrapper calls to ``out.arg_candidates`` (gated into ``url_arg_calls`` by the resolver: :class:`~indexer.frameworks.arg_call_rule.CandidateGate`)."""
    if b'"' not in src.data and b"const val" not in src.data:
        return
    callers = {(c.line, c.col): c.caller for c in out.calls}
    found = 0
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "call_expression" or len(n.named_children) != 2:
            continue
        fn, suffix = n.named_children
        name = _name_node(fn)
        nodes = _arguments(suffix)
        if name is None or not nodes or not any(a.type in _ARG_NODES for a in nodes):
            continue
        at = (src.line(name), src.col(name))
        if at not in callers:
            continue
        args = [template(src, a) if a.type in _ARG_NODES else None for a in nodes]
        rec = arg_call(_WS.sub("", src.text(fn)), args, callers[at], *at, ())
        if rec is None:
            continue
        out.arg_candidates.append(rec)
        found += 1
        if found >= MAX_PER_FILE:
            return


def _name_node(fn: Node) -> Node | None:
    """The callee's name node: the identifier itself, or the last part of ``a.b.name``; ``None`` otherwise."""
    if fn.type == "simple_identifier":
        return fn
    if fn.type != "navigation_expression" or not fn.named_children:
        return None
    last = fn.named_children[-1]
    ident = last.named_children[-1] if last.type == "navigation_suffix" and last.named_children else None
    return ident if ident is not None and ident.type == "simple_identifier" else None


def _arguments(suffix: Node) -> list[Node] | None:
    """The positional argument expressions of a call suffix; ``None`` with a named argument, a spread or a lambda."""
    if suffix.type != "call_suffix" or len(suffix.named_children) != 1 or suffix.named_children[0].type != "value_arguments":
        return None
    out = []
    for va in suffix.named_children[0].named_children:
        if va.type != "value_argument" or len(va.named_children) != 1:
            return None
        out.append(va.named_children[0])
    return out
