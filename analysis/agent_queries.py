"""The agent queries: the one facade every agent front end calls (``ripple mcp``, ``ripple api``, the
editor's "find similar"), so none of them computes or sizes an answer itself.

:class:`AgentQueries` answers ``search``, ``symbol``, ``callers``, ``callees``, ``references``,
``impact``, ``similar``, ``repositories`` and ``endpoints`` over a graph store (one, or several read as one through
:class:`analysis.navigation.UnionGraph`) and one or more search indexes. It computes nothing new:
targets are found by :mod:`analysis.navigation` and :func:`analysis.targets.target_query`, search and
similar code by the :class:`analysis.retrieval.QueryEngine`, the blast radius by
:func:`analysis.impact.blast_radius` rendered by :mod:`analysis.impact_report`. What it adds is what an
agent needs of every answer:

* **one target syntax**: a qualified name (``Owner.getId``, ``django.db.models.base.Model.save``), a
  node id (``repo:path/mod.Class.method(1)``) or ``PATH:LINE`` (1-based; ``PATH:LINE:COL`` too), and a
  :class:`TargetError` naming candidates when it names nothing or several different symbols;
* **graph context with search hits**: each hit's source text, and its callers, callees and served
  endpoints (counts and the first :data:`CONTEXT_NAMES` names), in a fixed number of batched calls;
* **the steps executed** with their time in milliseconds and store calls, at the end of every answer;
* **a size budget**: ``max_tokens`` (default :data:`DEFAULT_MAX_TOKENS`; tokens counted with the bundled
  model's tokenizer, :mod:`analysis.tokens`, else estimated at :data:`CHARS_PER_TOKEN` characters a
  token, and ``budget.counted_by`` says which) bounds the readable text, what an agent reads (an MCP tool's
  content); the structured result holds the same items (its JSON is two to four times larger: ids,
  positions, field names). What is cut (sources shortened, lists shortened, items left out) is said in
  ``truncated`` and in the text, never silently.

Answers are :class:`Answer` objects: ``as_dict()`` is JSON-serialisable (MCP structured output, REST
bodies), ``text`` the readable markdown. Positions in answers are 1-based, lines and columns alike.
Store failures raise :class:`stores.errors.StoreError` (front ends turn them into a tool or HTTP error);
bad arguments raise :class:`ValueError` (a :class:`TargetError` for a target) with a message saying
what to pass instead.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from analysis.answer_budget import Items, fit
from analysis.answer_text import (callees_text, finish, refs_text, repos_text, search_text, symbol_text,
                                  truncated_section, without_section)
from analysis.counting import CountingGraph, CountingIndex
from analysis.tables import TableTargetError, is_table_target, table_accessors
from analysis.freshness import Freshness, IndexedState, check_freshness
from analysis.endpoints import declared_names, endpoint_list, endpoints_text
from analysis.unlinked import unlinked_calls, unlinked_text
from analysis.reached_through import reached_text, reached_through
from analysis.impact import (DEFAULT_DEPTH, TESTS_MODES, NodesQuery, PositionQuery, StepRun, SymbolQuery, blast_radius,
                             count_noun, query_nodes)
from analysis.targets import (closest_symbols, empty_index_miss, nearest_definitions, position_miss, quoted_target,
                              target_query)
from analysis.impact_report import render_markdown, report_json
from analysis.navigation import (AmbiguousPath, Reference, UnionGraph, callers, dotted_name, inherited_note, lookup, outgoing_calls, references,
                                 symbol_label)
from analysis.ensemble import EngineMaker, engine_maker
from analysis.multi_search import search_indexes
from analysis.retrieval import QueryEngine, SearchHit, check_query
from analysis.tokens import CHARS_PER_TOKEN, token_counter
from stores.contracts import GraphStore, Node, RepositoryRecord, SearchFilters, SearchIndex
from stores.errors import QueryFailed

__all__ = ["AgentQueries", "Answer", "TargetError", "IndexSource", "resolve_target", "node_json", "estimate_tokens",
           "DEFAULT_MAX_TOKENS", "MIN_MAX_TOKENS", "MAX_MAX_TOKENS", "CHARS_PER_TOKEN", "CONTEXT_NAMES", "MAX_LIMIT",
           "MAX_OFFSET", "MAX_DEPTH", "CHUNK_KINDS"]

DEFAULT_MAX_TOKENS = 4000
"""The size budget of an answer when the caller gives none: about 16,000 characters."""
MIN_MAX_TOKENS = 200
"""The smallest budget accepted (an answer's envelope and one item fit in it)."""
MAX_MAX_TOKENS = 100_000
"""The largest budget accepted."""
CONTEXT_NAMES = 5
"""Names listed per relation in a search hit's graph context (the rest is counted)."""
MAX_LIMIT = 100
"""The most items a ``limit`` may ask for."""
MAX_OFFSET = 1_000_000
"""The most items an ``offset`` may skip (a page past it reads that many calls of each reason first)."""
MAX_DEPTH = 20
"""The deepest blast radius a caller may ask for."""
CHUNK_KINDS = ("method", "function", "class", "file_section", "sql", "config", "doc")
"""Chunk kinds a search may be restricted to."""
CANDIDATES_SHOWN = 10
"""Candidates a :class:`TargetError` lists."""
_CODE_LABELS = ("Class", "Interface", "Enum", "Method", "Function", "Constructor", "Field")
_CONTEXT_KINDS = ("CALLS", "EXPOSES")


def estimate_tokens(text: str) -> int:
    """Tokens ``text`` costs: counted by :func:`analysis.tokens.token_counter` (the bundled tokenizer;
    ``ceil(len / CHARS_PER_TOKEN)`` when it cannot load)."""
    return token_counter().count(text)


class TargetError(ValueError):
    """A ``target`` that names no symbol, or several different ones. ``candidates`` are what it may
    have meant (dicts as :func:`node_json` makes, best first, at most :data:`CANDIDATES_SHOWN`): pass
    one's ``id`` as the target. ``ambiguous`` is true when the target names several symbols (false: it
    names none)."""

    def __init__(self, message: str, candidates: Sequence[Mapping[str, Any]] = (), ambiguous: bool = False) -> None:
        super().__init__(message)
        self.candidates = [dict(c) for c in candidates]
        self.ambiguous = ambiguous


@dataclass(frozen=True, slots=True)
class IndexSource:
    """What a front end knows of one index beyond its stores: its ``name`` (the file, or the backend's
    address), when it was last written (``indexed_at``, seconds since the epoch, ``None`` unknown) and
    the folder each of its repositories was indexed from (``roots``: repo -> absolute path), so that
    :meth:`AgentQueries.repositories` can say how fresh each repository is."""

    name: str
    indexed_at: float | None = None
    roots: Mapping[str, str] = field(default_factory=dict)
    states: Mapping[str, IndexedState] = field(default_factory=dict)
    """What each repository's source was when indexed (commit, branch, folder, time): what
    :meth:`AgentQueries.annotate` checks freshness against."""


@dataclass(slots=True)
class Answer:
    """One answer of a tool. ``result`` is the tool's data (JSON-ready), ``text`` its readable
    markdown (ending with the steps), ``steps`` what was executed, ``truncated`` what the size budget
    (``max_tokens``) cut, one sentence each."""

    tool: str
    result: dict[str, Any]
    text: str
    steps: list[StepRun]
    truncated: list[str]
    max_tokens: int
    freshness: list[dict[str, Any]] = field(default_factory=list)
    """The repositories whose index is behind their source (:meth:`analysis.freshness.Freshness.as_dict`)."""

    def as_dict(self) -> dict[str, Any]:
        """``{tool, result, truncated, steps: [{name, ms, round_trips, detail}], budget: {max_tokens,
        tokens, counted_by}, freshness: [...]}``: JSON-serialisable; ``budget.tokens`` is the text's size in
        tokens, ``counted_by`` how they were counted (the bundled tokenizer, or the character estimate and
        why); ``freshness`` lists the stale repositories (empty: every checked index is current)."""
        counter = token_counter()
        return {"tool": self.tool, "result": self.result, "truncated": list(self.truncated),
                "steps": [_step_json(s) for s in self.steps],
                "budget": {"max_tokens": self.max_tokens, "tokens": counter.count(self.text),
                           "counted_by": counter.method},
                "freshness": list(self.freshness)}


def _step_json(s: StepRun) -> dict[str, Any]:
    return {"name": s.name, "ms": s.ms, "round_trips": s.round_trips, "detail": s.detail}


class _Steps:
    """One answer's counted stores (``graph``, ``indexes``) and its steps: each step's time and the
    store calls made during it."""

    def __init__(self, graph: CountingGraph, indexes: Sequence[CountingIndex]) -> None:
        self.graph = graph
        self.indexes = list(indexes)
        self.steps: list[StepRun] = []
        self._t = time.perf_counter()
        self._calls = self.calls()

    def calls(self) -> int:
        """Store calls so far, graph and search indexes together."""
        return self.graph.calls + sum(i.calls for i in self.indexes)

    def lap(self, name: str, detail: str) -> None:
        """Close a step: its time and store calls since the previous one."""
        now, calls = time.perf_counter(), self.calls()
        self.steps.append(StepRun(name, round((now - self._t) * 1000, 3), calls - self._calls, detail))
        self._t, self._calls = now, calls

    def add(self, steps: Sequence[StepRun]) -> None:
        """Steps another function timed (the blast radius's own), then restart the clock."""
        self.steps.extend(steps)
        self._t, self._calls = time.perf_counter(), self.calls()


# --------------------------------------------------------------------------------- targets


def node_json(n: Node) -> dict[str, Any]:
    """A node as answers show it: ``{id, name (dotted), label, repo, path, line, end_line}``."""
    return {"id": n.id, "name": dotted_name(n), "label": n.label, "repo": n.repo, "path": n.file,
            "line": n.start_line, "end_line": n.end_line}


def _head(graph: GraphStore, targets: Sequence[Node], others: Sequence[Node], count: int) -> dict[str, Any]:
    """An answer's head: its ``targets`` (an endpoint named by its route as declared,
    :func:`analysis.endpoints.declared_names`), the first ``also_named`` and the ``count``."""
    shown = declared_names(graph, targets)
    return {"targets": [{**node_json(t), "name": shown[t.id]} if t.id in shown else node_json(t) for t in targets],
            "also_named": [node_json(n) for n in others[:CANDIDATES_SHOWN]], "count": count}


def _stem(node_id: str) -> str:
    """A callable's id without ``(signature)``: what its overloads share."""
    cut = node_id.rfind("(")
    return node_id[:cut] if cut > 0 else node_id


def resolve_target(graph: GraphStore, target: str, repo: str | None = None) -> tuple[list[Node], list[Node]]:
    """``(targets, others)`` for an agent's ``target``: a node id, a qualified or dotted name,
    ``table:NAME`` / ``table:NAME.column`` (the methods that read or write it), or
    ``PATH:LINE[:COL]`` (1-based; the symbol written there with a column, else the innermost definition
    around the line), of repository ``repo`` only when given. ``targets`` are one symbol (its overloads
    together), sorted by id; ``others`` the other symbols a bare name also matched. Raises
    :class:`TargetError` when the target names nothing (candidates: the symbols whose names are closest)
    or several different symbols (candidates: those, each with its repository), and
    :class:`stores.errors.StoreError` when the store fails."""
    text = target.strip() if isinstance(target, str) else ""
    if not text:
        raise TargetError("target is empty: give a qualified name (Class.method), a node id or PATH:LINE")
    if is_table_target(text):  # table:NAME[.column]: the methods reading or writing it
        try:
            accessors = table_accessors(graph, text)
        except TableTargetError as exc:
            raise TargetError(f"{exc}: give table:NAME or table:NAME.column of an indexed table") from exc
        if not accessors:
            raise TargetError(f"nothing in the index reads or writes {text}")
        return accessors, []
    where = f" in repository {repo!r}" if repo else ""
    try:
        query = target_query(graph, text, repo)
    except ValueError as exc:
        raise TargetError(f"{exc}{where} (target {text!r}); or give a qualified name or a node id",
                          ambiguous=isinstance(exc, AmbiguousPath)) from exc
    if isinstance(query, PositionQuery):
        found = query_nodes(graph, query)
        if not found:
            raise TargetError(position_miss(graph, query), [node_json(n) for n in nearest_definitions(graph, query)])
        targets, others = found, []
    else:
        targets, others = lookup(graph, text, repo)
    if not targets and not graph.repos():
        raise TargetError(empty_index_miss(text))
    if not targets:
        near = closest_symbols(graph, text, repo, CANDIDATES_SHOWN)
        hint = "; closest names: " + ", ".join(symbol_label(n) for n in near) if near else ""
        known = "" if not repo or repo in graph.repos() else f" (no repository {repo!r} is indexed: see repositories)"
        ask = "Pass one of the candidates' ids, a" if near else "Pass a"  # no candidates: none to pass
        raise TargetError(f"no symbol matches {quoted_target(text)}{where}{known}{hint}. {ask} qualified name (Class.method, "
                          "package.module.function), a node id or PATH:LINE", [node_json(n) for n in near])
    stems = sorted({_stem(n.id) for n in targets})
    if len(stems) > 1:
        shown = sorted(targets, key=lambda n: n.id)
        repos = sorted({n.repo for n in targets})
        narrow = f"; or pass repo (one of {', '.join(repos)})" if len(repos) > 1 else ""
        raise TargetError(f"{text!r} names {len(stems)} different symbols{where}: "
                          + ", ".join(n.id for n in shown[:CANDIDATES_SHOWN])
                          + (" …" if len(shown) > CANDIDATES_SHOWN else "")
                          + f". Pass one id, or a qualified name long enough to tell them apart (package.Class.method), as the target{narrow}", [node_json(n) for n in shown[:CANDIDATES_SHOWN]],
                          ambiguous=True)
    return sorted(targets, key=lambda n: n.id), others


# --------------------------------------------------------------------------------- facade


class AgentQueries:
    """The agent-facing queries over ``graph`` and ``search`` (one search index, or one per index
    when several are served; a front end opens them through ``stores.factory`` and passes them in).

    ``model`` names the fastembed model the indexes were embedded with (``None``: the bundled one);
    ``models`` (``[search] models``, with ``models_folder``) makes search an ensemble of those models
    (:mod:`analysis.ensemble`; one not built: the index's model alone, with a note);
    ``services`` is the service map of the blast radius (service name -> repository); ``sources``
    describes each index for :meth:`repositories`. Every method taking a ``target`` also takes ``repo``:
    only symbols of that repository are candidates (a name defined in several). Methods are safe to
    call from one thread at a time (the stores' rule)."""

    def __init__(self, graph: GraphStore | Sequence[GraphStore], search: SearchIndex | Sequence[SearchIndex], *,
                 model: str | None = None, services: Mapping[str, str] | None = None,
                 sources: Sequence[IndexSource] = (), models: Sequence[str] = (), models_folder: str | None = None) -> None:
        graphs = [graph] if isinstance(graph, GraphStore) else list(graph)
        if not graphs:
            raise ValueError("no graph store given")
        self.graph: GraphStore = graphs[0] if len(graphs) == 1 else UnionGraph(graphs)
        self.indexes: list[SearchIndex] = [search] if isinstance(search, SearchIndex) else list(search)
        self.model = model
        self.models, self.models_folder = tuple(models), models_folder  # an ensemble: [search] models
        self.services = dict(services or {})
        self.sources = list(sources)
        self._embed: dict[int, EngineMaker | None] = {}
        self._notes: dict[int, str] = {}
        self._fresh: tuple[float, tuple[IndexedState, ...], list[Freshness]] | None = None

    FRESHNESS_SECONDS = 5.0
    """How long a freshness check is reused (each costs a few ``git`` calls per repository)."""

    def freshness(self) -> list[Freshness]:
        """Every recorded repository's freshness (:func:`analysis.freshness.check_freshness` of the
        ``states`` of :attr:`sources`), reused for :attr:`FRESHNESS_SECONDS`."""
        states = tuple(st for source in self.sources for st in source.states.values())
        now = time.monotonic()
        if self._fresh is not None and self._fresh[1] == states and now - self._fresh[0] < self.FRESHNESS_SECONDS:
            return self._fresh[2]
        answers = [check_freshness(self.graph, st) for st in states]
        self._fresh = (now, states, answers)
        return answers

    def annotate(self, answer: Answer) -> Answer:
        """``answer`` with the stale repositories in ``freshness`` and one note line each in its text,
        before the steps ("**Freshness:** index of billing is 12 commits behind HEAD ...")."""
        stale = [f for f in self.freshness() if f.stale]
        if not stale:
            return answer
        answer.freshness = [f.as_dict() for f in stale]
        notes = "\n".join(f"**Freshness:** {f.message}." for f in stale)
        head, sep, tail = answer.text.rpartition("## Steps executed")
        answer.text = f"{head}{notes}\n\n{sep}{tail}" if sep else f"{answer.text}\n{notes}\n"
        return answer

    # ------------------------------------------------------------------ helpers

    def _engine(self, steps: _Steps, i: int) -> QueryEngine:
        """The query engine of index ``i`` over ``steps``' counted stores (the query embedder is loaded
        once: when the index holds embeddings; a model that cannot load leaves BM25 alone, with a note)."""
        if i not in self._embed:
            self._embed[i], note = engine_maker(self.graph, self.indexes[i], self.model, self.models, self.models_folder)
            if note:
                self._notes[i] = note
        make = self._embed[i]
        return make(steps.graph, steps.indexes[i]) if make else QueryEngine(steps.graph, steps.indexes[i])

    def _engines(self, steps: _Steps) -> list[QueryEngine]:
        """Every index's engine; loading the query model (about a second, once per process) is a step."""
        loading = [i for i in range(len(self.indexes)) if i not in self._embed]
        engines = [self._engine(steps, i) for i in range(len(self.indexes))]
        if loading:
            loaded = sum(1 for i in loading if self._embed[i] is not None)
            # whether any chunk is embedded is the search step's to say ("N of M chunks embedded")
            steps.lap("Load query model", f"query model ready for {loaded} of {len(loading)} indexes"
                      if loaded else "no query model: BM25 and names only")
        return engines

    def _start(self) -> _Steps:
        """The counted stores and the clock of one answer."""
        return _Steps(CountingGraph(self.graph), [CountingIndex(i) for i in self.indexes])

    @staticmethod
    def _budget(max_tokens: int | None) -> int:
        if max_tokens is None:
            return DEFAULT_MAX_TOKENS
        if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or not (
                MIN_MAX_TOKENS <= max_tokens <= MAX_MAX_TOKENS):
            raise ValueError(f"max_tokens must be an integer from {MIN_MAX_TOKENS} to {MAX_MAX_TOKENS:,}, "
                             f"not {max_tokens!r}")
        return max_tokens

    @staticmethod
    def _offset(offset: int | None) -> int:
        if offset is None:
            return 0
        if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= MAX_OFFSET:
            raise ValueError(f"offset must be an integer from 0 to {MAX_OFFSET:,}, not {offset!r}")
        return offset

    @staticmethod
    def _limit(limit: int | None, default: int = 10) -> int:
        if limit is None:
            return default
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise ValueError(f"limit must be an integer from 1 to {MAX_LIMIT}, not {limit!r}")
        return limit

    def _resolve(self, steps: _Steps, target: str, repo: str | None = None) -> tuple[list[Node], list[Node]]:
        targets, others = resolve_target(steps.graph, target, repo)
        steps.lap("Resolve target", "; ".join([", ".join(n.id for n in targets), *filter(None, [inherited_note(target, targets)])]))
        return targets, others

    def _sources(self, steps: _Steps, nodes: Sequence[Node]) -> dict[str, tuple[str, str]]:
        """``{node id: (source text, language)}`` of code nodes, from their chunks (one call per
        index), else from the file text the graph keeps (one call per file)."""
        want = [n.id for n in nodes]
        out: dict[str, tuple[str, str]] = {}
        for index in steps.indexes:
            missing = [i for i in want if i not in out]
            if not missing:
                break
            out.update({i: (c.text, c.language) for i, c in index.get_chunks(missing).items()})
        for n in nodes:
            if n.id not in out and n.label != "File":
                text = steps.graph.file_text(n.repo, n.file)
                if text is not None:
                    out[n.id] = ("\n".join(text.split("\n")[n.start_line - 1:n.end_line]), "")
        return out

    def _context(self, graph: CountingGraph, ids: Sequence[str]) -> dict[str, dict[str, dict[str, Any]]]:
        """Graph context of nodes: ``{id: {callers, callees, endpoints: {count, names}}}`` in three
        batched calls (incoming CALLS, outgoing CALLS / EXPOSES, the names' nodes)."""
        if not ids:
            return {}
        inc = graph.incoming(list(ids), ["CALLS"])
        out = graph.outgoing(list(ids), list(_CONTEXT_KINDS))
        names = graph.get_nodes(sorted({e.src for es in inc.values() for e in es}
                                       | {e.dst for es in out.values() for e in es}))

        def rel(node_ids: list[str]) -> dict[str, Any]:
            distinct = list(dict.fromkeys(node_ids))
            shown = [_display(names[i]) if i in names else i for i in distinct[:CONTEXT_NAMES]]
            return {"count": len(distinct), "names": shown}

        ctx = {}
        for i in ids:
            outs = out.get(i, [])
            ctx[i] = {"callers": rel([e.src for e in inc.get(i, [])]),
                      "callees": rel([e.dst for e in outs if e.kind == "CALLS"]),
                      "endpoints": rel([e.dst for e in outs if e.kind == "EXPOSES"])}
        return ctx

    def _hits_json(self, graph: CountingGraph, hits: Sequence[SearchHit]) -> list[dict[str, Any]]:
        ctx = self._context(graph, [h.node.id for h in hits])
        return [{"rank": k, "id": h.node.id, "chunk_id": h.chunk.id,
                 "name": h.chunk.name if h.node.label == "File" and h.chunk.kind != "file_section" else _display(h.node),
                 "mentions": [node_json(n) for n in h.mentions],
                 "label": h.node.label, "kind": h.chunk.kind, "language": h.chunk.language, "repo": h.chunk.repo,
                 "path": h.chunk.file, "line": h.chunk.start_line, "end_line": h.chunk.end_line,
                 "score": round(h.score, 6), "ranks": dict(h.ranks), "metadata": h.metadata, "source": h.chunk.text,
                 **ctx[h.node.id]}
                for k, h in enumerate(hits, 1)]

    # ------------------------------------------------------------------- tools

    def search(self, query: str, repo: str | None = None, product: str | None = None, language: str | None = None,
               kind: str | None = None, limit: int | None = 10, max_tokens: int | None = None,
               tests: bool = False) -> Answer:
        """Hybrid search (BM25 + semantic kNN + exact names, fused by RRF) for ``query``, filtered by
        ``repo`` / ``product`` / ``language`` / ``kind`` (:data:`CHUNK_KINDS`), best ``limit`` hits
        (1 to :data:`MAX_LIMIT`, default 10), each with its source and graph context; hits whose
        graph node is missing are dropped (counted in ``dropped``). Test code ranks below
        implementation unless ``tests`` is true or the query asks for tests (then above it; see
        :mod:`analysis.ranking`). Raises :class:`ValueError` for an empty query or a bad filter /
        limit / budget."""
        budget = self._budget(max_tokens)
        limit = self._limit(limit)
        check_query(query)
        if kind is not None and kind not in CHUNK_KINDS:
            raise ValueError(f"kind must be one of {', '.join(CHUNK_KINDS)}, not {kind!r}")
        steps = self._start()
        graph = steps.graph
        filters = SearchFilters(product=product, repo=repo, language=language, kind=kind)
        engines = self._engines(steps)
        result = search_indexes(engines, query, limit, filters, bool(tests))  # one ranking over every index
        steps.lap("Hybrid search", f"{len(result.hits)} hits from {' + '.join(result.lists) or 'no list'}"
                  f" ({result.embedded:,} of {result.chunks:,} chunks embedded)")
        hits = self._hits_json(graph, result.hits)
        steps.lap("Graph context", f"callers, callees and endpoints of {len(hits)} hits")
        notes = [*result.notes, *self._notes.values()]
        head = {"query": query, "filters": {k: v for k, v in (("repo", repo), ("product", product),
                                                               ("language", language), ("kind", kind)) if v},
                "lists": result.lists, "dropped": result.dropped, "notes": notes}
        return self._answer("search", head, "hits", hits, "hit", steps, budget,
                            lambda data: search_text(f"Search: {query}", data))

    def similar(self, target: str | None = None, chunk_id: str | None = None, limit: int | None = 10,
                max_tokens: int | None = None, repo: str | None = None) -> Answer:
        """Code like ``target``'s (its chunk) or like chunk ``chunk_id`` (exactly one of the two), by
        embedding distance: the best ``limit`` other chunks with source and graph context. Without an
        embedding for that chunk the answer is empty and says why. Raises :class:`TargetError` /
        :class:`ValueError` for a bad target or chunk id."""
        budget = self._budget(max_tokens)
        limit = self._limit(limit)
        if (target is None) == (chunk_id is None):
            raise ValueError("give either target (a symbol) or chunk_id (a search hit's chunk_id), not both or none")
        steps = self._start()
        graph = steps.graph
        if target is not None:
            nodes, _ = self._resolve(steps, target, repo)
            chunk_id = nodes[0].id
        assert chunk_id is not None
        holder = next((i for i, index in enumerate(steps.indexes) if index.get_chunks([chunk_id])), None)
        if holder is None:
            raise ValueError(f"no chunk {chunk_id!r} in the index: pass a chunk_id from a search hit, or a target "
                             "that is a class, method or function")
        result = self._engines(steps)[holder].similar(chunk_id, limit)
        steps.lap("Nearest chunks", f"{len(result.hits)} hits by embedding distance")
        hits = self._hits_json(graph, result.hits)
        steps.lap("Graph context", f"callers, callees and endpoints of {len(hits)} hits")
        head = {"chunk_id": chunk_id, "dropped": result.dropped, "notes": [*result.notes, *self._notes.values()]}
        return self._answer("similar", head, "hits", hits, "hit", steps, budget,
                            lambda data: search_text(f"Code similar to {chunk_id}", data))

    def symbol(self, target: str, max_tokens: int | None = None, repo: str | None = None) -> Answer:
        """The definition ``target`` names (each overload): signature, location, source, direct
        callers (call sites) and callees, endpoints it serves; ``also_named``: other symbols a bare name
        matched. Raises :class:`TargetError` when ``target`` names nothing, :class:`ValueError` for a bad
        budget (a ``max_tokens`` outside :data:`MIN_MAX_TOKENS` to :data:`MAX_MAX_TOKENS`)."""
        budget = self._budget(max_tokens)
        steps = self._start()
        graph = steps.graph
        targets, others = self._resolve(steps, target, repo)
        sources = self._sources(steps, targets)
        steps.lap("Source", f"{len(sources)} of {len(targets)} definitions")
        refs = callers(graph, targets)
        out = graph.outgoing([t.id for t in targets], ["EXPOSES"])
        endpoint_nodes = graph.get_nodes(sorted({e.dst for es in out.values() for e in es}))
        callee_groups = {t.id: outgoing_calls(graph, t) for t in targets}
        steps.lap("Callers and callees", f"{len(refs)} call sites, "
                  f"{sum(len(g) for g in callee_groups.values())} callees")
        items = []
        for t in targets:
            items.append({
                **node_json(t), "signature": t.props.get("signature"), "decorators": t.props.get("decorators") or [],
                "source": sources.get(t.id, ("", ""))[0], "language": sources.get(t.id, ("", ""))[1],
                "callers": [_ref_json(r) for r in refs if r.target == t.id],
                "callees": [{**node_json(g.node), "sites": [{"path": s.file, "line": s.line, "col": s.col + 1}
                                                            for s in g.sites]} for g in callee_groups[t.id]],
                "endpoints": [_display(endpoint_nodes[e.dst]) if e.dst in endpoint_nodes else e.dst
                              for e in out.get(t.id, [])],
            })
        for item in items:
            item["caller_count"] = len(item["callers"])
            item["callee_count"] = len(item["callees"])
        head = {"target": target, "also_named": [node_json(n) for n in others[:CANDIDATES_SHOWN]]}
        return self._answer("symbol", head, "definitions", items, "definition", steps, budget, symbol_text,
                            nested=("callers", "callees"))

    def callers(self, target: str, resolution: Sequence[str] | None = None, max_tokens: int | None = None,
                repo: str | None = None) -> Answer:
        """Direct call sites of ``target`` (a class: of its constructors too), sorted by location, each
        with the calling symbol and how the call was bound; ``resolution`` keeps only calls bound
        those ways (``exact``, ``inferred``, ``name``). Raises :class:`TargetError` when ``target`` names
        nothing, :class:`ValueError` for another ``resolution`` or a bad budget (a ``max_tokens`` outside :data:`MIN_MAX_TOKENS` to :data:`MAX_MAX_TOKENS`)."""
        budget = self._budget(max_tokens)
        wanted = list(resolution) if resolution else None
        if wanted and not set(wanted) <= {"exact", "inferred", "name"}:
            raise ValueError(f"resolution must be among exact, inferred, name, not {wanted!r}")
        steps = self._start()
        graph = steps.graph
        targets, others = self._resolve(steps, target, repo)
        refs = callers(graph, targets, wanted)
        steps.lap("Callers", f"{count_noun(len(refs), 'call site')} from {count_noun(len({r.source.id for r in refs}), 'caller')}")
        through = [e.as_dict() for e in reached_through(graph, targets)]
        steps.lap("Reached through", f"{count_noun(len(through), 'endpoint or topic', 'endpoints or topics')} "
                                     "served or consumed")
        head = {**_head(graph, targets, others, len(refs)), "reached_through": through}

        def text(data: dict[str, Any]) -> list[str]:
            more = reached_text(data["reached_through"], MAX_LIMIT, "callers of")
            lines = refs_text("Callers", data, "callers")
            return lines + ([""] if more and lines[-1] else []) + more
        return self._answer("callers", head, "callers", [_ref_json(r) for r in refs], "call site", steps, budget, text)

    def callees(self, target: str, max_tokens: int | None = None, repo: str | None = None) -> Answer:
        """What ``target`` calls: one entry per callee with its call sites in ``target``'s body,
        sorted by first call site. Raises :class:`TargetError` when ``target`` names nothing,
        :class:`ValueError` for a bad budget (a ``max_tokens`` outside :data:`MIN_MAX_TOKENS` to :data:`MAX_MAX_TOKENS`)."""
        budget = self._budget(max_tokens)
        steps = self._start()
        graph = steps.graph
        targets, others = self._resolve(steps, target, repo)
        groups = [g for t in targets for g in outgoing_calls(graph, t)]
        steps.lap("Callees", f"{len(groups)} callees")
        items = [{**node_json(g.node), "sites": [{"repo": s.repo, "path": s.file, "line": s.line, "col": s.col + 1}
                                                for s in g.sites]} for g in groups]
        head = _head(graph, targets, others, len(items))
        return self._answer("callees", head, "callees", items, "callee", steps, budget, callees_text)

    def references(self, target: str, include_declaration: bool = False, max_tokens: int | None = None,
                   repo: str | None = None) -> Answer:
        """Every reference to ``target``: call sites, type uses, injections, subclasses and
        implementations, overrides (``kind`` says which), sorted by location; with
        ``include_declaration`` the definitions first. Raises :class:`TargetError` when ``target`` names
        nothing, :class:`ValueError` for a bad budget (a ``max_tokens`` outside :data:`MIN_MAX_TOKENS` to :data:`MAX_MAX_TOKENS`)."""
        budget = self._budget(max_tokens)
        steps = self._start()
        graph = steps.graph
        targets, others = self._resolve(steps, target, repo)
        refs = references(graph, targets, include_declaration)
        steps.lap("References", f"{len(refs)} references")
        head = _head(graph, targets, others, len(refs))
        return self._answer("references", head, "references", [_ref_json(r) for r in refs], "reference", steps,
                            budget, lambda data: refs_text("References", data, "references"))

    def impact(self, target: str, depth: int | None = DEFAULT_DEPTH, tests: str = "apart",
               max_tokens: int | None = None, repo: str | None = None) -> Answer:
        """The blast radius of changing ``target`` (:func:`analysis.impact.blast_radius`: its overloads
        and related declarations, callers hop by hop up to ``depth`` (1 to :data:`MAX_DEPTH`), the
        endpoints, topics, entry points and services reached; ``tests``: one of
        :data:`analysis.impact.TESTS_MODES`). ``result.report`` is the report as JSON
        (:func:`analysis.impact_report.report_json`), ``text`` its markdown; over the budget, the
        Mermaid diagram goes first, then fewer callers per hop and rows per list are shown (the counts
        stay complete). Raises :class:`TargetError` / :class:`ValueError`."""
        budget = self._budget(max_tokens)
        depth = DEFAULT_DEPTH if depth is None else depth
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
            raise ValueError(f"depth must be an integer from 1 to {MAX_DEPTH}, not {depth!r}")
        if tests not in TESTS_MODES:
            raise ValueError(f"tests must be one of {', '.join(TESTS_MODES)}, not {tests!r}")
        steps = self._start()
        targets, others = self._resolve(steps, target, repo)
        query = SymbolQuery(target.strip()) if is_table_target(target) else NodesQuery(tuple(targets))
        also = [node_json(n) for n in others[:CANDIDATES_SHOWN]]  # as callers / references say it
        report = blast_radius(self.graph, query, depth=depth, services=self.services, tests=tests)
        steps.add(report.steps)
        counter = token_counter()
        per_hop, limit, diagram = 10, 50, True
        while True:
            data = {**report_json(report, per_hop), "also_named": also}
            for key in ("tests", "endpoints", "entry_points", "callers", "wrappers", "topics"):
                data[key] = data[key][:limit]
            # The report's own steps table is replaced by the answer's (target resolution first).
            markdown = without_section(render_markdown(report, limit=limit, per_hop=per_hop),
                                        "## Steps executed").rstrip("\n")
            notes: list[str] = []
            if not diagram:
                data["mermaid"] = None
                markdown = without_section(markdown, "## Diagram")
                notes.append("Mermaid diagram left out for the budget")
            if per_hop < 10 or limit < 50:
                notes.append(f"{count_noun(per_hop, 'caller')} named per hop and {count_noun(limit, 'row')} per list "
                             "for the budget (counts stay complete): raise max_tokens or lower depth for more")
            # The budget's cuts go into the report's own Truncated section (which otherwise says nothing
            # was cut), so the answer never says both.
            if also:
                markdown += "\n\nAlso named so, not included: " + ", ".join(f"`{n['id']}`" for n in also)
            text = finish([truncated_section(markdown, report.truncated, notes)], steps.steps, [])
            if counter.within(text, budget) or (per_hop == 1 and limit == 1 and not diagram):
                break
            if diagram:
                diagram = False
            else:
                per_hop, limit = max(1, per_hop // 2), max(1, limit // 2)
        if not counter.within(text, budget):
            notes.append("even this is over the budget: raise max_tokens")
            text = finish([truncated_section(markdown, report.truncated, notes)], steps.steps, [])
        return Answer("impact", {"report": data}, text, list(steps.steps), notes, budget)

    def repositories(self, max_tokens: int | None = None) -> Answer:
        """What is indexed: per repository its files, its search chunks and how many are embedded
        (counts) and, where its folder and the index's
        last write are known, how fresh it is (``changed_files``: indexed files modified or deleted on
        disk since then; ``None`` when that cannot be told); per index when it was written; the totals
        (nodes by label, edges, calls by resolution, files by language, chunks and how many are
        embedded). Repositories beyond the budget are left out, and the answer says so."""
        budget = self._budget(max_tokens)
        steps = self._start()
        graph = steps.graph
        repos = []
        registry = {r.key: r for r in _registry(graph)}
        for name in sorted(set(graph.repos()) | set(registry)):
            files = graph.file_checksums(name)
            source = next((s for s in self.sources if name in s.roots), None)
            counts = [index.chunk_count(name) for index in steps.indexes]
            entry: dict[str, Any] = {"name": name, "files": len(files), "chunks": sum(c["chunks"] for c in counts),
                                     "embedded": sum(c["embedded"] for c in counts), "root": None,
                                     "indexed_at": None, "changed_files": None}
            record = registry.get(name)
            if record is not None:  # the store's own registry: every backend, every index
                entry.update(root=record.root, indexed_at=_iso(record.indexed_at) if record.indexed_at is not None else None,
                             branch=record.branch, default=record.default, product=record.product,
                             remote=record.remote, commit=record.commit, counts=dict(record.counts))
            if record is not None and record.indexed_at is not None:  # when the run wrote it (a file's time moves on reads)
                entry.update(changed_files=_changed(record.root, files, record.indexed_at))
            elif source is not None:
                entry.update(root=source.roots[name], indexed_at=_iso(source.indexed_at),
                             changed_files=_changed(source.roots[name], files, source.indexed_at))
            repos.append(entry)
        steps.lap("Repositories", f"{len(repos)} repositories, their files, chunks and freshness")
        stats = graph.stats()
        counts = [index.chunk_count() for index in steps.indexes]
        steps.lap("Counts", "nodes, edges, chunks")
        head = {"indexes": [{"name": s.name, "indexed_at": _iso(s.indexed_at)} for s in self.sources],
                "totals": {"repositories": len(repos), "nodes": stats.get("nodes", {}), "edges": stats.get("edges", {}),
                           "calls_by_resolution": stats.get("calls_by_resolution", {}),
                           "files": stats.get("files", {}),
                           "chunks": sum(c.get("chunks", 0) for c in counts),
                           "embedded": sum(c.get("embedded", 0) for c in counts)}}
        return self._answer("repositories", head, "repositories", repos, "repository", steps, budget, repos_text,
                            plural="repositories")

    def endpoints(self, repo: str | None = None, match: str | None = None, limit: int | None = None,
                  max_tokens: int | None = None, unserved: bool = False) -> Answer:
        """The endpoint list (:func:`analysis.endpoints.endpoint_list`; ``limit`` default and most :data:`MAX_LIMIT`)."""
        budget, steps = self._budget(max_tokens), self._start()
        found = endpoint_list(steps.graph, repo, match, self._limit(limit, MAX_LIMIT), unserved).as_dict()
        steps.lap("Endpoints", f"{len(found['endpoints'])} of {found['total']} endpoints, their handlers and clients")
        return self._answer("endpoints", {k: v for k, v in found.items() if k != "endpoints"}, "endpoints",
                            found["endpoints"], "endpoint", steps, budget, endpoints_text)

    def unlinked(self, repo: str | None = None, product: str | None = None, reason: str | None = None,
                 limit: int | None = None, max_tokens: int | None = None, offset: int | None = None) -> Answer:
        """The client calls not linked to an endpoint or topic (:func:`analysis.unlinked.unlinked_calls`;
        ``limit`` default and most :data:`MAX_LIMIT`; ``offset``: the calls of its stable order skipped, 0 to
        :data:`MAX_OFFSET`, for the next page). Raises ``ValueError`` for a limit or offset out of range."""
        budget, steps = self._budget(max_tokens), self._start()
        found = unlinked_calls(steps.graph, repo, product, reason, self._limit(limit, MAX_LIMIT),
                               self._offset(offset)).as_dict()
        steps.lap("Unlinked", f"{len(found['calls'])} of {found['total']} unlinked calls")
        return self._answer("unlinked", {k: v for k, v in found.items() if k != "calls"}, "calls",
                            found["calls"], "call", steps, budget, unlinked_text)

    def _answer(self, tool: str, head: dict[str, Any], key: str, items: list[dict[str, Any]], noun: str,
                steps: _Steps, budget: int, render: Callable[[dict[str, Any]], list[str]],
                nested: Sequence[str] = (), plural: str | None = None) -> Answer:
        """``head`` plus ``items`` under ``key``, fitted to ``budget`` tokens (:func:`_fit`)."""

        def build(chosen: Items, notes: Sequence[str]) -> tuple[dict[str, Any], str]:
            data = {**head, key: chosen}
            return data, finish(render(data), steps.steps, notes)

        data, text, notes = fit(build, items, budget, noun, nested, plural)
        return Answer(tool, data, text, list(steps.steps), notes, budget)


# ------------------------------------------------------------------------------- helpers


def _display(n: Node) -> str:
    """A node's display name: the dotted name of code, the name of an endpoint or topic."""
    if n.label in ("Endpoint", "Topic"):
        return n.name
    return dotted_name(n)


def _ref_json(r: Reference) -> dict[str, Any]:
    return {"target": r.target, "kind": r.kind, "from": r.source.id, "from_name": _display(r.source),
            "repo": r.repo, "path": r.file, "line": r.line, "col": r.col + 1, "resolution": r.resolution}


def _iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


MAX_FRESHNESS_FILES = 50_000
"""Most files of one repository whose modification time :meth:`AgentQueries.repositories` reads."""


def _changed(root: str, files: Mapping[str, str], indexed_at: float | None) -> int | None:
    """Indexed files of the folder ``root`` modified after ``indexed_at`` or gone; ``None`` when that
    cannot be told (no time, the folder is not here, or more than :data:`MAX_FRESHNESS_FILES` files)."""
    if indexed_at is None or not os.path.isdir(root) or len(files) > MAX_FRESHNESS_FILES:
        return None
    changed = 0
    for path in files:
        try:
            if os.stat(os.path.join(root, path)).st_mtime > indexed_at:
                changed += 1
        except OSError:
            changed += 1
    return changed


def _registry(graph: GraphStore) -> list[RepositoryRecord]:
    """The store's registry entries; ``[]`` for a store that keeps none."""
    try:
        return graph.repositories()
    except QueryFailed:
        return []
