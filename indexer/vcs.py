"""What git says about a folder: remote, commit, branch (for the repository registry).

Every call runs ``git`` as a subprocess with a timeout (:data:`GIT_TIMEOUT` seconds), a clean
environment for prompts (``GIT_TERMINAL_PROMPT=0``) and no pager; a folder that is not inside a git
work tree, a missing ``git`` binary, a timeout or any failure gives ``None`` fields, never an error.
Imports nothing of the package.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

__all__ = ["GIT_TIMEOUT", "SAFE_GIT_CONFIG", "VcsState", "git_state", "git_output"]

GIT_TIMEOUT = 5.0
"""Seconds one git command may take before it is abandoned (a network file system, a huge repository)."""


@dataclass(frozen=True, slots=True)
class VcsState:
    """``remote``: the URL of ``origin`` (else of the first remote), with any ``user:password@``
    removed; ``commit``: the full hash of ``HEAD``; ``branch``: the checked-out branch (``None`` on a
    detached HEAD). All ``None`` when the folder is not in a git work tree."""

    remote: str | None = None
    commit: str | None = None
    branch: str | None = None


SAFE_GIT_CONFIG = ("-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false", "-c", "diff.external=",
                   "-c", "core.hooksPath=/dev/null", "-c", "core.sshCommand=false", "-c", "protocol.allow=never")
"""Options every ``git`` call passes (the same in ``analysis.freshness``): a checkout's own
configuration must not make reading it run a program or reach the network."""


def git_output(root: Path, *args: str, timeout: float = GIT_TIMEOUT) -> str | None:
    """``git -C root ARGS`` stripped stdout, or ``None`` when git fails, is missing or times out."""
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "LC_ALL": "C"}
    try:
        done = subprocess.run(["git", "-C", str(root), *SAFE_GIT_CONFIG, *args], capture_output=True, timeout=timeout,
                              env=env,
                              stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    text = done.stdout.decode("utf-8", "replace").strip()
    return text or None


def _without_credentials(url: str) -> str:
    """``https://user:token@host/x`` -> ``https://host/x`` (a token never goes into the registry)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    host, slash, path = rest.partition("/")
    return f"{scheme}://{host.rpartition('@')[2]}{slash}{path}"


def git_state(root: Path) -> VcsState:
    """The :class:`VcsState` of folder ``root`` (see the class). At most four git commands, each
    bounded by :data:`GIT_TIMEOUT`."""
    if git_output(root, "rev-parse", "--is-inside-work-tree") != "true":
        return VcsState()
    commit = git_output(root, "rev-parse", "--verify", "-q", "HEAD")
    branch = git_output(root, "symbolic-ref", "-q", "--short", "HEAD")
    remotes = (git_output(root, "remote") or "").split()
    remote = None
    if remotes:
        name = "origin" if "origin" in remotes else remotes[0]
        url = git_output(root, "remote", "get-url", name)
        remote = _without_credentials(url) if url else None
    return VcsState(remote=remote, commit=commit, branch=branch)
