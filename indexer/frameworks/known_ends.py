"""Client requests whose URL starts with an unknown piece, linked by the end of it that is known.

``fetch(`${base}/api/orders/${id}`)`` with ``base`` an environment variable or a parameter, or JHipster's
``getEndpointFor('api/register')`` whose prefix is set at run time (``${this.endpointPrefix}api/register``):
:func:`~indexer.frameworks.clients.split_url` keeps of such a URL what follows its first ``/`` after the unknown
start (``/api/orders/{}``, ``/register``), which the application may serve under a prefix the base holds
(``/v1/api/orders/{}``) or, for a piece glued to the unknown start, as a longer segment (``/api/register``). After
linking, :func:`retarget_known_ends` points each such ``CALLS_HTTP`` edge whose endpoint the repository does not
expose at the one exposed endpoint of the same method whose path ends with the URL's known end, segment by segment
from the first literal segment on: that segment equal to a literal segment of the endpoint (when glued to the
unknown start, the end of it: ``api`` ends ``api``), each later one equal or either a ``{}``. The edge keeps
its ``url`` and gains ``known_end: true``. When several exposed endpoints end so, which one the request reaches
is not known: the edge is returned to the caller, which writes the request as unlinked (``url_ambiguous``,
the endpoints as candidates). A known end no exposed endpoint ends with leaves the edge as it was, but for one
whose first segment, glued to the unknown start, is a plain path word (``{}management/health``: letters, digits,
``-``, ``_``, ``~``; not ``{}:8080/api``): that word is taken for a whole segment (the base ends at a ``/``, as
JHipster's ``endpointPrefix`` does) instead of being dropped, so the request reaches ``/management/health``, not
``/health``. A known end of unknown pieces only is left as it was. Only the endpoints exposed in the linked files are candidates (one repository per link
run), and a template made of holes only (``/{}``) is none.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.frameworks.unlinked import MAX_CANDIDATES
from stores.contracts import GRAPHQL_OPERATIONS, GRPC_METHOD

if TYPE_CHECKING:
    from stores.contracts import Edge, Node

__all__ = ["Ambiguous", "MAX_COMPARED", "known_end", "retarget_known_ends"]

MAX_COMPARED = 5_000
"""The most exposed endpoints one request is compared with; a request with more candidates (a known end of one
glued word in a repository of thousands of routes) is left as it was."""

_HOLE = "{}"
_FEW = 16
"""Up to this many candidates, a request is compared with each (:func:`_ends`); more are indexed (:class:`_View`)."""
_WORD = re.compile(r"[A-Za-z0-9_~-]+")

Ambiguous = tuple[str, "Edge", list[str]]
"""A request :func:`retarget_known_ends` took out: ``(file path, its CALLS_HTTP edge, the first endpoint ids it may
reach)``."""


def known_end(url: str) -> tuple[list[str], bool] | None:
    """``(segments, glued)`` of the known end of a request's URL as shown (unknown pieces ``{}``) when it
    starts with an unknown piece: the segments after that start, without query or fragment, and whether
    the first of them is glued to the unknown start (``{}api/users`` -> ``(["api", "users"], True)``,
    ``{}/api/orders/{}`` -> ``(["api", "orders", "{}"], False)``); ``None`` when the URL has a known start
    or no literal segment follows."""
    if not url.startswith(_HOLE):
        return None
    rest = url
    while rest.startswith(_HOLE):
        rest = rest[len(_HOLE):]
    rest = rest.split("?", 1)[0].split("#", 1)[0]
    glued = not rest.startswith("/")
    segments = [s for s in rest.strip("/").split("/")]
    if not rest.strip("/") or all(_HOLE in s for s in segments):
        return None
    return segments, glued


def _split(eid: str) -> tuple[str, list[str]] | None:
    method, _, path = eid.removeprefix("endpoint:").partition(" ")
    if method in GRAPHQL_OPERATIONS or method == GRPC_METHOD or not path.startswith("/"):
        return None
    segments = path.strip("/").split("/")
    if all(s == _HOLE for s in segments):
        return None
    return method, segments


def _ends(template: list[str], end: list[str], glued: bool) -> bool:
    """Whether the endpoint's path segments ``template`` end with the known ``end``: the first literal segment
    of ``end`` against a literal segment of the template (its end, when glued), each later one equal or either
    a ``{}`` (``{}/items`` does not end ``/orders/{}``: a path variable takes no known end's first segment)."""
    if len(template) < len(end):
        return False
    tail = template[len(template) - len(end):]
    anchored = False
    for i, (t, s) in enumerate(zip(tail, end)):
        if _HOLE in s:
            continue
        if not anchored:
            if t == _HOLE or not (t.endswith(s) if i == 0 and glued else t == s):
                return False
            anchored = True
        elif t != _HOLE and t != s:
            return False
    return anchored


class _View:
    """The templates one known end is compared with (:func:`_candidates`' list, in its order), indexed so that a
    request is matched by a few bit operations instead of a comparison per template: bit ``k`` of a mask stands
    for ``templates[k]``. ``at[back][segment]``: the templates having ``segment`` at ``back`` places from the end;
    ``longer(n)``: those of at least ``n`` segments; ``ending(back, word)``: those whose literal segment at
    ``back`` ends with ``word`` (a glued first segment), found by bisecting the reversed distinct segments."""

    def __init__(self, templates: list[tuple[list[str], str]]) -> None:
        self.templates = templates
        self.at: list[dict[str, int]] = []
        for k, (segments, _) in enumerate(templates):
            bit = 1 << k
            while len(self.at) < len(segments):
                self.at.append({})
            for back, seg in enumerate(reversed(segments)):
                row = self.at[back]
                row[seg] = row.get(seg, 0) | bit
        self._longer: dict[int, int] = {}
        self._reversed: dict[int, list[str]] = {}
        self._ending: dict[tuple[int, str], int] = {}

    def longer(self, n: int) -> int:
        """The mask of the templates of at least ``n`` segments (computed once per ``n``)."""
        if n not in self._longer:
            self._longer[n] = sum(1 << k for k, (segments, _) in enumerate(self.templates) if len(segments) >= n)
        return self._longer[n]

    def ending(self, back: int, word: str) -> int:
        """The mask of the templates whose segment ``back`` places from the end is no ``{}`` and ends with
        ``word`` (computed once per pair): the distinct segments there, reversed and sorted, have ``word``
        reversed as a prefix in one run found by bisection."""
        key = (back, word)
        if key not in self._ending:
            row = self.at[back] if back < len(self.at) else {}
            if back not in self._reversed:
                self._reversed[back] = sorted(s[::-1] for s in row if s != _HOLE)
            rev = self._reversed[back]
            prefix, mask = word[::-1], 0
            for k in range(bisect.bisect_left(rev, prefix), len(rev)):
                if not rev[k].startswith(prefix):
                    break
                mask |= row[rev[k][::-1]]
            self._ending[key] = mask
        return self._ending[key]

    def matches(self, end: list[str], glued: bool, limit: int) -> list[str]:
        """The ids of the templates ending with ``end`` (:func:`_ends`), in this view's order, at most ``limit``."""
        mask = self.longer(len(end))
        anchored = False
        for i, seg in enumerate(end):
            if _HOLE in seg:
                continue
            back = len(end) - 1 - i
            if not anchored:
                anchored = True
                row = self.at[back] if back < len(self.at) else {}
                mask &= self.ending(back, seg) if i == 0 and glued else row.get(seg, 0)
            else:
                row = self.at[back]
                mask &= row.get(seg, 0) | row.get(_HOLE, 0)
            if not mask:
                return []
        out: list[str] = []
        while mask and len(out) < limit:
            low = mask & -mask
            out.append(self.templates[low.bit_length() - 1][1])
            mask ^= low
        return out


def _candidates(by_method: dict[str, list[tuple[list[str], str]]],
                by_segment: dict[tuple[str, int, str], list[tuple[list[str], str]]],
                method: str, end: list[str], glued: bool) -> tuple[tuple[str, ...], list[list[tuple[list[str], str]]]]:
    """The templates of ``method`` that may end with ``end``, as ``(key, parts)``: the view's key and the lists
    whose concatenation it is. Those holding its first literal segment (which :func:`_ends` anchors on a literal
    segment) at its place from the end; when that segment is the glued first one (matched by its end), those
    holding the next literal segment or a ``{}`` at its place; every template of the method when there is no
    next one."""
    for i, seg in enumerate(end):
        if _HOLE in seg:
            continue
        back = len(end) - 1 - i
        if i > 0 or not glued:
            return ("at", method, str(back), seg), [by_segment.get((method, back, seg), [])]
        for j in range(1, len(end)):  # glued: the next literal segment, equal to the template's or to its `{}`
            if _HOLE not in end[j]:
                back = len(end) - 1 - j
                return (("or", method, str(back), end[j]),
                        [by_segment.get((method, back, end[j]), []), by_segment.get((method, back, _HOLE), [])])
        break
    return ("all", method), [by_method.get(method, [])]


def retarget_known_ends(nodes: dict[str, list[Node]], edges: dict[str, list[Edge]],
                        whole: Callable[[str, str, str], str]) -> tuple[int, list[Ambiguous]]:
    """Retarget, in place, the ``CALLS_HTTP`` edges of ``edges`` (per file path) whose URL starts with an unknown
    piece and whose endpoint no file exposes to the one exposed endpoint ending with the URL's known end (module
    docstring); take out those several endpoints end with, and drop from ``nodes`` the Endpoint nodes no edge
    of their file points to any more. ``whole(file path, method, path)``: the id of the endpoint a request of a
    glued plain word reaches (the caller makes its node). Returns how many edges moved to an exposed endpoint and
    the ones taken out, each with the first :data:`~indexer.frameworks.unlinked.MAX_CANDIDATES` endpoints (in id
    order within each list of :func:`_candidates`), all an unlinked call keeps. Each request may reach the exposed
    endpoints of its method holding its first literal segment at the same place from the end
    (:func:`_candidates`); more than ``MAX_COMPARED`` of them leave it as it was (counted before any list is
    built). Those lists are indexed once as a :class:`_View`, so that a request costs a few bit operations on
    masks of at most ``MAX_COMPARED`` bits, not a comparison per endpoint (100,000 requests against one list of
    5,000 endpoints: see docs/benchmarks.md, "Session 66, r66d")."""
    exposed = {e.dst for file_edges in edges.values() for e in file_edges if e.kind == "EXPOSES"}
    by_method: dict[str, list[tuple[list[str], str]]] = defaultdict(list)
    # (method, segments from the end, segment) -> the templates having it there: a known end is compared only
    # with the templates holding its first literal segment at its place (not every template of its method)
    by_segment: dict[tuple[str, int, str], list[tuple[list[str], str]]] = defaultdict(list)
    for eid in sorted(exposed):
        split = _split(eid)
        if split is not None:
            by_method[split[0]].append((split[1], eid))
            for back, seg in enumerate(reversed(split[1])):
                by_segment[(split[0], back, seg)].append((split[1], eid))
    views: dict[tuple[str, ...], _View] = {}
    limit = max(MAX_CANDIDATES, 2)  # two tell an ambiguous request from a linked one
    moved = 0
    taken: list[Ambiguous] = []
    for path, file_edges in edges.items():
        changed = False
        kept: list[Edge] = []
        for e in file_edges:
            end = known_end(str(e.props.get("url") or "")) if e.kind == "CALLS_HTTP" and e.dst not in exposed else None
            if end is None:
                kept.append(e)
                continue
            method = e.dst.removeprefix("endpoint:").partition(" ")[0]
            key, parts = _candidates(by_method, by_segment, method, *end)
            if sum(len(p) for p in parts) > MAX_COMPARED:
                kept.append(e)
                continue
            if sum(len(p) for p in parts) <= _FEW:
                found = [eid for p in parts for tsegs, eid in p if _ends(tsegs, *end)][:limit]
            else:
                view = views.get(key)
                if view is None:
                    view = views[key] = _View([t for p in parts for t in p])
                found = view.matches(*end, limit)
            if len(found) == 1:
                kept.append(dataclasses.replace(e, dst=found[0], props={**e.props, "known_end": True}))
                moved += 1
                changed = True
            elif len(found) > 1:
                taken.append((path, e, found))
                changed = True
            elif end[1] and _WORD.fullmatch(end[0][0]):
                dst = whole(path, method, "/" + "/".join(end[0]))
                kept.append(dataclasses.replace(e, dst=dst) if dst != e.dst else e)
                changed = changed or dst != e.dst
            else:
                kept.append(e)
        if changed:
            file_edges[:] = kept
            used = {e.dst for e in kept} | {e.src for e in kept}
            nodes[path] = [n for n in nodes.get(path, ()) if n.label != "Endpoint" or n.id in used]
    return moved, taken
