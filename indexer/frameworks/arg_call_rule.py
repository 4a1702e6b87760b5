"""The rule a call must follow to be recorded as a candidate call of a wrapper (:class:`~indexer.model.UrlArgCall`)
by the Java, Kotlin, C# and Python detectors (each reads its own syntax: ``<lang>/frameworks/arg_calls.py``), so
the linker can follow a topic or URL passed into a helper's parameter (:mod:`indexer.frameworks.topic_wrappers`,
:meth:`indexer.frameworks.clients.ClientLinks.wrapped_call`).

A call is kept (:func:`keeps`) when one of its first :data:`MAX_ARGS` arguments is a name a destination may have:
a string with no whitespace holding a letter (``"orders-created"``, ``"/api/orders"``; not a message ``"Saved
{}"`` nor an id ``"1"``), a constant's name (``ORDERS``, ``Topics.ORDERS``: an upper-case last part; or a member
of a type, ``Topics.OrderCreated``: a capitalised first part). A call handing on only a parameter of the function
around it (a wrapper of a wrapper) or a variable is not kept: the linker follows one level, and finds such calls
among the resolved call sites to keep the wrapper's own use reported. A call on a logger
(:data:`LOGGERS`) is not kept. At most :data:`MAX_PER_FILE` a file.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from indexer.model import UrlArgCall

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from indexer.model import Template, TopicUse

__all__ = ["LOGGERS", "MAX_ARGS", "MAX_PER_FILE", "arg_call", "keeps", "parameter_names", "reassigned"]

MAX_PER_FILE = 2_000
"""The most candidate calls one file records."""

MAX_ARGS = 8
"""Arguments of a call read (a later one is never a topic's place)."""

LOGGERS = frozenset({"log", "logger", "LOG", "LOGGER", "_logger", "_log", "Log", "Logger", "logging", "console",
                     "System.out", "System.err", "Console", "print", "println"})
"""Receivers (or callees) whose calls are messages, not destinations."""

_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")


def keeps(args: Sequence[Template | None]) -> bool:
    """Whether a call with these argument templates may hand a destination's name to a wrapper (module
    docstring)."""
    for t in args:
        if t is None or not t.parts:
            continue
        if len(t.parts) == 1 and t.parts[0][0] == "lit":
            text = t.parts[0][1]
            if text and not any(ch.isspace() for ch in text) and any(ch.isalpha() for ch in text):
                return True
        elif len(t.parts) == 1 and t.parts[0][0] == "ref":
            name = t.parts[0][1]
            last = name.rpartition(".")[2]
            if _CONSTANT.fullmatch(last) or ("." in name and name[:1].isupper()):
                return True
    return False


def arg_call(callee: str, args: Sequence[Template | None], caller: str | None, line: int, col: int,
             params: Collection[str]) -> UrlArgCall | None:
    """The :class:`UrlArgCall` of a call of ``callee`` (a name or dotted chain as written) with ``args`` (a
    template per argument, ``None`` for one that is no string, name or concatenation) inside ``caller`` (a
    qualname; ``None`` at top level) at ``line`` / ``col``; ``None`` when :func:`keeps` refuses it or the callee is
    a logger's. ``params``: the parameters of ``caller``, the names among the arguments recorded as
    :attr:`UrlArgCall.params`."""
    head = callee.rpartition(".")[0] or callee
    if head in LOGGERS or head.rpartition(".")[2] in LOGGERS or callee in LOGGERS:
        return None
    args = tuple(args[:MAX_ARGS])
    if not keeps(args):
        return None
    named = tuple(sorted({t for a in args if a is not None for k, t in a.parts if k == "ref" and t in params}))
    return UrlArgCall(callee, args, caller, line, col, named)


def parameter_names(topics: Sequence[TopicUse]) -> frozenset[str]:
    """The names the topic uses of a file name their destination by, alone (``send(topic, m)``): the parameters a
    detector checks for an assignment (:func:`reassigned`)."""
    return frozenset(t.topic.parts[0][1] for t in topics
                     if len(t.topic.parts) == 1 and t.topic.parts[0][0] in ("ref", "hole"))


def reassigned(topics: list[TopicUse], assigned: Collection[tuple[str | None, str, int]]) -> None:
    """Make unknown (an unnamed hole) the destination of each use in ``topics`` named by a name its function assigns
    before it: ``assigned`` holds ``(function qualname, name, line)`` of each assignment to a plain name
    (``topic = topic + ".v2"``). The caller's value is then not the one used, so no call site links it
    (:mod:`indexer.frameworks.topic_wrappers`)."""
    if not assigned:
        return
    for i, t in enumerate(topics):
        if len(t.topic.parts) != 1 or t.topic.parts[0][0] not in ("ref", "hole") or t.owner is None:
            continue
        name = t.topic.parts[0][1]
        if any(scope == t.owner and n == name and line <= t.line for scope, n, line in assigned):
            topics[i] = replace(t, topic=replace(t.topic, parts=(("hole", ""),)))
