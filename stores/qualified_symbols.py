"""Qualified workspace-symbol queries (``CartGateway.getCart``), one rule for every graph backend.

A workspace-symbol query ranks short names (:meth:`stores.contracts.GraphStore.search_symbols`). A
query written as a dotted name, ``Heads.name``, also names the nodes whose short name is ``name``
(exactly, case kept) and whose qualname's parents end with ``Heads`` as the user writes them at a call
site: a factory's returned object (``F.return``, the qualname JavaScript / TypeScript extraction gives
the functions of an object literal a function returns: ``CartGateway.return.getCart``) is written
``F.m`` where the factory's result is used (``export default CartGateway()``, then
``CartGateway.getCart(id)`` in an importer), so its ``return`` segment is not written
(:func:`written_qualname`). An object literal a JavaScript / TypeScript module default-exports
(``export default { setToken() {} }``, its functions ``default.setToken``) is written by the module's
name, the name its importers give it by convention (``import agent from './agent'``, then
``agent.setToken(t)``): :func:`module_name`. Parents are compared part by part up to case and separators
(``cart_gateway`` qualifies ``CartGateway.getCart``). The backends put these nodes before the
query's name matches (:func:`with_qualified`), so SQLite and Bolt answer alike; Elasticsearch keeps
only chunks (its BM25 already matches a dotted query against the chunk's ``fqn``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from stores.contracts import SHARED_LABELS, GraphStore, Node, query_parts

__all__ = ["FACTORY_RESULT", "WRITTEN", "DEFAULT_EXPORT", "module_name", "written_qualname", "qualified_query", "qualifier_agrees", "qualified_symbols",
           "with_qualified"]

FACTORY_RESULT = "return"
"""The qualname segment of the object a factory function returns (``CartGateway.return``): never a
variable's name (``return`` is a reserved word in every language indexed), but a member may bear it
(an iterator's ``return()``): such a segment is kept, the node's :data:`WRITTEN` form says so."""

WRITTEN = "written"
"""The node property holding a definition's qualname as call sites write it when the plain rule of
:func:`written_qualname` would drop a segment that is no factory's result: a real member named
``return`` (an iterator's ``return()``, ``class X { return() {} }``) under which definitions nest
(``Cursor.return.cleanup`` is written so, not ``Cursor.cleanup``; ``X.return.return.get``, what
``X.return()`` returns, is ``X.return.get``). Set at extraction (:mod:`indexer.resolve.output`), which
knows which segments are definitions; absent on every other node."""

DEFAULT_EXPORT = "default"
"""The qualname head of the object a JavaScript / TypeScript module default-exports (``export default
{ m() {} }`` defines ``default.m``): a reserved word, never a source name there."""

_DEFAULT_EXPORTING = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
"""Suffixes of the files whose ``default`` qualname head is their default export (not ``.vue``: a
component's options object stays the component's)."""
_INDEX = "index"

_QUALIFIED = re.compile(r"([\w$]+(?:\.[\w$]+)*)\.([\w$]+)")
_NOT_SYMBOLS = frozenset({"File", "Repository", *SHARED_LABELS})


def module_name(path: str) -> str:
    """The name a JavaScript / TypeScript module at ``path`` is imported by, by convention: the file's
    name without its suffix (``src/agent.js`` -> ``agent``, ``a/Cart.gateway.ts`` -> ``Cart.gateway``), its
    folder's for an ``index`` file (``src/api/index.ts`` -> ``api``); ``""`` for an ``index`` file at the
    root."""
    folder, _, name = path.rpartition("/")
    stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    if stem == _INDEX:
        return folder.rpartition("/")[2]
    return stem


def written_qualname(qualname: str, path: str | None = None, written: object = None) -> str:
    """``qualname`` as a call site writes it: every inner :data:`FACTORY_RESULT` segment dropped
    (``CartGateway.return.getCart`` -> ``CartGateway.getCart``, ``a.return.b.return.c`` -> ``a.b.c``); the
    first and last segments are kept (``return`` alone is left as it is). ``written``: the node's
    :data:`WRITTEN` property, when it has one, is that form instead (a real member named ``return``
    keeps its segment). With the node's file
    ``path`` (a JavaScript / TypeScript one), a :data:`DEFAULT_EXPORT` head is the :func:`module_name`
    (``default.setToken`` of ``src/agent.js`` -> ``agent.setToken``; ``default`` alone is kept)."""
    parts = (written if isinstance(written, str) and written else qualname).split(".")
    if isinstance(written, str) and written:
        if path is not None and len(parts) > 1 and parts[0] == DEFAULT_EXPORT and path.endswith(_DEFAULT_EXPORTING) \
                and module_name(path):
            parts[0] = module_name(path)
        return ".".join(parts)
    if (path is not None and len(parts) > 1 and parts[0] == DEFAULT_EXPORT and path.endswith(_DEFAULT_EXPORTING)
            and module_name(path)):
        parts[0] = module_name(path)
    if len(parts) < 3 or FACTORY_RESULT not in parts[1:-1]:
        return ".".join(parts)
    return ".".join([parts[0], *(p for p in parts[1:-1] if p != FACTORY_RESULT), parts[-1]])


def qualified_query(query: str) -> tuple[list[str], str] | None:
    """``(heads, name)`` of a query written as a dotted name (``CartGateway.getCart`` ->
    ``(["CartGateway"], "getCart")``, surrounding blanks ignored); ``None`` for any other query
    (``getCart``, ``owner con``, ``a..b``, ``.x``)."""
    m = _QUALIFIED.fullmatch(query.strip())
    if m is None:
        return None
    return m.group(1).split("."), m.group(2)


def qualifier_agrees(qualname: str, heads: Sequence[str], path: str | None = None, written: object = None) -> bool:
    """Whether the parents of ``qualname`` as written (:func:`written_qualname` in the file ``path``,
    the node's :data:`WRITTEN` property ``written``, its last segment dropped) end with ``heads``, each
    compared lowercased without separators (:func:`stores.contracts.query_parts`); no heads: ``True``."""
    own = written_qualname(qualname, path, written).split(".")[:-1]
    if len(own) < len(heads):
        return False
    norm = ["".join(query_parts(p)) for p in own[len(own) - len(heads):]]
    return norm == ["".join(query_parts(h)) for h in heads]


def qualified_symbols(graph: GraphStore, query: str, limit: int) -> list[Node]:
    """Up to ``limit`` code nodes a dotted ``query`` names (module docstring), sorted by (qualname
    length, id): one :meth:`~stores.contracts.GraphStore.find_symbols` call of the last part. ``[]``
    when the query is not dotted or ``limit <= 0``."""
    q = qualified_query(query)
    if q is None or limit <= 0:
        return []
    heads, name = q
    found = [n for n in graph.find_symbols([name]).get(name, [])
             if n.label not in _NOT_SYMBOLS and qualifier_agrees(n.qualname, heads, n.file, n.props.get(WRITTEN))]
    found.sort(key=lambda n: (len(n.qualname), n.id))
    return found[:limit]


def with_qualified(graph: GraphStore, query: str, limit: int, named: Sequence[Node]) -> list[Node]:
    """A backend's answer to a workspace-symbol ``query``: the :func:`qualified_symbols` first, then
    ``named`` (the query's name matches, best first) without those, cut to ``limit``."""
    front = qualified_symbols(graph, query, limit)
    if not front:
        return list(named[:limit])
    seen = {n.id for n in front}
    return [*front, *(n for n in named if n.id not in seen)][:limit]
