"""The repository registry as the indexer writes it: which key a repository (and branch) is indexed
under, and its ``Repository`` entry after a run.

Repository identity is (name, branch). The *key* is what every node, edge, file record and chunk
of the repository carries as ``repo`` and what its node ids start with: the bare ``name`` for the
repository's default branch (the first branch indexed under that name; so every id indexed before
branches existed keeps its value), ``name@branch`` for any other branch (git refuses ``:`` in a branch name, so
``name@branch:path.Qual.name`` still splits at the first ``:``). ARCHITECTURE.md ("Repository
registry") says why the branch is in the key. Imports only the store contracts and :mod:`indexer.vcs`.
"""

from __future__ import annotations

import time
from dataclasses import replace
from collections.abc import Mapping, Sequence
from pathlib import Path

from indexer.run import IndexOptions
from indexer.vcs import VcsState, git_state
from stores.contracts import APPLICATIONS_PROP, GraphStore, RepositoryRecord, SearchIndex
from stores.gateway import GATEWAY_ROUTES_PROP, GatewayRoute, routes_to_json

__all__ = ["BRANCH_SEPARATOR", "repository_key", "branch_identity", "record_repository", "repository_gateways", "refresh_counts",
           "refresh_all_counts"]

BRANCH_SEPARATOR = "@"


def repository_key(entries: Sequence[RepositoryRecord], name: str, branch: str | None) -> tuple[str, bool]:
    """``(key, default)`` repository ``name`` on ``branch`` is indexed under, given the registry's
    ``entries``: the entry of that name and branch if there is one; else, with no entry of that
    name, ``name`` itself (this branch becomes the default); else, for ``branch=None``, the default
    entry's key; else ``name@branch`` (not the default)."""
    mine = [r for r in entries if r.name == name]
    if not mine:
        return name, True
    for r in mine:
        if r.branch == branch:
            return r.key, r.default
    if branch is None:
        default = next((r for r in mine if r.default), mine[0])
        return default.key, default.default
    return f"{name}{BRANCH_SEPARATOR}{branch}", False


def refresh_counts(graph: GraphStore, search: SearchIndex, key: str) -> RepositoryRecord | None:
    """Rewrite the counts of entry ``key`` (after embedding, say); ``None`` when there is no entry."""
    counts = _counts(graph, search, key)  # first: the entry is read just before it is written
    entry = next((r for r in graph.repositories() if r.key == key), None)
    if entry is None:
        return None
    updated = replace(entry, counts=counts)
    graph.upsert_repository(updated)
    return updated


def refresh_all_counts(graph: GraphStore, search: SearchIndex) -> int:
    """Rewrite the counts of every registry entry (after ``ripple embed``, whose vectors belong to no
    one repository); returns the number of entries rewritten. Raises what the stores raise."""
    done = 0
    for key in [r.key for r in graph.repositories()]:  # each entry read again just before it is written:
        done += refresh_counts(graph, search, key) is not None  # one removed meanwhile is not brought back
    return done


def repository_gateways(configured: Sequence[GatewayRoute] | None,
                        code: Sequence[GatewayRoute] | None) -> list[GatewayRoute] | None:
    """The API gateway routes a registry entry records (:func:`record_repository`'s ``gateways``): the
    ``configured`` ones (:attr:`indexer.frameworks.link_options.LinkOptions.gateways`, ``None`` before any
    sync), then those the ``code`` declares as the last link in this process read them
    (:attr:`indexer.resolve.repository.RepositoryResolver.code_gateways`); ``None`` (the entry keeps what
    it holds) when either is ``None``: no link ran, so nothing the routes come from changed."""
    if configured is None or code is None:
        return None
    return [*configured, *code]


def record_repository(graph: GraphStore, search: SearchIndex, root: Path, options: IndexOptions,
                      vcs: VcsState | None = None, applications: Mapping[str, str] | None = None,
                      gateways: Sequence[GatewayRoute] | None = None) -> RepositoryRecord:
    """Write (create or update) the registry entry of ``options.repo`` after a run over ``root``:
    name and branch from ``options`` (an existing entry keeps its own), product, root, what git says
    (``vcs``, read now when ``None``), the time, and the counts the stores hold now. The entry's
    ``props`` are kept; ``applications`` (``{folder: name}``, the folders naming the repository's
    applications: :meth:`indexer.frameworks.link_options.LinkOptions.applications`), when given,
    replaces ``props["applications"]`` (an empty map removes it; impact analysis names the application of every code node it
    reaches from it). ``gateways`` (the repository's API gateway routes,
    :attr:`indexer.frameworks.link_options.LinkOptions.gateways`), when given, replaces
    ``props["gateway_routes"]`` (:func:`stores.gateway.routes_to_json`; none removes it): impact
    analysis follows a request path through them. Returns the entry written. Raises what the stores raise."""
    vcs = git_state(root) if vcs is None else vcs
    entries = graph.repositories()
    existing = next((r for r in entries if r.key == options.repo), None)
    name = existing.name if existing else (options.name or options.repo)
    if existing is not None:
        branch, default = existing.branch, existing.default
    else:
        branch = options.branch if options.branch is not None else vcs.branch
        default = not any(r.name == name and r.default for r in entries)
    record = RepositoryRecord(
        key=options.repo, name=name, product=options.product or (existing.product if existing else name),
        root=str(root), branch=branch, default=default, remote=vcs.remote, commit=vcs.commit,
        indexed_at=time.time(), counts=_counts(graph, search, options.repo),
        props=dict(existing.props) if existing else {})
    if applications:
        record.props[APPLICATIONS_PROP] = dict(applications)
    elif applications is not None:  # nothing names an application: the same as no record
        record.props.pop(APPLICATIONS_PROP, None)
    if gateways:
        record.props[GATEWAY_ROUTES_PROP] = routes_to_json(gateways)
    elif gateways is not None:
        record.props.pop(GATEWAY_ROUTES_PROP, None)
    graph.upsert_repository(record)
    return record


def _counts(graph: GraphStore, search: SearchIndex, key: str) -> dict[str, int]:
    counts = dict(graph.repository_counts(key))
    chunks = search.repository_chunk_count(key)
    counts.update(chunks=chunks["chunks"], vectors=chunks["embedded"])
    return counts


def branch_identity(entries: Sequence[RepositoryRecord], name: str, branch: str | None,
                    root: Path) -> tuple[str, str, str | None]:
    """``(key, name, branch)`` a run over folder ``root`` as repository ``name`` writes: ``branch``
    when given, else the checkout's current branch (``None`` when not a git checkout or detached);
    ``name`` given as the key of another branch's entry (``shop@dev``) means that entry's name."""
    name = next((r.name for r in entries if r.key == name), name)
    if branch is None:
        branch = git_state(root).branch
    key, _ = repository_key(entries, name, branch)
    return key, name, branch
