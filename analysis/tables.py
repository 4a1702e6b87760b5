"""The data layer in impact analysis: which tables a change reaches, and who reaches a table.

Two directions, contract calls only (any backend, batched per hop):

* :func:`tables_reached`: from the targets of a blast radius, the ``READS`` / ``WRITES`` edges
  of the targets and of their callees within ``depth`` hops (a CALLS walk *downward*, one
  ``outgoing`` per hop, then one ``get_nodes``), a callee being also the consumer of a topic or
  in-process message (a MediatR request, a Nest CQRS command) a walked method ``PRODUCES``, one hop
  further (one ``incoming`` ``CONSUMES`` per hop that produces any): the "Tables" section of the report
  (:class:`TableHit`, one per table and method, R / W / RW, the columns named).
* :func:`table_accessors`: a ``table:NAME`` / ``table:NAME.column`` / ``table:schema.NAME[.column]``
  target (:func:`is_table_target`) -> the methods and functions that read or write that table (a
  column: the accesses naming it, and those naming no columns, which may touch any); the blast
  radius walks upward from them as from any target, to the endpoints, topics and services that
  reach the table. Table nodes are found by id in every indexed repository
  (:func:`stores.contracts.table_id`: the identity rule, case and default schema folded).

:func:`table_summary` is the one-paragraph summary hover shows on an entity class or a schema file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from analysis.testcode import is_test_path
from stores.contracts import GraphStore, Node, table_id

__all__ = ["TABLE_PREFIX", "TableHit", "TableRow", "table_rows", "is_table_target", "parse_table_target", "table_nodes", "table_accessors",
           "tables_reached", "tables_detail", "table_summary", "tables_declared_at", "TableTargetError"]

TABLE_PREFIX = "table:"
_ACCESS = ("READS", "WRITES")
_ORDER = {"exact": 0, "inferred": 1, "name": 2}


class TableTargetError(ValueError):
    """A ``table:`` target naming no table of the index (the message says so)."""


@dataclass(frozen=True, slots=True)
class TableHit:
    """One table one method reads or writes: the Table node ``table``; ``via`` the method or
    function with the READS / WRITES edge; ``role`` ``R``, ``W`` or ``RW``; ``columns`` the
    columns its accesses name (empty: unknown or all); ``hops`` from the nearest target down the
    calls (0: a target itself); ``resolution`` the surest of its edges (``exact`` | ``inferred``);
    ``line`` the first access's line in ``via``'s file; ``table_columns`` how many columns the table
    declares (``HAS_COLUMN``; 0: none known)."""

    table: Node
    via: Node
    role: str
    columns: tuple[str, ...]
    hops: int
    resolution: str
    line: int
    table_columns: int = 0

    @property
    def every_column(self) -> bool:
        """Whether the accesses name every column the table declares: a whole-row read or write (a
        MyBatis generator's ``Base_Column_List`` select, its ``updateByPrimaryKeySelective``, an
        entity's ``save``), which says nothing about which column a change reads or writes."""
        return 0 < self.table_columns <= len(self.columns)


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table a change reaches, its :class:`TableHit` s together (a report shows each table once):
    ``role`` the union of their roles; ``columns`` the columns named by the accesses that name only
    some of them (sorted); ``every_column`` the table's column count when an access names them all
    (0 otherwise); ``hits`` by hops, then method id; ``hops`` the fewest; ``resolution`` the surest."""

    table: Node
    role: str
    columns: tuple[str, ...]
    every_column: int
    hits: tuple[TableHit, ...]
    hops: int
    resolution: str


def table_rows(hits: Sequence[TableHit]) -> list[TableRow]:
    """``hits`` grouped by table (:class:`TableRow`), in the order of each table's first hit."""
    groups: dict[str, list[TableHit]] = {}
    for h in hits:
        groups.setdefault(h.table.id, []).append(h)
    rows = []
    for group in groups.values():
        group.sort(key=lambda h: (h.hops, h.via.id))
        named = sorted({c for h in group if not h.every_column for c in h.columns})
        whole = max((h.table_columns for h in group if h.every_column), default=0)
        rows.append(TableRow(group[0].table, "".join(r for r in "RW" if any(r in h.role for h in group)),
                             tuple(named), whole, tuple(group), group[0].hops,
                             min((h.resolution for h in group), key=lambda r: _ORDER.get(r, 2))))
    return rows


def is_table_target(text: str) -> bool:
    """Whether a target text names a table or column (``table:owners``, ``table:owners.email``)."""
    return isinstance(text, str) and text.strip().lower().startswith(TABLE_PREFIX) and len(text.strip()) > len(TABLE_PREFIX)


def parse_table_target(text: str) -> list[tuple[str | None, str, str | None]]:
    """The readings ``(schema, table, column)`` of a ``table:`` target, most likely first:
    ``table:a`` -> ``[(None, "a", None)]``; ``table:a.b`` -> table ``b`` in schema ``a``, then
    column ``b`` of table ``a``; ``table:s.a.c`` -> column ``c`` of ``s.a``. Raises
    :class:`TableTargetError` for an empty name."""
    body = text.strip()[len(TABLE_PREFIX):].strip()
    parts = [p.strip().strip('"`[]') for p in body.split(".")]
    if not body or any(not p for p in parts) or len(parts) > 3:
        raise TableTargetError(f"{text!r} is no table target: write table:NAME, table:NAME.column or "
                               "table:schema.NAME.column")
    if len(parts) == 1:
        return [(None, parts[0], None)]
    if len(parts) == 2:
        return [(parts[0], parts[1], None), (None, parts[0], parts[1])]
    return [(parts[0], parts[1], parts[2])]


def table_nodes(graph: GraphStore, text: str) -> tuple[list[Node], str | None]:
    """The Table nodes a ``table:`` target names in every indexed repository, and the column it
    names (``None``: the whole table). Two store calls per reading tried. Raises
    :class:`TableTargetError` when no table matches (the message names the closest tables, by
    :meth:`~stores.contracts.GraphStore.search_symbols` of the name and, for a name ending in ``s``, of
    its singular: ``table:users`` names ``user``)."""
    repos = graph.repos()
    for schema, name, column in parse_table_target(text):
        ids = [table_id(r, name, schema) for r in repos]
        found = graph.get_nodes(ids)
        nodes = [found[i] for i in ids if i in found and found[i].label == "Table"]
        if nodes and column is not None:
            _check_column(graph, nodes, name, column)
        if nodes:
            return nodes, column
    wanted = text.strip()[len(TABLE_PREFIX):]
    last = wanted.split(".")[-1] or wanted
    queries = [last, last[:-1]] if len(last) > 1 and last[-1] in "sS" else [last]  # `users` for the table `user`
    near = list(dict.fromkeys(n.name for q in queries for n in graph.search_symbols(q, 40) if n.label == "Table"))[:5]
    raise TableTargetError(f"no table of the index is named {wanted!r}"
                           + (f"; closest tables: {', '.join(near)}" if near else ""))


def _check_column(graph: GraphStore, tables: Sequence[Node], name: str, column: str) -> None:
    """Raise :class:`TableTargetError` when the tables declare columns (``HAS_COLUMN``) and none is
    ``column`` (case-insensitive): a mistyped column must not answer for the whole table. A table
    known only from its uses declares none, and any column name is taken then."""
    edges = graph.outgoing([t.id for t in tables], ["HAS_COLUMN"])
    ids = sorted({e.dst for es in edges.values() for e in es})
    if not ids:
        return
    names = sorted({n.name for n in graph.get_nodes(ids).values()})
    if column.lower() not in {n.lower() for n in names}:
        raise TableTargetError(f"table {name!r} has no column {column!r}; its columns: {', '.join(names[:30])}"
                               + (" …" if len(names) > 30 else ""))


def table_accessors(graph: GraphStore, text: str, tests: str = "include") -> list[Node]:
    """The functions and methods that read or write what a ``table:`` target names (a column: the
    accesses naming it, plus those naming no columns), sorted by id; ``tests`` ``exclude`` leaves out
    test code (:func:`analysis.testcode.is_test_path`), ``only`` keeps nothing else (``include`` /
    ``apart``: all). Raises :class:`TableTargetError` when no table matches; ``[]`` when nothing
    accesses it."""
    tables, column = table_nodes(graph, text)
    incoming = graph.incoming([t.id for t in tables], list(_ACCESS))
    srcs = sorted({e.src for es in incoming.values() for e in es
                   if column is None or not e.props.get("columns") or column.lower() in e.props["columns"]})
    found = graph.get_nodes(srcs) if srcs else {}
    return [found[i] for i in srcs if i in found
            and (tests not in ("exclude", "only") or is_test_path(found[i].file) == (tests == "only"))]


def tables_reached(graph: GraphStore, targets: Sequence[str], depth: int, max_nodes: int = 5000) -> tuple[TableHit, ...]:
    """Every table ``targets`` and their callees within ``depth`` hops read or write (see the module
    docstring; the consumers of the topics and in-process messages a walked method produces count as its
    callees), sorted by table name, then hops, then the method's id. One ``outgoing`` per hop (at
    most ``depth + 1``) and one ``incoming`` for each hop that produces, one ``get_nodes`` and one ``outgoing`` for
    the tables' columns; at most ``max_nodes`` methods are walked."""
    hops = {t: 0 for t in targets}
    level = list(dict.fromkeys(targets))
    found: dict[tuple[str, str], list] = {}
    for hop in range(depth + 1):
        if not level:
            break
        out = graph.outgoing(level, ["CALLS", "PRODUCES", *_ACCESS])
        nxt: list[str] = []
        topics: list[str] = []
        for src in level:
            for e in out.get(src, []):
                if e.kind == "PRODUCES":
                    topics.append(e.dst)
                elif e.kind in _ACCESS:
                    entry = found.setdefault((e.dst, src), [set(), set(), hops[src], "name", e.line])
                    entry[0].add("W" if e.kind == "WRITES" else "R")
                    entry[1].update(e.props.get("columns") or [])
                    res = e.props.get("resolution", "exact")
                    if _ORDER.get(res, 2) < _ORDER.get(entry[3], 2):
                        entry[3] = res
                    entry[4] = min(entry[4], e.line)
                elif hop < depth and e.dst not in hops and len(hops) < max_nodes:
                    hops[e.dst] = hop + 1
                    nxt.append(e.dst)
        if topics and hop < depth:  # the consumers of what they produce (a topic, an in-process message)
            consumed = graph.incoming(sorted(set(topics)), ["CONSUMES"])
            for t in sorted(consumed):
                for e in consumed[t]:
                    if e.src not in hops and len(hops) < max_nodes:
                        hops[e.src] = hop + 1
                        nxt.append(e.src)
        level = nxt
    if not found:
        return ()
    nodes = graph.get_nodes(sorted({k for pair in found for k in pair}))
    declared = graph.outgoing(sorted({t for t, _ in found}), ["HAS_COLUMN"])
    hits = [TableHit(nodes[t], nodes[m], "".join(sorted(v[0])), tuple(sorted(v[1])), v[2], v[3], v[4],
                     len({e.dst for e in declared.get(t, [])}))
            for (t, m), v in found.items() if t in nodes and m in nodes]
    hits.sort(key=lambda h: (h.table.name.lower(), h.table.id, h.hops, h.via.id))
    return tuple(hits)


def tables_detail(hits: Sequence[TableHit]) -> str:
    """One line for a report's steps table: ``2 tables (1 written)``."""
    tables = {h.table.id for h in hits}
    written = {h.table.id for h in hits if "W" in h.role}
    n = len(tables)
    return f"{n:,} table{'s' if n != 1 else ''} ({len(written):,} written)"


def table_summary(graph: GraphStore, table_ids: Sequence[str], limit: int = 5) -> list[str]:
    """Markdown-free lines summarising each table: ``owners (8 columns): read by 3, written by 2:
    OwnerController.processCreationForm (W), …`` (at most ``limit`` methods named, by id). Four
    store calls. Tables that are not in the index are left out."""
    tables = graph.get_nodes(list(table_ids))
    if not tables:
        return []
    cols = graph.outgoing(list(tables), ["HAS_COLUMN"])
    incoming = graph.incoming(list(tables), list(_ACCESS))
    by_table: dict[str, dict[str, set[str]]] = {}
    for tid in table_ids:
        roles = by_table.setdefault(tid, {})
        for e in incoming.get(tid, []):
            roles.setdefault(e.src, set()).add("W" if e.kind == "WRITES" else "R")
    shown_ids = sorted({src for roles in by_table.values() for src in sorted(roles)[:limit]})
    shown = graph.get_nodes(shown_ids) if shown_ids else {}
    lines = []
    for tid in table_ids:
        t = tables.get(tid)
        if t is None:
            continue
        roles = by_table[tid]
        readers = sum(1 for r in roles.values() if "R" in r)
        writers = sum(1 for r in roles.values() if "W" in r)
        ncols = len({e.dst for e in cols.get(tid, [])})
        named = ", ".join(f"{shown[src].qualname if src in shown else src} ({''.join(sorted(r))})"
                          for src, r in sorted(roles.items())[:limit])
        more = f", … {len(roles) - limit:,} more" if len(roles) > limit else ""
        lines.append(f"{t.qualname} ({ncols:,} column{'s' if ncols != 1 else ''}): read by {readers:,}, "
                     f"written by {writers:,}" + (f": {named}{more}" if named else ""))
    return lines


def tables_declared_at(graph: GraphStore, repo: str, path: str, line: int, symbols: Sequence[Node]) -> list[str]:
    """The Table ids a hover at ``line`` (1-based) of ``repo``/``path`` is about: those the first of
    ``symbols`` (an entity class) DECLARES, else, in a file with no symbol there, the table whose
    DECLARES edge of the file starts last at or before ``line`` (a ``CREATE TABLE`` statement of a
    schema file). Two store calls at most."""
    if symbols:
        out = graph.outgoing([symbols[0].id], ["DECLARES"])
        return sorted({e.dst for e in out.get(symbols[0].id, []) if e.dst.startswith(TABLE_PREFIX)})
    fid = f"{repo}:{path}"
    out = graph.outgoing([fid], ["DECLARES"]).get(fid, [])
    before = [e for e in out if e.dst.startswith(TABLE_PREFIX) and e.line <= line]
    if not before:
        return []
    last = max(e.line for e in before)
    return sorted({e.dst for e in before if e.line == last})
