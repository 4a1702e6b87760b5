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

import fnmatch
import os
import re
from bisect import bisect_left
from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.model import STRINGS
from indexer.resolve.hierarchy import descendants
from indexer.resolve.multimap import every
from indexer.resolve.values import ClassV, Def, InstV, ModuleV

if TYPE_CHECKING:
    from indexer.model import CallSite
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver

__all__ = ["MAX_EXPANDED", "MAX_PATTERN_TARGETS", "pattern_affixes", "pattern_globs", "pattern_matcher", "pattern_regex",
           "pattern_targets", "read_references"]

MAX_PATTERN_TARGETS = 64
"""Methods one pattern call binds at most (a visitor of a large grammar has a few dozen)."""


MAX_EXPANDED = 256
"""Glob patterns one name pattern expands into at most (:func:`pattern_regex`)."""

_GROUP = re.compile(r"<([^<>]*)>")
_CASES = {"lower": str.lower, "upper": str.upper, "casefold": str.casefold}


def pattern_regex(pattern: str) -> re.Pattern[str]:
    """The regular expression of ``pattern``, to be matched against a method's name with ``fullmatch``:
    ``render_*``, ``*`` any text (method names are identifiers); ``add_<get|post>``, one of the
    alternatives; a reference left in a group (``<=m.X>``, not read: :func:`pattern_targets` reads it
    first) is ``*``; an empty group ``<>`` matches nothing. The alternatives are expanded into plain
    glob patterns (at most :data:`MAX_EXPANDED`; past that every group reads as ``*``), each translated
    by :func:`fnmatch.translate`, whose wildcards cannot backtrack into each other (CPython bpo-40480):
    ``"a*" * 12 + "a"`` against ``"a" * 36 + "b"`` took 61 s as ``a\\w*a\\w*...`` (exponential in the
    wildcards), microseconds so."""
    return _compiled(pattern_globs(pattern))


def _compiled(globs: list[str]) -> re.Pattern[str]:
    """The regular expression of the expanded ``globs`` (:func:`pattern_regex`)."""
    return re.compile("|".join(fnmatch.translate(g) for g in globs) if globs else "(?!)")


def pattern_globs(pattern: str) -> list[str]:
    """The plain glob patterns ``pattern``'s alternatives expand into (:func:`pattern_regex`):
    ``["add_get", "add_post"]`` of ``add_<get|post>``, ``["on_*"]`` of ``on_<=m.X>``, ``[]`` of ``x<>``;
    past :data:`MAX_EXPANDED`, one pattern with every group ``*``. A pattern call expands it once
    (:func:`_matching` hands the list to both the matcher and the affixes)."""
    choices: list[list[str]] = []
    pos = 0
    for m in _GROUP.finditer(pattern):
        choices.append([pattern[pos:m.start()]])
        alts = m.group(1)
        choices.append(["*"] if alts.startswith("=") else list(dict.fromkeys(a for a in alts.split("|") if a)))
        pos = m.end()
    choices.append([pattern[pos:]])
    globs = [""]
    for options in choices:
        globs = [g + o for g in globs for o in options]
        if len(globs) > MAX_EXPANDED:
            return [_GROUP.sub("*", pattern)]
    return globs


def pattern_affixes(pattern: str) -> tuple[str, str]:
    """The literal text every name ``pattern`` matches (:func:`pattern_regex`) starts and ends with:
    ``("render_", "")`` of ``render_*``, ``("", "_handler")`` of ``<get|post>_handler``; ``("", "")``
    when none (``*``, or nothing matches)."""
    return _affixes(pattern_globs(pattern))


def _affixes(globs: list[str]) -> tuple[str, str]:
    """:func:`pattern_affixes` of the expanded ``globs``."""
    if not globs:
        return "", ""
    heads = [g.split("*", 1)[0] for g in globs]
    tails = [g.rsplit("*", 1)[-1] if "*" in g else g for g in globs]
    return os.path.commonprefix(heads), os.path.commonprefix([t[::-1] for t in tails])[::-1]


