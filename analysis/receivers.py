"""Receiver constraints of the impact walk: which callers of an inherited method reach a selected override.

The call graph is context-insensitive: ``afterInsert()`` in ``Handler.run`` has an edge to every override
(``LogHandler.afterInsert``, ``AccountHandler.afterInsert``), and every ``new XHandler().run()`` an edge to
``Handler.run``. Walking up from ``LogHandler.afterInsert`` through ``run`` to all of them reached every
trigger running any handler (apex-recipes, session 63). The resolver records on a CALLS edge what it knew
of the receiver (:data:`stores.contracts.EDGE_THIS`, :data:`stores.contracts.EDGE_RECEIVER`); the walk
keeps, per method reached, the classes its ``this`` is known to be one of (or a subclass of), and:

* climbing a call on ``this`` (the dispatch ``Handler.run -> LogHandler.afterInsert``, a bare
  ``afterInsert()`` exact edge to the base declaration, ``super.x()``, an inherited ``this.run()``), the
  caller keeps the constraint, narrowed to the edge's receiver class where one is recorded;
* a caller of a constrained method whose edge records a receiver class is followed only when that class
  is one of the constraint's classes, an ancestor or a descendant of one (``new LogHandler().run()`` and
  ``new AuditLogHandler().run()`` are, ``new AccountHandler().run()`` is not), or shares a subclass with one
  (a diamond: ``r: JsonRenderer`` may hold a ``class TitledJson(TitleMixin, JsonRenderer)``, a ``TitleMixin``;
  the edge does not say whether its class is exact, as after a constructor, or declared); a caller whose receiver is
  unknown or of the method's own class (``handler.run()`` on a ``Handler`` built from metadata: it may
  be any handler) is followed, the walk stays sound;
* any other edge leaves ``this``: the caller is unconstrained;
* an EXPOSES edge of a constrained handler recording the view class it serves the route for (a class-based
  view inheriting ``get``: :class:`indexer.frameworks.route_links.RouteLinks`) holds only for a related
  class (:meth:`Receivers.serves`).

A method reached again with a wider constraint (or none) is walked again (:meth:`Receivers.widen`).
Ancestors are read from EXTENDS / IMPLEMENTS edges, one ``outgoing`` call per level of the hierarchy, only
when a constrained method has callers recording a receiver; descendants (``incoming``, per level) only of a
constraint's class that a caller's receiver class neither inherits nor is inherited by (and their ancestors).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from stores.contracts import EDGE_THIS, Edge, GraphStore, edge_receiver, id_owner

__all__ = ["Receivers"]

_SUPER_KINDS = ("EXTENDS", "IMPLEMENTS")
_MAX_DEPTH = 64
"""Most hierarchy levels read above a class (a cycle of bases ends before)."""


class Receivers:
    """The receiver constraints of one walk over ``graph`` (see the module docstring)."""

    def __init__(self, graph: GraphStore) -> None:
        self.graph = graph
        self.of: dict[str, frozenset[str]] = {}
        """Per node id reached under a constraint: the class ids its ``this`` is one of (or a subclass of
        one of); a node reached without one is absent."""
        self.up: dict[str, frozenset[str]] = {}
        """Per class id read: the class and its ancestors' ids."""
        self.down: dict[str, frozenset[str]] = {}
        """Per class id whose subclasses were read: the class and its descendants' ids."""
        self.cut: set[str] = set()
        """Callers not followed: their edge's receiver class is unrelated to the constraint."""
        self.unserved: set[str] = set()
        """Endpoints (topics) a constrained method exposes (consumes) only for an unrelated class."""

    def constrain(self, node_id: str, classes: Iterable[str]) -> None:
        """Walk ``node_id`` (a target) as running on an instance of one of ``classes`` (class ids)."""
        self.of[node_id] = frozenset(classes)

    def prepare(self, ask: Sequence[str], incoming: Mapping[str, list[Edge]]) -> None:
        """Read the ancestors :meth:`follows`, :meth:`serves` and :meth:`carried` need for the edges
        ``incoming`` of (or leaving) ``ask`` (no store call when none of them is constrained or records a
        receiver; a call on ``this`` recording a class reads its caller's class too)."""
        need: set[str] = set()
        for dst in ask:
            k = self.of.get(dst)
            edges = incoming.get(dst, ())
            # a call on ``this`` recording a class: :meth:`_receiver` compares it with the caller's class
            own = {c for e in edges if e.props.get(EDGE_THIS) for r in [edge_receiver(e)] if r for c in (r, id_owner(e.src))}
            if k is None:
                need |= own
                continue
            recorded = {r for e in edges for r in [edge_receiver(e)] if r}
            if recorded:
                need |= k | recorded | own
        self._load(need)
        # a pair neither of which inherits the other may still have a common subclass (the diamond): the
        # constraint's class's subclasses (an override's or a mixin's: few) and their ancestors are read
        apart: set[str] = set()
        for dst in ask:
            k = self.of.get(dst)
            if k is None:
                continue
            for e in incoming.get(dst, ()):
                recv = self._receiver(e)
                if recv:
                    apart.update(c for c in k if not self._inherits(recv, c))
        self._load_down(apart)
        self._load(d for c in apart for d in self.down[c])

    def _load_down(self, ids: Iterable[str]) -> None:
        """Fill :attr:`down` for ``ids``: one ``incoming`` call per hierarchy level not read yet (at most
        :data:`_MAX_DEPTH` levels; a class already read is not asked again)."""
        todo = sorted(i for i in set(ids) if i not in self.down)
        if not todo:
            return
        children: dict[str, set[str]] = {}
        frontier = todo
        for _ in range(_MAX_DEPTH):
            ask = [i for i in frontier if i not in children and i not in self.down]
            if not ask:
                break
            found = self.graph.incoming(ask, _SUPER_KINDS)
            frontier = []
            for i in ask:
                children[i] = {e.src for e in found.get(i, ())}
                frontier += sorted(children[i])
        for i in todo:
            out, stack = {i}, [i]
            while stack:
                c = stack.pop()
                for d in children[c] if c in children else self.down.get(c, ()):
                    if d not in out:
                        out.add(d)
                        stack.append(d)
            self.down[i] = frozenset(out)

    def _load(self, ids: Iterable[str]) -> None:
        """Fill :attr:`up` for ``ids``: one ``outgoing`` call per hierarchy level not read yet."""
        todo = sorted(i for i in set(ids) if i not in self.up)
        if not todo:
            return
        parents: dict[str, set[str]] = {}
        frontier, seen = todo, set(todo)
        for _ in range(_MAX_DEPTH):
            ask = [i for i in frontier if i not in self.up]
            if not ask:
                break
            out = self.graph.outgoing(ask, _SUPER_KINDS)
            frontier = []
            for i in ask:
                ps = {e.dst for e in out.get(i, ())}
                parents[i] = ps
                frontier += [p for p in sorted(ps) if p not in seen]
                seen.update(ps)
        closures = {i: self._closure(i, parents) for i in parents}
        self.up.update(closures)

    def _closure(self, i: str, parents: Mapping[str, set[str]]) -> frozenset[str]:
        """``i`` and its ancestors: through ``parents`` (just read) and the closures read before."""
        out, stack = {i}, [i]
        while stack:
            c = stack.pop()
            for p in parents[c] if c in parents else self.up.get(c, ()):
                if p not in out:
                    out.add(p)
                    stack.append(p)
        return frozenset(out)

    def _inherits(self, a: str, b: str) -> bool:
        """Whether one of ``a``, ``b`` is the other or inherits it (through any path of its bases)."""
        return a in self.up.get(b, (b,)) or b in self.up.get(a, (a,))

    def _common(self, recv: str, c: str) -> frozenset[str]:
        """The subclasses of the constraint's class ``c`` (read by :meth:`prepare`) that inherit ``recv``
        too, through any of their bases: an instance of one of them is both (``class
        TitledJson(TitleMixin, JsonRenderer)`` for ``JsonRenderer`` and ``TitleMixin``)."""
        return frozenset(d for d in self.down.get(c, ()) if recv in self.up.get(d, (d,)))

    def _related(self, recv: str, c: str) -> bool:
        """Whether a value known to be a ``recv`` (or a subclass of it) may be a ``c`` (or a subclass): one
        inherits the other, or some class inherits both (the diamond)."""
        return self._inherits(recv, c) or bool(self._common(recv, c))

    def _receiver(self, e: Edge) -> str | None:
        """The class ``e``'s receiver is known to be (or to be a subclass of): the class the edge records;
        on a call on ``this``, the narrower of it and the caller's own class. ``super().post()`` in
        ``BaseCreateView.post`` records ``ProcessFormView``, where ``post`` was found, but runs on a
        ``BaseCreateView``: a ``ModelFormMixin`` subclass whose ``form_valid`` that ``post`` dispatches
        to (Django's CreateView / UpdateView POST routes, cut before)."""
        recv = edge_receiver(e)
        if not recv or not e.props.get(EDGE_THIS):
            return recv
        own = id_owner(e.src)
        return own if own != recv and recv in self.up.get(own, ()) else recv

    def _excluded(self, node: str, e: Edge) -> bool:
        """Whether ``node`` is constrained and ``e`` records a receiver class unrelated to every class
        of its constraint."""
        k = self.of.get(node)
        if k is None:
            return False
        recv = self._receiver(e)
        return bool(recv) and not any(self._related(recv, c) for c in k)

    def follows(self, dst: str, e: Edge) -> bool:
        """Whether the walk follows caller edge ``e`` of ``dst`` (false only when ``dst`` is constrained
        and ``e`` records a receiver class unrelated to every class of the constraint; the caller is
        then kept in :attr:`cut`)."""
        if e.kind != "CALLS" or not self._excluded(dst, e):
            return True
        self.cut.add(e.src)
        return False

    def serves(self, src: str, e: Edge) -> bool:
        """Whether the service edge ``e`` (EXPOSES, CONSUMES) of ``src`` holds for the walk: false only when
        ``src`` is constrained and ``e`` records a receiver class (the view class an inherited handler
        serves the route for) unrelated to the constraint; the endpoint is then kept in :attr:`unserved`."""
        if not self._excluded(src, e):
            return True
        self.unserved.add(e.dst)
        return False

    def carried(self, dst: str, e: Edge) -> frozenset[str] | None:
        """The constraint ``e``'s caller is walked with: on a call on ``this``, ``dst``'s narrowed to the
        edge's receiver class (the narrower of each related pair); else none."""
        if e.kind != "CALLS" or not e.props.get(EDGE_THIS):
            return None
        k, recv = self.of.get(dst), self._receiver(e)
        if not recv:
            return k
        if k is None:
            return frozenset((recv,))
        out: set[str] = set()
        for c in k:
            if recv in self.up.get(c, (c,)):
                out.add(c)
            elif c in self.up.get(recv, (recv,)):
                out.add(recv)
            else:
                # both at once: one of their common subclasses
                out |= self._common(recv, c)
        return frozenset(out)

    def reach(self, node_id: str, constraint: frozenset[str] | None) -> None:
        """Record the constraint of ``node_id``, reached for the first time."""
        if constraint is not None:
            self.of[node_id] = constraint

    def widen(self, node_id: str, constraint: frozenset[str] | None) -> bool:
        """``node_id``, reached before, reached again under ``constraint``: widen its own; true when it
        changed (its callers must be walked again)."""
        k = self.of.get(node_id)
        if k is None:
            return False
        if constraint is None:
            del self.of[node_id]
            return True
        if constraint <= k:
            return False
        self.of[node_id] = k | constraint
        return True
