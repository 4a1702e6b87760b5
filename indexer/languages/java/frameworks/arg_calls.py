"""Calls in Java that may hand a topic or URL to a wrapper of the application: ``publisher.publish("orders", m)``
where ``void publish(String topic, Object m) { kafkaTemplate.send(topic, m); }``.

Fact (:class:`~indexer.model.UrlArgCall`): each method invocation (``name(args)`` / ``receiver.name(args)``, the
callee as written) one of whose arguments may name a destination (the shared rule:
:func:`indexer.frameworks.arg_call_rule.keeps`), each argument a template (a string, a name, a field access, a
concatenation; anything else ``None``), at most :data:`~indexer.frameworks.arg_call_rule.MAX_PER_FILE`. A topic use
naming a parameter the method assigns before it (``topic = topic + ".v2"``) is made unknown
(:func:`~indexer.frameworks.arg_call_rule.reassigned`). Which calls reach a wrapper takes other files: the linker keeps those
whose callee resolves to one (:mod:`indexer.frameworks.topic_wrappers`). The position is the method name's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import ARG_CALLS_PER_FILE as MAX_PER_FILE
from indexer.frameworks import arg_call, parameter_names, reassigned
from indexer.languages.java.frameworks.common import JavaFile

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)

_ARG_NODES = frozenset({"string_literal", "identifier", "field_access", "binary_expression"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's candidate wrapper calls to ``out.arg_candidates`` (gated into ``url_arg_calls`` by the resolver: :class:`~indexer.frameworks.arg_call_rule.CandidateGate`)."""
    if b'"' not in src.data and b"static final" not in src.data:
        return
    jf: JavaFile | None = None
    params = {d.qualname: frozenset(p.name for p in d.params) for d in out.definitions if d.params}
    found = 0
    names = parameter_names(out.topics)
    assigned: list[tuple[str | None, str, int]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type == "assignment_expression" and names:
            left = n.child_by_field_name("left")
            if left is not None and left.type == "identifier" and src.text(left) in names:
                jf = jf or JavaFile.of(root, src, out)
                assigned.append((jf.enclosing(left), src.text(left), left.start_point[0] + 1))
            continue
        if n.type != "method_invocation" or found >= MAX_PER_FILE:
            continue
        name_node, receiver = n.child_by_field_name("name"), n.child_by_field_name("object")
        arglist = n.child_by_field_name("arguments")
        if name_node is None or arglist is None:
            continue
        nodes = [c for c in arglist.named_children if c.type not in ("line_comment", "block_comment")]
        if not any(c.type in _ARG_NODES for c in nodes):
            continue
        if receiver is not None and receiver.type not in ("identifier", "field_access", "this"):
            continue  # a call on a call's result: no name the resolver follows here
        jf = jf or JavaFile.of(root, src, out)
        callee = src.text(name_node) if receiver is None else f"{src.text(receiver)}.{src.text(name_node)}"
        site = jf.call(name_node)
        caller = site.caller if site is not None else jf.enclosing(name_node)
        args = [jf.template(c) if c.type in _ARG_NODES else None for c in nodes]
        rec = arg_call(callee, args, caller, name_node.start_point[0] + 1, src.col(name_node),
                       params.get(caller, frozenset()) if caller is not None else frozenset())
        if rec is None:
            continue
        out.arg_candidates.append(rec)
        found += 1
    reassigned(out.topics, assigned)
