"""Ranking after fusion: the exact definitions of an identifier query first, then the priors a developer
expects (implementation before tests, public API before private helpers, documented before undocumented).

The :class:`~analysis.retrieval.QueryEngine` fuses its ranked lists (BM25, kNN, exact names) whatever the
fusion function, then calls :func:`rerank` on the fused head: this module never fuses and never queries a
backend for text, so every backend ranks alike and a new fusion function composes with it.

Two steps, in this order:

1. **Exact definitions** (identifier queries only: ``save``, ``QuerySet.filter``,
   ``Config.from_envvar``; see :func:`is_identifier`). The definitions named exactly so (for a dotted
   query, whose qualified name ends with it) come first, ordered by :func:`definition_order`: test code
   after implementation (before it when tests are wanted), and generated code (``protoc`` output, by
   its file name: :data:`analysis.generated.GENERATED_NAMES`) with the test code, after the
   implementation written by hand (:func:`wanted_code`), public before private, a base definition
   before the definitions that override it, then by *fan-in*: distinct incoming ``CALLS``,
   ``OVERRIDES``, ``EXTENDS`` and ``IMPLEMENTS`` (callers, overriding methods, subclasses,
   implementations; a class counts the callers of its constructors), then documented before
   undocumented, then by id. Their score is :data:`EXACT_SCORE` plus a definition score in ``[0, 1)`` that orders them the same way, so hits of
   several indexes merged by score keep the exact definitions first.
2. **Priors** on every other hit: its fused score times a factor per prior it fails
   (:class:`Priors`): test code or generated code when tests are not wanted (or implementation when
   they are: ``--tests``, or a query that asks for tests, :func:`asks_for_tests`), a private definition
   (:func:`is_private`), anything but a documented definition (a definition whose node has the
   ``documented`` property, which the indexer writes for a docstring, Javadoc, JSDoc or KDoc): so
   documented definitions rise above the rest, and an index that records no documentation (an older
   one, or a language without doc comments) ranks as without this prior. A stable sort keeps the fused
   order among equal scores.

The prior factors were chosen by measurement (docs/search-quality.md, "Name-aware ranking and priors").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from analysis.fusion import IDENTIFIER_QUERY
from analysis.generated import GENERATED_NAMES
from analysis.name_match import DEFAULT_NAME_MATCH, NameMatch, name_factor
from analysis.testcode import is_test_path
from stores.analyzer import analyze
from stores.contracts import Chunk, GraphStore, Node, SearchFilters, SearchIndex, SymbolRef

__all__ = ["wanted_code", "EXACT_SCORE", "FAN_IN_KINDS", "PRIVATE_VISIBILITIES", "TEST_WORDS", "DEFINITION_KINDS", "DEFINITION_LABELS", "Priors",
           "DEFAULT_PRIORS", "NO_PRIORS", "Candidate", "Ranked", "is_identifier", "asks_for_tests", "visibility",
           "is_private", "definition_order", "prior_factor", "rerank", "MAX_NAMED", "MAX_FAN_IN", "named_definitions"]

EXACT_SCORE = 10.0
"""Score floor of an exact definition of an identifier query: above any fused score (RRF scores are below
1; a normalised score fusion of a few lists stays below their count)."""

FAN_IN_KINDS = ("CALLS", "OVERRIDES", "EXTENDS", "IMPLEMENTS")
"""Incoming edge kinds counted as a definition's fan-in (distinct sources per kind)."""

PRIVATE_VISIBILITIES = frozenset({"private", "module", "package"})
"""Visibilities of a helper rather than an API: ``private`` (a modifier, Python ``_name``, JS ``#name``),
``module`` (a JS/TS top-level declaration not exported), ``package`` (Go, unexported)."""

TEST_WORDS = frozenset({"test", "tests", "testing", "tested", "testcase", "testcases", "spec", "specs",
                        "unittest", "unittests", "pytest", "junit", "jest", "vitest", "mocha", "fixture",
                        "fixtures"})
