"""Go type texts as comparable keys: what "identical types" means for the implicit interfaces of
:mod:`indexer.resolve.structural` (the Go specification's "Type identity": two named types are
identical when they are the same type declaration; composite types when built alike from identical
element types).

A key is a string built from the type text written in a file, each named type replaced by where it
is declared:

* a named type of the repository: ``<package folder>:<Name>`` (``internal/trainer/app/command:MakeHoursAvailable``),
  unqualified names from the file's own package, ``pkg.T`` from the folder the import bound to ``pkg``
  names (the longest ``go.mod`` module path prefixing the import path); only when that folder declares
  the type (``known(folder, name)``): a type alias (``type A = B``, not a definition here) or a name
  the convention binds wrongly is unknown, never a mismatch;
* a type of a package outside the repository: ``<import path>.<Name>`` (``context.Context``);
* a predeclared type as written (``error``, ``string``, ``int``), ``byte`` / ``rune`` as the ``uint8`` /
  ``int32`` they alias; ``interface{}`` is ``any``;
* a type parameter of the scope: ``$<index>`` (``$0`` for ``C`` in ``CommandHandler[C any]``, or in a
  method of ``commandLoggingDecorator[C]``), so an instantiation's arguments substitute by position;
* ``*K``, ``[]K``, ``[N]K``, ``map[K]V`` and ``N[A,B]`` (a generic instantiation) from their parts.

``None`` stands for a type not understood (function, channel and struct types, an unqualified name
in a file with a dot import, a qualifier bound to no import): the comparison falls back to the
parameter count there.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence

from indexer.model import Definition
from indexer.resolve.context import FileCtx
from indexer.resolve.multimap import every

__all__ = ["GoTypeKeys", "split_top", "type_parameters"]

_NAMED = re.compile(r"^([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?")
_PREDECLARED = frozenset({
    "bool", "byte", "rune", "string", "error", "any", "comparable", "int", "int8", "int16", "int32", "int64",
    "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "float32", "float64", "complex64", "complex128"})
_OPEN = {"(": ")", "[": "]", "{": "}"}
_ALIASES = {"byte": "uint8", "rune": "int32"}
"""The predeclared aliases (the Go specification's "Numeric types": ``byte`` is ``uint8``, ``rune`` is
``int32``): identical types, one key."""


def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at ``sep`` outside brackets: ``"a, m map[K]V, f func(x, y int)"`` -> three items
    (stripped; empty items dropped)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in _OPEN:
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return [x for x in out if x]


def _group_end(text: str, start: int) -> int:
    """Index just past the bracket group opening at ``text[start]``; ``-1`` when unbalanced."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in _OPEN:
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def type_parameters(text: str, name: str) -> tuple[str, ...]:
    """The type parameter names a declaration head declares right after ``name``: ``CommandHandler[C
    any] interface {...}`` -> ``("C",)``; ``Q[K, V any]`` -> ``("K", "V")``; a receiver
    ``d commandLoggingDecorator[C]`` (name ``commandLoggingDecorator``) -> ``("C",)``; none -> ``()``."""
    at = text.find(name + "[") if name else -1
    while at > 0 and (text[at - 1].isalnum() or text[at - 1] in "_."):  # a longer name ending so
        at = text.find(name + "[", at + 1)
    if at < 0:
        return ()
    start = at + len(name)
    end = _group_end(text, start)
    if end < 0:
        return ()
    return tuple(item.split()[0].lstrip("*") for item in split_top(text[start + 1:end - 1]))


def _results(rest: str) -> list[str | None]:
    """The result types written after a parameter list: ``error`` -> ``["error"]``; ``(R, error)`` ->
    ``["R", "error"]``; ``(result R, err error)`` -> ``["R", "error"]``; ``(a, b int)`` -> ``["int",
    "int"]``; nothing -> ``[]``."""
    rest = rest.strip()
    if not rest:
        return []
    if not rest.startswith("("):
        return [rest]
    end = _group_end(rest, 0)
    items = split_top(rest[1:end - 1]) if end > 0 else []
    named = [m for m in (re.match(r"^[A-Za-z_]\w*\s+(\S.*)$", x) for x in items)
             if m is not None and not re.match(r"^(?:chan|func|map|struct|interface)\b", m.string)]
    if not named:
        return list(items)
    out: list[str | None] = []
    pending = 0
    for item in items:
        m = re.match(r"^[A-Za-z_]\w*\s+(\S.*)$", item)
        if m is None:  # a name sharing the next item's type
            pending += 1
            continue
        out.extend([m.group(1)] * (pending + 1))
        pending = 0
    return out + [None] * pending


