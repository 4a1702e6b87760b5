"""``MENTIONS`` edges: a documentation or configuration chunk that names a symbol or a table links to it.

What counts as naming (:func:`mentions`):

* in documentation, the text of a code span: Markdown / AsciiDoc ```x```, reStructuredText
  ````x```` and roles (``:func:`~pkg.mod.f```, ``:class:`Title <pkg.C>```); in configuration, a
  value that is a qualified class name (``com.shop.web.CacheConfig``);
* the span holds one identifier, possibly qualified (``a.b.C``, ``C::m``, ``C#m``), call parentheses
  and a reST ``~`` / ``!`` dropped;
* it must be specific: qualified (two parts or more), or a distinctive identifier (``OrderService``:
  two capitals and a lower-case letter; ``get_user_model``: snake case of five characters or more;
  dunder names such as ``__init__`` do not count). A plain word (``save``, ``name``, ``true``) names
  only a table (``Table`` nodes, once the index has them), never code.

Resolution (:func:`mention_edges`) is a lookup of nodes by short name, through a function the caller
gives (:func:`store_lookup`: the nodes being written in this run first, then the graph store's
:meth:`~stores.contracts.GraphStore.find_symbol_keys`, names only and bounded by the mention: at most
``MAX_TARGETS + 1`` nodes of other repositories for an unqualified name, for a qualified one the
nodes whose qualname agrees with it), so every kind of node the index holds, tables included, is
found once it exists. A qualified mention keeps the nodes whose qualified name (module
or path, then qualname) ends with what was written, or whose qualname it ends with under the package
right above the node's module (a re-exported ``django.db.models.Model``); an unqualified one keeps the nodes of exactly that name when there are at
most :data:`MAX_TARGETS` (more is a common name: no edge). The edge goes from the file's node to the
symbol, at the line of the mention.

A doc file's edges are computed when the file is written. An incremental update that adds, removes
or moves a definition, or makes or drops a table or column, a doc of the same repository names
writes that doc again (:mod:`indexer.mention_refresh`); a doc of another repository in a shared index
is linked when it is next indexed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Protocol

from stores.contracts import SHARED_LABELS, Chunk, Edge, GraphStore, IndexedFile, Node, SymbolKey, new_edge, qualname_agrees

__all__ = ["mentions", "mention_edges", "store_lookup", "add_mention_edges", "MAX_TARGETS", "MENTION_LABELS", "NodeSource",
           "Mention", "Key", "Lookup", "mentionable", "stored_mentionable", "LINKED_LABELS", "mention_edges_of", "DocFile"]

MAX_TARGETS = 3
"""An unqualified name matching more nodes than this is too common to link."""
MENTION_LABELS = frozenset({"Class", "Interface", "Enum", "Method", "Function", "Constructor", "Field", "Table",
                            "Column"})
"""Node labels a mention may link to."""
_TABLE_LABELS = frozenset({"Table"})
LINKED_LABELS = tuple(sorted(MENTION_LABELS.intersection(SHARED_LABELS)))
"""Labels a mention may link to of the nodes the framework linker emits (shared nodes, no file of
their own: tables and columns), which an update's definitions do not show."""

_SPAN = re.compile(r"``([^`\n]+?)``|`([^`\n]+?)`")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*")
_QUALIFIED_CLASS = re.compile(r"\b(?:[a-z_][\w]*\.)+[A-Z][\w$]*\b")
_CAMEL = re.compile(r"(?=(?:.*[A-Z]){2})(?=.*[a-z])[A-Za-z][\w$]*")
_SNAKE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+")

Mention = tuple[str, int, int]
"""``(name as written, 1-based line, 0-based column)``."""


def mentions(chunk: Chunk) -> list[Mention]:
    """The names a ``doc`` or ``config`` chunk mentions, in order, with their positions in its file
    (a config chunk's text is ``key = value``: its mentions sit on the chunk's first line)."""
    if chunk.kind == "config":
        value = chunk.text.partition(" = ")[2]
        return [(m.group(0), chunk.start_line, 0) for m in _QUALIFIED_CLASS.finditer(value)]
    if chunk.kind != "doc":
        return []
    out = []
    # A doc chunk may start with its breadcrumb line ("Guide > Install"), which is not in the file.
    body, first = chunk.text, chunk.start_line
    if " > " in body.split("\n", 1)[0] and "\n" in body:
        body = body.split("\n", 1)[1]
    # Line and column of each span from the last one's on (counted once over the body, not from its
    # start for every span: a long section with many spans stayed quadratic in its length).
    line, line_start, at = first, 0, 0
    for m in _SPAN.finditer(body):
        name = _clean(m.group(1) or m.group(2))
        if name is not None:
            start = m.start()
            breaks = body.count("\n", at, start)
            if breaks:
                line += breaks
                line_start = body.rfind("\n", at, start) + 1
            at = start
            out.append((name, line, start - line_start))
    return out