"""Query words (after identifier splitting, lowercased) that ask for test code."""

DEFINITION_KINDS = frozenset({"method", "function", "class"})
"""Chunk kinds that stand for a definition (the visibility and documentation priors apply to them)."""

DEFINITION_LABELS = ("Class", "Interface", "Enum", "Method", "Function", "Constructor")
"""Node labels that have a chunk of their own (the exact-definitions step ranks these)."""
"""Chunk kinds that stand for a definition (the visibility and documentation priors apply to them)."""

VISIBILITY_MODIFIERS = ("public", "private", "protected", "internal", "global", "package")


@dataclass(frozen=True, slots=True)
class Priors:
    """Multiplicative factors in ``(0, 1]`` on the fused score of a hit that fails a prior: ``tests``
    (test code when implementation is wanted, or the reverse), ``private`` (a private helper),
    ``undocumented`` (anything but a documented definition). ``1.0`` switches a prior off. Raises
    :class:`ValueError` for a factor outside ``(0, 1]``."""

    tests: float = 0.5
    private: float = 1.0
    undocumented: float = 0.8

    def __post_init__(self) -> None:
        for name in ("tests", "private", "undocumented"):
            value = getattr(self, name)
            if not 0.0 < value <= 1.0:
                raise ValueError(f"prior factor {name} must be in (0, 1], not {value!r}")


DEFAULT_PRIORS = Priors()
"""The priors the product ranks with (docs/search-quality.md): tests 0.5, undocumented 0.8; private 1.0
(off): as a factor it cost more on helpers that were the answer than it gained on public entry points
(public still precedes private among an identifier's exact definitions)."""

NO_PRIORS = Priors(1.0, 1.0, 1.0)
"""Every prior off (the exact-definitions step still runs)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A fused hit to rank: its chunk, the graph node it stands for, and its fused ``score``."""

    chunk: Chunk
    node: Node
    score: float


@dataclass(frozen=True, slots=True)
class Ranked:
    """A ranked hit: ``index`` into the candidates given to :func:`rerank`, the final ``score``, and
    whether it is an ``exact`` definition of the identifier query."""

    index: int
    score: float
    exact: bool


def is_identifier(query: str) -> bool:
    """Whether ``query`` (stripped) is one identifier or a dotted name: ``url_for``,
    ``Config.from_envvar``, ``$scope``; not ``"save order"`` nor ``"a.b("``."""
    return IDENTIFIER_QUERY.fullmatch(query.strip()) is not None


def wanted_code(path: str, wants_tests: bool) -> bool:
    """Whether a definition in the file at ``path`` is the code a query wants: test code when
    ``wants_tests`` (:func:`analysis.testcode.is_test_path`), else code that is neither test code nor
    generated by ``protoc`` (:data:`analysis.generated.GENERATED_NAMES`, by the file name alone: no
    file is read). The stubs a repository keeps per service (``genproto/demo_grpc.pb.go`` in each
    of microservices-demo's Go services) ranked 17 definitions of ``PlaceOrder`` before the one
    service implementing it."""
    if is_test_path(path):
        return wants_tests
    return not wants_tests and GENERATED_NAMES.search(path) is None


def asks_for_tests(query: str) -> bool:
    """Whether ``query`` asks for test code: one of its words or identifier parts is in
    :data:`TEST_WORDS` (``"tests for url_for"``, ``"test_client"``, ``"TestCase"``)."""
    return any(token in TEST_WORDS for token in analyze(query))


