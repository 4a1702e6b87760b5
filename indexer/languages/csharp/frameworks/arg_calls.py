"""Calls in C# that may hand a topic or URL to a wrapper of the application: ``_bus.ProduceAsync("orders", m)``
where ``Task ProduceAsync(string topic, string m) => _producer.ProduceAsync(topic, ...)``.

Fact (:class:`~indexer.model.UrlArgCall`): each invocation (``Name(args)`` / ``receiver.Name(args)``, the callee
as written without whitespace) one of whose arguments may name a destination (the shared rule:
:func:`indexer.frameworks.arg_call_rule.keeps`), each argument its :meth:`CsFile.template` (a string, an
interpolation, a constant, a configuration read; a parameter of the method around the call a ``ref``), at most
:data:`~indexer.frameworks.arg_call_rule.MAX_PER_FILE`. A topic use naming a parameter the method assigns before it
is made unknown (:func:`~indexer.frameworks.arg_call_rule.reassigned`). The linker keeps the calls whose callee
resolves to a wrapper (:mod:`indexer.frameworks.topic_wrappers`). The position is the invocation's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import ARG_CALLS_PER_FILE as MAX_PER_FILE
from indexer.frameworks import arg_call, parameter_names, reassigned
from indexer.languages.csharp.frameworks.common import cs_file

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("csharp",)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's candidate wrapper calls to ``out.arg_candidates`` (gated into ``url_arg_calls`` by the resolver: :class:`~indexer.frameworks.arg_call_rule.CandidateGate`)."""
    cf = cs_file(root, src, out)
    names = parameter_names(out.topics)
    if names:
        assigned: list[tuple[str | None, str, int]] = []
        stack = [root]
        while stack:
            n = stack.pop()
            stack.extend(n.named_children)
            if n.type == "assignment_expression":
                left = n.child_by_field_name("left")
                if left is not None and left.type == "identifier" and cf.text(left) in names:
                    assigned.append((cf.owner(left), cf.text(left), cf.pos(left)[0]))
        reassigned(out.topics, assigned)
    if b'"' not in src.data and b"const " not in src.data:
        return
    params: dict[str, frozenset[str]] = {d.qualname: frozenset(p.name for p in d.params)
                                         for d in out.definitions if d.params}
    found = 0
    for call in cf.calls:
        if call.type != "invocation_expression":
            continue
        fn = call.child_by_field_name("function")
        if fn is None or fn.type not in ("identifier", "member_access_expression"):
            continue
        nodes = cf.args(call)
        if not nodes or not any(n.type in ("string_literal", "identifier", "member_access_expression",
                                           "interpolated_string_expression") for n in nodes):
            continue
        caller = cf.owner(call)
        scope = params.get(caller, frozenset()) if caller is not None else frozenset()
        rec = arg_call(cf.expr(fn), [cf.template(n, scope) for n in nodes], caller, *cf.pos(call), scope)
        if rec is None:
            continue
        out.arg_candidates.append(rec)
        found += 1
        if found >= MAX_PER_FILE:
            return
