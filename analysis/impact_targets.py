"""Step 1 of the blast radius (:mod:`analysis.impact`): the targets a change of the selected nodes
touches, each with its role (:data:`TARGET_ROLES`): the selection, its overloads, the declarations it
overrides, their other implementations when they have no body (:func:`bodiless`), a type's constructors,
an interface's methods, an endpoint's handlers (:func:`expand_targets`)."""

from __future__ import annotations

from collections.abc import Sequence

from analysis.impact_model import Target
from analysis.navigation import CALLABLE_LABELS, TYPE_LABELS
from stores.contracts import GraphStore, Node

__all__ = ["TARGET_ROLES", "bodiless", "expand_targets"]

TARGET_ROLES = ("selected", "overload", "declaration", "implementation", "constructor", "member", "handler")
"""The roles of a :class:`~analysis.impact_model.Target`, in the order a report lists them."""


def _stem(node_id: str) -> str:
    """A callable's id without its ``(signature)``: what its overloads share (``repo:path.Class.name``)."""
    cut = node_id.rfind("(")
    return node_id[:cut] if cut > 0 else node_id


def bodiless(n: Node) -> bool:
    """Whether a callable node declares no body its overriders could share: modifier ``abstract`` (what the
    Java, C#, Kotlin, TypeScript, Apex and Go extractors give abstract and bodiless interface methods, the
    Python one a method decorated ``@abstractmethod`` or whose body only raises ``NotImplementedError`` or is
    ``...``) or, in an index made before Python methods were marked, that decorator."""
    mods, decorators = n.props.get("modifiers") or (), n.props.get("decorators") or ()
    return "abstract" in mods or any(d in ("abstractmethod", "abc.abstractmethod") for d in decorators)


def expand_targets(graph: GraphStore, seeds: Sequence[Node], siblings: bool = True,
                   owners: dict[str, set[str]] | None = None) -> list[Target]:
    """Seeds plus overloads, overridden declarations, their other implementations (only those of a
    :func:`bodiless` declaration, an interface or abstract method, whose signature change changes every
    implementation; a concrete base method's other overrides are not, its callers dispatching to the selected
    one reach it through the declaration; the overriders of a selected method itself always; none when
    ``siblings`` is false: a table's accessors are what a change of the table touches, and another
    implementation of the interface method one of them implements reads nothing of it), constructors (of
    a selected type), methods (of a selected interface) and handlers (the methods exposing a selected
    Endpoint: ``ripple impact "GET /owners/{ownerId}"`` reaches the endpoint through its handler, and
    the clients requesting it).

    Overloads are found among the members of the seed's parent (CONTAINS), by id (the same
    ``repo:path.Qual.name`` before the signature), not by name across the index: a name as common as
    ``get`` or ``__init__`` would fetch thousands of nodes. Four store calls, five with overloads.
    ``owners``, when given, receives per declaration the ids of the classes of the selected methods (and
    overloads) overriding it: the walk reaches its callers as callers of those (:mod:`analysis.receivers`).
    Returns the targets by role (:data:`TARGET_ROLES` order), then id; store errors propagate."""
    targets: dict[str, Target] = {n.id: Target(n, "selected") for n in seeds}
    if not targets:
        return []
    seed_ids = list(targets)
    callables = [n.id for n in seeds if n.label in CALLABLE_LABELS]
    types = [n.id for n in seeds if n.label in TYPE_LABELS]
    contained = graph.incoming(callables, ["CONTAINS"]) if callables else {}
    parents = sorted({e.src for es in contained.values() for e in es} - set(targets))
    out = graph.outgoing(seed_ids + parents, ["CONTAINS", "OVERRIDES"])
    stems = {_stem(i) for i in callables}
    overloads = sorted({e.dst for p in [*parents, *seed_ids] for e in out.get(p, [])
                        if e.kind == "CONTAINS" and e.dst not in targets and _stem(e.dst) in stems})
    declared = [e.dst for i in seed_ids for e in out.get(i, []) if e.kind == "OVERRIDES"]
    more = graph.outgoing(overloads, ["OVERRIDES"]) if overloads else {}
    declared += [e.dst for o in overloads for e in more.get(o, [])]
    declarations = [d for d in dict.fromkeys(declared) if d not in targets and d not in overloads]
    if owners is not None:
        parent_of = {i: e.src for i, es in contained.items() for e in es}
        parent_of.update((o, p) for p in parents for e in out.get(p, []) if e.kind == "CONTAINS"
                         for o in [e.dst] if o in overloads)
        for i, es in [*((i, out.get(i, [])) for i in seed_ids), *more.items()]:
            for e in es:
                if e.kind == "OVERRIDES" and e.dst in declarations and i in parent_of:
                    owners.setdefault(e.dst, set()).add(parent_of[i])
    members = [e.dst for t in types for e in out.get(t, []) if e.kind == "CONTAINS" and e.dst not in targets]
    base = seed_ids + overloads + declarations
    overriders = graph.incoming(base, ["OVERRIDES"])
    known = set(base)
    found = list(dict.fromkeys(e.src for i in base for e in overriders.get(i, []) if e.src not in known)) \
        if siblings else []
    wanted = list(dict.fromkeys(overloads + declarations + found + members))
    nodes = graph.get_nodes(wanted) if wanted else {}
    # A declaration's other implementations change with it only when it has no body (an interface or
    # abstract method: its signature is theirs); a concrete base method's overriders are independent of it.
    from_selected = {e.src for i in seed_ids + overloads for e in overriders.get(i, [])}
    from_bodiless = {e.src for i in declarations if i in nodes and bodiless(nodes[i]) for e in overriders.get(i, [])}
    implementations = [i for i in found if i in from_selected or i in from_bodiless]
    for role, group in (("overload", overloads), ("declaration", declarations), ("implementation", implementations)):
        for i in group:
            if i in nodes and i not in targets and (role != "overload" or nodes[i].label in CALLABLE_LABELS):
                targets[i] = Target(nodes[i], role)
    interfaces = {n.id for n in seeds if n.label == "Interface"}
    for t in types:
        for e in out.get(t, []):
            m = e.dst
            if e.kind != "CONTAINS" or m not in nodes or m in targets:
                continue
            if nodes[m].label == "Constructor":
                targets[m] = Target(nodes[m], "constructor")
            elif t in interfaces and nodes[m].label in CALLABLE_LABELS:
                # An interface is used through its methods: changing it changes every one of them.
                targets[m] = Target(nodes[m], "member")
    endpoints = [n.id for n in seeds if n.label == "Endpoint"]
    if endpoints:  # a selected endpoint changes with the code serving it: its handlers are targets too
        exposing = graph.incoming(endpoints, ["EXPOSES"])
        handlers = graph.get_nodes(sorted({e.src for es in exposing.values() for e in es} - set(targets)))
        targets.update((i, Target(h, "handler")) for i, h in handlers.items())
    return sorted(targets.values(), key=lambda t: (TARGET_ROLES.index(t.role), t.node.id))