def visibility(node: Node, language: str) -> str | None:
    """A definition's visibility: the visibility modifier written (``public``, ``private``,
    ``protected``, ``internal``, ``global``, ``package``), else by the language's convention: JS/TS
    ``export`` for an exported top-level declaration, else ``module``, a class member ``public``
    (``private`` for a ``#name``; Vue components alike); Kotlin ``public`` (its default); Python
    ``private`` for a ``_name`` (dunders aside), else ``public``; Go ``public`` when exported
    (capitalised), else ``package``; C# without a modifier ``private`` for a member, ``internal`` for a
    top-level type; ``None`` when the language says nothing, and for a File node."""
    if node.label == "File":
        return None
    props = node.props
    found = next((str(m) for m in props.get("modifiers") or () if m in VISIBILITY_MODIFIERS), None)
    if found is not None:
        return found
    member = "." in (node.qualname or "")
    if language in ("javascript", "typescript", "vue"):
        if member:
            return "private" if node.name.startswith("#") else "public"
        return "export" if props.get("exported") else "module"
    if language == "kotlin":
        return "public"
    if language == "python":
        return "private" if _python_private(node.name) else "public"
    if language == "go":
        return "public" if props.get("exported") else "package"
    if language == "csharp":
        return "private" if member else "internal"
    return None


def _python_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def is_private(node: Node, language: str) -> bool:
    """Whether a definition is a private helper: its :func:`visibility` is in
    :data:`PRIVATE_VISIBILITIES`, or (Python) an enclosing class or function is private
    (``_Helper.run``)."""
    if visibility(node, language) in PRIVATE_VISIBILITIES:
        return True
    return language == "python" and any(_python_private(part) for part in (node.qualname or "").split(".")[:-1])


def _documented(node: Node) -> bool:
    return bool(node.props.get("documented"))


def definition_order(graph: GraphStore, nodes: Sequence[Node], languages: Mapping[str, str],
                     wants_tests: bool = False) -> list[tuple[Node, float]]:
    """``nodes`` (definitions sharing a name) best first, each with its definition score in ``[0, 1)``
    (higher is better, same order): test code and generated code after implementation (test code
    before it when ``wants_tests``; :func:`wanted_code`),
    public before private (:func:`is_private`), base definitions before overrides (a node with an
    outgoing ``OVERRIDES`` edge to a definition not in generated code: the implementation of a
    ``protoc`` server interface is the base of the code written by hand), more fan-in first (distinct sources of incoming :data:`FAN_IN_KINDS`
    edges; a class's include the calls of its constructors), documented first, then by id.
    ``languages`` maps a node id to its chunk's language (a node absent from it is taken from its
    ``language`` property). Two batched graph calls (``outgoing``, ``incoming_counts``; a third, ``get_nodes``, for the files of the definitions they override when any), over the first
    :data:`MAX_FAN_IN` nodes by the first two keys (then id): the others, which a name shared by hundreds of definitions leaves
    (``__init__``, test models), follow them in that order, scored without fan-in."""
    if not nodes:
        return []
    cheap = [(n, wanted_code(n.file, wants_tests), _public(n, languages)) for n in nodes]
    cheap.sort(key=lambda t: (not t[1], not t[2], t[0].id))
    ranked, rest = cheap[:MAX_FAN_IN], cheap[MAX_FAN_IN:]
    ids = [n.id for n, _, _ in ranked]
    out = graph.outgoing(ids, ["OVERRIDES", "CONTAINS"])
    overridden = {e.dst for es in out.values() for e in es if e.kind == "OVERRIDES"}
    generated = {i for i, n in graph.get_nodes(sorted(overridden)).items()
                 if GENERATED_NAMES.search(n.file)} if overridden else set()
    overrides = {i for i, es in out.items() if any(e.kind == "OVERRIDES" and e.dst not in generated for e in es)}
    constructors = {n.id: _constructor_ids(n, [e.dst for e in out.get(n.id, []) if e.kind == "CONTAINS"])
                    for n, _, _ in ranked if n.label in _TYPE_LABELS}
    fan_ins = graph.incoming_counts({n.id: [n.id, *constructors.get(n.id, ())] for n, _, _ in ranked},
                                    list(FAN_IN_KINDS))
    keyed = []
    for n, wanted, public in ranked:
        fan_in = fan_ins[n.id]
        base = n.id not in overrides
        score = (4 * wanted + 2 * public + base + fan_in / (fan_in + 1.0)) / 8.0
        keyed.append((n, score, _documented(n)))
    keyed.sort(key=lambda t: (-t[1], not t[2], t[0].id))
    return [(n, s) for n, s, _ in keyed] + [(n, (4 * wanted + 2 * public) / 8.0) for n, wanted, public in rest]