def _clean(span: str) -> str | None:
    """The identifier a code span names, or ``None`` (not one identifier)."""
    text = span.strip()
    if "<" in text and text.endswith(">"):  # reST: Title <target>
        text = text[text.rindex("<") + 1:-1]
    text = text.lstrip("~!@").split("(", 1)[0].strip()
    return text if _IDENT.fullmatch(text) else None


def _parts(name: str) -> list[str]:
    return [p for p in re.split(r"\.|::|#", name) if p]


def _specific(name: str) -> str:
    """``code`` (a qualified or distinctive name), ``table`` (a plain word: tables only) or ``""``."""
    parts = _parts(name)
    if len(parts) > 1:
        return "code"
    if name.startswith("__") and name.endswith("__"):
        return ""
    if _CAMEL.fullmatch(name) or (_SNAKE.fullmatch(name) and len(name) >= 5):
        return "code"
    return "table"


def _fulls(n: SymbolKey) -> list[list[str]]:
    """A node's qualified names as parts: by its module (where the language has one) and by its path."""
    qual = n.qualname.split(".")
    out = [[*n.file.rsplit(".", 1)[0].split("/"), *qual]]
    if n.module:
        out.insert(0, [*n.module.split("."), *qual])
    return out


def _matches(written: list[str], n: SymbolKey) -> bool:
    """Whether ``written`` (qualified) names ``n``: a tail of one of its qualified names, or its
    qualname under the package right above its module (a re-export: ``django.db.models.Model`` for a
    class of ``django.db.models.base``; ``django.contrib.auth`` is not ``auth`` of
    ``django.contrib.auth.context_processors``). Either way its qualname and ``written`` agree on
    their common end (:func:`stores.contracts.qualname_agrees`), which the store lookup selects by."""
    if len(written) == 1:
        return True
    qual = n.qualname.split(".")
    for full in _fulls(n):
        if full[-len(written):] == written:
            return True
        prefix, module = written[:-len(qual)], full[:-len(qual)]
        if (len(written) > len(qual) and written[-len(qual):] == qual and module[:len(prefix)] == prefix
                and len(module) == len(prefix) + 1):
            return True
    return False


Key = tuple[str, str]
"""What a mention asks the lookup for: ``(short name, tail)``, the tail ``""`` for an unqualified
mention (every node of that name), else the mention's parts joined by dots (``click.Context.invoke``:
the nodes whose qualname agrees with it, :func:`stores.contracts.qualname_agrees`)."""

Lookup = Callable[[Sequence[Key]], Mapping[Key, Sequence[SymbolKey]]]
"""``lookup(keys) -> {key: nodes}``: for a qualified key every node of that name whose qualname
agrees with its tail (more may come: :func:`mention_edges` keeps those :func:`_matches` accepts); for
an unqualified key the nodes of that name with a label it may link to (:data:`MENTION_LABELS`, or
``Table`` for a plain word), all of them, or at least ``MAX_TARGETS + 1`` of them when there are
more (too common: no edge)."""


def mentionable(nodes: Iterable[Node]) -> frozenset[tuple[str, str]]:
    """``(short name, id)`` of the nodes among ``nodes`` a mention may link to (:data:`MENTION_LABELS`):
    what a doc's edges depend on, compared before and after an update (:mod:`indexer.mention_refresh`)."""
    return frozenset((n.name, n.id) for n in nodes if n.label in MENTION_LABELS)


def stored_mentionable(graph: GraphStore, repo: str) -> frozenset[tuple[str, str]]:
    """:func:`mentionable` of the linker's nodes of repository ``repo`` the graph store holds
    (:data:`LINKED_LABELS`, owned by ``repo`` by their ``repository`` property): what its docs were
    linked against, for a resolver that does not remember its last link (one restored from records)."""
    return mentionable(n for n in graph.labelled(LINKED_LABELS) if n.props.get("repository") == repo)


