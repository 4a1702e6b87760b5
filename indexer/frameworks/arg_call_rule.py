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

The detectors record these calls as :attr:`~indexer.model.FileExtraction.arg_candidates`, not as
:attr:`~indexer.model.FileExtraction.url_arg_calls`: a repository's :class:`CandidateGate` copies into
``url_arg_calls`` only the calls whose callee is named as one of the repository's possible wrappers is
(:func:`wrapper_names`: a function whose topic or HTTP request names one of its own names). A file calling no such
name then has no framework fact for them, so it is not one of the files every link reads and an incremental
relink costs what it did without candidates (session 68: on Django the candidate calls of 46 files made an
interface edit's relink 0.9 -> 5 s).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from indexer.model import UrlArgCall

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Sequence

    from indexer.model import FileExtraction, Template, TopicUse

__all__ = ["LOGGERS", "MAX_ARGS", "MAX_PER_FILE", "CandidateGate", "arg_call", "keeps", "parameter_names", "reassigned",
           "wrapper_names"]

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


def _short(qualname: str) -> str:
    """The last name of a qualname, without a signature or type arguments (``Publisher.publish(String,Object)``
    -> ``publish``)."""
    return qualname.split("(", 1)[0].rpartition(".")[2].split("<", 1)[0]


def _callee_name(callee: str) -> str:
    """The name a callee written as ``recv.name`` / ``super().name`` / ``Send<T>`` calls (``name``, ``Send``)."""
    return callee.rpartition(".")[2].split("<", 1)[0].split("(", 1)[0]


def wrapper_names(ex: FileExtraction) -> frozenset[str]:
    """The last names of the functions of ``ex`` that may be wrappers: the owner of a topic use named by one plain
    name (``send(topic, m)``: :mod:`indexer.frameworks.topic_wrappers`) and the caller of an HTTP request whose
    URL holds a plain name or whose method is a parameter (a client template:
    :meth:`indexer.frameworks.clients.ClientLinks.client_templates`). A superset: whether the name is a parameter
    the linker checks."""
    names: set[str] = set()
    for t in ex.topics:
        parts = t.topic.parts
        if t.owner is not None and t.target is None and t.binding is None and len(parts) == 1 \
                and parts[0][0] in ("ref", "hole") and parts[0][1] and "." not in parts[0][1]:
            names.add(_short(t.owner))
    for c in ex.http_calls:
        if c.caller is not None and (c.method_param or any(k == "ref" and "." not in v for k, v in c.url.parts)):
            names.add(_short(c.caller))
    return frozenset(names)


class CandidateGate:
    """A repository's possible wrapper names (:func:`wrapper_names`, counted per file) and the gate they make:
    :meth:`gate` sets a file's :attr:`~indexer.model.FileExtraction.url_arg_calls` to those of its
    :attr:`~indexer.model.FileExtraction.arg_candidates` whose callee's last name is one of them (a file with no
    candidates keeps its own ``url_arg_calls``: ECMAScript's and Go's detectors write those directly)."""

    __slots__ = ("_by_file", "_counts")

    def __init__(self) -> None:
        self._by_file: dict[str, frozenset[str]] = {}
        self._counts: dict[str, int] = {}

    @property
    def names(self) -> frozenset[str]:
        """The names some held file's function has."""
        return frozenset(self._counts)

    def update(self, given: Iterable[FileExtraction], gone: Iterable[str]) -> bool:
        """Count the names of the files ``given`` (replacing what their paths counted) and forget those of the
        paths ``gone``; gate each file given. Returns whether :attr:`names` changed (then every other held file is
        to be gated again)."""
        given = list(given)
        before = self.names
        for path in [*gone, *(ex.path for ex in given)]:
            for name in self._by_file.pop(path, ()):
                left = self._counts[name] - 1
                if left:
                    self._counts[name] = left
                else:
                    del self._counts[name]
        for ex in given:
            names = wrapper_names(ex)
            if names:
                self._by_file[ex.path] = names
                for name in names:
                    self._counts[name] = self._counts.get(name, 0) + 1
        changed = self.names != before
        for ex in given:
            self.gate(ex)
        return changed

    def gate(self, ex: FileExtraction) -> bool:
        """Set ``ex.url_arg_calls`` from its candidates (class docstring); whether they changed."""
        if not ex.arg_candidates:
            return False
        kept = [c for c in ex.arg_candidates if _callee_name(c.callee) in self._counts]
        if kept == ex.url_arg_calls:
            return False
        ex.url_arg_calls = kept
        return True
