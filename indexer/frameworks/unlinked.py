"""Client calls the framework linker could not join to an endpoint or topic, kept so they can be listed.

The index report counts them by reason (``not linked, by reason: url 12, graphql_document 3``); this
module makes each one a fact of the index: an ``UNLINKED`` edge from the calling code (the enclosing
definition, or the File node for module-level code) to the shared ``Unlinked`` node of its reason
(:func:`stores.contracts.unlinked_id`: ``unlinked:url``), at the call, owned by the calling file. An
incremental run re-links a file's calls as it re-links its linked ones, and replacing the file
replaces its edges, so the list stays what a full run would give. Props (kept small: issue 19 caps
the index size): ``call`` (the method and URL template, the service and rpc, the operation or the
broker and topic, as far as they are known; unknown pieces ``{}``), ``framework``, and ``candidates``
(at most :data:`MAX_CANDIDATES`: the endpoints or topics the linker could not choose between, or the
names that nearly matched) only when there are some. :mod:`analysis.unlinked` reads them.

Only client calls are kept: an HTTP request, a generated API client's operation, a gRPC stub call, a
GraphQL operation run by code, a producer's or consumer's queue use. Registrations the linker could
not place (handlers, wrappers, mounts, table uses) stay counts.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from stores.contracts import Node, unlinked_id

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["MAX_CANDIDATES", "MAX_CALL_TEXT", "NEAREST_MEMO", "Miss", "UnlinkedLinks", "nearest"]

MAX_CANDIDATES = 5
"""Candidates kept on one unlinked call."""
MAX_CALL_TEXT = 300
"""A call's text longer than this is cut (ending in ``…``): a URL built from a long literal."""


class Miss(Protocol):
    """The linker's :meth:`UnlinkedLinks.unlinked`, handed to the linking functions of other modules."""

    def __call__(self, fc: FileCtx, src: str, line: int, col: int, reason: str, call: str, framework: str,
                 candidates: Iterable[str] = ()) -> None:
        """Record one unlinked client call of ``fc`` from node ``src`` at ``line`` / ``col``."""


NEAREST_MEMO = 32
"""Answers of :func:`nearest` kept (least recently used dropped): the same unlinked name is met at many
calls (Django 5.2.8: 25 route names unlinked, 14 distinct, each compared with the 1,629 route names:
about 40 ms of difflib a call), and the names it is compared with are the same for a whole link."""


def nearest(wanted: str, names: Iterable[str]) -> list[str]:
    """The names most like ``wanted`` (:func:`difflib.get_close_matches`, ratio 0.6 and up), best first,
    at most :data:`MAX_CANDIDATES`: what a call naming no endpoint or topic may have meant. A pure
    function of ``wanted`` and the set of ``names``, memoised (:data:`NEAREST_MEMO`)."""
    return list(_nearest(wanted, tuple(sorted(set(names)))))


@functools.lru_cache(maxsize=NEAREST_MEMO)
def _nearest(wanted: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`nearest` of the sorted distinct ``names``, uncached."""
    return tuple(difflib.get_close_matches(wanted, names, n=MAX_CANDIDATES))


class UnlinkedLinks:
    """Recording of unlinked client calls, mixed into the linker (which provides ``result``, ``_emit``
    and ``_edge``)."""

    result: Any

    def unlinked(self, fc: FileCtx, src: str, line: int, col: int, reason: str, call: str, framework: str,
                 candidates: Iterable[str] = ()) -> None:
        """Count ``reason`` (``unlinked_url``) in the link's outcomes and write the call's ``UNLINKED``
        edge from ``src`` (a node id of ``fc``) at ``line`` / ``col`` (see the module docstring)."""
        self.result.outcomes[reason] += 1
        uid = unlinked_id(reason)
        name = uid.partition(":")[2]
        self._emit(fc, uid, Node(uid, "Unlinked", name, name, "", "", 0, 0, 0, 0, {}))  # type: ignore[attr-defined]
        text = call if len(call) <= MAX_CALL_TEXT else call[:MAX_CALL_TEXT] + "\u2026"
        near = list(dict.fromkeys(candidates))[:MAX_CANDIDATES]
        self._edge(fc, "UNLINKED", src, uid, line, col, call=text, framework=framework,  # type: ignore[attr-defined]
                   candidates=near or None)