def _key(parts: list[str]) -> Key:
    """The lookup key of a mention written as ``parts`` (:func:`_parts`)."""
    return (parts[-1], "" if len(parts) == 1 else ".".join(parts))


def mention_edges(repo: str, path: str, file_node: str, chunks: Iterable[Chunk], lookup: Lookup) -> list[Edge]:
    """The ``MENTIONS`` edges of one file's chunks: ``file_node -> node`` at each mention's line and
    column, one per (node, position); names resolved by one ``lookup`` call."""
    found = _found(chunks)
    if not found:
        return []
    return _edges(repo, path, file_node, found, lookup(sorted({key for _, _, key, _ in found})))


_Found = tuple[Mention, str, Key, list[str]]
"""A specific mention of a chunk: ``(mention, how specific (_specific), lookup key, its parts)``."""


def _found(chunks: Iterable[Chunk]) -> list[_Found]:
    """The specific mentions of ``chunks`` in order, each parsed once (its key and parts)."""
    out = []
    for c in chunks:
        for m in mentions(c):
            how = _specific(m[0])
            if how:
                parts = _parts(m[0])
                out.append((m, how, _key(parts), parts))
    return out


def _edges(repo: str, path: str, file_node: str, found: Sequence[_Found],
           nodes: Mapping[Key, Sequence[SymbolKey]]) -> list[Edge]:
    """The edges of ``found`` (:func:`_found`) with the nodes ``nodes`` (a :data:`Lookup`'s answer) gives each key."""
    edges: dict[tuple[str, int, int], Edge] = {}
    for (_, line, col), how, key, written in found:
        labels = _TABLE_LABELS if how == "table" else MENTION_LABELS
        hits = [n for n in nodes.get(key, ()) if n.label in labels and _matches(written, n)]
        if len(written) == 1 and len(hits) > MAX_TARGETS:
            continue
        for n in hits:
            if (n.id, line, col) not in edges:
                edges[n.id, line, col] = new_edge("MENTIONS", file_node, n.id, repo, path, line, col, None, {})
    return list(edges.values())


class NodeSource(Protocol):
    """The nodes a run writes, for runs that do not hold them all in memory (outputs spilled to
    disk, :class:`indexer.spill.SpilledOutputs`): :meth:`paths` the files written, :meth:`named`
    the keys of their nodes of the given short names a mention may link to, in file order."""

    def paths(self) -> set[str]:
        """Paths of every file the run writes."""
        ...

    def named(self, names: set[str]) -> Iterable[SymbolKey]:
        """Keys of the nodes of the run's files whose ``name`` is among ``names`` and whose label is
        one of :data:`MENTION_LABELS` (at least those), in file order."""
        ...


def _by_name(nodes: Iterable[SymbolKey]) -> dict[str, dict[str, SymbolKey]]:
    fresh: dict[str, dict[str, SymbolKey]] = {}
    for n in nodes:
        if n.label in MENTION_LABELS:
            fresh.setdefault(n.name, {})[n.id] = n
    return fresh


