"""GraphQL executable documents (operations and fragments) read with the tree-sitter ``graphql`` grammar
bundled in tree-sitter-language-pack: what a client operation selects at its root.

Shared by the detectors that find documents in host code (JS / TS ``gql`` templates, Python ``gql``,
Java GraphQL clients: each hands the document's text and where it starts) and by the GraphQL
language folder (``.graphql`` / ``.gql`` operations files). Language-neutral: it imports no language
folder (the grammar comes from :mod:`indexer.languages.base`, like every extractor's); language folders
reach it through :mod:`indexer.frameworks`, which re-exports what they use.

Rules: every ``operation_definition`` is a :class:`~indexer.model.GraphqlOperation` (no operation
type: the ``{ a }`` shorthand, a ``QUERY``); its root ``selection_set``'s fields are its ``fields``
(the field's name, not its alias; ``__typename`` / ``__schema`` / ``__type`` and Apollo Client's
local-only ``@client`` fields left out), fragment
spreads its ``spreads``, and the fields and spreads of an inline fragment at the root (``... on
Query { a }``, ``... @include(if: $x) { a }``) are the operation's own. Fragment definitions are
:class:`~indexer.model.GraphqlFragment` s read the same way. Each also keeps its whole selection as a
``tree`` (pre-order ``(level, entry)`` pairs, :data:`indexer.model_services.SelectionTree`; at most
:data:`MAX_TREE_LEVELS` levels and :data:`MAX_TREE_ENTRIES` entries, ``@client`` fields and their
selections left out), which the linker follows to nested fields' resolvers. Type-system definitions
(a schema's SDL in the same text, as in Apollo Server's ``typeDefs = gql`...```) are read as
``types``: ``(type, field, named type)`` of each field of an object or interface type or extension.
A text that does not parse in part keeps what parsed (``errors`` counts the ERROR / MISSING nodes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from indexer.languages.base import parser
from indexer.model import GraphqlDocument, GraphqlFragment, GraphqlOperation

__all__ = ["DOCUMENTS_FRAMEWORK", "LOOKS_LIKE_GRAPHQL", "ParsedDocument", "document_of", "operation_qualname",
           "parse_document", "parse_tree"]

GRAMMAR = "graphql"
_OPERATION_TYPES = {"query": "QUERY", "mutation": "MUTATION", "subscription": "SUBSCRIPTION"}
_MAX_INLINE_DEPTH = 16
"""Inline fragments nested at the root are followed at most this deep."""
MAX_DOCUMENT_BYTES = 1_000_000
"""A longer embedded document is not parsed (counted as having errors)."""
MAX_TREE_LEVELS = 12
"""Selections nested deeper than this (fields and typed inline fragments) are left out of a ``tree``."""
MAX_TREE_ENTRIES = 2_000
"""A ``tree`` keeps at most this many entries (the first in pre-order)."""
_TYPE_DECLS = frozenset({"object_type_definition", "object_type_extension", "interface_type_definition",
                         "interface_type_extension"})
_CONTAINERS = frozenset({"source_file", "document", "definition", "executable_definition", "ERROR",
                         "type_system_definition", "type_definition", "type_system_extension", "type_extension"})


DOCUMENTS_FRAMEWORK = "graphql-documents"
"""The ``framework`` of the documents of a ``.graphql`` / ``.gql`` operations file."""

LOOKS_LIKE_GRAPHQL = re.compile(r"^\s*(?:#[^\n]*\n\s*)*(?:query|mutation|subscription|fragment)\b|^\s*\{\s*[_A-Za-z]")
"""A plain string that reads as a GraphQL document (an operation keyword, or the ``{ field`` shorthand)."""


@dataclass(slots=True)
class ParsedDocument:
    """The operations and fragments of one document, and its syntax-error count."""

    operations: list[GraphqlOperation] = field(default_factory=list)
    fragments: list[GraphqlFragment] = field(default_factory=list)
    errors: int = 0
    types: list[tuple[str, str, str]] = field(default_factory=list)


def parse_document(text: str, line: int = 1, col: int = 0) -> ParsedDocument:
    """Parse GraphQL ``text`` that starts at ``line`` (1-based) / ``col`` (0-based code points) of its
    host file; positions of the operations are given in the host file's terms. Never raises: a text
    over :data:`MAX_DOCUMENT_BYTES` or that does not parse at all gives an empty result with
    ``errors`` >= 1."""
    data = text.encode("utf-8", "replace")
    if len(data) > MAX_DOCUMENT_BYTES:
        return ParsedDocument(errors=1)
    root = parser(GRAMMAR).parse(data).root_node
    return parse_tree(root, data, line, col)


def operation_qualname(op: GraphqlOperation) -> str:
    """The qualname of an operation's definition in a ``.graphql`` file: its name, or its operation
    type in lower case for an anonymous one (``query``)."""
    return op.name or op.operation.lower()


def document_of(framework: str, text: str, line: int, col: int, name: str | None = None, owner: str | None = None,
                includes: list[str] | None = None, run: bool = False) -> GraphqlDocument:
    """A :class:`~indexer.model.GraphqlDocument` of ``text`` found in host code at ``line`` / ``col``
    (where the text itself starts), with the constant ``name`` holding it, the ``owner`` code it is
    written in, the expressions ``includes`` interpolated into it and whether a use ``run`` s it
    where it is written."""
    parsed = parse_document(text, line, col)
    return GraphqlDocument(framework, name, owner, parsed.operations, parsed.fragments, line, col,
                           list(includes or ()), parsed.errors, run, parsed.types)


def parse_tree(root: Node, data: bytes, line: int = 1, col: int = 0) -> ParsedDocument:
    """:func:`parse_document` over an already parsed tree of ``data`` (the GraphQL extractor parses
    a file once for schema and operations alike)."""
    out = ParsedDocument(errors=_errors(root))
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "operation_definition":
            op = _operation(n, data)
            row, column = n.start_point
            op.line = line + row
            op.col = (col if row == 0 else 0) + len(data[n.start_byte - column:n.start_byte].decode("utf-8", "replace"))
            out.operations.append(op)
        elif n.type == "fragment_definition":
            frag = _fragment(n, data)
            if frag is not None:
                out.fragments.append(frag)
        elif n.type in _TYPE_DECLS:
            out.types.extend(_type_fields(n, data))
        elif n.type in _CONTAINERS:
            stack.extend(reversed(n.named_children))
    out.operations.sort(key=lambda o: (o.line, o.col))
    return out


def _text(node: Node | None, data: bytes) -> str:
    return data[node.start_byte:node.end_byte].decode("utf-8", "replace") if node is not None else ""


def _child(node: Node, kind: str) -> Node | None:
    return next((c for c in node.named_children if c.type == kind), None)


def _operation(node: Node, data: bytes) -> GraphqlOperation:
    kind = _child(node, "operation_type")
    name = _child(node, "name")
    fields: list[str] = []
    spreads: list[str] = []
    sel = _child(node, "selection_set")
    tree: list[tuple[int, str]] = []
    if sel is not None:
        _selections(sel, data, fields, spreads, 0)
        _tree(sel, data, 0, tree)
    return GraphqlOperation(_OPERATION_TYPES.get(_text(kind, data).strip(), "QUERY"),
                            _text(name, data) or None, fields, spreads, 0, 0, tree)


def _fragment(node: Node, data: bytes) -> GraphqlFragment | None:
    name = _child(node, "fragment_name")
    cond = _child(node, "type_condition")
    sel = _child(node, "selection_set")
    if name is None or sel is None:
        return None
    fields: list[str] = []
    spreads: list[str] = []
    _selections(sel, data, fields, spreads, 0)
    tree: list[tuple[int, str]] = []
    _tree(sel, data, 0, tree)
    on = _child(cond, "named_type") if cond is not None else None
    return GraphqlFragment(_text(_child(name, "name") or name, data), _text(on, data), fields, spreads, tree)


def _selections(sel: Node, data: bytes, fields: list[str], spreads: list[str], depth: int) -> None:
    """Append to ``fields`` / ``spreads`` the field names and fragment spreads of one selection set's own
    level (inline fragments opened), each once, in order. Linear in the selections: membership is kept in
    sets (a list's ``in`` made a fragment of 20,000 root fields cost 19.5 s)."""
    have, spread = set(fields), set(spreads)
    _level(sel, data, fields, spreads, have, spread, depth)


def _level(sel: Node, data: bytes, fields: list[str], spreads: list[str], have: set[str], spread: set[str],
           depth: int) -> None:
    for s in sel.named_children:
        inner = s.named_children[0] if s.type == "selection" and s.named_children else s
        if inner.type == "field":
            name = next((c for c in inner.named_children if c.type == "name"), None)
            text = _text(name, data)
            if _client_only(inner, data):
                continue
            if text and not text.startswith("__") and text not in have:
                have.add(text)
                fields.append(text)
        elif inner.type == "fragment_spread":
            fname = _child(inner, "fragment_name")
            text = _text(_child(fname, "name") if fname is not None else None, data)
            if text and text not in spread:
                spread.add(text)
                spreads.append(text)
        elif inner.type == "inline_fragment" and depth < _MAX_INLINE_DEPTH and not _client_only(inner, data):
            nested = _child(inner, "selection_set")
            if nested is not None:
                _level(nested, data, fields, spreads, have, spread, depth + 1)


def _tree(sel: Node, data: bytes, level: int, out: list[tuple[int, str]]) -> None:
    """Append to ``out`` the selections of ``sel`` at ``level`` and, after each field or typed inline
    fragment, its own selections one level deeper (pre-order; bounded by :data:`MAX_TREE_LEVELS` and
    :data:`MAX_TREE_ENTRIES`; an explicit stack, so no recursion limit applies)."""
    stack: list[tuple[Node, int]] = [(s, level) for s in reversed(sel.named_children)]
    while stack and len(out) < MAX_TREE_ENTRIES:
        s, lvl = stack.pop()
        inner = s.named_children[0] if s.type == "selection" and s.named_children else s
        nested: Node | None = None
        if inner.type == "field":
            text = _text(_child(inner, "name"), data)
            if not text or text.startswith("__") or _client_only(inner, data):
                continue
            out.append((lvl, text))
            nested, deeper = _child(inner, "selection_set"), lvl + 1
        elif inner.type == "fragment_spread":
            fname = _child(inner, "fragment_name")
            text = _text(_child(fname, "name") if fname is not None else None, data)
            if text:
                out.append((lvl, "..." + text))
        elif inner.type == "inline_fragment" and not _client_only(inner, data):
            cond = _child(inner, "type_condition")
            on = _text(_child(cond, "named_type"), data) if cond is not None else ""
            deeper = lvl
            if on:
                out.append((lvl, "on " + on))
                deeper = lvl + 1
            nested = _child(inner, "selection_set")
        if nested is not None and deeper <= MAX_TREE_LEVELS:
            stack.extend((c, deeper) for c in reversed(nested.named_children))


def _type_fields(decl: Node, data: bytes) -> list[tuple[str, str, str]]:
    """``(type, field, named type)`` of each field of an object / interface type definition or extension."""
    type_name = _text(_child(decl, "name"), data)
    body = _child(decl, "fields_definition")
    if not type_name or body is None:
        return []
    out = []
    for f in body.named_children:
        if f.type != "field_definition":
            continue
        name = _text(_child(f, "name"), data)
        named = _named_type(_child(f, "type"))
        if name and named is not None:
            out.append((type_name, name, _text(named, data)))
    return out


def _named_type(t: Node | None) -> Node | None:
    """The ``named_type`` at the core of a field's type (``[Owner!]!`` -> ``Owner``)."""
    for _ in range(64):
        if t is None or t.type == "named_type":
            return t
        t = next((c for c in t.named_children if c.type in ("type", "named_type", "list_type", "non_null_type")), None)
    return None


def _client_only(node: Node, data: bytes) -> bool:
    """Whether a field or inline fragment carries Apollo Client's ``@client`` directive (resolved in
    the browser's cache, never sent to the server)."""
    for c in node.named_children:
        if c.type == "directives":  # grammars that group them
            if any(_text(_child(d, "name"), data) == "client" for d in c.named_children if d.type == "directive"):
                return True
        elif c.type == "directive" and _text(_child(c, "name"), data) == "client":
            return True
    return False


def _errors(root: Node) -> int:
    if not root.has_error:
        return 0
    count = 0
    stack = [root]
    while stack and count < 100:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            count += 1
            continue
        if n.has_error:
            stack.extend(n.children)
    return count
