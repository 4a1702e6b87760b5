"""Calls of a method looked up by a name pattern (:attr:`indexer.model.CallSite.via` ``"pattern"``,
Python's ``getattr(self, "render_" + name)()``: :mod:`indexer.languages.python.getattr_calls`): the
methods of the receiver's class whose names match, ``inferred`` (which one runs depends on the value).

Which classes: the receiver's class and its MRO (nearest definition of each name first, as attribute
lookup finds it), and, for an instance whose class is not known exactly (``self`` in a method: any
subclass's instance), the subclasses below it too (a dispatcher in a base class, handlers in
subclasses: ``ast.NodeVisitor.visit`` and its visitors), at most
:data:`~indexer.resolve.hierarchy.MAX_HIERARCHY_DEPTH` levels and :data:`MAX_PATTERN_TARGETS`
targets. A receiver that is a class (``getattr(cls, "on_" + k)``) reads the same classes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.resolve.hierarchy import descendants
from indexer.resolve.multimap import every
from indexer.resolve.values import ClassV, Def, InstV

if TYPE_CHECKING:
    from indexer.model import CallSite
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver

__all__ = ["MAX_PATTERN_TARGETS", "pattern_targets", "pattern_regex"]

MAX_PATTERN_TARGETS = 64
"""Methods one pattern call binds at most (a visitor of a large grammar has a few dozen)."""


def pattern_regex(pattern: str) -> re.Pattern[str]:
    """The regular expression of ``pattern`` (``render_*``: ``*`` any identifier characters)."""
    return re.compile(r"\w*".join(re.escape(p) for p in pattern.split("*")))


def _fits(d: Def, arity: int) -> bool:
    """Whether a call of ``arity`` arguments (negative: unknown) fits ``d``'s parameters (the call
    binder's rule, :func:`indexer.resolve.calls.arity_ok`, which imports this module)."""
    hi = d.shape.max_arity
    return arity < 0 or (d.shape.min_arity <= arity and (hi is None or arity <= hi))


def pattern_targets(r: Resolver, fc: FileCtx, cs: CallSite, scope: str | None) -> list[tuple[Def, str]] | None:
    """The methods the pattern call ``cs`` (in ``scope`` of ``fc``) may reach (module docstring), each
    ``inferred``; ``None`` when the receiver is no repository class or instance or nothing matches."""
    if cs.receiver is None:
        return None
    v = r.resolve_expr_at(fc, scope, cs.receiver, cs.line)
    if isinstance(v, InstV):
        cls, below = v.c, not v.concrete
    elif isinstance(v, ClassV):
        cls, below = v.c, v.dynamic
    else:
        return None
    match = pattern_regex(cs.name).fullmatch
    classes = list(r.classes.mro(cls))
    n_mro = len(classes)
    if below:
        in_mro = {id(c) for c in classes}
        classes.extend(s for s in descendants(cls) if id(s) not in in_mro)
    out: list[tuple[Def, str]] = []
    seen_names: set[str] = set()  # in the MRO, the nearest definition of a name hides the others
    for i, c in enumerate(classes):
        r.use(("file", c.file.path, ""))
        r.use(("n", c.file.rules.namespace, "^" + c.name))
        for d in every(c.members):
            if not d.is_callable or not match(d.name) or not _fits(d, cs.arity):
                continue
            if i < n_mro:
                if d.name in seen_names:
                    continue
                seen_names.add(d.name)
            out.append((d, "inferred"))
            if len(out) >= MAX_PATTERN_TARGETS:
                return out
    return out or None
