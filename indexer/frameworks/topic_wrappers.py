"""Topics passed into a helper's parameter: ``void publish(String topic, Object m) { kafka.send(topic, m); }``
called as ``publish("orders", m)`` produces to ``orders`` where it is called.

A *topic wrapper* is a function or method whose :class:`~indexer.model.TopicUse` names its destination by one of
the function's own parameters, exactly (the topic template is that one name: a ``ref`` piece, or the named
``hole`` Java's templates write for a parameter; a detector writes an unnamed hole for a parameter assigned again
before the use, :func:`indexer.frameworks.arg_call_rule.reassigned`), the name unknown where it is
written (a parameter given a value in the body, or a local of the same name, renders to that value and is no
wrapper), not assigned again in the function before the use (a :class:`~indexer.model.Binding` of that name in
the function's scope other than its declaration), and the use neither a named consumer (``target``) nor a Spring
Cloud Stream binding. Each call site the resolver binds to such a function
(:meth:`~indexer.resolve.language.Lookup.call_targets`: across files, through instances, and through an interface or
base class to the wrapper overriding it), whose candidate call (a :class:`~indexer.model.UrlArgCall` the language
detectors record: a call passing a literal or a constant's name, :mod:`indexer.frameworks.arg_call_rule`) gives an
argument in the parameter's place that renders to a name with no unknown piece (a literal, a constant, a
configuration key), is the same use at the call site: the caller produces (or consumes) that destination, the edge
``match`` ``inferred`` and ``via`` the wrapper's qualname. One level deep: a wrapper of a wrapper (``send(t)``
calling ``publish(t)``) is not followed.
The wrapper's own use is not linked nor reported unlinked once some call serves it and none it could not serve
(a call site with no candidate call: a variable or a parameter passed; an argument not given, or rendered with an
unknown piece).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from indexer.model import CallSite, Template, TopicUse, UrlArgCall

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup

__all__ = ["TopicWrappers", "WrappedUse", "find_wrappers", "wrapped_uses"]

HOLE = "\x00"

Render = Callable[["FileCtx", "str | None", Template], str]


@dataclass(slots=True)
class TopicWrappers:
    """The topic wrappers of a repository by their function's ``(path, qualname)``: per wrapper, each
    ``(parameter index, parameter name, use)``; ``served`` / ``failed``: the ``id`` of the wrapper uses some call
    served / some resolved call could not serve."""

    by_function: dict[tuple[str, str], list[tuple[int, str, TopicUse]]] = field(default_factory=dict)
    served: set[int] = field(default_factory=set)
    failed: set[int] = field(default_factory=set)

    def silent(self, use: TopicUse) -> bool:
        """Whether the wrapper's own ``use`` is neither linked nor reported: calls served it, none failed."""
        return id(use) in self.served and id(use) not in self.failed


@dataclass(frozen=True, slots=True)
class WrappedUse:
    """A wrapper's use at one call site: ``use`` (the call's position, caller and argument as its topic) in the
    calling file ``fc``; ``via`` the wrapper's qualname."""

    fc: FileCtx
    use: TopicUse
    via: str


def find_wrappers(ctxs: Sequence[FileCtx], render: Render) -> TopicWrappers:
    """The topic wrappers of ``ctxs`` (module docstring): a use whose topic is exactly a parameter of its owner,
    unknown where it is written and not assigned again before the use."""
    found: dict[tuple[str, str], list[tuple[int, str, TopicUse]]] = defaultdict(list)
    for fc in ctxs:
        for use in fc.ex.topics:
            parts = use.topic.parts
            if use.owner is None or use.target is not None or use.binding is not None or len(parts) != 1:
                continue
            kind, name = parts[0]
            if kind not in ("ref", "hole") or not name or "." in name:  # (Java writes a parameter as a named hole)
                continue
            rd = fc.def_at(use.owner, use.line)
            if rd is None or not rd.is_callable:
                continue
            names = [p.name for p in rd.d.params]
            if name not in names or render(fc, use.owner, use.topic) != HOLE:
                continue
            if any(b.scope == use.owner and b.name == name and b.how != "declared" and b.line <= use.line
                   for b in fc.ex.bindings):
                continue  # `topic = prefix(topic)` before the use: not the caller's value
            found[(fc.path, rd.qualname)].append((names.index(name), name, use))
    return TopicWrappers(dict(found))


def wrapped_uses(r: Lookup, ctxs: Sequence[FileCtx], wrappers: TopicWrappers, render: Render) -> list[WrappedUse]:
    """The uses the calls of ``wrappers`` make (module docstring), in file order; marks each wrapper use
    served or failed in ``wrappers``. The calls are the call sites of the repository named as a wrapper is,
    bound by the resolver (:meth:`~indexer.resolve.language.Lookup.call_targets`: a call through an interface or
    base class reaches the wrapper overriding it); each reads its arguments from the candidate call
    (:class:`~indexer.model.UrlArgCall`) written on its line with that name. A call site with none (a variable
    or a parameter handed on: a wrapper of a wrapper, one level only) serves nothing and fails the wrapper."""
    if not wrappers.by_function:
        return []
    short = {qualname.rpartition(".")[2] for _, qualname in wrappers.by_function}
    out: list[WrappedUse] = []
    for fc in ctxs:
        candidates: dict[tuple[int, str], list[UrlArgCall]] = defaultdict(list)
        for call in fc.ex.url_arg_calls:
            name = call.callee.rpartition(".")[2]
            if name in short:
                candidates[(call.line, name)].append(call)
        for site in fc.ex.calls:
            if site.name not in short or site.via is not None:
                continue
            keys = _targets(r, fc, site, wrappers)
            if not keys:
                continue
            calls = [c for c in candidates.get((site.line, site.name), ()) if c.caller == site.caller]
            for key in keys:
                for index, _, use in wrappers.by_function[key]:
                    served = False
                    for call in calls[:1]:
                        arg = call.args[index] if index < len(call.args) else None
                        name = render(fc, call.caller, arg) if arg is not None and arg.parts else ""
                        if not name or HOLE in name:
                            continue
                        served = True
                        out.append(WrappedUse(fc, replace(use, topic=arg, owner=call.caller, line=site.line,
                                                          col=site.col), key[1]))
                    (wrappers.served if served else wrappers.failed).add(id(use))
    return out


def _targets(r: Lookup, fc: FileCtx, site: CallSite, wrappers: TopicWrappers) -> list[tuple[str, str]]:
    """The wrappers (``(path, qualname)``) the call site ``site`` of ``fc`` binds to."""
    try:
        found = r.call_targets(fc, site)
    except (RecursionError, ValueError):
        return []
    keys = []
    for d, _ in found:
        key = (d.file.path, d.qualname)
        if d.file.repo == r.repo and key in wrappers.by_function and key not in keys:
            keys.append(key)
    return keys
