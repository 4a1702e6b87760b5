"""Navigation over the code graph: find symbols by name, their callers, their references.

Protocol-independent: the CLI and the language server call these and render the plain frozen
dataclasses they return. Every function issues a fixed number of batched store calls, whatever the
number of hits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stores.contracts import Edge, GraphStore, Node

__all__ = ["CALLABLE_LABELS", "TYPE_LABELS", "Reference", "find_targets", "callers", "references", "dotted_name"]

CALLABLE_LABELS = ("Method", "Function", "Constructor")
TYPE_LABELS = ("Class", "Interface", "Enum")
_CODE_LABELS = (*TYPE_LABELS, *CALLABLE_LABELS, "Field")


@dataclass(frozen=True, slots=True)
class Reference:
    """One occurrence pointing at a target: ``kind`` is the edge kind (CALLS, USES_TYPE, …);
    ``source`` the node it occurs in (a File node for module-level code); ``repo`` / ``file`` /
    ``line`` (1-based) / ``col`` (0-based code points) where it occurs; ``resolution`` for CALLS."""

    target: str
    kind: str
    source: Node
    repo: str
    file: str
    line: int
    col: int
    resolution: str | None


def dotted_name(node: Node) -> str:
    """``django/db/models/base.py`` + ``Model.save`` -> ``django.db.models.base.Model.save``."""
    path = node.file
    slash, dot = path.rfind("/"), path.rfind(".")
    module = path[:dot] if dot > slash + 1 else path
    return f"{module.replace('/', '.')}.{node.qualname}"


def find_targets(graph: GraphStore, symbol: str) -> list[Node]:
    """Nodes a user's ``symbol`` names, best matches only, sorted by id.

    Accepted forms: a node id (``repo:path/mod.Class.method(1)``); a qualname (``Model.save``,
    ``save``); a module-qualified name (``django.db.models.base.Model.save``). A trailing ``(…)``
    is ignored. Exact qualname matches win over suffix matches of the module-qualified name.
    Returns ``[]`` when nothing matches.
    """
    symbol = symbol.strip()
    if ":" in symbol:
        exact = graph.get_nodes([symbol])
        if exact:
            return list(exact.values())
    text = symbol.split("(", 1)[0].rstrip(".")
    if not text:
        return []
    short = text.rsplit(".", 1)[-1]
    candidates = graph.find_symbols([short], _CODE_LABELS).get(short, [])
    exact_q = [n for n in candidates if n.qualname == text]
    if exact_q:
        return exact_q
    return [n for n in candidates if dotted_name(n).endswith("." + text) or dotted_name(n) == text]


def _hits(graph: GraphStore, by_target: dict[str, list[Edge]]) -> list[Reference]:
    sources = graph.get_nodes(sorted({e.src for edges in by_target.values() for e in edges}))
    out = []
    for target, edges in by_target.items():
        for e in edges:
            src = sources.get(e.src)
            if src is not None:
                out.append(Reference(target, e.kind, src, e.repo, e.file, e.line, e.col, e.resolution))
    out.sort(key=lambda r: (r.repo, r.file, r.line, r.col, r.source.id, r.target))
    return out


def callers(graph: GraphStore, targets: Sequence[Node], resolutions: Sequence[str] | None = None) -> list[Reference]:
    """Direct call sites of ``targets`` (for a class: calls to it and to its constructors), sorted by
    location. ``resolutions`` keeps only CALLS edges bound that way (``exact``, ``inferred``, ``name``).
    """
    ids = [n.id for n in targets]
    types = [n.id for n in targets if n.label in TYPE_LABELS]
    if types:
        ctors = graph.outgoing(types, ["CONTAINS"])
        members = graph.get_nodes([e.dst for t in types for e in ctors.get(t, [])])
        ids += [m.id for m in members.values() if m.label == "Constructor"]
    return _hits(graph, graph.incoming(ids, ["CALLS"], resolutions))


def references(graph: GraphStore, targets: Sequence[Node], include_declaration: bool = False) -> list[Reference]:
    """Every reference to ``targets``: call sites, type uses, injections, subclasses and
    implementations (EXTENDS / IMPLEMENTS) and overriding methods, sorted by location. With
    ``include_declaration`` the targets themselves come first as ``DECLARATION`` references."""
    kinds = ["CALLS", "USES_TYPE", "INJECTS", "EXTENDS", "IMPLEMENTS", "OVERRIDES"]
    refs = _hits(graph, graph.incoming([n.id for n in targets], kinds))
    if include_declaration:
        decl = [Reference(n.id, "DECLARATION", n, n.repo, n.file, n.start_line, n.start_col, None) for n in targets]
        refs = decl + refs
    return refs
