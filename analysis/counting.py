"""A :class:`~stores.contracts.GraphStore` that counts the contract calls made through it: what
:mod:`analysis.impact` reports as each step's store calls, and what ``bench/impact_bench.py`` counts
per report (one contract call = one round trip to each store behind it)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from stores.contracts import Edge, GraphStore, IndexedFile, Node, UnresolvedCall

__all__ = ["CountingGraph"]


class CountingGraph(GraphStore):
    """A :class:`GraphStore` that forwards every call to ``inner`` and counts them in ``calls``
    (one contract call = one round trip to each store behind ``inner``)."""

    def __init__(self, inner: GraphStore) -> None:
        self.inner = inner
        self.calls = 0

    def _count(self) -> GraphStore:
        self.calls += 1
        return self.inner

    def replace_files(self, files: Sequence[IndexedFile]) -> None:
        """Forwarded."""
        self._count().replace_files(files)

    def delete_files(self, repo: str, paths: Iterable[str]) -> None:
        """Forwarded."""
        self._count().delete_files(repo, paths)

    def file_text(self, repo: str, path: str) -> str | None:
        """Forwarded."""
        return self._count().file_text(repo, path)

    def file_checksums(self, repo: str) -> dict[str, str]:
        """Forwarded."""
        return self._count().file_checksums(repo)

    def repos(self) -> list[str]:
        """Forwarded."""
        return self._count().repos()

    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node]:
        """Forwarded."""
        return self._count().get_nodes(ids)

    def find_symbols(self, names: Sequence[str], labels: Sequence[str] | None = None) -> dict[str, list[Node]]:
        """Forwarded."""
        return self._count().find_symbols(names, labels)

    def nodes_in_file(self, repo: str, path: str) -> list[Node]:
        """Forwarded."""
        return self._count().nodes_in_file(repo, path)

    def incoming(self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
                 ) -> dict[str, list[Edge]]:
        """Forwarded."""
        return self._count().incoming(ids, kinds, resolutions)

    def outgoing(self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
                 ) -> dict[str, list[Edge]]:
        """Forwarded."""
        return self._count().outgoing(ids, kinds, resolutions)

    def search_symbols(self, query: str, limit: int) -> list[Node]:
        """Forwarded."""
        return self._count().search_symbols(query, limit)

    def unresolved_calls(self, names: Sequence[str]) -> dict[str, list[UnresolvedCall]]:
        """Forwarded."""
        return self._count().unresolved_calls(names)

    def stats(self) -> dict[str, Any]:
        """Forwarded."""
        return self._count().stats()
