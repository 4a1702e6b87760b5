"""GraphQL clients: the operations a client runs CALL the root fields they select (part of the framework
linker: :mod:`indexer.frameworks.link` calls :func:`link_graphql_clients` after every route is linked).

Input: the :class:`~indexer.model.GraphqlDocument` s and :class:`~indexer.model.GraphqlUse` s the
detectors found (JS / TS ``gql`` / ``graphql`` templates and calls run by Apollo Client, urql,
graphql-request, Relay; Python ``gql``; Java Spring ``GraphQlClient`` and DGS clients; ``.graphql`` /
``.gql`` operations files). Output: a ``CALLS_HTTP`` edge (``props["kind"] = "graphql"``, as gRPC
stubs carry ``grpc``) from the code running an operation to the Endpoint ``<OPERATION> Type.field``
(:data:`stores.contracts.GRAPHQL_OPERATIONS`) of each field it selects at the root, fragments spread
at the root expanded. So the impact walk crosses from a resolver (EXPOSES) to every client component
and its callers, as it crosses HTTP.

Nested fields: a field selected below the root (``{ me { trips { id } } }``) reaches the resolver of
``FIELD User.trips`` when the schema says the type of the field it is selected on (``Query.me: User``)
and a resolver of the repository exposes that field (a field no resolver answers is a plain property:
no edge). Types come from the repository's schema: ``.graphql`` / ``.graphqls`` files (a field's
``field_type``) and SDL written in code (``typeDefs = gql`...```, :attr:`GraphqlDocument.types`); a
field defined with two different types is unknown. An inline fragment ``... on User`` and a fragment's
type condition name the type of what they select. A field whose type is unknown links nothing below
it. Followed through fragments spread at any level (each once per operation), at most
:data:`indexer.frameworks.graphql_documents.MAX_TREE_LEVELS` levels deep. The edge carries the
``selection`` path (``me.trips``); certainty as for the root fields' edges (counted
``calls_graphql_field``).

Who owns the edge (the edge's ``src``):

* a use (``useQuery(GET_ORDERS)``, ``client.mutate({mutation: M})``, ``request(url, doc)``,
  ``documentName("x")``): the function or method running it (``GraphqlUse.owner``; module-level code:
  the File node); the document is followed to its text through constants and imports
  (``GraphqlUse.ref``, located like any constant), or a document file (``GraphqlUse.path``);
* a document written inside a function or method and not handed to a use where it is written: that
  function (it runs the document, or hands it to code that does);
* an operation of a ``.graphql`` / ``.gql`` file: the operation's own definition (and every use naming
  the file);
* a module-level document no use of the repository resolves to (handed to a wrapper the detectors
  do not know, or to a generated hook): the File node, with ``match`` at most ``inferred``, counted
  ``calls_graphql_unrun``, so nothing it selects is lost.

Certainty (``match``): ``exact`` when the repository declares the operation (a schema field's DECLARES
or a resolver's EXPOSES), ``name`` when it does not (the server may be another repository indexed
into the same store: the Endpoint id is the same, so the walk still crosses; counted
``calls_graphql_undeclared``); a File owner caps it at ``inferred``.

Counted in :attr:`LinkResult.outcomes`: ``calls_graphql`` (one per edge), ``calls_graphql_undeclared``,
``calls_graphql_unrun``; not linked: ``unlinked_graphql_document`` (a GraphQL call whose document
cannot be followed: a parameter, a computed value, a document file not in the repository),
``unlinked_graphql_fragment`` (a fragment spread at the root defined nowhere the linker finds),
``unlinked_graphql_parse`` (a document with syntax errors and no operation), ``graphql_spreads_cut``
(a fragment not followed: :data:`MAX_SPREAD_ENTRIES`), ``unlinked_graphql_no_schema``
(a field named by generated code, DGS ``ShowsGraphQLQuery``, whose operation type no schema of the
repository says).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from indexer.frameworks.graphql_documents import DOCUMENTS_FRAMEWORK, operation_qualname
from indexer.frameworks.unlinked import Miss, nearest
from indexer.model import GraphqlDocument, GraphqlFragment, GraphqlOperation, GraphqlUse
from indexer.symbols import file_id
from stores.contracts import Edge, endpoint_id

if TYPE_CHECKING:
    from indexer.frameworks.link import LinkResult
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup

__all__ = ["MAX_SPREAD_ENTRIES", "link_graphql_clients"]

_ROOTS = {"QUERY": "Query", "MUTATION": "Mutation", "SUBSCRIPTION": "Subscription"}
_ROOT_TYPES = frozenset(_ROOTS.values())
_MATCH = ("exact", "inferred", "name")
_MAX_SPREAD_DEPTH = 16
_MAX_INCLUDE_DEPTH = 8
MAX_SPREAD_ENTRIES = 200_000
"""Root fields and selection-tree entries one repository's operations may take from the fragments they
spread, in all (each fragment is followed once per operation, but N operations spreading the same large
fragments took N times their fields: a 72 KB ``.graphql`` file of 50 operations spreading 10 fragments of
1,000 fields made 510,000 edges in 111 s and 700 MiB). Past it a fragment is not followed, counted
``graphql_spreads_cut``."""

Locate = Callable[["FileCtx", "str | None", str], "tuple[FileCtx, str] | None"]
EndpointFn = Callable[["FileCtx", str, str], str]


class _ClientLinker:
    def __init__(self, r: Lookup, ctxs: Sequence[FileCtx], result: LinkResult, locate: Locate,
                 endpoint: EndpointFn, miss: Miss | None = None) -> None:
        self.r, self.ctxs, self.result, self.locate, self.endpoint = r, ctxs, result, locate, endpoint
        self.miss = miss
        self.declared: set[str] = {e.dst for es in result.edges.values() for e in es
                                   if e.kind in ("EXPOSES", "DECLARES") and e.dst.startswith(
                                       ("endpoint:QUERY ", "endpoint:MUTATION ", "endpoint:SUBSCRIPTION ",
                                        "endpoint:FIELD "))}
        self.types = _schema_types(r, ctxs)
        self.fragments: dict[str, list[GraphqlFragment]] = defaultdict(list)
        self.documents: dict[tuple[str, str], GraphqlDocument] = {}
        self.files: list[FileCtx] = []  # .graphql / .gql files holding operations
        for fc in ctxs:
            for d in fc.ex.graphql_documents:
                for f in d.fragments:
                    self.fragments[f.name].append(f)
                if d.name:
                    self.documents[(fc.path, d.name)] = d
                if d.framework == DOCUMENTS_FRAMEWORK:
                    self.files.append(fc)
        self.run_docs: set[int] = set()  # id() of the documents some use runs
        self.written: set[tuple[str, str, str]] = set()  # (owning path, src, dst) already linked
        self.spread_budget = MAX_SPREAD_ENTRIES  # fields and tree entries fragments may still add
        self.expanded: dict[int, tuple[list[str], int]] = {}  # id(operation) -> (root fields, spreads not found)
        self.nested: dict[int, list[tuple[str, str, str]]] = {}  # id(operation) -> its nested fields to link

    def run(self) -> None:
        for fc in self.ctxs:
            for use in fc.ex.graphql_uses:
                self.use(fc, use)
        for fc in self.ctxs:
            for d in fc.ex.graphql_documents:
                if d.errors and not d.operations:
                    self.result.outcomes["unlinked_graphql_parse"] += 1
                    continue
                if d.framework == DOCUMENTS_FRAMEWORK:
                    for op in d.operations:
                        self.operation(fc, self._def_id(fc, operation_qualname(op), op.line), d, op, fc, op.line,
                                       op.col)
                elif d.run:
                    continue
                elif d.owner is not None:
                    for op in d.operations:
                        self.operation(fc, self._def_id(fc, d.owner, d.line), d, op, fc, d.line, d.col)
                elif id(d) not in self.run_docs:
                    for op in d.operations:
                        self.operation(fc, file_id(fc.repo, fc.path), d, op, fc, d.line, d.col, unrun=True)

    # -- uses --------------------------------------------------------------------------------------

    def use(self, fc: FileCtx, use: GraphqlUse) -> None:
        src = self._def_id(fc, use.owner, use.line)
        if use.root_field is not None:
            return self.generated_field(fc, use, src)
        found: list[tuple[FileCtx, GraphqlDocument]] = []
        if use.document is not None and 0 <= use.document < len(fc.ex.graphql_documents):
            found = [(fc, fc.ex.graphql_documents[use.document])]
        elif use.ref is not None:
            hit = self.locate(fc, use.scope, use.ref)
            doc = self.documents.get((hit[0].path, hit[1])) if hit is not None else None
            if doc is not None and hit is not None:
                found = [(hit[0], doc)]
            elif not use.strict:
                return  # a call that may run GraphQL, handed something that is no document
        elif use.path is not None:
            found = self._document_files(use.path)
        if not found:
            what = use.ref or use.path or (f"operation {use.operation}" if use.operation else "document")
            self.unlinked(fc, src, use, "unlinked_graphql_document", f"GRAPHQL {what}",
                          nearest(use.path, (f.path.rsplit(".", 1)[0] for f in self.files)) if use.path else ())
            return
        for dfc, doc in found:
            self.run_docs.add(id(doc))
            ops = doc.operations
            if use.operation is not None:
                ops = [o for o in ops if o.name == use.operation] or ops
            if doc.errors and not ops:
                self.result.outcomes["unlinked_graphql_parse"] += 1
            for op in ops:
                self.operation(fc, src, doc, op, dfc, use.line, use.col, framework=use.framework)

    def unlinked(self, fc: FileCtx, src: str, use: GraphqlUse, reason: str, call: str,
                 candidates: Sequence[str] = ()) -> None:
        """Count ``reason`` and record the use (an ``UNLINKED`` edge from ``src``) through ``miss``."""
        if self.miss is None:
            self.result.outcomes[reason] += 1
        else:
            self.miss(fc, src, use.line, use.col, reason, call, use.framework, candidates)

    def _document_files(self, path: str) -> list[tuple[FileCtx, GraphqlDocument]]:
        """The documents of the ``.graphql`` / ``.gql`` files whose path without suffix is ``path``
        or ends with ``/`` + ``path`` (a path with a suffix must match it too)."""
        want = path.strip("/")
        out = []
        for fc in self.files:
            self.r.use(("file", fc.path, ""))
            stem = fc.path.rsplit(".", 1)[0]
            if want in (fc.path, stem) or fc.path.endswith("/" + want) or stem.endswith("/" + want):
                out.extend((fc, d) for d in fc.ex.graphql_documents if d.framework == DOCUMENTS_FRAMEWORK)
        return out

    def generated_field(self, fc: FileCtx, use: GraphqlUse, src: str) -> None:
        """A root field named by generated code: the operation type(s) the repository declares it under."""
        name = use.root_field or ""
        hits = [(op, f"endpoint:{op} {root}.{name}") for op, root in _ROOTS.items()]
        hits = [(op, eid) for op, eid in hits if eid in self.declared]
        if not hits:
            self.unlinked(fc, src, use, "unlinked_graphql_no_schema", f"GRAPHQL {name}",
                          sorted(d.removeprefix("endpoint:") for d in self.declared if d.rsplit(".", 1)[-1] == name))
            return
        match = "exact" if len(hits) == 1 else "name"
        for op, _ in hits:
            self._link(fc, src, op, name, use.line, use.col, use.framework, match, None)

    # -- operations --------------------------------------------------------------------------------

    def operation(self, fc: FileCtx, src: str, doc: GraphqlDocument, op: GraphqlOperation, dfc: FileCtx, line: int,
                  col: int, unrun: bool = False, framework: str | None = None) -> None:
        """Edges from ``src`` (owned by ``fc``) to the root fields of ``op`` (of ``doc`` in ``dfc``)."""
        expanded = self.expanded.get(id(op))
        if expanded is None:  # an operation's fields are the same at every use: fragments followed once
            fields = list(op.fields)
            expanded = self.expanded[id(op)] = (fields, self._expand(dfc, doc, op.spreads, fields, set(), 0))
        fields, missing = expanded
        if missing:
            self.result.outcomes["unlinked_graphql_fragment"] += missing
        if unrun:
            self.result.outcomes["calls_graphql_unrun"] += 1
        for name in fields:
            self._link(fc, src, op.operation, name, line, col, framework or doc.framework,
                       "inferred" if unrun else "exact", op.name)
        if self.types:
            site = _Site(fc, src, line, col, framework or doc.framework, "inferred" if unrun else "exact", op.name)
            nested = self.nested.get(id(op))
            if nested is None:
                nested = self.nested[id(op)] = []
                self._nested(nested, dfc, doc, op.tree, _ROOTS[op.operation], "", set(), 0)
            for parent, name, here in nested:
                self._link_field(site, parent, name, here)

    def _nested(self, out: list[tuple[str, str, str]], dfc: FileCtx, doc: GraphqlDocument,
                tree: Sequence[tuple[int, str]], base: str, path: str, seen: set[str], depth: int) -> None:
        """Append to ``out`` ``(type, field, selection path)`` of each field of ``tree`` (a selection whose
        level 0 is selected on type ``base``, reached by ``path``) selected on a known type other than a root
        type (what links to its exposed ``FIELD`` endpoint); fragments spread in it are followed once each
        (``seen``), :data:`_MAX_SPREAD_DEPTH` deep, within :data:`MAX_SPREAD_ENTRIES`."""
        types: list[str | None] = [base]  # the type each level's selections are made on
        names: list[str] = [path]
        for level, entry in tree:
            del types[level + 1:], names[level + 1:]
            parent = types[level] if level < len(types) else None
            prefix = names[level] if level < len(names) else ""
            if entry.startswith("on "):
                types.append(entry[3:])
                names.append(prefix)
            elif entry.startswith("..."):
                frag_name = entry[3:]
                if frag_name in seen or depth >= _MAX_SPREAD_DEPTH:
                    continue
                seen.add(frag_name)
                frag = self._fragment(dfc, doc, frag_name)
                if frag is not None and frag.on and self._spend(len(frag.tree)):
                    self._nested(out, dfc, doc, frag.tree, frag.on, prefix, seen, depth + 1)
            else:
                here = f"{prefix}.{entry}" if prefix else entry
                if parent is not None and parent not in _ROOT_TYPES:
                    out.append((parent, entry, here))
                types.append(self.types.get(parent, {}).get(entry) if parent is not None else None)
                names.append(here)

    def _link_field(self, site: _Site, parent: str, name: str, selection: str) -> None:
        eid = endpoint_id("FIELD", f"{parent}.{name}")
        if eid not in self.declared:
            return  # a plain property: no resolver of the repository answers it
        key = (site.fc.path, site.src, eid)
        if key in self.written:
            return
        self.written.add(key)
        self.endpoint(site.fc, "FIELD", f"{parent}.{name}")
        props = {"framework": site.framework, "kind": "graphql", "match": site.match, "selection": selection}
        if site.op_name:
            props["operation"] = site.op_name
        self.result.edges[site.fc.path].append(Edge("CALLS_HTTP", site.src, eid, site.fc.repo, site.fc.path,
                                                    site.line, site.col, None, props))
        self.result.outcomes["calls_graphql_field"] += 1

    def _expand(self, fc: FileCtx, doc: GraphqlDocument, spreads: Sequence[str], fields: list[str],
                seen: set[str], depth: int, have: set[str] | None = None) -> int:
        """Add to ``fields`` the root fields of the fragments ``spreads`` names, each once (``have``: the
        names in ``fields``, kept in a set: a list's ``in`` made a fragment of 20,000 fields cost 37 s);
        the number not found."""
        missing = 0
        have = set(fields) if have is None else have
        for name in spreads:
            if name in seen or depth > _MAX_SPREAD_DEPTH:
                continue
            seen.add(name)
            frag = self._fragment(fc, doc, name)
            if frag is None:
                missing += 1
                continue
            if not self._spend(len(frag.fields)):
                continue
            for f in frag.fields:
                if f not in have:
                    have.add(f)
                    fields.append(f)
            missing += self._expand(fc, doc, frag.spreads, fields, seen, depth + 1, have)
        return missing

    def _spend(self, entries: int) -> bool:
        """Whether a fragment of ``entries`` fields (or tree entries) may still be followed within
        :data:`MAX_SPREAD_ENTRIES`; taken from the budget if so, else counted ``graphql_spreads_cut``."""
        if entries > self.spread_budget:
            self.result.outcomes["graphql_spreads_cut"] += 1
            return False
        self.spread_budget -= entries
        return True

    def _fragment(self, fc: FileCtx, doc: GraphqlDocument, name: str) -> GraphqlFragment | None:
        """The fragment ``name`` as ``doc`` sees it: its own, one of a document interpolated into it
        (followed through constants and imports), else the one fragment of that name in the repository."""
        pending = [(fc, doc, 0)]
        visited: set[int] = set()
        while pending:
            dfc, d, depth = pending.pop()
            if id(d) in visited:
                continue
            visited.add(id(d))
            for f in d.fragments:
                if f.name == name:
                    return f
            if depth >= _MAX_INCLUDE_DEPTH:
                continue
            for expr in d.includes:
                hit = self.locate(dfc, None, expr)
                inc = self.documents.get((hit[0].path, hit[1])) if hit is not None else None
                if inc is not None and hit is not None:
                    pending.append((hit[0], inc, depth + 1))
        found = self.fragments.get(name, [])
        return found[0] if len(found) == 1 else None

    def _link(self, fc: FileCtx, src: str, operation: str, name: str, line: int, col: int, framework: str,
              match: str, op_name: str | None) -> None:
        eid = self.endpoint(fc, operation, f"{_ROOTS[operation]}.{name}")
        if eid not in self.declared:
            self.result.outcomes["calls_graphql_undeclared"] += 1
            match = "name"
        key = (fc.path, src, eid)
        if key in self.written:
            return
        self.written.add(key)
        props = {"framework": framework, "kind": "graphql", "match": match}
        if op_name:
            props["operation"] = op_name
        self.result.edges[fc.path].append(Edge("CALLS_HTTP", src, eid, fc.repo, fc.path, line, col, None, props))
        self.result.outcomes["calls_graphql"] += 1

    def _def_id(self, fc: FileCtx, qualname: str | None, line: int) -> str:
        rd = fc.def_at(qualname, line) if qualname else None
        return rd.id if rd is not None else file_id(fc.repo, fc.path)


@dataclass(slots=True, frozen=True)
class _Site:
    """Where an operation runs: the owning file, the edge's source and position, and the edge's props."""

    fc: FileCtx
    src: str
    line: int
    col: int
    framework: str
    match: str
    op_name: str | None


def _schema_types(r: Lookup, ctxs: Sequence[FileCtx]) -> dict[str, dict[str, str]]:
    """``type -> field -> named type`` of the repository's schema: fields of ``.graphql`` / ``.graphqls``
    files (definitions of kind ``field`` with a ``field_type``) and SDL written in code
    (:attr:`GraphqlDocument.types`). A field two schemas of the repository type differently is left out."""
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for fc in ctxs:
        ex = fc.ex
        for d in ex.graphql_documents:
            for type_name, name, named in d.types:
                found[type_name][name].add(named)
        if ex.language == "graphql":
            r.use(("file", fc.path, ""))  # a field's type is in the file's definitions, not its framework facts
            for df in ex.definitions:
                if df.kind == "field" and df.parent and df.field_type:
                    found[df.parent][df.name].add(df.field_type)
    return {t: {f: next(iter(v)) for f, v in fs.items() if len(v) == 1} for t, fs in found.items()}


def link_graphql_clients(r: Lookup, ctxs: Sequence[FileCtx], result: LinkResult, locate: Locate,
                         endpoint: EndpointFn, miss: Miss | None = None) -> None:
    """Add to ``result`` the ``CALLS_HTTP`` (``kind`` ``graphql``) edges of every GraphQL client
    operation of ``ctxs`` (every file of one repository), as the module docstring says. ``locate(fc,
    scope, expr)`` finds the constant an expression names (the linker's ``locate``); ``endpoint(fc,
    method, path)`` emits the Endpoint node into ``fc``'s output and returns its id. Call it after
    every route is linked (``result`` then holds the EXPOSES / DECLARES edges that say which
    operations the repository declares). ``miss``: the linker's recorder of unlinked client calls
    (:meth:`indexer.frameworks.unlinked.UnlinkedLinks.unlinked`; ``None``: only counted). Never raises on
    odd facts: what cannot be linked is counted."""
    _ClientLinker(r, ctxs, result, locate, endpoint, miss).run()
