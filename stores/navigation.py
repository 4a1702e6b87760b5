"""Navigation over the code graph: find symbols by name, their callers, their references.

Protocol-independent: the CLI and the language server call these and render the plain frozen
dataclasses they return. Every function issues a fixed number of batched store calls, whatever the
number of hits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stores.contracts import Edge, GraphStore, Node

__all__ = [
    "CALLABLE_LABELS", "TYPE_LABELS", "Reference", "symbol_candidates", "find_targets", "callers", "references",
    "dotted_name",
]

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
    """The name a developer would write: the module (Python dotted module, Java package) and the
    qualname when the node records its module (``django.db.models.base.Model.save``,
    ``org.example.OwnerController.show``), else the path without suffix, dotted
    (``src.v4.core.util.joinValues``)."""
    module = node.props.get("module")
    if module:
        return f"{module}.{node.qualname}"
    return f"{_path_module(node.file)}.{node.qualname}"


def _path_module(path: str) -> str:
    slash, dot = path.rfind("/"), path.rfind(".")
    return (path[:dot] if dot > slash + 1 else path).replace("/", ".")


def _matches(node: Node, text: str) -> bool:
    for full in (dotted_name(node), f"{_path_module(node.file)}.{node.qualname}"):
        if full == text or full.endswith("." + text):
            return True
    return False


def symbol_candidates(graph: GraphStore, symbol: str) -> list[Node]:
    """Every code node ``symbol`` could name (its last dotted part as the short name, then any
    qualname / dotted-name suffix match), sorted by id; ``[]`` when none."""
    symbol = symbol.strip()
    if ":" in symbol:
        exact = graph.get_nodes([symbol])
        if exact:
            return list(exact.values())
    text = symbol.split("(", 1)[0].strip().strip(".")
    if not text:
        return []
    short = text.rsplit(".", 1)[-1]
    return [n for n in graph.find_symbols([short], _CODE_LABELS).get(short, []) if _matches(n, text)]


def find_targets(graph: GraphStore, symbol: str) -> list[Node]:
    """The nodes a user's ``symbol`` names, best matches only, sorted by id.

    Accepted forms: a node id (``repo:path/mod.Class.method(1)``); a qualname (``Model.save``,
    ``save``); a module-qualified name (``django.db.models.base.Model.save``, or the path with dots).
    A trailing ``(…)`` is ignored. Among the :func:`symbol_candidates`, those whose qualname equals
    the text win (``make_response`` names the function, not ``Flask.make_response``); otherwise all
    candidates are returned. ``[]`` when nothing matches.
    """
    candidates = symbol_candidates(graph, symbol)
    text = symbol.strip().split("(", 1)[0].strip().strip(".")
    exact_q = [n for n in candidates if n.qualname == text]
    return exact_q or candidates


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
    by_target = graph.incoming([n.id for n in targets], ["CALLS"], resolutions)
    for class_id, ctor_ids in _constructors(graph, targets).items():
        calls = graph.incoming(ctor_ids, ["CALLS"], resolutions)
        by_target[class_id] = by_target.get(class_id, []) + [e for c in ctor_ids for e in calls.get(c, [])]
    return _hits(graph, by_target)


def _constructors(graph: GraphStore, targets: Sequence[Node]) -> dict[str, list[str]]:
    """``{class id: [constructor ids]}`` for the type targets that declare constructors (2 calls)."""
    types = [n.id for n in targets if n.label in TYPE_LABELS]
    if not types:
        return {}
    contains = graph.outgoing(types, ["CONTAINS"])
    members = graph.get_nodes([e.dst for t in types for e in contains.get(t, [])])
    out: dict[str, list[str]] = {}
    for t in types:
        ctors = [e.dst for e in contains.get(t, []) if e.dst in members and members[e.dst].label == "Constructor"]
        if ctors:
            out[t] = ctors
    return out


def references(graph: GraphStore, targets: Sequence[Node], include_declaration: bool = False) -> list[Reference]:
    """Every reference to ``targets``: call sites, type uses, injections, subclasses and
    implementations (EXTENDS / IMPLEMENTS) and overriding methods, sorted by location. With
    ``include_declaration`` the targets themselves come first as ``DECLARATION`` references."""
    kinds = ["CALLS", "USES_TYPE", "INJECTS", "EXTENDS", "IMPLEMENTS", "OVERRIDES"]
    by_target = graph.incoming([n.id for n in targets], kinds)
    # Instantiations of a class are calls to its constructors: report them against the class.
    for class_id, ctor_ids in _constructors(graph, targets).items():
        calls = graph.incoming(ctor_ids, ["CALLS"])
        by_target[class_id] = by_target.get(class_id, []) + [e for c in ctor_ids for e in calls.get(c, [])]
    refs = _hits(graph, by_target)
    if include_declaration:
        decl = [Reference(n.id, "DECLARATION", n, n.repo, n.file, n.start_line, n.start_col, None) for n in targets]
        refs = decl + refs
    return refs
