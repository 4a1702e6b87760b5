"""One file's graph output: its nodes, the edges it owns (CONTAINS, EXTENDS, IMPLEMENTS, OVERRIDES,
CALLS, INJECTS, USES_TYPE, REFERENCES) and the call sites nothing bound. Language-neutral."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from indexer.model import CALLABLE_KINDS, Definition
from indexer.resolve.callbacks import handed_calls, handed_runs, held_calls, held_values, library_callbacks
from indexer.resolve.hierarchy import same_arity
from indexer.resolve.multimap import entries
from indexer.resolve.reads import bind_read
from indexer.resolve.structural import structural_edges
from indexer.resolve.values import EXTERNAL, ClassV
from indexer.symbols import LABELS, file_id
from stores.contracts import (EDGE_RECEIVER, EDGE_THIS, Edge, FileRecord, IndexedFile, UnresolvedCall, new_edge,
                              new_node, new_unresolved, receiver_value)
from stores.qualified_symbols import WRITTEN, written_qualname

if TYPE_CHECKING:
    from indexer.resolve.calls import CallBinder
    from indexer.resolve.context import FileCtx
    from indexer.resolve.hierarchy import ClassHierarchy
    from indexer.resolve.interpreter import Resolver
    from indexer.resolve.values import Def

__all__ = ["file_output", "node_props", "receiver_props"]


_RUN_TIME_CHOICE = frozenset({"element", "library"})
"""Implied calls (``CallSite.via``) whose target is chosen at run time: bound at most ``inferred``."""


def file_output(r: Resolver, binder: CallBinder, fc: FileCtx, outcomes: dict[str, int]) -> IndexedFile:
    """The :class:`IndexedFile` of ``fc`` (no chunks) resolved through ``r``; each call site's
    outcome (``exact`` / ``inferred`` / ``name`` / ``external`` / ``unresolved``) is counted in
    ``outcomes``."""
    repo, path = r.repo, fc.path
    fid = file_id(repo, path)
    nodes = [new_node(fid, "File", posixpath.basename(path), path, repo, path, 1, 0, 1, 0,
                      {"language": fc.lang, "checksum": fc.checksum, "module": fc.module_key})]
    edges: dict[tuple[str, str, str, int, int], Edge] = {}
    # A definition's id is built each time it is read (values.Def.id): one string per id in this
    # file's output, as when ids were held (a spilled output pickles each string once).
    shared: dict[str, str] = {}

    def add(kind: str, src: str, dst: str, line: int = 0, col: int = 0, resolution: str | None = None,
            props: dict[str, object] | None = None) -> None:
        k = (kind, src, dst, line, col)
        if k not in edges:
            edges[k] = new_edge(kind, shared.setdefault(src, src), shared.setdefault(dst, dst), repo, path, line, col,
                                resolution, {} if props is None else props)

    props_of: dict[tuple[str | None, bool], dict[str, object]] = {}  # one dict per receiver and file
    classified: dict[tuple[int, int, bool], str | None] = {}  # (receiver class, target, on this) -> its class id
    held_pairs: set[tuple[str, str]] = set()  # (caller, method) pairs held_calls gave a row (see there)
    closed = getattr(fc.rules, "closed_objects", None)  # JS: a factory's returned object, `F.return`
    classes = r.classes
    for rd in fc.defs:
        d = rd.d
        props = node_props(fc.lang, d)
        if closed and f".{closed}." in d.qualname:
            written = _written(d.qualname, closed, fc)
            if written != written_qualname(d.qualname):
                props[WRITTEN] = written
        if fc.module_key and fc.rules.dotted_packages:
            props["module"] = fc.module_key
        node_id = rd.id
        shared[node_id] = node_id
        nodes.append(new_node(node_id, LABELS[d.kind], d.name, d.qualname, repo, path, d.start_line, d.start_col,
                              d.end_line, d.end_col, props))
        parent = fc.def_at(d.parent, d.start_line) if d.parent else None
        add("CONTAINS", parent.id if parent else fid, node_id)
        if d.accessor_of:  # a generated accessor reads / writes its field (model.Definition)
            read = fc.def_at(d.accessor_of, d.start_line)
            if read is not None and read.kind == "field":
                add("CALLS", rd.id, read.id, read.d.name_line, read.d.name_col, "exact")
        if rd.is_type:
            for text in d.bases:
                t = r.resolve_type(fc, d.parent, text)
                if isinstance(t, ClassV) and t.c is not rd:
                    add("EXTENDS", rd.id, t.c.id, d.name_line, d.name_col)
            for text in d.implements:
                t = r.resolve_type(fc, d.parent, text)
                if isinstance(t, ClassV) and t.c is not rd:
                    add("IMPLEMENTS", rd.id, t.c.id, d.name_line, d.name_col)
        elif d.kind == "method" and parent is not None and parent.is_type:
            for base in classes.bases(parent):
                found, _ = classes.lookup(base, d.name)
                for m in found:
                    if m.is_callable and m is not rd and same_arity(m, rd):  # a cycle of bases finds rd itself
                        add("OVERRIDES", rd.id, m.id, d.name_line, d.name_col)
        for kind, target in structural_edges(classes.structural, fc, rd, r.use, classes.lookup):
            add(kind, rd.id, target.id, d.name_line, d.name_col)
    unresolved: list[UnresolvedCall] = []
    # The caller's id per caller qualname of one definition (most): def_at's answer whatever the line,
    # looked up and built once a file instead of at each of its call sites.
    sources: dict[str | None, str] = {}
    by_qualname = fc.by_qualname
    for cs in fc.call_sites():
        src = sources.get(cs.caller)
        if src is None:
            caller = fc.def_at(cs.caller, cs.line)
            src = caller.id if caller else fid
            if cs.caller is None or len(entries(by_qualname, cs.caller)) <= 1:
                sources[cs.caller] = src
        targets = binder.bind_call(fc, cs)
        receiver = binder.receiver
        if cs.via is not None:  # only what binds counts (CallSite.via)
            for target, how in targets if isinstance(targets, list) else ():
                add("CALLS", src, target.id, cs.line, cs.col, "inferred" if cs.via in _RUN_TIME_CHOICE else how,
                    receiver and receiver_props(classes, receiver, target, props_of, src, repo, classified))
            if cs.handed and isinstance(targets, list):  # `@dec` / `f()(handler)`: dec(f) calls f
                for called, handed, arg in handed_calls(r, fc, cs, targets):
                    add("CALLS", called.id, handed.id, arg.line, arg.col, "inferred")
            continue
        if not targets and receiver is not None:  # `h = Holder(f)`, `h.fn()`: what the class keeps in `fn`
            held = held_values(r, fc, cs, receiver)
            if held:
                targets, receiver = held, None
        if not isinstance(targets, list) or not targets:  # `map(f, xs)`: the library calls f
            for called, arg in library_callbacks(r, fc, cs):
                add("CALLS", src, called.id, arg.line, arg.col, "inferred")
        if targets is EXTERNAL:
            outcomes["external"] += 1
            for run, arg in handed_runs(r, fc, cs):  # `new Thread(task)`: the library runs task.run()
                add("CALLS", src, run.id, arg.line, arg.col, "inferred")
        elif not targets:
            if cs.is_new:  # `new Thread(task)` of a class the repository does not declare
                for run, arg in handed_runs(r, fc, cs):
                    add("CALLS", src, run.id, arg.line, arg.col, "inferred")
            outcomes["unresolved"] += 1
            unresolved.append(new_unresolved(src, cs.name, cs.arity, cs.receiver, repo, path, cs.line, cs.col))
        else:
            assert isinstance(targets, list)
            for target, how in targets:
                add("CALLS", src, target.id, cs.line, cs.col, how,
                    receiver and receiver_props(classes, receiver, target, props_of, src, repo, classified))
            outcomes[targets[0][1]] += 1
            for called, handed, arg in handed_calls(r, fc, cs, targets):  # `run(handler)`, `def run(cb): cb()`
                add("CALLS", called.id, handed.id, arg.line, arg.col, "inferred")
            for caller, method, arg in held_calls(r, fc, cs, targets):  # `B(A())`, `self.a = a`, `self.a.ping()`
                pair = (caller.id, method.id)
                if pair not in held_pairs:  # at the file's first `A()` handed to a `B`: one row a pair and file
                    held_pairs.add(pair)
                    add("CALLS", pair[0], pair[1], arg.line, arg.col, "inferred")
    called = {(e.dst, e.line) for e in edges.values() if e.kind == "CALLS"} if fc.ex.value_reads else set()
    ns, getters, use = fc.rules.namespace, r.tables.getters, r.use
    for read in fc.ex.value_reads:  # getters run, functions handed on as values (indexer.resolve.reads)
        if not read.handed and (ns, read.name) not in getters:  # most reads: bind_read's first test, inlined
            use(("n", ns, read.name))
            continue
        found = bind_read(r, fc, read)
        if found:
            owner = fc.def_at(read.owner, read.line)
            src = owner.id if owner else fid
            for kind, target, how in found:
                # a function handed where a call of it is recorded already (`run(handler)` whose
                # `run` calls it, FastAPI's `Depends(f)`) is that call's place, listed once
                if kind == "CALLS" or (target.id, read.line) not in called:
                    add(kind, src, target.id, read.line, read.col, how)
    for inj in fc.ex.injections:
        owner = fc.def_at(inj.owner, inj.line)
        t = r.resolve_type(fc, inj.owner, inj.type)
        if owner is not None and isinstance(t, ClassV):
            add("INJECTS", owner.id, t.c.id, inj.line, inj.col)
    for use in fc.ex.type_uses:
        owner = fc.def_at(use.owner, use.line)
        t = r.resolve_type(fc, use.owner, use.type)
        if isinstance(t, ClassV):
            add("USES_TYPE", owner.id if owner else fid, t.c.id, use.line, use.col)
    record = FileRecord(repo, path, fc.lang, fc.checksum, fc.size)
    return IndexedFile(record, nodes, list(edges.values()), unresolved)


def _written(qualname: str, closed: str, fc: FileCtx) -> str:
    """``qualname`` without its inner ``closed`` segments that stand for a factory's returned object
    (``F.return``: no definition of ``fc`` has that qualname), keeping those that are a real member of
    that name (``Cursor.return``, an iterator's ``return()`` method): the node's
    :data:`stores.qualified_symbols.WRITTEN` form."""
    parts = qualname.split(".")
    keep = [p for i, p in enumerate(parts)
            if not (0 < i < len(parts) - 1 and p == closed and ".".join(parts[:i + 1]) not in fc.by_qualname)]
    return ".".join(keep)


def node_props(lang: str, d: Definition) -> dict[str, object]:
    """The properties of a definition's node; ``name_line`` / ``name_col`` locate its name (1-based
    line, code-point column), which front ends select (an annotation may spell the name earlier);
    ``documented`` is set (true) when the definition has a docstring, Javadoc, JSDoc or KDoc."""
    props: dict[str, object] = {"language": lang, "name_line": d.name_line, "name_col": d.name_col}
    if d.kind in CALLABLE_KINDS:
        props.update(signature=d.signature, arity=len(d.params), min_arity=d.min_arity, max_arity=d.max_arity)
    if d.modifiers:
        props["modifiers"] = list(d.modifiers)
    if d.decorators:
        props["decorators"] = list(d.decorators)
    if d.field_type:
        props["type"] = d.field_type
    if d.return_type:
        props["return_type"] = d.return_type
    if d.exported:
        props["exported"] = True
    if d.docstring:  # search ranks documented definitions first (analysis.ranking)
        props["documented"] = True
    if d.generated:
        props["generated"] = d.generated
    return props


def receiver_props(classes: ClassHierarchy, receiver: tuple[Def, bool], target: Def,
                   shared: dict[tuple[str | None, bool], dict[str, object]], src: str, repo: str,
                   classified: dict[tuple[int, int, bool], str | None] | None = None) -> dict[str, object] | None:
    """The :data:`~stores.contracts.EDGE_THIS` / :data:`~stores.contracts.EDGE_RECEIVER` properties of a CALLS edge to ``target`` bound on ``receiver``
    (:attr:`indexer.resolve.calls.CallBinder.receiver`: the receiver's class and whether it is the
    caller's own instance) from ``src`` (the caller's id) in ``repo``; ``None`` when there is nothing to
    record (a method of the receiver's own class called on another object, or no method). The class is
    written compactly (:func:`stores.contracts.receiver_value`); dicts are shared through ``shared`` (one
    per distinct value and file), each pair's class through ``classified`` (per file: its dependencies are
    the file's once recorded). Whether ``target`` is inherited is what ``classes.lookup`` (the binder's
    own, memoised and recorded as the file's dependency already) says; a target it does not find is an
    override a call on ``this`` dispatches to (an overload of an ancestor it misses names an ancestor:
    a constraint no narrower than the caller's own class)."""
    if target.kind != "method" or target.parent is None:
        return None
    cls, on_this = receiver
    key3 = (id(cls), id(target), on_this)
    if classified is not None and key3 in classified:
        recv = classified[key3]
    else:
        recv = _receiver_class(classes, cls, on_this, target)
        if classified is not None:
            classified[key3] = recv
    if recv is None and not on_this:
        return None
    if recv is not None:
        recv = receiver_value(recv, src, target.id, repo)
    key = (recv, on_this)
    if key not in shared:
        shared[key] = {EDGE_RECEIVER: recv, EDGE_THIS: 1} if recv and on_this else \
            {EDGE_RECEIVER: recv} if recv else {EDGE_THIS: 1}
    return shared[key]


def _receiver_class(classes: ClassHierarchy, cls: Def, on_this: bool, target: Def) -> str | None:
    """The class id :func:`receiver_props` records for a call of ``target`` on an instance of ``cls``."""
    recv: str | None = None
    if not (target.file is cls.file and target.parent == cls.qualname):
        found, inherited = classes.lookup(cls, target.name)  # the binder's own lookup: memoised, read already
        if inherited and any(m is target for m in found):
            recv = cls.id  # inherited: `new LogHandler().run()` runs Handler.run on a LogHandler
        elif on_this:  # dispatched below: `afterInsert()` in Handler.run runs LogHandler's on a LogHandler
            owner = target.file.def_at(target.parent, target.line)
            recv = owner.id if owner is not None and owner.is_type else None
    return recv
