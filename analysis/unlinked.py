"""Unlinked client calls: the HTTP requests, gRPC stub calls, GraphQL operations and queue uses the
framework linker could not join to an endpoint or topic, with where they are and why. One analysis
behind every front end (``ripple unlinked``, the MCP tool ``unlinked``, the REST route ``/v1/unlinked``,
:meth:`analysis.agent_queries.AgentQueries.unlinked`).

The index holds each one as an ``UNLINKED`` edge from the calling code to the shared ``Unlinked`` node
of its reason (:mod:`indexer.frameworks.unlinked`; ids ``unlinked:url``, ``unlinked:grpc_ambiguous``,
...). The reason says what was missing:

* ``url``: the URL names no path the linker could read (``"http://" + host``: only the host, unknown);
* ``url_ambiguous``: the URL's start is unknown (``${base}/orders``) and several endpoints end with its known
  end (the candidates);
* ``operation`` / ``operation_no_spec``: a generated API client's operation no OpenAPI spec declares;
* ``grpc_no_proto`` / ``grpc_ambiguous`` / ``grpc_rpc``: no ``.proto`` declares the service, several
  do (the candidates), or the service has no rpc of that name;
* ``graphql_document`` / ``graphql_no_schema``: the document run was not found, or no schema declares
  the root field;
* ``topic`` / ``task`` / ``binding``: a topic whose name is unknown, a Celery ``.delay`` on no task, a
  Spring Cloud Stream binding the configuration does not declare.

Store calls: two (one :meth:`~stores.contracts.GraphStore.incoming_window` of the reasons' nodes, by id:
:data:`stores.contracts.UNLINKED_REASONS`, which reads each reason's first ``limit`` calls and counts the
rest, so that a list of 20 out of 100,000 costs 20 edges, not 100,000 (``incoming`` when there is no limit);
one :meth:`~stores.contracts.GraphStore.get_nodes` for the callers shown), plus
:meth:`~stores.contracts.GraphStore.repositories` when filtered by product.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from analysis.endpoints import one_line
from analysis.navigation import dotted_name
from stores.contracts import UNLINKED_REASONS, GraphStore, Node, unlinked_id

__all__ = ["UnlinkedCall", "UnlinkedList", "unlinked_calls", "unlinked_line", "unlinked_text", "REASON_KINDS"]

REASON_KINDS = {"url": "http", "url_ambiguous": "http", "route_name": "http", "route_name_ambiguous": "http", "operation": "http",
                "operation_no_spec": "http", "grpc_no_proto": "grpc",
                "grpc_ambiguous": "grpc", "grpc_rpc": "grpc", "graphql_document": "graphql",
                "graphql_no_schema": "graphql"}
"""The kind of call (``http``, ``grpc``, ``graphql``) of each reason; any other reason is a queue use
(``queue``)."""


@dataclass(frozen=True, slots=True)
class UnlinkedCall:
    """One unlinked call: where (``repo``, ``path``, ``line`` and ``col`` 1-based), from which code
    (``caller`` id and display ``name``; a file's top-level code is the file's name), what it names
    (``call``: ``POST http://{}``, ``GRPC OrderService/Get``, ``produces celery cleanup``), the
    ``reason`` (without ``unlinked_``), the ``kind`` (:data:`REASON_KINDS`), the ``framework`` that
    read it and the ``candidates`` the linker had (nearest endpoints or topics; may be empty)."""

    repo: str
    path: str
    line: int
    col: int
    caller: str
    name: str
    call: str
    reason: str
    kind: str
    framework: str
    candidates: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{repo, path, line, col, caller, name, call, reason, kind, framework, candidates}``."""
        return {"repo": self.repo, "path": self.path, "line": self.line, "col": self.col, "caller": self.caller,
                "name": self.name, "call": self.call, "reason": self.reason, "kind": self.kind,
                "framework": self.framework, "candidates": list(self.candidates)}


@dataclass(frozen=True, slots=True)
class UnlinkedList:
    """The answer: the ``calls`` shown (by repository, path, line, column), ``total`` matching the
    filters, ``left_out`` beyond the page (after ``offset`` + the calls shown), ``by_reason`` (``{reason: n}``
    over all that match, most first), the filters it was made with (``repo``, ``product``, ``reason``) and
    ``offset``, the calls skipped before the page."""

    calls: list[UnlinkedCall] = field(default_factory=list)
    total: int = 0
    left_out: int = 0
    by_reason: dict[str, int] = field(default_factory=dict)
    repo: str | None = None
    product: str | None = None
    reason: str | None = None
    offset: int = 0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{calls: [...], total, left_out, by_reason, repo, product, reason, offset}``."""
        return {"calls": [c.as_dict() for c in self.calls], "total": self.total, "left_out": self.left_out,
                "by_reason": dict(self.by_reason), "repo": self.repo, "product": self.product, "reason": self.reason,
                "offset": self.offset}


def unlinked_calls(graph: GraphStore, repo: str | None = None, product: str | None = None,
                   reason: str | None = None, limit: int | None = None, offset: int = 0) -> UnlinkedList:
    """The unlinked client calls of the index (of ``repo``, of the repositories of ``product``, of one
    ``reason`` such as ``url`` or ``unlinked_url`` when given), sorted by (repo, path, line, col, reason,
    caller id), the first ``offset`` of that order skipped, then at most ``limit`` (``None``: all; a reason not
    among :data:`stores.contracts.UNLINKED_REASONS` lists nothing). Pages are stable: the order is total (two
    calls differ in place, reason or caller), so ``offset=0, limit=n`` then ``offset=n, limit=n`` list the
    first ``2n`` calls once each while the index does not change. A page costs the ``offset + limit`` first
    calls of each reason, not all of them. Raises ``ValueError`` for a ``limit`` or ``offset`` below 0 (or
    not an integer); store errors propagate. An index written before unlinked calls were kept has none to list
    (``ripple index --full`` writes them)."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise ValueError(f"limit must be 0 or more, not {limit!r}")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise ValueError(f"offset must be 0 or more, not {offset!r}")
    wanted = reason.strip().removeprefix("unlinked_") if reason else None
    reasons = [r for r in UNLINKED_REASONS if wanted is None or r == wanted]
    if not reasons:
        return UnlinkedList(repo=repo, product=product, reason=wanted, offset=offset)
    repos: set[str] | None = None
    if product is not None:
        repos = {r.key for r in graph.repositories() if r.product == product}
    if repo is not None:
        repos = {repo} if repos is None or repo in repos else set()
    ids = [unlinked_id(r) for r in reasons]
    if limit is None:
        ins = graph.incoming(ids, ["UNLINKED"])
        window = {i: (len(es), es) for i, es in ((i, [e for e in ins.get(i, ()) if repos is None or e.repo in repos])
                                                  for i in ids)}
    else:  # each reason's first ``offset + limit`` calls hold the first ``offset + limit`` of all (the store's
        # order within one reason is this one's); the rest are counted
        window = graph.incoming_window(ids, ["UNLINKED"], offset + limit, repos)
    edges = [(r, e) for r in reasons for e in window.get(unlinked_id(r), (0, []))[1]]
    edges.sort(key=lambda p: (p[1].repo, p[1].file, p[1].line, p[1].col, p[0], p[1].src))
    shown = edges[offset:] if limit is None else edges[offset:offset + limit]
    callers = graph.get_nodes(sorted({e.src for _, e in shown})) if shown else {}
    calls = [_call(why, e, callers.get(e.src)) for why, e in shown]
    counts = Counter({r: n for r in reasons for n in [window.get(unlinked_id(r), (0, []))[0]] if n})
    total = sum(counts.values())
    by_reason = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return UnlinkedList(calls, total, max(0, total - offset - len(shown)), by_reason, repo, product, wanted, offset)


def _call(reason: str, e: Any, caller: Node | None) -> UnlinkedCall:
    if caller is None:
        name = e.src
    elif caller.label == "File":
        name = caller.file.rsplit("/", 1)[-1]
    else:
        name = dotted_name(caller)
    cands = e.props.get("candidates") or ()
    return UnlinkedCall(e.repo, e.file, e.line, e.col + 1, e.src, name, str(e.props.get("call", "")), reason,
                        REASON_KINDS.get(reason, "queue"), str(e.props.get("framework", "")),
                        tuple(str(c) for c in cands) if isinstance(cands, list) else ())


def unlinked_line(call: dict[str, Any], several: bool = False) -> str:
    """One line for an unlinked call (:meth:`UnlinkedCall.as_dict`): ``PATH:LINE  CALL  (reason; in
    NAME; candidates: A, B)``, the path prefixed by its repository when the list spans ``several``."""
    where = f"{call['repo']}:{call['path']}" if several else call["path"]
    near = f"; candidates: {', '.join(call['candidates'])}" if call["candidates"] else ""
    return one_line(f"{where}:{call['line']}  {call['call']}  ({call['reason']}; in {call['name']}{near})")


def unlinked_text(data: dict[str, Any]) -> list[str]:
    """The markdown of an unlinked-call list (:meth:`UnlinkedList.as_dict`, perhaps fewer calls than it
    counts): a heading with the counts by reason, one :func:`unlinked_line` per call."""
    shown = data["calls"]
    several = len({c["repo"] for c in shown}) > 1
    first = data.get("offset", 0)
    count = f"{len(shown)} of {data['total']}" if len(shown) < data["total"] else f"{data['total']}"
    if first and shown:
        count = f"{first + 1}-{first + len(shown)} of {data['total']}"
    lines = [f"# Unlinked calls ({count})", ""]
    if data["by_reason"]:
        lines += ["By reason: " + ", ".join(f"{k} {v}" for k, v in data["by_reason"].items()), ""]
    if not shown:
        narrowed = data["total"] or data.get("repo") or data.get("product") or data.get("reason")
        lines.append("No unlinked calls match." if narrowed else
                     "No unlinked client calls are indexed: every HTTP, gRPC, GraphQL and queue call found was linked.")
    lines += [f"- {unlinked_line(c, several)}" for c in shown]
    if data["left_out"]:
        lines += ["", f"{data['left_out']} more beyond the limit: raise it, page on with offset "
                      f"{first + len(shown)}, or narrow with repo / product / reason."]
    return lines