def pattern_matcher(pattern: str) -> Callable[[str], bool]:
    """A test of a method name against ``pattern`` (:func:`pattern_regex`'s answers). The shape the
    extractor writes, one group of plain alternatives between fixed text (``on_<v0|v1|...>``), is
    tested by its fixed ends and a set of the alternatives, at any number of them: a ``for`` over a
    tuple of 100,000 strings expanded past :data:`MAX_EXPANDED` and read as ``on_*`` (every ``on_``
    method bound), and one regular expression of 100,000 alternatives takes seconds to compile (7 s;
    brk52). Any other pattern: :func:`pattern_regex`'s ``fullmatch``."""
    return _matcher(pattern, None)


def _matcher(pattern: str, globs: list[str] | None) -> Callable[[str], bool]:
    """:func:`pattern_matcher`; ``globs``: ``pattern``'s :func:`pattern_globs` when already expanded."""
    groups = list(_GROUP.finditer(pattern))
    body = groups[0].group(1) if len(groups) == 1 else ""
    if len(groups) != 1 or "*" in pattern or body[:1] in ("=", "."):
        rx = _compiled(pattern_globs(pattern) if globs is None else globs)
        return lambda name: rx.fullmatch(name) is not None
    head, tail = pattern[:groups[0].start()], pattern[groups[0].end():]
    alts = frozenset(a for a in body.split("|") if a)
    low = len(head) + len(tail)

    def match(name: str) -> bool:
        return len(name) > low and name.startswith(head) and name.endswith(tail) \
            and name[len(head):len(name) - len(tail)] in alts
    return match


def read_references(r: Resolver, fc: FileCtx, scope: str | None, pattern: str, line: int) -> str:
    """``pattern`` with each reference group ``<=hdrs.METH_ALL:lower>`` replaced by the strings that
    module constant holds (its ``strings`` binding, written by the Python extractor for a module-level
    collection of string literals), through the case calls named; a reference not read so stays ``*``.
    Shape: ``add_<get|post>``; a group left empty (no value is an identifier) matches nothing."""
    def one(m: re.Match[str]) -> str:
        body = m.group(1)
        if body.startswith("."):
            return _attribute_values(r, fc, body)
        if not body.startswith("="):
            return m.group(0)
        ref, *cases = body[1:].split(":")
        head, _, name = ref.rpartition(".")
        v = r.resolve_expr_at(fc, scope, head, line) if head else None
        if not isinstance(v, ModuleV):
            return "*"
        for mf in r.module_files(v.ns, v.key):
            r.use(("file", mf.path, ""))
            found = mf.bindings.get((None, name))
            held = [b for b in found if b.how == STRINGS] if found else []
            if held:
                return "<" + "|".join(_cased(held[-1].type.split("|"), cases)) + ">"
        return "*"
    return _GROUP.sub(one, pattern) if "<=" in pattern or "<." in pattern else pattern


def _cased(values: list[str], cases: list[str]) -> list[str]:
    """``values`` through the case calls ``cases`` (``lower`` ...), those of identifier characters, each
    once, in order (a set of those kept: a module's 100,000-string constant was quadratic, brk52)."""
    out: dict[str, None] = {}
    for s in values:
        for c in cases:
            s = _CASES[c](s) if c in _CASES else s
        if s not in out and re.fullmatch(r"\w+", s):
            out[s] = None
    return list(out)


def _attribute_values(r: Resolver, fc: FileCtx, body: str) -> str:
    """The group of an attribute alternative ``.vendor[:case...]``: the literal strings the
    repository's classes set ``vendor`` to in their bodies (their string constants ``C.vendor``,
    found through :meth:`~indexer.resolve.interpreter.Resolver.constant_files` by ``.vendor``), as
    ``<mysql|sqlite>``; none: ``*``."""
    attr, *cases = body[1:].split(":")
    values: list[str] = []
    for cf in r.constant_files(fc.rules.namespace, "." + attr):
        for k in cf.ex.constants:
            if k.qualname.rpartition(".")[2] == attr and "." in k.qualname and all(kind == "lit" for kind, _ in k.value.parts):
                values.append("".join(t for _, t in k.value.parts))
    found = _cased(values, cases)
    return "<" + "|".join(found) + ">" if found else "*"


