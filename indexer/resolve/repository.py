"""Resolution of one repository, kept across incremental updates: the orchestration of the resolve
step (resolver core, then the framework linker).

:class:`RepositoryResolver` holds every file's :class:`~indexer.resolve.context.FileCtx`, builds the
:class:`~indexer.resolve.interpreter.Resolver` (with each language's module system from the registry,
:func:`indexer.languages.module_systems`), produces file outputs, then merges in what
:func:`indexer.frameworks.link.link_frameworks` links across files. Input: the
:class:`~indexer.model.FileExtraction` of every file. Output: for each file, its graph nodes, the
edges it owns and the call sites nothing bound (kept so a later file can bind them).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import hashlib
import logging
import operator
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from indexer.compact import forget_shared
from indexer.frameworks.arg_call_rule import CandidateGate
from indexer.frameworks.clients import code_gateways
from indexer.frameworks.link import LinkMemo, LinkOptions, LinkResult, link_frameworks
from indexer.heap import BIND_GC_THRESHOLD0, fewer_collections
from indexer.languages import module_systems
from indexer.mentions import mentionable
from indexer.model import FileExtraction
from indexer.parked import ParkedDataError, ParkedList, UnpackedLists, park_extraction
from indexer.resolve.def_heads import forget_shared_heads
from indexer.resolve.context import FileCtx
from indexer.resolve.hierarchy import base_tokens
from indexer.resolve.forked_binding import start_forked_binding
from indexer.resolve.interpreter import Resolver
from indexer.resolve.language import ModuleSystem
from indexer.resolve.released import ReleasedFiles
from indexer.resolve.structural import reach_state, reach_token
from indexer.resolve.tables import decorator_names
from indexer.resolve.tracking import Record, pack_deps, record_tokens, strip_cut
from indexer.resolve.values import Def, Deps, Token, module_name_token
from indexer.spill import SpilledOutputs, SpillFile, Summarise, packed_ref, unpacked_ref
from stores.gateway import GatewayRoute
from indexer.symbols import dotted_stems, module_path
from stores.contracts import Edge, IndexedFile, Node

__all__ = ["APPLY_LIMIT", "MEMO_BUDGET", "FileChange", "ParkedRecords", "RepositoryResolver", "ResolvedRepository", "resolve_repository"]

log = logging.getLogger(__name__)


@dataclass(slots=True)
class ResolvedRepository:
    """The resolver's output: one :class:`IndexedFile` per input file (chunks left empty) and
    counters of how call sites ended (``exact``, ``inferred``, ``name``, ``external``,
    ``unresolved``)."""

    files: Sequence[IndexedFile]
    """A list, or a :class:`indexer.spill.SpilledOutputs` (``resolve(..., spill=...)``)."""
    call_outcomes: dict[str, int]
    link_outcomes: dict[str, int] = field(default_factory=dict)
    dropped: frozenset[str] = frozenset()
    """Ids of the nodes a mention may link to that the link emitted before this resolve and no more
    (tables no source declares or uses now): set by the caller that compared
    :attr:`RepositoryResolver.link_names`; the store holds them until the write prunes them, and no
    doc written with these outputs links to them."""


def resolve_repository(
    repo: str, extractions: Sequence[tuple[FileExtraction, str, int]], link: LinkOptions | None = None
) -> ResolvedRepository:
    """Resolve one repository.

    ``extractions`` holds ``(extraction, checksum, size)`` per file (checksum: hex SHA-256 of the
    bytes; size in bytes). Returns one :class:`IndexedFile` per file, in input order, with nodes,
    owned edges and unresolved calls (no chunks), plus counters of call outcomes and of framework
    linking (:mod:`indexer.frameworks.link`; ``link`` gives its configuration properties and service
    map).
    """
    resolver = RepositoryResolver(repo, link)
    resolver.update(extractions)
    return resolver.resolve([ex.path for ex, _, _ in extractions])


FRAMEWORK_FACTS = ("routes", "wrappers", "routers", "mounts", "http_calls", "url_arg_calls", "topics",
                   "queue_bindings", "transports", "constants", "entries", "rpc_services", "rpc_uses", "global_prefixes",
                   "uri_versionings", "listen_ports", "url_rewrites", "dev_proxies", "gateway_routes", "named_loaders", "graphql_documents", "graphql_uses", "tables",
                   "table_uses", "components", "url_builders", "client_fixtures", "url_fixtures")
"""The :class:`~indexer.model.FileExtraction` lists the framework linker reads: a file with any is
one of the files every link reads (``_framework``), and a change of any (positions aside) links again."""

EDGE_FACTS = ("routes", "http_calls", "topics", "wrappers", "entries", "rpc_uses", "url_arg_calls", "named_loaders",
              "graphql_documents", "graphql_uses", "tables", "table_uses", "components")
"""The :data:`FRAMEWORK_FACTS` that give their file edges of its own (the others, constants, routers,
mounts and the like, are only read)."""

_POSITION_FIELDS = frozenset({"line", "col"})
_fact_getters: dict[type, operator.attrgetter] = {}


def _has_framework_facts(ex: FileExtraction) -> bool:
    return any(getattr(ex, name) for name in FRAMEWORK_FACTS)


def _framework_facts(fc: FileCtx | None) -> str:
    """The file's framework facts without their positions (``""``: none, or no file): every field of
    every fact but ``line`` / ``col``, so that a field a fact gains is part of it without another
    list to keep (a moved route changes only its own file's edges; a renamed table, a cascade that
    goes, a binding's owner change what other files link)."""
    if fc is None:
        return ""
    ex = fc.ex
    if not _has_framework_facts(ex):
        return ""
    out = []
    for name in FRAMEWORK_FACTS:
        facts = getattr(ex, name)
        out.append([_fact_values(f) for f in facts])
    return repr(out)


def _fact_values(fact: object) -> tuple[object, ...]:
    """``fact``'s field values but its position, in field order (one getter per class, made once)."""
    getter = _fact_getters.get(type(fact))
    if getter is None:
        names = [f.name for f in dataclasses.fields(fact) if f.name not in _POSITION_FIELDS]  # type: ignore[arg-type]
        getter = _fact_getters[type(fact)] = operator.attrgetter(*names)
    values = getter(fact)
    return values if isinstance(values, tuple) else (values,)


def _owns_framework_edges(ex: FileExtraction) -> bool:
    """Whether the linker can give this file edges (EXPOSES, CALLS_HTTP, PRODUCES, CONSUMES, WRAPS, ENTRY).

    A file registering a router- or app-wide wrapper owns WRAPS edges to endpoints other files
    expose: whenever links may have changed (a route file added, removed, or its routes edited), it is
    produced again when its share of the links differs (:meth:`RepositoryResolver.resolve`); a
    resolver that does not know the shares (restored from older records) produces every such file."""
    return any(getattr(ex, name) for name in EDGE_FACTS)


@dataclass(slots=True)
class FileChange:
    """One file as :meth:`RepositoryResolver.update` changed it: ``old`` / ``new`` contexts (``None``
    when the file was added / removed) and whether what other files can see of it
    (:attr:`FileCtx.interface`) changed. A file whose module key or id path moved because another
    file came or went is a change too (its node ids move)."""

    path: str
    old: FileCtx | None
    new: FileCtx | None
    interface_changed: bool


class RepositoryResolver:
    """The resolution state of one repository, kept across incremental updates.

    :meth:`update` adds, replaces and removes files; :meth:`resolve` produces the outputs of the files
    asked for (plus every file whose framework facts can own edges) against the current state of all
    files. When an update changes no file's :attr:`FileCtx.interface` (an edit inside bodies, the
    usual save), the files are patched in place and the cross-file lookups memoised so far stay
    valid; otherwise the lookup tables are rebuilt (about 80 ms for Django's 2,864 files) on the next
    resolve.

    Every output records what its bindings read (files, module keys, names matched by name: see
    :mod:`indexer.resolve.tracking`); :meth:`dependents` answers which files read what an update
    changed. Callers add what only the store knows (edges into vanished nodes, unresolved calls)
    and the callers a new override can reach (:meth:`dispatch_targets`).
    """

    def __init__(self, repo: str, link: LinkOptions | None = None, park: SpillFile | None = None) -> None:
        self.repo = repo
        self.link = link
        self.park = park
        """Where :meth:`update` parks the lists of each extraction that only its own binding reads
        (:func:`indexer.parked.park_extraction`: call sites, type uses, injections, table accesses);
        ``None``: they stay in memory."""
        self._unpacked = UnpackedLists()  # the parked definitions of the files read last
        self.memo_budget: int | None = None
        """At most about this many memo entries that can be computed again are kept by the
        resolvers built from now on (:class:`indexer.resolve.tracking.DependencyTracker`; ``None``:
        every entry, what a watcher wants: its later updates reuse them). The outputs are the same
        either way; a one-shot run (``ripple index``) sets :data:`MEMO_BUDGET`."""
        self.files: dict[str, FileCtx] = {}
        self._resolver: Resolver | None = None
        self._systems: Mapping[str, ModuleSystem] = module_systems()
        # Module keys that depend on the file set (Python: which folders hold an __init__.py), per
        # namespace, and the module systems that have such keys.
        self._layout: dict[str, Mapping[str, str]] = {}
        self._layout_systems = list({ms.namespace: ms for ms in self._systems.values() if ms.layout_suffixes}.values())
        self._stems: dict[str, str | tuple[str, ...]] = {}
        """The paths of each path without its suffix (:func:`~indexer.symbols.module_path`): the path
        itself for the one file most have (a set each was 216 bytes per file), a tuple when several
        share it (``util.ts`` beside ``util.js``); read with :func:`_paths`. Read by :meth:`update`
        only: emptied after an update with ``track=False`` (a one-shot run's one update: a stem string
        and a dict entry per file for the rest of the run, about 120 bytes a file, session 62) and made
        again from :attr:`files` when the next update starts (:attr:`_stems_dropped`)."""
        self._stems_dropped = False
        self._extending: dict[str, set[str]] = defaultdict(set)
        """Per stem, the dotted stems held that extend it in its folder (``pkg/x`` -> ``{"pkg/x.Y"}``,
        :func:`~indexer.symbols.dotted_stems`): the files whose ids keep their suffix while it is held."""
        self._framework: set[str] = set()
        self._gate = CandidateGate()
        """The repository's possible wrapper names, which decide the candidate calls kept as framework facts."""
        self.code_gateways: list[GatewayRoute] | None = None
        """The gateway routes the framework files declare in code as the last link read them
        (:func:`~indexer.frameworks.clients.code_gateways`); ``None`` before any link in this process."""
        self._prefixes: Counter[tuple[str, str]] | None = Counter()
        """Per ``(namespace, dotted prefix)``, how many files' package keys make it exist (a tracked
        :meth:`update` tells from it which packages came or went); ``None`` after an update with
        ``track=False``, counted again from :attr:`files` when a tracked update next needs it
        (:meth:`_prefix_counts`): a one-shot run never does, and held it was a key tuple and a
        dotted string per file for the whole run (the 400 MB generated monorepo: about 8 MiB)."""
        self._deps: dict[str, Record] = {}
        self._spilled: dict[str, int] = {}
        # A one-shot run's records (packed) wait in the park spill file rather than in memory until
        # they are saved (recorded()): about 1.2 KiB per file otherwise (the 400 MB synthetic
        # monorepo: about 50 MiB). A path is in _deps or in _spilled, never both. Where each is, as
        # one integer (indexer.spill.packed_ref: a SpillRef tuple was about 90 bytes more a file).
        self._readers: dict[tuple[str, str, str], set[str]] = defaultdict(set)
        # _readers (token -> files whose output read it) is built from _deps when dependents() first
        # asks, then kept up to date: a one-shot run never asks, and its sets would cost more than
        # the records themselves (Django: about 300,000 sets). Until then each file's record is kept
        # packed (pack_deps: one bytes object, not its token tuples).
        self._readers_stale = True
        self._changed_tokens: set[tuple[str, str, str]] = set()
        self._changed_names: dict[str, set[str]] = {}
        self._link_dirty = True  # links may differ from the last resolve's
        self._link_deps: set[tuple[str, str, str]] = set()  # what the last full link read
        self._link_shares: dict[str, bytes] | None = {}
        """Per framework file, the digest of what the last link gave it (:func:`_link_share`; absent:
        nothing): a link that must run again produces only the files whose share changed."""
        self._released = False  # release() was called: nothing can be resolved any more
        self._link_memo: LinkMemo | None = None
        """What the links of the current resolver worked out per file (made with the resolver:
        its entries are checked against that resolver's epochs)."""
        self._link_names: dict[str, frozenset[tuple[str, str]]] | None = None
        """Per file, ``(short name, id)`` of the nodes a mention may link to (tables, columns) that the
        links gave it (:func:`indexer.mentions.mentionable`; absent: none); ``None``: not known (no
        whole link ran yet, or a resolver restored from records that lack them: the index may hold
        another run's). Read as :attr:`link_names`."""
        self.keep_link_memo = True
        """Whether links record their per-file work for a later link of this resolver to replay
        (:attr:`link_memo`). A one-shot run resolves once and drops the resolver: it sets this false,
        so that its link holds no second copy of every table access's reads and emits while the
        outputs are built (the link's result is the same either way)."""

    @property
    def link_memo(self) -> LinkMemo | None:
        """What the links of the current resolver worked out per file
        (:class:`indexer.frameworks.link_memo.LinkMemo`; ``None`` before the first resolve): its
        ``hits`` and ``misses`` say how much of the last links was replayed."""
        return self._link_memo

    # -- updating ----------------------------------------------------------------------------------

    def set_link(self, link: LinkOptions | None) -> None:
        """New framework-linking options (the repository's configuration changed): the next resolve
        links again."""
        if link != self.link:
            if (link.module_configs if link else {}) != (self.link.module_configs if self.link else {}):
                self._resolver = None  # imports may name other modules: every lookup is stale
            self.link = link
            self._link_memo = None if self._resolver is None else LinkMemo(self._resolver.track)
            self._link_dirty = True

    def relink(self) -> None:
        """Links may differ from the last resolve's although no link option the records know changed
        (a component template file, read by the linker only): the next resolve links again."""
        self._link_dirty = True

    def update(
        self, files: Sequence[tuple[FileExtraction, str, int]], removed: Iterable[str] = (), *, track: bool = True
    ) -> list[FileChange]:
        """Add or replace ``files`` (``(extraction, checksum, size)``), drop the ``removed`` paths.

        Sets each extraction's ``id_path`` (the full path when another file shares its path up to
        the suffix). Returns one :class:`FileChange` per file given or removed, plus one per other
        file whose module key or id path changed as a consequence. ``track=False`` (loading a state
        whose records :meth:`restore` then supplies, or a one-shot run that never asks) skips what
        only :meth:`dependents` needs: the names and tokens each change touched (and the per-name
        digests of the files added). With :attr:`park` set, the extractions given are parked
        there first (in place). Raises ``RuntimeError`` after :meth:`release` (the released files'
        extractions are gone: a new resolver is built instead)."""
        if self._released:
            raise RuntimeError("this resolver released its files' extractions: it cannot update")
        if self.park is not None:
            for ex, _, _ in files:
                park_extraction(ex, self.park)
        if not track:
            self._prefixes = None
        elif self._prefixes is None:  # the counts of the files held before this update
            self._prefixes = self._prefix_counts()
        if self._stems_dropped:  # the stems of the files held, in the order they came
            for p in self.files:
                stem = module_path(p)
                held = _paths(self._stems, stem)
                self._stems[stem] = (*held, p) if held else p
            self._stems_dropped = False
        given = {ex.path: (ex, checksum, size) for ex, checksum, size in files}
        gone = [p for p in dict.fromkeys(removed) if p in self.files and p not in given]
        self._gate_candidates(given, gone)
        added = [p for p in given if p not in self.files]
        old = {p: self.files.get(p) for p in [*given, *gone]}
        redo: dict[str, tuple[FileExtraction, str, int]] = dict(given)
        # Same path up to the suffix: ids keep the suffix (util.ts beside util.js).
        stems = set()
        for p in gone:
            stem = module_path(p)
            rest = tuple(x for x in _paths(self._stems, stem) if x != p)
            if rest:
                self._stems[stem] = rest[0] if len(rest) == 1 else rest
            else:
                self._stems.pop(stem, None)
            stems.add(stem)
        for p in added:
            stem = module_path(p)
            held = _paths(self._stems, stem)
            if p not in held:
                self._stems[stem] = (*held, p) if held else p
            stems.add(stem)
        for stem in list(stems):
            for shorter in dotted_stems(stem):  # pkg/x.Y extends pkg/x (see symbols.dotted_stems)
                if stem in self._stems:
                    self._extending[shorter].add(stem)
                else:
                    longer = self._extending.get(shorter)
                    if longer is not None:
                        longer.discard(stem)
                        if not longer:
                            del self._extending[shorter]
        for stem in stems:
            for p in _paths(self._stems, stem):
                if p not in redo:  # a copy: the old context keeps its own id_path
                    fc = self.files[p]
                    redo[p] = (copy.copy(fc.ex), fc.checksum, fc.size)
        # x.Y.py beside x.py: x.Y.py's ids keep the suffix while x.py defines Y (symbols.dotted_stems).
        for stem in {module_path(p) for p in [*given, *gone]}:
            for longer in self._extending.get(stem, ()):
                for p in _paths(self._stems, longer):
                    if p not in redo and (self.files[p].ex.id_path is not None) != self._extends_a_definition(longer, given):
                        fc = self.files[p]
                        redo[p] = (copy.copy(fc.ex), fc.checksum, fc.size)
        # Module keys that depend on the file set (Python: which folders hold an __init__.py).
        for ms in self._layout_systems:
            current = self._layout.get(ms.namespace, {})
            if any(p.endswith(ms.layout_suffixes) for p in [*added, *gone]) or not current:
                paths = [p for p in [*self.files, *added]
                         if p not in gone and _language(p, given, self.files) in ms.languages]
                keys = ms.layout_keys(paths)
                for p, key in keys.items():
                    if p not in redo and current.get(p) != key:
                        fc = self.files[p]
                        redo[p] = (copy.copy(fc.ex), fc.checksum, fc.size)
                self._layout[ms.namespace] = keys
        new_ctxs: dict[str, FileCtx] = {}
        for p, (ex, checksum, size) in redo.items():
            stem = module_path(p)
            shared = not isinstance(self._stems.get(stem, p), str)
            ex.id_path = p if shared or self._extends_a_definition(stem, given) else None
            ms = self._systems[ex.language]
            key = ms.module_key(ex, self._layout.get(ms.namespace, {}))
            new_ctxs[p] = FileCtx(self.repo, ex, key, checksum, size, ms, self._unpacked)
        if self.park is not None:
            # the definitions and imports are on disk now: the tables of shared values hold most of
            # what they share alone (indexer.compact.forget_shared)
            forget_shared()
            forget_shared_heads()  # and the heads' table (indexer.resolve.def_heads): the columns hold them
        changes = []
        for p, fc in new_ctxs.items():
            before = self.files.get(p)
            changes.append(FileChange(p, before, fc, before is None or before.interface != fc.interface))
        changes += [FileChange(p, old[p], None, True) for p in gone]
        # Framework facts are not part of the interface: links change when they change (positions
        # aside, which only move the owning file's own edges), or when what the linker read does
        # (see _index: the files it looked up by module key count as read whole); a file that comes
        # or goes may be a module a mount or handler names.
        if not track or any(_framework_facts(c.old) != _framework_facts(c.new) or (c.new is None or c.old is None)
                            for c in changes):
            self._link_dirty = True
        reuse = self._resolver is not None and sum(c.interface_changed for c in changes) <= APPLY_LIMIT
        for c in changes:
            if reuse and not c.interface_changed:
                # Same interface: patch in place; what other files memoised through it stays true.
                assert c.old is not None and c.new is not None and self._resolver is not None
                c.old.adopt(c.new)
                self._resolver.forget(c.old)
                c.new = c.old
            elif c.new is None:
                del self.files[c.path]
            else:
                self.files[c.path] = c.new
        self._index(changes, track)
        if self._resolver is not None and reuse:
            swapped = [c for c in changes if c.interface_changed]
            if swapped:
                dead: list[Def] = []
                for c in swapped:
                    if c.old is None:
                        continue
                    if c.new is None or c.old.structure != c.new.structure:
                        dead += c.old.defs
                    else:
                        unchanged = {n for n, h in c.new.names.items() if c.old.names.get(n) == h}
                        dead += c.new.reuse_defs(c.old, unchanged)
                self._resolver.apply([c.old for c in swapped if c.old is not None],
                                     [c.new for c in swapped if c.new is not None], self._changed_tokens, dead)
        else:
            self._resolver = self._link_memo = None
        if not track and self._resolver is not None:  # no tokens say what changed: nothing kept holds
            self._link_memo = LinkMemo(self._resolver.track)
        if not track:
            self._stems, self._stems_dropped = {}, True
        return changes

    def _gate_candidates(self, given: Mapping[str, tuple[FileExtraction, str, int]], gone: Sequence[str]) -> None:
        """Candidate wrapper calls kept only where a function of the repository may be a wrapper
        (:class:`~indexer.frameworks.arg_call_rule.CandidateGate`): the files ``given`` are gated; when the
        wrapper names changed, every other held file is gated again, and one whose kept calls changed is one of
        the framework files (one that has none left stays one until it is updated itself: the next link finds its
        share gone and produces it again) and makes the next resolve link again."""
        if not self._gate.update((ex for ex, _, _ in given.values()), gone):
            return
        for p, fc in self.files.items():
            if p not in given and self._gate.gate(fc.ex):
                self._link_dirty = True
                self._framework.add(p)

    def _extends_a_definition(self, stem: str, given: Mapping[str, tuple[FileExtraction, str, int]]) -> bool:
        """Whether a file of a stem that ``stem`` extends defines what the rest of ``stem`` names
        (``x.Y`` and ``x.py`` defining ``Y``): then the ids of ``stem``'s files would be that
        definition's members' and keep their suffix. ``given``: the files of the update in progress
        (read for their new definitions)."""
        for shorter in dotted_stems(stem):
            rest = stem[len(shorter) + 1:]
            for p in _paths(self._stems, shorter):
                if p in given:
                    defs = given[p][0].definitions
                    if any(d.qualname == rest for d in (defs.unpack() if isinstance(defs, ParkedList) else defs)):
                        return True
                elif p in self.files and rest in self.files[p].by_qualname:
                    return True
        return False

    def _index(self, changes: Sequence[FileChange], track: bool = True) -> None:
        """Framework file set, module-prefix counts and (``track``) the tokens the changes touched."""
        tokens: set[tuple[str, str, str]] = set()
        self._changed_names = {}
        before: dict[tuple[str, str], int] = {}
        prefixes = self._prefixes if track else None
        for c in changes:
            self._framework.discard(c.path)
            if c.new is not None and _has_framework_facts(c.new.ex):
                self._framework.add(c.path)
            if not c.interface_changed or not track:
                continue
            old_names = c.old.names if c.old is not None else {}
            new_names = c.new.names if c.new is not None else {}
            if c.old is None or c.new is None or c.old.structure != c.new.structure:
                changed = set(old_names) | set(new_names)
            else:
                changed = {n for n in set(old_names) | set(new_names) if old_names.get(n) != new_names.get(n)}
            tokens.update(("name", c.path, n) for n in changed)
            tokens.add(("file", c.path, ""))
            self._changed_names[c.path] = changed
            callables = {rd.name for fc in (c.old, c.new) if fc is not None for rd in fc.defs
                         if rd.is_callable or rd.is_type}  # classes too: Lookup.types_named reads them by name
            constants = {k.qualname for fc in (c.old, c.new) if fc is not None for k in fc.ex.constants}
            # the module keys that came or went: the file's own when it moved, and those that come
            # and go with its contents (a Kotlin file's facade class ``<Stem>Kt`` with its top-level
            # functions)
            tokens.update({*(_module_tokens(c.old) if c.old is not None else ())}
                          ^ {*(_module_tokens(c.new) if c.new is not None else ())})
            for fc, step in ((c.old, -1), (c.new, 1)):
                if fc is None:
                    continue
                ns = fc.rules.namespace
                for key in fc.rules.module_keys(fc):  # which files of its modules define each name
                    tokens.update(module_name_token(ns, key, n) for n in changed)
                tokens.update(("n", ns, n) for n in changed & callables)
                tokens.update(("n", ns, "=" + n) for n in changed & constants)
                tokens.update(("n", ns, n) for n in changed if n.startswith("=."))  # a class's string attribute
                for rd in fc.types:  # a subclass came, went or changed: dispatch below its bases
                    if rd.name in changed:
                        tokens.update(base_tokens(rd))
                tokens.update(("n", ns, n) for n in changed if n.startswith(("~", "@")))  # reverse bindings, decorated
                tokens.update(("n", ns, "@" + name) for rd in fc.defs if rd.is_callable and rd.name in changed
                              for name in decorator_names(rd))
                assert prefixes is not None  # (counted again by update() before a tracked one)
                for prefix in _dotted_prefixes(fc):
                    before.setdefault(prefix, prefixes[prefix])
                    prefixes[prefix] += step
        for prefix, n in before.items():
            assert prefixes is not None
            if (n > 0) != (prefixes[prefix] > 0):  # a package came or went
                tokens.add(("m", *prefix))
            if prefixes[prefix] <= 0:
                del prefixes[prefix]
        if track:
            tokens.update(self._reach_tokens(changes))
        self._changed_tokens = tokens
        if not tokens.isdisjoint(self._link_deps):
            self._link_dirty = True

    def _prefix_counts(self) -> Counter[tuple[str, str]]:
        """:attr:`_prefixes` counted from the files held: every file's :func:`_dotted_prefixes` (a
        tracked update keeps them so, the version of each file it holds)."""
        return Counter(prefix for fc in self.files.values() for prefix in _dotted_prefixes(fc))

    def _reach_tokens(self, changes: Sequence[FileChange]) -> set[Token]:
        """The :func:`~indexer.resolve.structural.reach_token` of each namespace whose scopes or
        reach (:func:`~indexer.resolve.structural.reach_state`: Go modules and the ``require`` lines
        of their ``go.mod``) differ before and after ``changes`` (``self.files`` holds the new
        versions): the calls dispatched through its interfaces and its implicit implementations bind
        again. Only when a changed file is of a module system that has ``structural_reach``."""
        moved = [c for c in changes if c.interface_changed and any(
            fc is not None and getattr(fc.rules, "structural_reach", None) is not None for fc in (c.old, c.new))]
        if not moved:
            return set()
        paths = {c.path for c in changes}
        kept = [fc for p, fc in self.files.items() if p not in paths]
        before = reach_state(kept + [c.old for c in changes if c.old is not None])
        after = reach_state(kept + [c.new for c in changes if c.new is not None])
        return {reach_token(ns) for ns in set(before) | set(after) if before.get(ns) != after.get(ns)}

    def _current(self) -> Resolver:
        if self._released:
            raise RuntimeError("this resolver released its files' extractions: it cannot resolve")
        if self._resolver is None:
            # Sorted by path, as a full run sees them: lookups that meet several files of one module
            # key take the first, so the order must not depend on the history of updates.
            self._resolver = Resolver(self.repo, [self.files[p] for p in sorted(self.files)], self._systems,
                                      self.link.module_configs if self.link else None, self.memo_budget)
            self._link_memo = LinkMemo(self._resolver.track)
        return self._resolver

    # -- resolving ---------------------------------------------------------------------------------

    def resolve(self, paths: Iterable[str], spill: SpillFile | None = None,
                summarise: Summarise | None = None,
                processes: int = 1, memory_budget_mib: int | None = None) -> ResolvedRepository:
        """Outputs of ``paths`` (unknown paths ignored; input order), then of every other file whose
        framework facts can own edges (routes, HTTP calls, topics, wrappers), against the current state of all
        files. ``spill`` (a :class:`indexer.spill.SpillFile`; ``summarise``: its outputs'
        :attr:`indexer.spill.SpilledOutputs.summarise`): the outputs are a
        :class:`indexer.spill.SpilledOutputs` in which each file's output is pickled to that file as
        soon as it is made (what the framework linker adds to an output is kept beside it,
        :meth:`indexer.spill.SpilledOutputs.extend`), so that a whole-tree run does not hold every file's nodes and edges at once. The linker reads every file with framework facts (constants, routers and mounts too):
        a changed constant or mount re-links the files that use it.

        Links cannot differ from the last resolve's when no interface and no framework fact (moved
        positions aside) changed since: then the other framework files are not produced, and the
        linker runs only when one of ``paths`` owns framework edges (whose positions may have moved),
        linking only those files' table accesses. When links may differ, the linker runs over every
        framework file and the files whose share of its nodes and edges changed (a 16-byte digest
        each, kept from the last link and in the bind state) are produced too.

        ``processes`` > 1: when :func:`~indexer.resolve.forked_binding.should_fork` allows it (a
        whole-tree run with ``spill``, many files, memory to spare under ``memory_budget_mib``), a
        forked copy of this process binds files from the back of the list while this one binds them
        from the front, until they meet (:mod:`indexer.resolve.forked_binding`); the
        outputs, records and counts are the same as one process gives, in the same order. A copy
        that fails leaves its files to this process (a warning says why). With a copy and room in the
        budget beside it (:meth:`~indexer.resolve.forked_binding.ForkedBinding.room_beside`), this
        process runs the framework linker first, while the copy binds (it reads the files' state, not
        their outputs), with its memo aside (:meth:`~indexer.resolve.tracking.DependencyTracker.memo_aside`:
        what the linker's whole-files mode reads stays out of the files' records); its reads then
        include a few that in one process a memo entry of the binding hides (Django 5.2.8: 4 of
        39,300), so a later update finds the links stale a little more often, never less.

        With ``spill`` (a whole-tree run), the lookup tables are built, the files bound and linked
        with the cyclic GC's first threshold at :data:`indexer.heap.BIND_GC_THRESHOLD0` (the copy
        inherits it): that work makes many lasting containers and hardly any cyclic garbage. Raises
        ``RuntimeError`` after :meth:`release`."""
        if self._released:
            raise RuntimeError("this resolver released its files' extractions: it cannot resolve")
        with fewer_collections(BIND_GC_THRESHOLD0) if spill is not None else contextlib.nullcontext():
            return self._resolve(paths, spill, summarise, processes, memory_budget_mib)

    def _resolve(self, paths: Iterable[str], spill: SpillFile | None, summarise: Summarise | None,
                 processes: int, memory_budget_mib: int | None) -> ResolvedRepository:
        """:meth:`resolve`'s work."""
        wanted = [p for p in dict.fromkeys(paths) if p in self.files]
        context: list[FileCtx] | None = None
        if self._link_dirty or any(_owns_framework_edges(self.files[p].ex) for p in wanted):
            context = [self.files[p] for p in sorted(self._framework.difference(wanted))]
        ctxs = [self.files[p] for p in wanted]
        resolver = self._current()
        outcomes: dict[str, int] = defaultdict(int)
        # The one place where file outputs are produced, for full and incremental runs alike; framework
        # linking (Endpoint / Topic nodes and their edges) is merged into them right here.
        files: list[IndexedFile] | SpilledOutputs = SpilledOutputs(spill, summarise) if spill is not None else []
        forked = start_forked_binding(resolver, ctxs, self.park, processes, memory_budget_mib, summarise) \
            if isinstance(files, SpilledOutputs) and self._readers_stale else None

        def bind(fc: FileCtx) -> None:
            out, deps = resolver.tracked(lambda: resolver.file_output(fc, outcomes))
            files.append(out)
            self._record(fc.path, deps)

        # Nothing produced so far: the other files' shares are those their stored outputs hold, and
        # only the produced files' own work is done (their table accesses).
        produce = None if self._link_dirty else {fc.path for fc in ctxs}
        ahead: tuple[LinkResult, Deps] | None = None
        try:
            if forked is not None and context is not None and forked.room_beside():
                # The linker reads the files' state, not their outputs: with a copy binding from the
                # back it runs here first, beside the copy, instead of alone on one core after both,
                # where the memory budget leaves it room (the pages it makes or writes while the copy
                # lives are held beside the copy's). Its memo entries are not left to the binding: what
                # they read was recorded in the linker's whole-files mode (the files' records would differ).
                with resolver.track.memo_aside():
                    ahead = self._link_files(resolver, ctxs, context, produce)
            for fc in ctxs if forked is None else forked.own():
                bind(fc)
            if forked is not None:
                assert isinstance(files, SpilledOutputs)
                for fc, out, blob, record, summary in forked.outputs(outcomes, time.monotonic() - forked.started):
                    if blob is None:  # the copy failed: bound here
                        bind(fc)
                        continue
                    if summary is not None:  # summarised in the copy: not unpickled here
                        files.append_summarised(fc.path, blob, *summary)
                    else:
                        files.append(out, blob=blob)  # type: ignore[arg-type]
                    self._record_packed(fc.path, record)  # type: ignore[arg-type]
        finally:
            if forked is not None:
                forked.close()
        links: dict[str, int] = {}
        if context is not None:
            linked, deps = ahead if ahead is not None else self._link_files(resolver, ctxs, context, produce)
            # A file whose output is not produced above but whose share of the links changed (an
            # endpoint's route moved, a wrapper now runs for it, a table it reads was renamed) is
            # bound and produced again; the others' stored outputs hold their links already.
            for fc in self._relinked(linked, context, produce):
                bind(fc)
                ctxs.append(fc)
            _merge_links(linked, ctxs, files)
            self._remember_names(linked, produce)
            links = dict(sorted(linked.outcomes.items()))
            self.code_gateways = code_gateways(fc.ex for fc in [*ctxs, *context] if fc.ex.gateway_routes)
            deps = strip_cut(deps)
            if self._link_dirty:
                self._link_deps = set(deps)
            else:
                self._link_deps.update(deps)
        self._link_dirty = False
        return ResolvedRepository(files, dict(outcomes), links)

    def _link_files(self, resolver: Resolver, ctxs: Sequence[FileCtx], context: Sequence[FileCtx],
                    produce: set[str] | None) -> tuple[LinkResult, Deps]:
        """The framework linker over ``ctxs`` and ``context`` (:func:`~indexer.frameworks.link.link_frameworks`,
        ``produce`` as it takes it) in the resolver's whole-files mode, and what it read."""
        resolver.whole_files = True
        try:  # in path order, as a full run sees them: mount order decides which prefixes come first
            return resolver.tracked(lambda: link_frameworks(
                resolver, sorted([*ctxs, *context], key=lambda fc: fc.path), self.link, produce,
                self._link_memo if self.keep_link_memo else None))
        finally:
            resolver.whole_files = False

    def _relinked(self, linked: LinkResult, context: Sequence[FileCtx], produce: set[str] | None) -> list[FileCtx]:
        """The files of ``context`` (framework files whose output this resolve does not produce) whose
        share of ``linked`` differs from what their stored output holds, in path order; then
        remembers every framework file's share (:func:`_link_share`). Without such a memory (a
        resolver restored from records of another format) and with links possibly changed, every
        context file that can own framework edges counts as changed, as before the shares were kept.
        ``produce`` (the link was asked for those paths' shares only): none changed, and only
        theirs are remembered anew."""
        if produce is not None:
            if self._link_shares is not None:
                for p in produce:
                    d = _link_share(linked.nodes.get(p), linked.edges.get(p))
                    if d is None:
                        self._link_shares.pop(p, None)
                    else:
                        self._link_shares[p] = d
            return []
        shares = {p: d for p in linked.nodes.keys() | linked.edges.keys()
                  if (d := _link_share(linked.nodes.get(p), linked.edges.get(p))) is not None}
        known = self._link_shares  # (the whole link runs only when links may have changed)
        if known is None:
            changed = [fc for fc in context if _owns_framework_edges(fc.ex)]
        else:
            changed = [fc for fc in context if shares.get(fc.path) != known.get(fc.path)]
        self._link_shares = shares
        return changed

    @property
    def link_names(self) -> frozenset[tuple[str, str]] | None:
        """``(short name, id)`` of every node a mention may link to that the links emit (tables and
        columns: no file's definitions, so :func:`indexer.mention_refresh.changed_names` does not
        see them), as of the last resolve; ``None`` when not known (restored from records without
        them). An update compares it before and after it resolves: a table that came or went changes
        the ``MENTIONS`` of the docs naming it (:meth:`indexer.incremental.RepositoryIndex.update`)."""
        if self._link_names is None:
            return None
        return frozenset().union(*self._link_names.values())

    def _remember_names(self, linked: LinkResult, produce: set[str] | None) -> None:
        """Keep :attr:`link_names` per file: every file's after a whole link, the produced files' after
        a link asked for ``produce`` only (a SQL script's edited table is its own share)."""
        if produce is None:
            self._link_names = {p: names for p, nodes in linked.nodes.items() if (names := mentionable(nodes))}
        elif self._link_names is not None:
            for p in produce:
                names = mentionable(linked.nodes.get(p, ()))
                if names:
                    self._link_names[p] = names
                else:
                    self._link_names.pop(p, None)

    def release(self, paths: Iterable[str]) -> None:
        """Replace the contexts of ``paths`` by their :meth:`FileCtx.released` stubs (held as columns,
        :class:`~indexer.resolve.released.ReleasedFiles`; a stub made on each access) and drop the
        lookup tables and the parked lists read back (:class:`~indexer.parked.UnpackedLists`): what a
        one-shot run (``ripple index``) does once every file is bound, so that the write holds each
        file's checksum and size, not its extraction. Only the first call
        releases. What :meth:`recorded` returns stays; :meth:`update` and :meth:`resolve` then raise
        ``RuntimeError``."""
        if not self._released:
            for fc in self.files.values():  # out of the process-wide tables of local bindings and imports (they hold the park)
                fc.release_tables()
            # Columns of what the write reads, referring to objects the contexts hold already: a
            # smaller copy of each context, made while the old ones live, was the resolve's peak.
            self.files = ReleasedFiles(self.files, paths)  # type: ignore[assignment]
        self._unpacked.clear()  # up to UNPACKED_LISTS files' definitions read back (mono10: 1.9 MiB, 26k objects)
        self._resolver = self._link_memo = None  # (the memo holds contexts)
        self._released = True

    def drop_tables(self) -> None:
        """Forget the cross-file lookup tables and the memo (Django: about 80 MiB), which the next
        :meth:`resolve` (or :meth:`dispatch_targets`) builds again: a run that resolves nothing more
        (``ripple index``) lets them go before it writes."""
        self._resolver = self._link_memo = None

    def recorded(self) -> tuple[ParkedRecords, set[Token], dict[str, bytes] | None,
                                dict[str, frozenset[tuple[str, str]]] | None]:
        """What every current file's last output read (``{path: record}``, each record its tokens
        or those packed, :func:`indexer.resolve.tracking.record_tokens` reads either; a
        :class:`ParkedRecords`: a record :meth:`_record` parked is read back when asked for), what the
        last framework link read, the digest of each file's share of that link (``None``: not
        known) and the names a mention may link to of that share (:attr:`link_names` per file,
        ``None``: not known): what :meth:`restore` takes in another process."""
        out = ParkedRecords({p: d for p, d in self._deps.items() if p in self.files},
                            {p: ref for p, ref in self._spilled.items() if p in self.files}, self._spilled_record)
        shares = None if self._link_shares is None else {p: d for p, d in self._link_shares.items() if p in self.files}
        names = None if self._link_names is None else {p: n for p, n in self._link_names.items() if p in self.files}
        return out, set(self._link_deps), shares, names

    def _spilled_record(self, packed: int) -> bytes:
        """A record :meth:`_record` wrote to the park spill file (where: ``packed``, a
        :func:`indexer.spill.packed_ref`), read back (raises :class:`indexer.parked.ParkedDataError`
        when it cannot be)."""
        assert self.park is not None
        ref = unpacked_ref(packed)
        try:
            return self.park.get(ref)
        except (OSError, ValueError) as exc:
            raise ParkedDataError(f"parked dependency record at {ref} unreadable: {exc}") from exc

    def restore(self, deps: Mapping[str, Record], link_deps: Iterable[Token],
                link_shares: Mapping[str, bytes] | None = None,
                link_names: Mapping[str, frozenset[tuple[str, str]]] | None = None) -> None:
        """Take over the records :meth:`recorded` gave in a process whose outputs of exactly the
        current files (same bytes, same link options) the index holds: :meth:`dependents` then
        answers as it would there, and links count as current (``link_shares`` ``None``: which
        file holds which links is not known, so a link that changes produces every file that can
        own framework edges; ``link_names`` ``None``: :attr:`link_names` is not known until a whole
        link runs)."""
        self._deps = {p: tokens for p, tokens in deps.items() if p in self.files}
        self._spilled = {}
        self._readers = defaultdict(set)
        self._readers_stale = True  # built when first asked (most one-shot runs never ask)
        self._link_deps = set(link_deps)
        self._link_shares = None if link_shares is None else dict(link_shares)
        self._link_names = None if link_names is None else dict(link_names)
        self._link_dirty = False

    def _record(self, path: str, deps: Deps) -> None:
        deps = strip_cut(deps)
        if self._readers_stale:
            self._record_packed(path, pack_deps(deps))
            return
        for token in self._deps.get(path, ()):  # tokens: dependents() unpacked every record
            readers = self._readers.get(token)
            if readers is not None:
                readers.discard(path)
        self._deps[path] = deps
        for token in deps:
            self._readers[token].add(path)

    def _record_packed(self, path: str, packed: bytes) -> None:
        """Keep ``packed`` (:func:`~indexer.resolve.tracking.pack_deps` of what ``path``'s output
        read) while no reader index is built: in the park spill file when there is one."""
        assert self._readers_stale
        if self.park is not None:
            self._spilled[path] = packed_ref(self.park.put(packed))
            self._deps.pop(path, None)
        else:
            self._deps[path] = packed
            self._spilled.pop(path, None)

    # -- what else an update touches ---------------------------------------------------------------

    def dependents(self, changes: Sequence[FileChange]) -> set[str]:
        """Files whose last output read something the interface changes of the last :meth:`update`
        touched (``changes`` is what it returned): a changed file, a module key that it holds or
        that came or went, a name of a definition that came or went (name-matched calls)."""
        if not any(c.interface_changed for c in changes):
            return set()
        if self._readers_stale:
            readers, interned = self._readers, {}
            damaged = False
            for path, ref in self._spilled.items():
                self._deps[path] = self._spilled_record(ref)
            self._spilled = {}
            for path, record in self._deps.items():
                try:  # kept as tokens from now on (updates change them), equal tokens one object
                    tokens = tuple(interned.setdefault(t, t) for t in record_tokens(record))
                except ValueError as exc:  # a damaged saved record: every file is bound again
                    log.warning("%s: %s; every file is bound again", path, exc)
                    tokens, damaged = (), True
                self._deps[path] = tokens
                for token in tokens:
                    readers[token].add(path)
            self._readers_stale = False
            if damaged:
                return set(self.files)
        out: set[str] = set()
        for token in self._changed_tokens:
            out |= self._readers.get(token, set())
        return {p for p in out if p in self.files}

    def dispatch_targets(self, changes: Sequence[FileChange]) -> list[str]:
        """Ids of the ancestors' methods that changed methods of the changed files' classes (new
        versions) override, all of a class's methods when its own definition (bases) changed: calls
        bound to them may now also reach an override (dynamic dispatch) or the override itself (a
        receiver of the subclass). Which classes derive from which is global: no lookup records it."""
        resolver = self._current()
        out: set[str] = set()
        for c in changes:
            if c.new is None or not c.interface_changed:
                continue
            changed = self._changed_names.get(c.path, set())
            for rd in c.new.defs:
                if not rd.is_type:
                    continue
                names = set(rd.members) if rd.name in changed else changed.intersection(rd.members)
                if not names:
                    continue
                for ancestor in resolver.mro(rd)[1:]:
                    for name in names:
                        out.update(m.id for m in ancestor.member(name) if m.is_callable)
        return sorted(out)


class ParkedRecords(Mapping[str, Record]):
    """Per path, what its file's last output read (see :meth:`RepositoryResolver.recorded`): the
    records held in memory (``held``) as they are, those parked in the spill file (``parked``: where
    each is, as :func:`indexer.spill.packed_ref` packs it) read back through ``read`` each time one is asked for (raising
    :class:`indexer.parked.ParkedDataError` when it cannot be), so that going through them (saving
    them: :func:`indexer.bind_state.save_bind_state`) holds one at a time, not every one (about 1.2
    KiB a file, 50 MiB for the 400 MB generated monorepo). Iterates the held paths, then the parked
    ones, in the order given."""

    __slots__ = ("_held", "_parked", "_read")

    def __init__(self, held: dict[str, Record], parked: dict[str, int], read: Callable[[int], bytes]) -> None:
        self._held = held
        self._parked = parked
        self._read = read

    def __getitem__(self, path: str) -> Record:
        record = self._held.get(path)
        if record is not None:
            return record
        return self._read(self._parked[path])

    def __iter__(self) -> Iterator[str]:
        yield from self._held
        for p in self._parked:
            if p not in self._held:
                yield p

    def __len__(self) -> int:
        return len(self._held) + sum(1 for p in self._parked if p not in self._held)

    def __contains__(self, path: object) -> bool:
        return path in self._held or path in self._parked


MEMO_BUDGET = 25_000
"""The memo entries that can be computed again a one-shot run's resolver keeps at most
(:attr:`RepositoryResolver.memo_budget`): about 10 MiB (an entry, its key, value and reads, costs
about 400 bytes: 168 MiB for the 439,949 entries of a 2,330-file generated monorepo); entries that
met a cycle come on top (Django: 1,255). See docs/benchmarks.md, "The resolver's memo bounded"."""

APPLY_LIMIT = 64
"""Updates changing the interface of more files than this rebuild the resolver's tables and memo
instead of patching them (a rebuild costs about 80 ms plus cold lookups on Django)."""


def _paths(stems: Mapping[str, str | tuple[str, ...]], stem: str) -> tuple[str, ...]:
    """The paths held under ``stem`` (see :attr:`RepositoryResolver._stems`), in the order added."""
    held = stems.get(stem, ())
    return (held,) if isinstance(held, str) else held


def _language(path: str, given: dict[str, tuple[FileExtraction, str, int]], files: dict[str, FileCtx]) -> str:
    if path in given:
        return given[path][0].language
    return files[path].lang


def _module_tokens(fc: FileCtx) -> list[Token]:
    """The module-table keys under which other files find ``fc``."""
    ns = fc.rules.namespace
    return [("m", ns, k) for k in fc.rules.module_keys(fc)]


def _dotted_prefixes(fc: FileCtx) -> list[tuple[str, str]]:
    """``(namespace, prefix)`` for every package prefix ``fc``'s package keys make exist (Python, Java)."""
    if not fc.rules.dotted_packages:
        return []
    return [(fc.rules.namespace, ".".join(parts[:i])) for key in fc.rules.package_keys(fc)
            for parts in (key.split("."),) for i in range(1, len(parts) + 1)]


def _link_share(nodes: Sequence[Node] | None, edges: Sequence[Edge] | None) -> bytes | None:
    """A 16-byte digest of the nodes and edges the linker gave one file (``None``: none). ``repr``,
    not ``pickle``: pickle's bytes depend on which equal strings are one object (its memo), repr's
    only on the values, so a digest saved by one process compares with another's."""
    if not nodes and not edges:
        return None
    values = ([_NODE_VALUES(n) for n in nodes or ()], [_EDGE_VALUES(e) for e in edges or ()])  # tuples: repr in C
    return hashlib.blake2b(repr(values).encode("utf-8", "surrogatepass"), digest_size=16).digest()


_NODE_VALUES = operator.attrgetter(*(f.name for f in dataclasses.fields(Node)))
_EDGE_VALUES = operator.attrgetter(*(f.name for f in dataclasses.fields(Edge)))


def _merge_links(linked: LinkResult, ctxs: Sequence[FileCtx], files: list[IndexedFile] | SpilledOutputs) -> None:
    """Merge the framework linker's shared nodes and edges into the file outputs (``files[i]`` is
    ``ctxs[i]``'s)."""
    for i, fc in enumerate(ctxs):
        nodes, edges = linked.nodes.get(fc.path), linked.edges.get(fc.path)
        if not nodes and not edges:
            continue
        if isinstance(files, SpilledOutputs):  # kept beside the spilled output: not read back
            files.extend(i, nodes or (), edges or ())
        else:
            out = files[i]
            out.nodes.extend(nodes or ())
            out.edges.extend(edges or ())
