"""Freshness: is a repository's index behind its source?

The index records, per repository, the commit and branch its source was at and when it was written
(:class:`IndexedState`; the front ends record it after every index run). :func:`check_freshness`
compares that record with the checkout on this machine and says how far behind the answers are:

* **git checkout** (``git`` subprocess calls only, no network, each bounded by a timeout): the
  commits between the indexed commit and ``HEAD`` (``git rev-list --count``) and the files they and
  the working tree changed (``git diff --name-only``). A changed file counts as *not indexed* when its
  bytes on disk differ from the index's (SHA-256, as the indexer hashes files), when it is gone from
  disk but still indexed, or when it is new and of a kind the index holds (its suffix is among the
  indexed files'). So a checkout whose files a watcher already indexed before they were committed is
  ``current`` even though ``HEAD`` moved; a commit the index has not seen is ``behind``
  ("index of billing-service is 12 commits behind HEAD (3 changed files not indexed)"). An indexed
  commit that is not an ancestor of ``HEAD`` (a branch switch, a rebase) is ``diverged``; one this
  clone does not have is ``unknown``.
* **no git** (not a repository, git missing or refusing the folder): the files under the root whose
  modification time is after the index was written and whose bytes differ from the index (a bounded
  walk: at most :data:`MAX_WALK_FILES` files, dot-folders skipped).

Nothing here raises for a bad checkout: every failure is an ``unknown`` answer with its reason.
Answers are plain data (:meth:`Freshness.as_dict`) for every front end.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stores.contracts import GraphStore
from stores.errors import StoreError

__all__ = ["SAFE_GIT_CONFIG", "IndexedState", "Freshness", "VcsHead", "vcs_head", "check_freshness", "freshness_notes",
           "GIT_TIMEOUT", "MAX_CHANGED_FILES", "MAX_WALK_FILES", "STATES"]

SAFE_GIT_CONFIG = ("-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false", "-c", "diff.external=",
                   "-c", "core.hooksPath=/dev/null", "-c", "core.sshCommand=false", "-c", "protocol.allow=never")
"""Options every ``git`` call of ripple passes (the same in ``indexer.vcs``): a checkout's own
configuration must not make reading it run a program (``core.fsmonitor``, an external diff, hooks)
or reach the network. Working-tree changes are read with the plumbing ``diff-index``, which compares
stat data only and so runs no clean filter a ``.gitattributes`` names; the index's checksums decide."""

GIT_TIMEOUT = 3.0
"""Seconds one ``git`` call may take; a slower one counts as no answer."""

MAX_CHANGED_FILES = 5000
"""Changed paths whose bytes are compared with the index; beyond, the rest are counted unchecked."""

MAX_WALK_FILES = 20000
"""Files a checkout without git is walked for, at most."""

STATES = ("current", "behind", "diverged", "changed", "unknown")
"""``current``: the index holds what is on disk; ``behind``: commits the index has not seen;
``diverged``: the indexed commit is on another line of history; ``changed``: files changed since
indexing, outside any commit (or no git); ``unknown``: cannot tell (the reason is the message)."""