def _fits(d: Def, arity: int) -> bool:
    """Whether a call of ``arity`` arguments (``-1``: unknown) fits ``d``'s parameters (the call
    binder's rule, :func:`indexer.resolve.calls.arity_ok`, which imports this module). Below ``-1``,
    ``-2 - n``: ``n`` positional arguments and a ``**kwargs`` spread
    (:func:`indexer.languages.python.getattr_calls.keyword_spread`): ``d`` takes ``n`` positional
    arguments and needs no more than ``n`` (a spread passes options: aiohttp's ``reg(path, handler,
    **kwargs)`` is no ``add_route(method, path, handler)``)."""
    hi = d.shape.max_arity
    if arity < -1:
        arity = -2 - arity
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
    read = read_references(r, fc, scope, cs.name, cs.line)
    out = _matching(r, cls, below, read, cs.arity)
    if not out and "<." in cs.name:  # the attribute's strings name none of the methods: not its values
        out = _matching(r, cls, below, _GROUP.sub(_loose, cs.name), cs.arity)
    return out or None


def _loose(m: re.Match[str]) -> str:
    """An attribute alternative read as ``*``, the others kept."""
    return "*" if m.group(1).startswith(".") else m.group(0)


def _matching(r: Resolver, cls: Def, below: bool, pattern: str, arity: int) -> list[tuple[Def, str]]:
    """The methods of ``cls``'s MRO (and, ``below``, its subclasses) whose names match ``pattern``
    (:func:`pattern_matcher`) and that take ``arity`` arguments (:func:`_fits`), nearest definition of a
    name first, each ``inferred``; at most :data:`MAX_PATTERN_TARGETS`. Each class's methods are read
    through its name index (:func:`_name_index`): only those whose names carry the pattern's literal
    prefix (else suffix, :func:`pattern_affixes`) are matched, so N patterns over a class of N
    methods cost about N log N, not N x N regular-expression matches."""
    globs = pattern_globs(pattern)  # expanded once, for both
    match = _matcher(pattern, globs)
    head, tail = _affixes(globs)
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
        for d in _candidates(r, c, head, tail):
            if not match(d.name) or not _fits(d, arity):
                continue
            if i < n_mro:
                if d.name in seen_names:
                    continue
                seen_names.add(d.name)
            out.append((d, "inferred"))
            if len(out) >= MAX_PATTERN_TARGETS:
                return out
    return out


class _NameIndex:
    """A class's callable members (source order) with their names sorted forwards and reversed, as
    ``(name, position)``: the members whose names start (end) with a text are a range of one list."""

    __slots__ = ("defs", "forward", "backward")

    def __init__(self, defs: list[Def]) -> None:
        self.defs = defs
        self.forward = sorted((d.name, i) for i, d in enumerate(defs))
        self.backward = sorted((d.name[::-1], i) for i, d in enumerate(defs))


def _name_index(r: Resolver, c: Def) -> _NameIndex:
    """``c``'s :class:`_NameIndex`, built once per class and kept in the resolver's memo (so what it
    read is replayed and a change of ``c``'s file builds it again)."""
    def build() -> _NameIndex:
        r.use(("file", c.file.path, ""))
        return _NameIndex([d for d in every(c.members) if d.is_callable])
    return r.memoised((id(c.file), "pattern-names", c.qualname), build)


def _candidates(r: Resolver, c: Def, head: str, tail: str) -> list[Def]:
    """``c``'s callable members whose names start with ``head`` (else, ``head`` empty, end with
    ``tail``; both empty: all), in source order."""
    index = _name_index(r, c)
    if index is None:  # the memo cut a cycle (never one here): read the members directly
        return [d for d in every(c.members) if d.is_callable]
    if not head and not tail:
        return index.defs
    keys, text = (index.forward, head) if head else (index.backward, tail[::-1])
    found: list[int] = []
    for k in range(bisect_left(keys, (text, -1)), len(keys)):
        name, pos = keys[k]
        if not name.startswith(text):
            break
        found.append(pos)
    return [index.defs[p] for p in sorted(found)]
