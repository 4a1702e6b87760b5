"""Reading one branch of every repository: :class:`BranchView`.

An index may hold a repository on several branches (registry keys ``name`` for the default branch,
``name@branch`` for others: :mod:`indexer.registry`). A query reads, per repository name, one of
them: the branch it names when the repository has it, else the default. :class:`BranchView` is the
:class:`stores.contracts.GraphStore` every analysis runs on for that: reads of the underlying store
with the nodes, edges, files and unresolved calls of the other keys left out (shared Endpoint /
Topic nodes belong to no repository and always pass; an edge passes when the repository owning it
does, so a walk never crosses into another branch's copy of a repository). Writes are refused.
Search hits of hidden keys drop out with their nodes (the query engine drops a hit whose node is
missing), so search needs no view of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from stores.contracts import Edge, GraphStore, IndexedFile, Node, RepositoryRecord, UnresolvedCall
from stores.errors import QueryFailed

__all__ = ["BranchView", "visible_keys", "branch_view"]


def visible_keys(entries: Sequence[RepositoryRecord], branch: str | None) -> set[str]:
    """The keys a query on ``branch`` reads: per repository name, the entry of that branch when it
    has one, else its default entry (``branch=None``: the default entries)."""
    by_name: dict[str, list[RepositoryRecord]] = {}
    for r in entries:
        by_name.setdefault(r.name, []).append(r)
    keys = set()
    for mine in by_name.values():
        chosen = next((r for r in mine if branch is not None and r.branch == branch), None)
        keys.add((chosen or next((r for r in mine if r.default), mine[0])).key)
    return keys


def branch_view(graph: GraphStore, branch: str | None) -> GraphStore:
    """``graph`` as a query on ``branch`` reads it: ``graph`` itself when every key is visible (one
    branch per repository, or a store without a registry), else a :class:`BranchView`. Raises
    :class:`QueryFailed` when ``branch`` is given and no repository has it."""
    try:
        entries = graph.repositories()
    except QueryFailed:
        entries = []
    if branch is not None and not any(r.branch == branch for r in entries):
        known = sorted({r.branch for r in entries if r.branch})
        raise QueryFailed(f"no repository is indexed on branch {branch!r} (branches: {', '.join(known) or 'none'}); "
                          f"index one with `ripple index PATH --branch {branch}`")
    keys = visible_keys(entries, branch)
    hidden = {r.key for r in entries} - keys
    return BranchView(graph, hidden) if hidden else graph


class BranchView(GraphStore):
    """``inner`` without the repositories ``hidden`` (see the module docstring); read-only."""

    def __init__(self, inner: GraphStore, hidden: Iterable[str]) -> None:
        self.inner = inner
        self.hidden = frozenset(hidden)

    def _shows(self, repo: str) -> bool:
        return repo not in self.hidden

    def replace_files(self, files: Sequence[IndexedFile]) -> None:
        """Refused: a branch view reads. Always raises :class:`~stores.errors.QueryFailed`."""
        raise QueryFailed("a branch view is read-only")

    def delete_files(self, repo: str, paths: Iterable[str]) -> None:
        """Refused: a branch view reads. Always raises :class:`~stores.errors.QueryFailed`."""
        raise QueryFailed("a branch view is read-only")

    def file_text(self, repo: str, path: str) -> str | None:
        """The inner store's, for a visible repository."""
        return self.inner.file_text(repo, path) if self._shows(repo) else None

    def file_checksums(self, repo: str) -> dict[str, str]:
        """The inner store's, for a visible repository."""
        return self.inner.file_checksums(repo) if self._shows(repo) else {}

    def repos(self) -> list[str]:
        """The visible repositories."""
        return [r for r in self.inner.repos() if self._shows(r)]

    def repositories(self) -> list[RepositoryRecord]:
        """Every registry entry (the view hides content, not the registry)."""
        return self.inner.repositories()

    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node]:
        """The visible nodes among ``ids``."""
        return {k: n for k, n in self.inner.get_nodes(ids).items() if self._shows(n.repo)}

    def find_symbols(self, names: Sequence[str], labels: Sequence[str] | None = None) -> dict[str, list[Node]]:
        """The visible nodes of each name."""
        found = self.inner.find_symbols(names, labels)
        return {k: [n for n in v if self._shows(n.repo)] for k, v in found.items()}

    def nodes_in_file(self, repo: str, path: str) -> list[Node]:
        """The inner store's, for a visible repository."""
        return self.inner.nodes_in_file(repo, path) if self._shows(repo) else []

    def _edges(self, found: dict[str, list[Edge]]) -> dict[str, list[Edge]]:
        return {k: [e for e in v if self._shows(e.repo)] for k, v in found.items()}

    def incoming(self, ids: Sequence[str], kinds: Sequence[str],
                 resolutions: Sequence[str] | None = None) -> dict[str, list[Edge]]:
        """Edges owned by visible repositories."""
        return self._edges(self.inner.incoming(ids, kinds, resolutions))

    def outgoing(self, ids: Sequence[str], kinds: Sequence[str],
                 resolutions: Sequence[str] | None = None) -> dict[str, list[Edge]]:
        """Edges owned by visible repositories."""
        return self._edges(self.inner.outgoing(ids, kinds, resolutions))

    def incoming_summary(self, ids: Sequence[str], kinds: Sequence[str], prop: str | None = None
                         ) -> dict[str, set[tuple[str, str, str]]]:
        """The triples of visible repositories' edges."""
        return {k: {t for t in v if self._shows(t[1])} for k, v in self.inner.incoming_summary(ids, kinds, prop).items()}

    def labelled(self, labels: Sequence[str], limit: int | None = None) -> list[Node]:
        """The visible nodes of ``labels`` (shared nodes, repository ``""``, always are), in the contract's order."""
        if limit is not None and limit <= 0:
            return []
        shown = [n for n in self.inner.labelled(labels) if self._shows(n.repo)]
        return shown if limit is None else shown[:limit]

    def search_symbols(self, query: str, limit: int) -> list[Node]:
        """The best ``limit`` visible symbols (asks the inner store for more, then filters)."""
        if limit <= 0:
            return []
        ask = limit
        while True:
            found = self.inner.search_symbols(query, ask)
            shown = [n for n in found if self._shows(n.repo)]
            if len(shown) >= limit or len(found) < ask:
                return shown[:limit]
            ask *= 4

    def unresolved_calls(self, names: Sequence[str]) -> dict[str, list[UnresolvedCall]]:
        """The visible repositories' unresolved calls."""
        found = self.inner.unresolved_calls(names)
        return {k: [u for u in v if self._shows(u.repo)] for k, v in found.items()}

    def stats(self) -> dict[str, Any]:
        """The inner store's counts (of every branch)."""
        return self.inner.stats()

    def version_token(self) -> str | None:
        """The inner store's."""
        return self.inner.version_token()