@dataclass(frozen=True, slots=True)
class IndexedState:
    """What the index recorded for ``repo`` when it was last written: the folder it was indexed from
    (``root``), the git ``commit`` (40 hex digits) and ``branch`` then (``None``: not a git checkout,
    or a detached head), and ``indexed_at`` (seconds since the epoch)."""

    repo: str
    root: str | None = None
    commit: str | None = None
    branch: str | None = None
    indexed_at: float | None = None

    @classmethod
    def from_dict(cls, repo: str, data: Mapping[str, Any]) -> IndexedState:
        """From a record ``{"root", "commit", "branch", "indexed_at"}`` (keys missing or of the wrong type
        are ``None``)."""
        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) and value else None
        at = data.get("indexed_at")
        return cls(repo, text("root"), text("commit"), text("branch"),
                   float(at) if isinstance(at, (int, float)) and not isinstance(at, bool) else None)

    def as_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data (``repo`` left out: it is the record's key)."""
        return {"root": self.root, "commit": self.commit, "branch": self.branch, "indexed_at": self.indexed_at}


@dataclass(frozen=True, slots=True)
class Freshness:
    """How the index of ``repo`` compares with its checkout: ``state`` (one of :data:`STATES`), the
    commits ``behind`` (in ``HEAD``'s history, not the index's) and ``ahead`` (the other way), the
    ``changed`` files not indexed (among those checked), the commits and ``branch`` compared, and
    ``message``: one line for people, ``None`` when ``current``."""

    repo: str
    state: str
    behind: int | None = None
    ahead: int | None = None
    changed: int | None = None
    indexed_commit: str | None = None
    head_commit: str | None = None
    branch: str | None = None
    message: str | None = None

    @property
    def stale(self) -> bool:
        """Whether answers from this index may miss what is on disk (``behind``, ``diverged``, ``changed``)."""
        return self.state in ("behind", "diverged", "changed")

    def as_dict(self) -> dict[str, Any]:
        """``{repo, state, behind, ahead, changed, indexed_commit, head_commit, branch, message}``."""
        return {"repo": self.repo, "state": self.state, "behind": self.behind, "ahead": self.ahead,
                "changed": self.changed, "indexed_commit": self.indexed_commit, "head_commit": self.head_commit,
                "branch": self.branch, "message": self.message}


@dataclass(frozen=True, slots=True)
class VcsHead:
    """A git checkout's ``commit`` (``HEAD``, 40 hex digits) and ``branch`` (``None``: detached)."""

    commit: str
    branch: str | None


def _git(root: Path, *args: str, timeout: float = GIT_TIMEOUT) -> str | None:
    """``git -C root ARGS``'s standard output, ``None`` when git is missing, fails, or runs out of time.
    No prompt, no optional lock (a read must not block a concurrent commit), no pager, C locale."""
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C", "GIT_PAGER": "cat"}
    try:
        done = subprocess.run(["git", "-C", str(root), *SAFE_GIT_CONFIG, *args], capture_output=True, timeout=timeout,
                              env=env,
                              stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "surrogateescape")


def vcs_head(root: str | Path, timeout: float = GIT_TIMEOUT) -> VcsHead | None:
    """The git ``HEAD`` of the checkout at ``root`` and its branch; ``None`` when ``root`` is not in a
    git checkout (or git is missing, refuses the folder, or takes longer than ``timeout`` seconds).
    Never raises."""
    root = Path(root)
    commit = _git(root, "rev-parse", "--verify", "-q", "HEAD", timeout=timeout)
    if commit is None or len(commit.strip()) < 40:
        return None
    branch = _git(root, "symbolic-ref", "--short", "-q", "HEAD", timeout=timeout)
    return VcsHead(commit.strip(), branch.strip() or None if branch is not None else None)


def _digest(path: Path) -> str | None:
    """SHA-256 of the regular file ``path``'s bytes (how the indexer hashes files), ``None`` when it is
    no regular file or cannot be read."""
    try:
        if not path.is_file():
            return None
        h = hashlib.sha256()
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    except OSError:
        return None


def _not_indexed(root: Path, paths: Iterable[str], indexed: Mapping[str, str]) -> tuple[int, int]:
    """``(files whose disk state the index does not hold, paths left unchecked)`` among ``paths``
    (relative, ``/``-separated): an indexed file whose bytes differ or that is gone; a file not indexed
    whose suffix is among the indexed files' (a new source file)."""
    suffixes = {os.path.splitext(p)[1] for p in indexed if os.path.splitext(p)[1]}
    count = unchecked = 0
    for n, rel in enumerate(dict.fromkeys(paths)):
        if n >= MAX_CHANGED_FILES:
            unchecked += 1
            continue
        path = root / rel
        if rel in indexed:
            if _digest(path) != indexed[rel]:
                count += 1
        elif os.path.splitext(rel)[1] in suffixes and path.is_file():
            count += 1
    return count, unchecked


def _lines(text: str | None) -> list[str]:
    return [line for line in (text or "").splitlines() if line]


def _short(commit: str | None) -> str:
    return commit[:10] if commit else "?"


def _files(n: int) -> str:
    return f"{n} changed file{'s' if n != 1 else ''} not indexed"


def check_freshness(graph: GraphStore, recorded: IndexedState, root: str | Path | None = None,
                    timeout: float = GIT_TIMEOUT) -> Freshness:
    """Compare the index of ``recorded.repo`` in ``graph`` with the checkout at ``root`` (default: the
    recorded root; a workspace folder may be another clone of the same repository). Reads the index's
    file checksums (one ``file_checksums`` call) and runs at most five ``git`` calls of ``timeout``
    seconds each. Never raises: a store that fails, a root that is not on this machine or a record
    without commit or time give ``unknown`` with the reason."""
    repo = recorded.repo
    where = Path(root) if root is not None else (Path(recorded.root) if recorded.root else None)
    if where is None or not where.is_dir():
        return Freshness(repo, "unknown", indexed_commit=recorded.commit, branch=recorded.branch,
                         message=f"freshness of {repo} unknown: its source is not on this machine")
    try:
        indexed = graph.file_checksums(repo)
    except StoreError as exc:
        return Freshness(repo, "unknown", indexed_commit=recorded.commit, branch=recorded.branch,
                         message=f"freshness of {repo} unknown: {exc}")
    head = vcs_head(where, timeout)
    if head is None:
        return _by_mtime(where, recorded, indexed)
    base = Freshness(repo, "current", 0, 0, 0, recorded.commit, head.commit, head.branch)
    worktree = _lines(_git(where, "diff-index", "--name-only", "--no-renames", "HEAD", timeout=timeout))
    untracked = _lines(_git(where, "ls-files", "--others", "--exclude-standard", timeout=timeout))
    if recorded.commit is None:
        if recorded.indexed_at is None:
            return Freshness(repo, "unknown", head_commit=head.commit, branch=head.branch,
                             message=f"freshness of {repo} unknown: its index records no commit (index it again)")
        return _by_mtime(where, recorded, indexed)
    if recorded.commit == head.commit:
        changed, _ = _not_indexed(where, [*worktree, *untracked], indexed)
        if not changed:
            return base
        return Freshness(repo, "changed", 0, 0, changed, recorded.commit, head.commit, head.branch,
                         f"index of {repo} is behind its working tree ({_files(changed)})")
    counts = _git(where, "rev-list", "--left-right", "--count", f"{recorded.commit}...HEAD", timeout=timeout)
    parts = counts.split() if counts is not None else []
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return Freshness(repo, "unknown", indexed_commit=recorded.commit, head_commit=head.commit, branch=head.branch,
                         message=f"freshness of {repo} unknown: its indexed commit {_short(recorded.commit)} is not "
                                 "in this clone (fetch, or index it again)")
    ahead, behind = int(parts[0]), int(parts[1])
    committed = _lines(_git(where, "diff-tree", "-r", "--name-only", "--no-renames", recorded.commit, "HEAD",
                            timeout=timeout))
    changed, unchecked = _not_indexed(where, [*committed, *worktree, *untracked], indexed)
    changed += unchecked
    if not changed:  # HEAD moved, but the index already holds every file it changed (a watcher saw them)
        return Freshness(repo, "current", behind, ahead, 0, recorded.commit, head.commit, head.branch)
    if ahead:
        message = (f"index of {repo} was made at commit {_short(recorded.commit)}, on another line of history than "
                   f"HEAD ({behind} commit{'s' if behind != 1 else ''} behind, {ahead} ahead; {_files(changed)})")
        return Freshness(repo, "diverged", behind, ahead, changed, recorded.commit, head.commit, head.branch, message)
    message = f"index of {repo} is {behind} commit{'s' if behind != 1 else ''} behind HEAD ({_files(changed)})"
    return Freshness(repo, "behind", behind, 0, changed, recorded.commit, head.commit, head.branch, message)


def _by_mtime(root: Path, recorded: IndexedState, indexed: Mapping[str, str]) -> Freshness:
    """Freshness of a checkout without git: files modified after ``recorded.indexed_at`` whose bytes the
    index does not hold (a bounded walk, dot-folders skipped)."""
    repo = recorded.repo
    if recorded.indexed_at is None:
        return Freshness(repo, "unknown", message=f"freshness of {repo} unknown: not a git checkout and its index "
                                                  "records no time")
    newer: list[str] = []
    seen = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "node_modules"]
        for name in filenames:
            seen += 1
            if seen > MAX_WALK_FILES:
                break
            path = Path(dirpath) / name
            try:
                if path.stat().st_mtime > recorded.indexed_at:
                    newer.append(path.relative_to(root).as_posix())
            except OSError:
                continue
        if seen > MAX_WALK_FILES:
            break
    gone = [p for p in indexed if not (root / p).exists()]
    changed, _ = _not_indexed(root, [*newer, *gone], indexed)
    if not changed:
        return Freshness(repo, "current", changed=0)
    age = max(0.0, time.time() - recorded.indexed_at)
    return Freshness(repo, "changed", changed=changed,
                     message=f"index of {repo} is behind its folder ({_files(changed)}; indexed {_ago(age)})")


def _ago(seconds: float) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''} ago"
    return "just now"


def freshness_notes(answers: Iterable[Freshness]) -> list[str]:
    """The messages of the stale answers (``behind``, ``diverged``, ``changed``), in order: the note lines
    front ends show."""
    return [f.message for f in answers if f.stale and f.message]