MAX_FAN_IN = 50
"""Most same-name definitions whose overrides and fan-in :func:`definition_order` reads (two graph calls
whose cost grows with their edges)."""


def _public(node: Node, languages: Mapping[str, str]) -> bool:
    """Not :func:`is_private`, in the language ``languages`` gives for ``node`` (else its property)."""
    return not is_private(node, languages.get(node.id) or str(node.props.get("language") or ""))


_TYPE_LABELS = frozenset({"Class", "Enum"})


def _constructor_ids(node: Node, members: Sequence[str]) -> list[str]:
    """The ids among ``members`` (ids of what type ``node`` CONTAINS) of its constructors: a member
    named ``__init__`` (Python), ``constructor`` (JS/TS) or like the type (Java, C#, Kotlin, Apex),
    whose callers call the type."""
    prefixes = tuple(f"{node.id}.{name}(" for name in ("__init__", "constructor", node.name))
    return [m for m in members if m.startswith(prefixes)]


def prior_factor(chunk: Chunk, node: Node, priors: Priors, wants_tests: bool) -> float:
    """The product of the :class:`Priors` factors ``chunk`` (standing for ``node``) fails: test code
    or generated code (by its file path, :func:`wanted_code`) when ``wants_tests`` is false, or code
    outside tests when it is true; a private definition (:data:`DEFINITION_KINDS` only); anything but
    a documented definition (file sections, doc, config and SQL chunks included)."""
    factor = 1.0
    if not wanted_code(chunk.file, wants_tests):
        factor *= priors.tests
    definition = chunk.kind in DEFINITION_KINDS and node.label != "File"
    if definition and is_private(node, chunk.language):
        factor *= priors.private
    if not (definition and _documented(node)):
        factor *= priors.undocumented
    return factor


def rerank(candidates: Sequence[Candidate], exact: Mapping[str, float], priors: Priors,
           wants_tests: bool, terms: frozenset[str] = frozenset(),
           name_match: NameMatch = DEFAULT_NAME_MATCH) -> list[Ranked]:
    """The final order of ``candidates`` (fused hits, best first): those whose node id is in ``exact``
    (``{node id: definition score}`` in :func:`definition_order`'s order) first, in that order, scored
    :data:`EXACT_SCORE` + their definition score; then the others by fused score times
    :func:`prior_factor` times the query-name agreement :func:`analysis.name_match.name_factor` for
    the query stems ``terms`` (a text query's :func:`analysis.name_match.query_stems`; empty: factor
    1) with the weights ``name_match`` (stable: equal scores keep the fused order). Returns one
    :class:`Ranked` per candidate."""
    position = {node_id: i for i, node_id in enumerate(exact)}
    keyed = []
    for i, c in enumerate(candidates):
        if c.node.id in exact and c.chunk.id == c.node.id:
            keyed.append(((0, position[c.node.id], 0.0), Ranked(i, EXACT_SCORE + exact[c.node.id], True)))
        else:
            score = c.score * prior_factor(c.chunk, c.node, priors, wants_tests)
            if terms:
                definition = c.chunk.kind in DEFINITION_KINDS and c.node.label != "File"
                score *= name_factor(c.chunk, c.node, terms, definition, name_match)
            keyed.append(((1, 0, -score), Ranked(i, score, False)))
    keyed.sort(key=lambda t: t[0])  # stable: equal scores keep the fused order
    return [r for _, r in keyed]


MAX_NAMED = 2_000
"""Most definitions of one name the exact-definitions step ranks (the rest are left to the fused lists)."""


