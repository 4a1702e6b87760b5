"""Path pieces of the linker: whether an endpoint lies under a wrapper's path limit, how two path
pieces join, and what an unknown value glued to a path segment leaves. Split out of
:mod:`indexer.frameworks.link` (which re-exports :func:`path_under`) to keep that module under the
size limit."""

from __future__ import annotations

import re

from indexer.frameworks.clients import HOLE
from stores.contracts import normalise_path

__all__ = ["join_paths", "path_under", "unglue_holes"]

_GLUED = re.compile(f"(?:(?<=/)|^){HOLE}+(?=[^/{HOLE}])")
"""A run of unknown values at the start of a path segment, followed by literal text in it."""
_TRAILING = re.compile(f"(?:(?<=/)|^){HOLE}+$")


def path_under(path: str, prefix: str) -> bool:
    """Whether the endpoint path ``path`` lies under the wrapper path limit ``prefix`` (both as
    written; empty ``prefix``: no limit). Both are normalised (:func:`stores.contracts.normalise_path`);
    a ``{}`` / ``*`` / ``**`` segment of the prefix matches any one segment, and a trailing run of them is
    dropped (``/api/*``, ``/api/**`` and ``/api`` limit alike). ``/api`` holds ``/api`` and
    ``/api/x``, not ``/apix``."""
    want = [seg for seg in normalise_path(prefix).split("/") if seg]
    while want and want[-1] in ("{}", "*", "**"):
        want.pop()
    have = [seg for seg in normalise_path(path).split("/") if seg]
    if len(have) < len(want):
        return False
    return all(w in ("{}", "*", "**") or w == h for w, h in zip(want, have))


def join_paths(a: str, b: str) -> str:
    """Join two path pieces with exactly one ``/`` between them when both are non-empty."""
    if not a:
        return b
    if not b:
        return a
    return a.rstrip("/") + "/" + b.lstrip("/")


def unglue_holes(path: str, glued_to_next: bool = False) -> str:
    """``path`` (rendered, unknown values as :data:`~indexer.frameworks.clients.HOLE`) without the
    unknown values that start a segment glued to literal text: ``f"{prefix}ping/"`` with ``prefix`` a
    setting is served at ``/ping/`` when the prefix is empty (the default of that idiom: the prefix is
    whole segments or nothing); kept, ``{}ping`` would be a segment no request ever matches, and a
    whole ``{}`` segment would match any. ``glued_to_next``: the path is a prefix that Django
    concatenates to its child patterns (``path(prefix, include(...))``), so a trailing unknown value
    starting a segment is glued to what follows and dropped too. An unknown value that is a segment
    of its own (``/{}/items``) or follows literal text (``/v{}``) stays."""
    path = _GLUED.sub("", path)
    return _TRAILING.sub("", path) if glued_to_next else path
