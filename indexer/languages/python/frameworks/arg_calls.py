"""Calls in Python that may hand a topic or URL to a wrapper of the application: ``bus.publish("orders", body)``
where ``def publish(self, topic, body): self.producer.send(topic, body)``.

Fact (:class:`~indexer.model.UrlArgCall`): each call of a name or dotted name (the callee as written) one of
whose positional arguments (keyword arguments are not read; a call with ``*args`` / ``**kw`` is skipped) may name a destination (the shared rule: :func:`indexer.frameworks.arg_call_rule.keeps`),
each argument its :func:`~indexer.languages.python.frameworks.common.template` (a string, an f-string, a
constant's name, a settings read); not a call of a builtin (:data:`_BUILTINS`), a ``str`` / ``dict`` / ``list``
method or a logger's or a test's (:data:`_METHODS`) nor an assertion: text, keys and expected values; at most
:data:`~indexer.frameworks.arg_call_rule.MAX_PER_FILE`. A topic use naming a parameter the function assigns before
it (``topic = prefix + topic``, ``topic += ".v2"``) is made unknown
(:func:`~indexer.frameworks.arg_call_rule.reassigned`). The linker keeps the calls whose callee resolves to a
wrapper (:mod:`indexer.frameworks.topic_wrappers`). The position is the call site's (its callee name).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import ARG_CALLS_PER_FILE as MAX_PER_FILE
from indexer.frameworks import arg_call, parameter_names, reassigned
from indexer.languages.python.frameworks.common import CallLocator, compact, scope_of, template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_BUILTINS = frozenset({
    "getattr", "hasattr", "setattr", "delattr", "isinstance", "issubclass", "print", "len", "str", "int", "float",
    "bool", "bytes", "repr", "format", "open", "_", "gettext", "gettext_lazy", "ngettext", "pgettext", "mark_safe",
    "format_html",
})  # fmt: skip
"""Functions called by a bare name whose string arguments are text, attributes or keys, not destinations."""
_METHODS = frozenset({
    "get", "pop", "setdefault", "startswith", "endswith", "split", "rsplit", "join", "replace", "strip", "lstrip",
    "rstrip", "encode", "decode", "index", "find", "count", "append", "add", "remove", "discard", "update", "extend",
    "insert", "partition", "rpartition", "removeprefix", "removesuffix", "warn", "warning", "info", "debug", "error",
    "exception", "critical", "skipTest", "fail", "subTest", "assertRaisesMessage",
})  # fmt: skip
"""Methods (``x.get("k")``) of ``str`` / ``dict`` / ``list`` / ``set``, loggers and test cases: keys, text and
expected values. (A client method of one of these names, ``api.get("/orders")``, is not read either.)"""
_ARG_NODES = frozenset({"string", "identifier", "attribute", "binary_operator", "concatenated_string"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's candidate wrapper calls to ``out.arg_candidates`` (gated into ``url_arg_calls`` by the resolver: :class:`~indexer.frameworks.arg_call_rule.CandidateGate`). The calls are the extractor's call sites
    (:class:`~indexer.model.CallSite`) found in the tree by :class:`CallLocator`, not a walk of the whole tree."""
    names = parameter_names(out.topics)
    if names:
        _reassigned(root, src, out, names)
    locate: CallLocator | None = None
    found = 0
    for site in out.calls:
        if site.arity < 1 or site.via is not None or site.is_new or site.name.startswith("assert") \
                or site.name in (_BUILTINS if site.receiver is None else _METHODS) or site.name[:1].isupper():
            continue  # (a class's construction is no wrapper call)
        locate = locate or CallLocator(root, src)
        n = locate.call_at(site.line, site.col)
        if n is None:
            continue
        fn, arglist = n.child_by_field_name("function"), n.child_by_field_name("arguments")
        if fn is None or arglist is None or arglist.type != "argument_list" or fn.type not in ("identifier", "attribute"):
            continue
        nodes = [a for a in arglist.named_children if a.type not in ("comment", "keyword_argument")]
        if any(a.type in ("list_splat", "dictionary_splat") for a in nodes) or not any(a.type in _ARG_NODES for a in nodes):
            continue  # `f(*args)`: the place of an argument is not its index (keyword arguments are not read)
        args = [template(src, a) if a.type in _ARG_NODES else None for a in nodes]
        rec = arg_call(compact(src, fn), args, site.caller, site.line, site.col, ())
        if rec is not None:
            out.arg_candidates.append(rec)
            found += 1
            if found >= MAX_PER_FILE:
                return


def _reassigned(root: Node, src: SourceText, out: FileExtraction, names: frozenset[str]) -> None:
    """Make unknown each topic use naming a name its function assigns before it (a file with such uses only)."""
    assigned: list[tuple[str | None, str, int]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type in ("assignment", "augmented_assignment"):
            left = n.child_by_field_name("left")
            if left is not None and left.type == "identifier" and src.text(left) in names:
                assigned.append((scope_of(left, src), src.text(left), src.line(left)))
    reassigned(out.topics, assigned)