class GoTypeKeys:
    """Keys (module docstring) of the parameter and result types of a repository's Go methods, and of
    the type arguments of a defined type's base (``type H decorator.CommandHandler[Schedule]``).
    ``files`` are the repository's file contexts (its ``go.mod`` files name the module paths);
    ``known(folder, name)`` says whether a package folder declares a type of that name."""

    def __init__(self, files: Sequence[FileCtx], known: Callable[[str, str], bool]) -> None:
        roots: dict[str, str] = {}
        for fc in files:
            if fc.lang == "gomod" and fc.path.rsplit("/", 1)[-1] == "go.mod" and fc.ex.package:
                roots.setdefault(fc.ex.package, posixpath.dirname(fc.path))
        self._roots = sorted(roots.items(), key=lambda kv: len(kv[0]), reverse=True)
        self._known = known
        self._imports: dict[int, dict[str, str]] = {}

    def _folder(self, path: str) -> str | None:
        """The repository folder an import path names, or ``None`` (outside the repository)."""
        for module, root in self._roots:
            if path == module or path.startswith(module + "/"):
                rest = path[len(module):].lstrip("/")
                return posixpath.join(root, rest) if root and rest else (root or rest or ".")
        return None

    def _bound(self, fc: FileCtx) -> dict[str, str]:
        got = self._imports.get(id(fc))
        if got is None:
            got = self._imports[id(fc)] = {imp.local: imp.module for imp in every(fc.imports) if imp.local != "*"}
        return got

    def key(self, fc: FileCtx, text: str | None, params: Sequence[str] = ()) -> str | None:
        """The key of type ``text`` written in ``fc`` (whitespace ignored), ``params`` the type
        parameter names in scope; ``None`` when not understood."""
        if not text:
            return None
        return self._key(fc, re.sub(r"\s+", "", text), params, 0)

    def _key(self, fc: FileCtx, t: str, params: Sequence[str], depth: int) -> str | None:
        if depth > 16 or not t:
            return None
        if t.startswith("*"):
            inner = self._key(fc, t[1:], params, depth + 1)
            return None if inner is None else "*" + inner
        if t.startswith("..."):
            return self._key(fc, t[3:], params, depth + 1)
        if t.startswith("["):
            end = _group_end(t, 0)
            inner = self._key(fc, t[end:], params, depth + 1) if end > 0 else None
            return None if inner is None else t[:end] + inner
        if t.startswith("map["):
            end = _group_end(t, 3)
            k = self._key(fc, t[4:end - 1], params, depth + 1) if end > 0 else None
            v = self._key(fc, t[end:], params, depth + 1) if k is not None else None
            return None if v is None else f"map[{k}]{v}"
        if t in ("interface{}", "any"):
            return "any"
        if t.startswith(("chan", "<-chan", "func(", "struct{", "interface{")):
            return None
        m = _NAMED.match(t)
        if m is None:
            return None
        qual, name = (m.group(1), m.group(2)) if m.group(2) else (None, m.group(1))
        args = ""
        tail = t[m.end():]
        if tail:
            end = _group_end(tail, 0) if tail.startswith("[") else -1
            if end != len(tail):
                return None
            keys = [self._key(fc, a, params, depth + 1) for a in split_top(tail[1:-1])]
            if any(k is None for k in keys):
                return None
            args = "[" + ",".join(k for k in keys if k is not None) + "]"
        if qual is None:
            if name in params:
                return f"${params.index(name)}" + args
            if name in _PREDECLARED:
                return _ALIASES.get(name, name) + args
            if fc.star_imports or not self._known(fc.module_key, name):
                return None
            return f"{fc.module_key}:{name}{args}"
        path = self._bound(fc).get(qual)
        if path is None:
            return None
        folder = self._folder(path)
        if folder is None:
            return f"{path}.{name}{args}"
        return f"{folder}:{name}{args}" if self._known(folder, name) else None

    def method(self, fc: FileCtx, d: Definition, owner: Callable[[], Definition | None]
               ) -> tuple[tuple[str | None, ...], tuple[str | None, ...]] | None:
        """``(parameter keys, result keys)`` of a method declaration or interface method ``d`` of
        ``fc`` (``None``: its signature text is not understood); ``owner()`` gives the interface
        holding an interface method (its type parameters are the scope's; a method declaration's are
        named by its receiver, ``(d logging[C])``): called only then (a parked definition is read
        back from disk)."""
        sig = d.signature
        if sig.startswith("func"):
            at = sig.find("(")
            end = _group_end(sig, at) if at >= 0 else -1
            scope = type_parameters(sig[at:end], d.parent or "") if end > 0 else ()
        else:
            held = owner()
            end, scope = 0, type_parameters(held.signature, held.name) if held is not None else ()
        at = sig.find("(", max(end, 0))
        close = _group_end(sig, at) if at >= 0 else -1
        if close < 0:
            return None
        return (tuple(self.key(fc, p.type, scope) for p in d.params),
                tuple(self.key(fc, r, scope) for r in _results(sig[close:])))

    def arguments(self, fc: FileCtx, d: Definition) -> tuple[str | None, ...]:
        """The type arguments of the named type a defined type is declared as (``type H
        decorator.CommandHandler[Schedule]`` -> ``("<folder>:Schedule",)``), keyed in ``fc`` with
        the defined type's own type parameters as ``$i``; ``()`` when it names no instantiation."""
        sig = d.signature
        own = type_parameters(sig, d.name)
        head = sig[len(d.name):]
        if head.startswith("["):
            head = head[_group_end(head, 0):]
        head = head.strip()
        m = _NAMED.match(head)
        if m is None or not head[m.end():].startswith("["):
            return ()
        end = _group_end(head, m.end())
        if end < 0:
            return ()
        return tuple(self.key(fc, a, own) for a in split_top(head[m.end() + 1:end - 1]))
