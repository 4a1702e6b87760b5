"""Which files besides the changed ones a run binds or writes again, so that the index stays equal to
a full index of the tree: the files whose bindings an interface change can alter (their last output
read a changed name, from the resolver's records; the callers of a method a changed class now
overrides, from the store) and the doc and configuration files whose ``MENTIONS`` a definition, table
or column that came, went or moved can change (:mod:`indexer.mention_refresh`).

:class:`RebindScope` is a mixin of :class:`indexer.incremental.RepositoryIndex` (its updates, the
first sync over the resolver's records, a whole-tree sync over an index).
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from indexer.mention_refresh import MentionRecords, changed_names, synced_names
from indexer.mentions import mentionable, stored_mentionable
from indexer.resolve.repository import FileChange, RepositoryResolver, ResolvedRepository
from indexer.run import IndexOptions
from stores.contracts import GraphStore

__all__ = ["RebindScope"]


class RebindScope:
    """What else a run binds or writes again (see the module docstring); a mixin of
    :class:`indexer.incremental.RepositoryIndex`, whose attributes below it reads."""

    root: Path
    graph: GraphStore
    repo: str
    options: IndexOptions
    resolver: RepositoryResolver
    mention_records: MentionRecords

    def _dependents(self, changes: Sequence[FileChange]) -> set[str]:
        """Other files whose bindings the interface changes in ``changes`` can alter: those whose
        last output read a changed name, module key or short name (which covers every edge into a
        vanished or changed node, and every unresolved call a new definition may bind), and the
        callers of the methods a changed class now overrides (from the store)."""
        found = self.resolver.dependents(changes)
        targets = self.resolver.dispatch_targets(changes)
        if targets:
            for edges in self.graph.incoming(targets, ["CALLS"]).values():
                found.update(e.file for e in edges if e.repo == self.repo)
        return found

    def _stale_docs(self, changes: Sequence[FileChange], affected: set[str]) -> set[str]:
        """The doc and configuration files outside ``affected`` whose ``MENTIONS`` the definitions
        ``changes`` added, removed or moved can change (:mod:`indexer.mention_refresh`): written again
        so that the index stays equal to a full one. Empty for edits inside bodies."""
        confine = None if self.options.follow_external_symlinks else os.path.realpath(self.root)
        return self.mention_records.docs_mentioning(self.root, self.resolver.files, changed_names(changes), affected,
                                                    self.options.max_file_bytes, confine)

    def _relink_docs(self, before: frozenset[tuple[str, str]] | None, resolved: ResolvedRepository,
                     affected: set[str], refresh: set[str]) -> ResolvedRepository:
        """``resolved`` with the outputs of the doc and configuration files outside ``affected`` and
        ``refresh`` (added to ``refresh``, so that they are written) whose ``MENTIONS`` the tables and
        columns the resolve's link made or dropped can change: the linker's nodes are no definitions of
        any file (:func:`changed_names` does not see them) and are known only once it ran. ``before``:
        the resolver's :attr:`~indexer.resolve.repository.RepositoryResolver.link_names` before the
        resolve (``None``: not known, the store's are read). The ids of those no longer emitted are the
        result's ``dropped`` (no doc written links to them). ``resolved`` itself when the names did not
        change."""
        resolved, names = self._link_changes(before, resolved)
        more = self._docs_naming(names, affected | refresh)
        if not more:
            return resolved
        refresh |= more
        extra = self.resolver.resolve(sorted(more))
        outcomes = Counter(resolved.call_outcomes)
        outcomes.update(extra.call_outcomes)
        return ResolvedRepository([*resolved.files, *extra.files], dict(outcomes), resolved.link_outcomes,
                                  resolved.dropped)

    def _relinked_docs(self, before: frozenset[tuple[str, str]] | None, resolved: ResolvedRepository,
                       names: set[str], refresh: set[str]) -> ResolvedRepository:
        """A whole-tree sync's :meth:`_relink_docs`: ``resolved`` holds every file's output already, so
        the docs naming one of ``names`` (definitions that came, went or moved: :meth:`_synced_names`)
        or a table or column that did are only added to ``refresh``."""
        resolved, more = self._link_changes(before, resolved)
        refresh |= self._docs_naming(names | more, set())
        return resolved

    def _link_changes(self, before: frozenset[tuple[str, str]] | None,
                      resolved: ResolvedRepository) -> tuple[ResolvedRepository, set[str]]:
        """The short names of the tables and columns the last resolve's link made or dropped
        (:attr:`~indexer.resolve.repository.RepositoryResolver.link_names` against ``before``, the
        store's when ``None``), and ``resolved`` with the dropped ids as its ``dropped``."""
        after = self.resolver.link_names
        if after is None or after == before:
            return resolved, set()
        if before is None:
            before = stored_mentionable(self.graph, self.repo)
        gone = frozenset(i for _, i in before - after)
        return (dataclasses.replace(resolved, dropped=gone) if gone else resolved), {n for n, _ in before ^ after}

    def _docs_naming(self, names: set[str], skip: set[str]) -> set[str]:
        """The doc and configuration files but ``skip`` whose text holds one of ``names``."""
        if not names:
            return set()
        confine = None if self.options.follow_external_symlinks else os.path.realpath(self.root)
        return self.mention_records.docs_mentioning(self.root, self.resolver.files, names, skip,
                                                    self.options.max_file_bytes, confine)

    def _synced_names(self, changes: Sequence[FileChange], stored: dict[str, str], gone: Sequence[str],
                      stored_ids: Callable[[str], set[tuple[str, str]]] | None = None) -> set[str]:
        """:func:`indexer.mention_refresh.synced_names` of a whole-tree sync over the index, the index's
        nodes of a path read from the graph store (:meth:`_stored_ids`) unless ``stored_ids`` gives them."""
        seen = {c.path for c in changes}
        return synced_names(changes, stored, [p for p in gone if p not in seen], stored_ids or self._stored_ids)

    def _stored_ids(self, path: str) -> set[tuple[str, str]]:
        """``(short name, id)`` of the nodes of ``path`` the graph store holds that a mention may link to."""
        return set(mentionable(self.graph.nodes_in_file(self.repo, path)))
