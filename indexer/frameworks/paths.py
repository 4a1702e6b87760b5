"""Endpoint path limits: whether an endpoint lies under a wrapper's path limit. Split out of
:mod:`indexer.frameworks.link` (which re-exports :func:`path_under`) to keep that module under the
size limit."""

from __future__ import annotations

from stores.contracts import normalise_path

__all__ = ["path_under"]


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