def named_definitions(graph: GraphStore, index: SearchIndex, query: str, filters: SearchFilters | None,
                      wants_tests: bool = False, limit: int | None = None) -> list[tuple[Node, float]]:
    """The definitions an identifier ``query`` names, best first with their definition scores
    (:func:`definition_order`); ``[]`` when ``query`` is not an identifier (:func:`is_identifier`).
    ``url_for`` names every definition (:data:`DEFINITION_LABELS`) whose short name is ``url_for``
    (case-sensitive); a dotted ``Config.from_envvar`` those whose dotted name (module path and qualified
    name, ``src.flask.config.Config.from_envvar``) is it or ends with ``.`` + it; at most
    :data:`MAX_NAMED` (the first by id). With ``filters``, only those with a chunk passing them are kept.

    ``limit``: only the first ``limit`` of the answer are wanted (the search reads its ``candidates``):
    the answer is then exactly the first ``max(limit, MAX_FAN_IN)`` of the full answer, and only about
    that many nodes (and, with ``filters``, chunks) are read, instead of every definition of the name
    (``__init__`` has thousands in a big index): the names' ids and paths come first
    (:meth:`~stores.contracts.GraphStore.find_symbol_refs`), then the nodes in the order
    :func:`definition_order` starts with (:func:`_first_definitions`). ``None`` reads them all."""
    query = query.strip()
    if not is_identifier(query):
        return []
    name = query.rsplit(".", 1)[-1]
    refs = graph.find_symbol_refs([name], list(DEFINITION_LABELS)).get(name, [])
    if "." in query:
        refs = [r for r in refs if _dotted(r) == query or _dotted(r).endswith("." + query)]
    refs = refs[:MAX_NAMED]
    need = len(refs) if limit is None else max(limit, MAX_FAN_IN)
    nodes, languages = _first_definitions(graph, index, refs, filters, wants_tests, need)
    return definition_order(graph, nodes, languages, wants_tests)


def _first_definitions(graph: GraphStore, index: SearchIndex, refs: Sequence[SymbolRef], filters: SearchFilters | None,
                       wants_tests: bool, need: int) -> tuple[list[Node], dict[str, str]]:
    """The first ``need`` nodes of ``refs`` (passing ``filters``) in :func:`definition_order`'s first
    keys (wanted test-ness, public, id), and ``{node id: chunk language}`` when ``filters`` were read.

    Exact without reading every node: ``refs`` split by :func:`wanted_code` (known from the path), each part read
    in id order in growing batches; a part's first ``k`` are its first ``k`` public nodes by id once that
    many are read, else (the part exhausted) its public then private nodes."""
    wanted: list[SymbolRef] = []
    other: list[SymbolRef] = []
    for r in refs:
        (wanted if wanted_code(r.file, wants_tests) else other).append(r)
    parts = (wanted, other)
    chosen: list[Node] = []
    languages: dict[str, str] = {}
    for part in parts:
        k = need - len(chosen)
        if k <= 0:
            break
        public: list[Node] = []
        private: list[Node] = []
        start, step = 0, k
        while start < len(part) and len(public) < k:
            ids = [r.id for r in part[start:start + step]]
            start, step = start + step, step * 2
            found = graph.get_nodes(ids)
            if filters is not None:
                chunks = index.get_chunks(ids)
                found = {i: n for i, n in found.items() if i in chunks and _passes(chunks[i], filters)}
                languages.update((i, chunks[i].language) for i in found)
            for i in ids:
                if i in found:
                    (public if _public(found[i], languages) else private).append(found[i])
        chosen += (public + private)[:k]
    return chosen, languages


def _dotted(node: Node | SymbolRef) -> str:
    """``src/flask/config.py`` + ``Config.from_envvar`` -> ``src.flask.config.Config.from_envvar``."""
    path = node.file
    slash, dot = path.rfind("/"), path.rfind(".")
    module = path[:dot] if dot > slash + 1 else path
    return f"{module.replace('/', '.')}.{node.qualname}"


def _passes(chunk: Chunk, f: SearchFilters) -> bool:
    return all(want is None or getattr(chunk, field) == want
               for field, want in (("product", f.product), ("repo", f.repo), ("language", f.language), ("kind", f.kind)))