def store_lookup(graph: GraphStore | None, written: Sequence[IndexedFile] | NodeSource, repo: str,
                 gone: Collection[str] = (), dropped: Collection[str] = ()) -> Lookup:
    """A :data:`Lookup` over the nodes of ``written`` (this run's files of repository ``repo``, not in
    the store yet: their outputs, or a :class:`NodeSource`) and the graph store's
    (:meth:`~stores.contracts.GraphStore.find_symbol_keys`, without those of ``repo``'s files that
    ``written`` replaces); a node in both counts once, as ``written`` has it (the last file's, when
    several of them hold one). What it reads from the store is bounded by the keys: an unqualified
    key reads at most ``MAX_TARGETS + 1`` nodes of other repositories, a qualified one only nodes
    whose qualname agrees with it, and names only (:class:`~stores.contracts.SymbolKey`). ``gone``:
    paths of ``repo`` this run deletes; their nodes, still in the store, are not found either.
    ``dropped``: ids of nodes the run's link no longer emits (a table no source declares or uses any
    more: a shared node of no file, still in the store until the write prunes it), not found either.
    ``graph`` ``None``: no store is read, only ``written`` (right where the store held no node when the
    run's write began: every node it holds then is one of ``written``'s, and ``written``'s form of a node
    wins anyway; :func:`mention_edges_of` in the write's forked copy, :mod:`indexer.write_prep`)."""
    if isinstance(written, Sequence):
        known: dict[str, dict[str, SymbolKey]] | None = _by_name(
            SymbolKey.of(n) for out in written for n in out.nodes if n.label in MENTION_LABELS)
        replaced = {out.file.path for out in written}
    else:
        known, replaced = None, written.paths()
    if gone:
        replaced = replaced | set(gone)

    def lookup(keys: Sequence[Key]) -> dict[Key, list[SymbolKey]]:
        plain = [k for k in keys if not k[1] and _specific(k[0]) == "code"]
        words = [k for k in keys if not k[1] and _specific(k[0]) != "code"]
        qualified = [k for k in keys if k[1]]
        stored: dict[Key, list[SymbolKey]] = {}
        cap = MAX_TARGETS + 1 + len(dropped)  # still MAX_TARGETS + 1 once the dropped are left out
        for ks, labels, limit in ((plain, MENTION_LABELS, cap), (words, _TABLE_LABELS, cap), (qualified, MENTION_LABELS, None)):
            if ks and graph is not None:
                stored.update(graph.find_symbol_keys(ks, sorted(labels), limit=limit, skip_repo=repo,
                                                     skip_files=replaced))
        fresh = known if known is not None else _by_name(written.named({k[0] for k in keys}))  # type: ignore[union-attr]
        out: dict[Key, list[SymbolKey]] = {}
        for key in keys:
            merged = {n.id: n for n in stored.get(key, ()) if n.id not in dropped}
            merged.update((i, n) for i, n in fresh.get(key[0], {}).items() if qualname_agrees(n.qualname, key[1]))
            out[key] = [merged[k] for k in sorted(merged)]
        return out

    return lookup


DocFile = tuple[str, str, str, Sequence[Chunk]]
"""A file whose chunks may mention symbols: ``(repository, path, id of its File node, chunks)``."""


def mention_edges_of(files: Sequence[DocFile], graph: GraphStore | None, written: Sequence[IndexedFile] | NodeSource,
                     gone: Collection[str] = (), dropped: Collection[str] = ()) -> list[tuple[int, list[Edge]]]:
    """The ``MENTIONS`` edges of every doc / config file among ``files`` (all of one repository) that
    mentions something, as ``(index into files, edges)`` in order; one lookup for all of them
    (:func:`store_lookup` with ``graph``, ``written``, ``gone`` and ``dropped``; ``graph`` ``None``: the
    nodes of ``written`` only). A file's edges depend on its chunks and the lookup's answers to its own
    keys only, so any grouping of the files into calls gives each file the same edges."""
    # Each doc file's mentions are parsed once: for the keys of the one lookup, then for its edges.
    docs = [(k, found) for k, (_, _, _, chunks) in enumerate(files) if any(c.kind in ("doc", "config") for c in chunks)
            if (found := _found(chunks))]
    if not docs:
        return []
    keys = {key for _, found in docs for _, _, key, _ in found}
    table = store_lookup(graph, written, files[docs[0][0]][0], gone, dropped)(sorted(keys))
    return [(k, _edges(files[k][0], files[k][1], files[k][2], found, table)) for k, found in docs]


def add_mention_edges(files: Sequence[IndexedFile], graph: GraphStore,
                      written: Sequence[IndexedFile] | NodeSource | None = None, gone: Collection[str] = (),
                      dropped: Collection[str] = ()) -> int:
    """Add the ``MENTIONS`` edges of every doc / config file among ``files`` (about to be written,
    all of one repository) to its edges; returns how many were added. One store lookup for all of
    them. ``written``: every file this run writes (default ``files``; a run written in batches
    passes all of them, or a :class:`NodeSource` over them, so that a batch's mentions see the nodes
    of the others as one write of them all would); ``gone``: the repository's paths this run deletes
    (their nodes are not linked to); ``dropped``: ids of the store's nodes the run's link no longer
    emits (not linked to, :func:`store_lookup`)."""
    docs: list[DocFile] = [(out.file.repo, out.file.path, out.nodes[0].id if out.nodes else "", out.chunks)
                           for out in files]
    added = 0
    for k, edges in mention_edges_of(docs, graph, files if written is None else written, gone, dropped):
        files[k].edges.extend(edges)
        added += len(edges)
    return added
