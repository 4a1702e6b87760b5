"""Resolution: bind every file's call sites, base types, injections and type uses to definitions.

Input: the :class:`~indexer.model.FileExtraction` of every file of one repository. Output: for each
file, its graph nodes, the edges it owns (CONTAINS, EXTENDS, IMPLEMENTS, OVERRIDES, CALLS, INJECTS,
USES_TYPE) and the call sites nothing bound (kept so a later file can bind them).

How a name is bound, in order (a small abstract interpreter over *values*: a module, a class, an
instance of a class, a function, or "external" — known to live outside the repository):

1. Lexical scope: bindings and nested definitions of the enclosing function, then its enclosing
   scopes, then the file's top level, then its imports; Java adds same-package types and wildcard
   imports; Python adds star imports.
2. Imports follow the language's module system: Python dotted modules (packages found through their
   ``__init__.py`` chain, relative imports by level, submodules reached as attributes), JS/TS module
   specifiers relative to the importing file (``./x``, ``./x.js`` naming ``x.ts``, ``./dir`` naming
   ``dir/index``) through named, default, namespace and star re-exports and CommonJS exports, Java
   packages and nested types.
3. Receivers: ``self`` / ``this`` is an instance of the enclosing class; a variable's type comes from
   its declaration, parameter, field or a constructor call assigned to it; ``a.b().c`` follows the
   return type of ``b``.
4. A method is looked up in the receiver's class, then its bases (depth-first, left to right); a call
   through a base or interface type also reaches every override in the subclasses — unless the
   receiver was built by calling the class itself (``Repo()``, ``new Repo()``, not ``cls()``): its
   run-time class is then known and no subclass override can run.

Every CALLS edge records how it was bound (design, "Data model"): ``exact`` when the import or the
declared type fixes the target; ``inferred`` when the receiver type was inferred from a constructor
call or a return type, or the target was reached through inheritance (inherited method, ``super``,
an override reached by dynamic dispatch); ``name`` when the receiver is unknown and exactly one
callable of that short name and a compatible arity exists in the repository. A receiver whose type is
known never falls back to a name match: when its class lacks the method the call stays unresolved.
"""

from __future__ import annotations

import builtins
import posixpath
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from indexer.model import CALLABLE_KINDS, TYPE_KINDS, Binding, CallSite, Definition, FileExtraction, Import, base_type
from indexer.symbols import LABELS, definition_ids, file_id, module_path
from stores.contracts import Edge, FileRecord, IndexedFile, Node, UnresolvedCall

if TYPE_CHECKING:
    from indexer.frameworks.link import LinkOptions

__all__ = ["ResolvedRepository", "resolve_repository", "python_module_keys"]

_JS_LANGS = frozenset({"typescript", "javascript"})
_JS_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_CONSTRUCTOR_NAME = {"python": "__init__", "typescript": "constructor", "javascript": "constructor"}
_PRIMITIVES = frozenset({
    "int", "long", "short", "byte", "char", "boolean", "float", "double", "void", "var",
    "string", "number", "bigint", "any", "unknown", "never", "undefined", "null", "object", "symbol",
    "str", "bytes", "bool", "None", "list", "dict", "set", "tuple", "frozenset", "type", "Object",
    "String", "Integer", "Long", "Boolean", "Double", "List", "Map", "Set", "Optional",
})
_PY_BUILTINS = frozenset(dir(builtins))


# --------------------------------------------------------------------------------------------------
# Values of the abstract interpreter.


class _External:
    """A value known to come from outside the repository (an unresolved import, a library type)."""

    def __repr__(self) -> str:
        return "EXTERNAL"


EXTERNAL = _External()


@dataclass(eq=False, slots=True)
class Def:
    """A definition with its id and the file it lives in; classes carry their members."""

    id: str
    d: Definition
    file: FileCtx
    members: dict[str, list[Def]] = field(default_factory=dict)
    bases: list[Def] | None = None
    external_base: bool = False
    subclasses: list[Def] = field(default_factory=list)

    @property
    def is_type(self) -> bool:
        return self.d.kind in TYPE_KINDS

    @property
    def is_callable(self) -> bool:
        return self.d.kind in CALLABLE_KINDS


@dataclass(frozen=True, slots=True)
class ModuleV:
    ns: str  # module namespace: python | java | ecmascript
    key: str


@dataclass(frozen=True, slots=True)
class ClassV:
    c: Def
    dynamic: bool = False  # ``cls`` in a class: any subclass of ``c`` at run time


@dataclass(frozen=True, slots=True)
class InstV:
    c: Def
    how: str  # exact | inferred
    concrete: bool = False  # built by calling the class itself: its run-time class is ``c``, no subclass


@dataclass(frozen=True, slots=True)
class FuncV:
    f: Def


Value = ModuleV | ClassV | InstV | FuncV | _External | None


class FileCtx:
    """One file's extraction with the lookup tables the resolver needs."""

    def __init__(self, repo: str, ex: FileExtraction, module_key: str, checksum: str, size: int) -> None:
        self.repo = repo
        self.ex = ex
        self.path = ex.path
        self.lang = ex.language
        self.module_key = module_key
        self.checksum = checksum
        self.size = size
        self.defs: list[Def] = []
        self.top: dict[str, list[Def]] = defaultdict(list)
        self.by_qualname: dict[str, list[Def]] = defaultdict(list)
        self.imports: dict[str, list[Import]] = defaultdict(list)
        self.star_imports: list[Import] = []
        self.bindings: dict[tuple[str | None, str], list[Binding]] = defaultdict(list)
        ids = definition_ids(repo, ex)  # honours ex.id_path
        for d, node_id in zip(ex.definitions, ids):
            rd = Def(node_id, d, self)
            self.defs.append(rd)
            self.by_qualname[d.qualname].append(rd)
            if d.parent is None:
                self.top[d.name].append(rd)
        for rd in self.defs:
            if rd.d.parent is not None:
                for parent in self.by_qualname.get(rd.d.parent, ()):
                    parent.members.setdefault(rd.d.name, []).append(rd)
        self.lexical_parent = {rd.d.qualname: self._lexical_parent(rd.d) for rd in self.defs}
        for imp in ex.imports:
            if imp.local == "*":
                self.star_imports.append(imp)
            else:
                self.imports[imp.local].append(imp)
        for b in ex.bindings:
            self.bindings[(b.scope, b.name)].append(b)

    def _lexical_parent(self, d: Definition) -> str | None:
        """The definition whose body holds ``d``'s text. Usually ``d.parent``; not for a JS function
        assigned to a property (``res.send = function () {}``, ``View.prototype.lookup = …``), whose
        owner is ``parent`` but whose body sees the names of where it is written."""
        parents = self.by_qualname.get(d.parent or "")
        if parents and any(_spans(p.d, d) for p in parents):
            return d.parent
        if d.parent is None:
            return None
        best: Definition | None = None
        for rd in self.defs:
            o = rd.d
            if o is not d and (o.kind in CALLABLE_KINDS or o.kind in TYPE_KINDS) and _spans(o, d):
                if best is None or _spans(best, o):
                    best = o
        return best.qualname if best else None

    def parent_scope(self, scope: str | None) -> str | None:
        """The qualname of the scope lexically enclosing ``scope`` (``None`` at top level)."""
        if scope is None:
            return None
        if scope in self.lexical_parent:
            return self.lexical_parent[scope]
        return scope.rpartition(".")[0] or None

    def def_at(self, qualname: str | None, line: int) -> Def | None:
        """The definition named ``qualname`` whose span holds ``line`` (the first one otherwise)."""
        if qualname is None:
            return None
        defs = self.by_qualname.get(qualname)
        if not defs:
            return None
        if len(defs) > 1:
            for rd in defs:
                if rd.d.start_line <= line <= rd.d.end_line:
                    return rd
        return defs[0]


# --------------------------------------------------------------------------------------------------
# Module keys.


def python_module_keys(paths: Iterable[str]) -> dict[str, str]:
    """``{path: dotted module}`` for Python files: a file's package chain is the run of parent
    directories holding an ``__init__.py``; ``pkg/__init__.py`` is module ``pkg``.

    >>> python_module_keys(["a/__init__.py", "a/b.py", "tests/t.py"])["a/b.py"]
    'a.b'
    """
    paths = list(paths)
    regular = {posixpath.dirname(p) for p in paths if posixpath.basename(p) in ("__init__.py", "__init__.pyi")}
    # A folder without __init__.py inside a package is a namespace subpackage (PEP 420), as
    # flask/sansio/ is: it continues the chain. A top-level folder without one does not.
    packages = set(regular)
    for p in paths:
        d = posixpath.dirname(p)
        chain = []
        while d and d not in regular:
            chain.append(d)
            d = posixpath.dirname(d)
        if d:
            packages.update(chain)
    keys = {}
    for p in paths:
        directory, base = posixpath.split(module_path(p))
        parts = [] if base == "__init__" else [base]
        while directory and directory in packages:
            directory, name = posixpath.split(directory)
            parts.append(name)
        keys[p] = ".".join(reversed(parts))
    return keys


def _module_namespace(lang: str) -> str:
    return "ecmascript" if lang in _JS_LANGS else lang


# --------------------------------------------------------------------------------------------------
# The resolver.


@dataclass(slots=True)
class ResolvedRepository:
    """The resolver's output: one :class:`IndexedFile` per input file (chunks left empty) and
    counters of how call sites ended (``exact``, ``inferred``, ``name``, ``external``,
    ``unresolved``)."""

    files: list[IndexedFile]
    call_outcomes: dict[str, int]
    link_outcomes: dict[str, int] = field(default_factory=dict)


class _Resolver:
    def __init__(self, repo: str, files: Sequence[FileCtx]) -> None:
        self.repo = repo
        self.files = files
        self.modules: dict[str, dict[str, list[FileCtx]]] = defaultdict(lambda: defaultdict(list))
        self.packages: dict[str, set[str]] = defaultdict(set)  # namespace -> every dotted prefix
        self.callables_by_name: dict[tuple[str, str], list[Def]] = defaultdict(list)
        for fc in files:
            ns = _module_namespace(fc.lang)
            self.modules[ns][fc.module_key].append(fc)
            if ns == "ecmascript" and posixpath.basename(fc.module_key) == "index":
                self.modules[ns][posixpath.dirname(fc.module_key)].append(fc)
            if ns in ("python", "java"):
                parts = fc.module_key.split(".")
                for i in range(1, len(parts) + 1):
                    self.packages[ns].add(".".join(parts[:i]))
            for rd in fc.defs:
                if rd.d.kind in ("method", "function"):
                    self.callables_by_name[(ns, rd.d.name)].append(rd)
        _Key = tuple[int, str | None, str, str]
        self._memo: dict[_Key, Value] = {}
        self._in_progress: set[_Key] = set()
        self._overriders: dict[tuple[int, int], list[Def]] = {}
        for fc in files:
            for rd in fc.defs:
                if rd.is_type:
                    for base in self.bases(rd):
                        base.subclasses.append(rd)

    # -- modules -----------------------------------------------------------------------------------

    def module_files(self, lang: str, key: str) -> list[FileCtx]:
        return self.modules[_module_namespace(lang)].get(key, [])

    def resolve_import(self, fc: FileCtx, imp: Import) -> Value:
        if fc.lang == "python":
            key = self._absolute_python_module(fc, imp)
            if key is None:
                return EXTERNAL
            if imp.name is None:
                return ModuleV("python", key) if key in self.packages["python"] else EXTERNAL
            if key not in self.packages["python"]:
                return EXTERNAL
            return self.module_member(fc.lang, key, imp.name)
        if fc.lang in _JS_LANGS:
            key = self.resolve_specifier(fc, imp.module)
            if key is None:
                return EXTERNAL
            if imp.name is None:
                return ModuleV("ecmascript", key)
            return self.module_member(fc.lang, key, imp.name)
        if fc.lang == "java":
            if imp.name is None:
                return ModuleV("java", imp.module) if imp.module in self.packages["java"] else EXTERNAL
            v = self.java_path(fc, f"{imp.module}.{imp.name}")
            return EXTERNAL if v is None else v
        return None

    def _absolute_python_module(self, fc: FileCtx, imp: Import) -> str | None:
        if imp.level == 0:
            return imp.module
        parts = fc.module_key.split(".") if fc.module_key else []
        is_package = posixpath.basename(fc.path).startswith("__init__.")
        drop = imp.level - (1 if is_package else 0)
        if drop > len(parts):
            return None
        base = parts[: len(parts) - drop] if drop else parts
        return ".".join([*base, *([imp.module] if imp.module else [])])

    def resolve_specifier(self, fc: FileCtx, spec: str) -> str | None:
        """Module key named by a JS/TS import specifier from ``fc``, or ``None`` (a package)."""
        if not spec.startswith("."):
            return None
        target = posixpath.normpath(posixpath.join(posixpath.dirname(fc.path), spec))
        table = self.modules["ecmascript"]
        if target in table:
            return target
        for suffix in _JS_SUFFIXES:
            if target.endswith(suffix) and target[: -len(suffix)] in table:
                return target[: -len(suffix)]
        return None

    def java_path(self, fc: FileCtx, dotted: str) -> Value:
        """A dotted Java name: the longest package prefix, then a chain of (nested) types."""
        parts = dotted.split(".")
        for i in range(len(parts) - 1, 0, -1):
            pkg = ".".join(parts[:i])
            if pkg in self.packages["java"]:
                v: Value = ModuleV("java", pkg)
                for part in parts[i:]:
                    v = self.attr(v, part)
                    if v is None:
                        return None
                return v
        return None

    def module_member(self, lang: str, key: str, name: str) -> Value:
        """The value a module exports under ``name`` (following re-exports), or ``None``.

        Cached; an import cycle (``a`` re-exports ``x`` from ``b``, which imports it from ``a``)
        yields ``None`` for the cyclic path."""
        return self._memoised((0, key, name, "member:" + _module_namespace(lang)),
                              lambda: self._module_member(lang, key, name))

    def _memoised(self, key: tuple[int, str | None, str, str], compute: Callable[[], Value]) -> Value:
        """``compute()`` once per key; a key met again while it is being computed (a cycle through
        imports, aliases or return types) yields ``None`` on that path instead of recursing."""
        if key in self._memo:
            return self._memo[key]
        if key in self._in_progress:
            return None
        self._in_progress.add(key)
        try:
            v = compute()
        finally:
            self._in_progress.discard(key)
        self._memo[key] = v
        return v

    def _module_member(self, lang: str, key: str, name: str) -> Value:
        files = self.module_files(lang, key)
        ns = _module_namespace(lang)
        if ns == "python":
            if files:
                fc = files[0]
                defs = fc.top.get(name)
                if defs:
                    return self.def_value(defs[-1])
                if name in fc.imports:
                    return self.resolve_import(fc, fc.imports[name][-1])
                if (None, name) in fc.bindings:
                    return self.binding_value(fc, fc.bindings[(None, name)])
            sub = f"{key}.{name}" if key else name
            if sub in self.packages["python"]:
                return ModuleV("python", sub)
            for fc in files:
                for imp in fc.star_imports:
                    target = self._absolute_python_module(fc, imp)
                    if target and target in self.packages["python"]:
                        v = self.module_member(lang, target, name)
                        if v is not None:
                            return v
            return None
        if ns == "java":
            for fc in files:
                for rd in fc.top.get(name, ()):
                    return ClassV(rd)
            sub = f"{key}.{name}"
            if sub in self.packages["java"]:
                return ModuleV("java", sub)
            return None
        # ECMAScript: explicit exports, exported declarations, star re-exports, then any top-level name.
        for fc in files:
            for ex in fc.ex.exports:
                if ex.exported != name:
                    continue
                if ex.module is not None:
                    target = self.resolve_specifier(fc, ex.module)
                    if target is None:
                        return EXTERNAL
                    return ModuleV("ecmascript", target) if ex.name is None else self.module_member(lang, target, ex.name)
                if ex.local is not None:
                    return self.resolve_name(fc, None, ex.local)
            for rd in fc.defs:
                if rd.d.parent is None and rd.d.exported and (
                    rd.d.name == name or (name == "default" and "default" in rd.d.modifiers)
                ):
                    return self.def_value(rd)
            for ex in fc.ex.exports:
                if ex.exported == "*" and ex.module is not None:
                    target = self.resolve_specifier(fc, ex.module)
                    if target is not None:
                        v = self.module_member(lang, target, name)
                        if v is not None:
                            return v
            if name != "default":
                defs = fc.top.get(name)
                if defs:
                    return self.def_value(defs[-1])
        return None

    # -- names and expressions ---------------------------------------------------------------------

    def def_value(self, rd: Def) -> Value:
        if rd.is_type:
            return ClassV(rd)
        if rd.is_callable:
            return FuncV(rd)
        if rd.d.kind == "field" and rd.d.field_type:
            t = self.resolve_type(rd.file, rd.d.parent, rd.d.field_type)
            return InstV(t.c, "exact") if isinstance(t, ClassV) else t
        return None

    def resolve_name(self, fc: FileCtx, scope: str | None, name: str) -> Value:
        return self._memoised((id(fc), scope, name, "name"), lambda: self._resolve_name(fc, scope, name))

    def _resolve_name(self, fc: FileCtx, scope: str | None, name: str) -> Value:
        s = scope
        while True:
            # Python: a class body's names are not visible from the functions nested in it (a bare
            # ``tuple(...)`` in method ``tuple`` is the builtin); its nested types stay visible, as
            # annotations in a method's signature are evaluated in the class body.
            hidden_class = fc.lang == "python" and s != scope and s is not None and _is_class_scope(fc, s)
            bindings = None if hidden_class else fc.bindings.get((s, name))
            if bindings:
                v = self.binding_value(fc, bindings)
                if v is not None:
                    return v
            if s is None:
                defs = fc.top.get(name)
            else:
                defs = fc.by_qualname.get(f"{s}.{name}")
                if defs and hidden_class:
                    defs = [rd for rd in defs if rd.is_type]
            if defs:
                return self.def_value(defs[-1])
            if s is None:
                break
            s = fc.parent_scope(s)
        imps = fc.imports.get(name)
        if imps:
            return self.resolve_import(fc, imps[-1])
        if fc.lang == "java":
            v = self.module_member("java", fc.module_key, name)
            if v is not None:
                return v
            for imp in fc.star_imports:
                if imp.module in self.packages["java"]:
                    v = self.module_member("java", imp.module, name)
                else:
                    v = self.attr(self.java_path(fc, imp.module), name)
                if v is not None:
                    return v
            return None
        if fc.lang == "python":
            for imp in fc.star_imports:
                target = self._absolute_python_module(fc, imp)
                if target and target in self.packages["python"]:
                    v = self.module_member("python", target, name)
                    if v is not None:
                        return v
        return None

    def binding_value(self, fc: FileCtx, bindings: list[Binding]) -> Value:
        """Value of a name from its bindings: a declared type beats a constructor call beats an alias."""
        for how in ("declared", "constructed", "alias"):
            for b in bindings:
                if b.how != how:
                    continue
                if how == "declared":
                    t = self.resolve_type(fc, b.scope, b.type)
                    v: Value = InstV(t.c, "exact") if isinstance(t, ClassV) else t
                elif how == "constructed":
                    v = self.call_result(self.resolve_expr(fc, b.scope, b.type), "inferred")
                else:
                    v = self.resolve_expr(fc, b.scope, b.type)
                if v is not None:
                    return v
        return None

    def enclosing_class(self, fc: FileCtx, scope: str | None) -> Def | None:
        s = scope
        while s is not None:
            rd = fc.by_qualname.get(s)
            if rd and rd[0].is_type:
                return rd[0]
            s = fc.parent_scope(s)
        return None

    def resolve_type(self, fc: FileCtx, scope: str | None, text: str | None) -> Value:
        """A type text to ``ClassV`` (a class of the repository), ``EXTERNAL`` or ``None``."""
        t = base_type(text)
        if not t:
            return None
        if t in _PRIMITIVES:
            return EXTERNAL
        v = self.resolve_expr(fc, scope, t)
        if isinstance(v, ClassV) or v is EXTERNAL:
            return v
        return None

    def resolve_expr(self, fc: FileCtx, scope: str | None, text: str) -> Value:
        return self._memoised((id(fc), scope, text, "expr"), lambda: self._resolve_expr(fc, scope, text))

    def _resolve_expr(self, fc: FileCtx, scope: str | None, text: str) -> Value:
        segments = _split_dotted(text)
        if not segments:
            return None
        head = segments[0]
        called = head.endswith("()")
        name = head[:-2] if called else head
        if not name.isidentifier() and not name.replace("$", "_").isidentifier():
            return None
        v: Value
        if name in ("self", "this"):
            cls = self.enclosing_class(fc, scope)
            v = InstV(cls, "exact") if cls is not None else None
        elif name == "cls" and fc.lang == "python":
            cls = self.enclosing_class(fc, scope)
            v = ClassV(cls, dynamic=True) if cls is not None else None
        else:
            v = self.resolve_name(fc, scope, name)
            if v is None and fc.lang == "java" and len(segments) > 1:
                v = self.java_path(fc, text.split("(", 1)[0]) if not called else None
                if v is not None:
                    return v
        if called:
            v = self.call_result(v, "exact")
        for seg in segments[1:]:
            if v is None or v is EXTERNAL:
                return v
            called = seg.endswith("()")
            v = self.attr(v, seg[:-2] if called else seg)
            if called:
                v = self.call_result(v, "exact")
        return v

    def call_result(self, v: Value, how: str) -> Value:
        if isinstance(v, ClassV):
            return InstV(v.c, how, concrete=not v.dynamic)
        if isinstance(v, FuncV):
            rt = v.f.d.return_type
            if not rt:
                # No annotation: what every ``return`` of the function calls, resolved in its own body.
                # The key stops functions returning each other's results (``f`` -> ``g()`` -> ``f()``).
                ir = v.f.d.inferred_return
                if not ir:
                    return None
                f = v.f
                return self._memoised((id(f), f.d.qualname, ir, "return"),
                                      lambda: self.call_result(self.resolve_expr(f.file, f.d.qualname, ir), "inferred"))
            t = self.resolve_type(v.f.file, v.f.d.parent, rt)
            return InstV(t.c, "inferred") if isinstance(t, ClassV) else t
        if v is EXTERNAL:
            return EXTERNAL
        return None

    def attr(self, v: Value, name: str) -> Value:
        if v is None or v is EXTERNAL:
            return v
        if isinstance(v, ModuleV):
            return self.module_member(v.ns, v.key, name)
        if isinstance(v, ClassV | InstV):
            cls = v.c
            for c in self.mro(cls):
                prefix = "self." if c.file.lang == "python" else "this."
                for bound in ((prefix + name, name) if isinstance(v, InstV) else (name,)):
                    bindings = c.file.bindings.get((c.d.qualname, bound))
                    if bindings:
                        bv = self.binding_value(c.file, bindings)
                        if bv is not None:
                            return bv
            members, _ = self.lookup(cls, name)
            if members:
                return self.def_value(members[-1])
            return EXTERNAL if self.has_external_ancestor(cls) else None
        return None

    # -- classes -----------------------------------------------------------------------------------

    def bases(self, c: Def) -> list[Def]:
        if c.bases is None:
            c.bases = []
            for text in (*c.d.bases, *c.d.implements):
                t = self.resolve_type(c.file, c.d.parent, text)
                if isinstance(t, ClassV) and t.c is not c:
                    c.bases.append(t.c)
                elif base_type(text) not in ("object", "Object"):
                    c.external_base = True
        return c.bases

    def mro(self, c: Def) -> list[Def]:
        """``c`` and its ancestors, depth-first, left to right, each once."""
        out: list[Def] = []
        seen: set[int] = set()
        stack = [c]
        while stack:
            x = stack.pop()
            if id(x) in seen:
                continue
            seen.add(id(x))
            out.append(x)
            stack.extend(reversed(self.bases(x)))
        return out

    def has_external_ancestor(self, c: Def) -> bool:
        return any(x.external_base for x in self.mro(c))

    def lookup(self, c: Def, name: str) -> tuple[list[Def], bool]:
        """Members named ``name`` of the first class in ``c``'s MRO that has any, and whether that
        class is an ancestor (inherited) rather than ``c`` itself."""
        for x in self.mro(c):
            members = x.members.get(name)
            if members:
                return members, x is not c
        return [], False

    def overriders(self, m: Def, below: Def | None = None) -> list[Def]:
        """Methods in subclasses (transitively) of ``below`` — by default ``m``'s class — with
        ``m``'s name and a compatible arity: the targets dynamic dispatch may reach through a call
        to ``m`` on a receiver typed ``below``. (A receiver typed ``Child`` that inherits ``m`` from
        ``Base`` never reaches the override in ``Child``'s sibling.)"""
        ck = (id(m), id(below))
        cached = self._overriders.get(ck)
        if cached is not None:
            return cached
        out: list[Def] = []
        if below is None:
            owner = m.file.by_qualname.get(m.d.parent or "")
            below = owner[0] if owner else None
        if below is not None and below.is_type:
            seen: set[int] = set()
            stack = list(below.subclasses)
            while stack:
                s = stack.pop()
                if id(s) in seen:
                    continue
                seen.add(id(s))
                for o in s.members.get(m.d.name, ()):
                    if o.is_callable and _same_arity(o.d, m.d):
                        out.append(o)
                stack.extend(s.subclasses)
        self._overriders[ck] = out
        return out

    # -- call sites --------------------------------------------------------------------------------

    def bind_call(self, fc: FileCtx, cs: CallSite) -> list[tuple[Def, str]] | _External | None:
        """Targets of a call site with their resolution, ``EXTERNAL`` when the callee is known to
        live outside the repository, ``None`` when nothing could bind it."""
        scope = cs.caller
        recv = cs.receiver
        if recv is None:
            if cs.name in ("super", "this") and fc.lang != "python":
                cls = self.enclosing_class(fc, scope)
                if cls is None:
                    return None
                if cs.name == "this":
                    return self._constructors(cls, cs.arity, "exact")
                bases = self.bases(cls)
                if not bases:
                    return EXTERNAL if cls.external_base else None
                return self._constructors(bases[0], cs.arity, "inferred")
            v = self.resolve_name(fc, scope, cs.name)
            if v is None and fc.lang != "python":
                # Java / TS implicit ``this``: the enclosing class, then the classes enclosing it.
                outcome: list[tuple[Def, str]] | _External | None = None
                cls = self.enclosing_class(fc, scope)
                while cls is not None:
                    t = self._method_targets(InstV(cls, "exact"), cs)
                    if isinstance(t, list) and t:
                        return t
                    outcome = outcome or t
                    cls = self.enclosing_class(fc, cls.d.parent)
                return outcome
            if v is None and fc.lang == "python" and cs.name in _PY_BUILTINS:
                return EXTERNAL
            return self._callee_targets(v, cs, "exact")
        if recv == "super":
            cls = self.enclosing_class(fc, scope)
            if cls is None:
                return None
            for base in self.bases(cls):
                t = self._method_targets(InstV(base, "inferred"), cs, dispatch=False)
                if t:
                    return [(d, "inferred") for d, _ in t] if isinstance(t, list) else t
            return EXTERNAL if self.has_external_ancestor(cls) else None
        rv = self.resolve_expr(fc, scope, recv)
        if rv is EXTERNAL:
            return EXTERNAL
        if rv is None:
            return self._name_fallback(fc, cs)
        if isinstance(rv, InstV):
            return self._method_targets(rv, cs)
        v = self.attr(rv, cs.name)
        if v is None:
            return None
        return self._callee_targets(v, cs, "exact", dispatch=False)

    def _callee_targets(self, v: Value, cs: CallSite, how: str, dispatch: bool = False) -> list[tuple[Def, str]] | _External | None:
        if v is None or v is EXTERNAL:
            return v
        if isinstance(v, FuncV):
            out = [(v.f, how)]
            if dispatch:
                out += [(o, "inferred") for o in self.overriders(v.f)]
            return out
        if isinstance(v, ClassV):
            return self._constructors(v.c, cs.arity, how)
        return None

    def _method_targets(self, inst: InstV, cs: CallSite, dispatch: bool = True) -> list[tuple[Def, str]] | _External | None:
        members, inherited = self.lookup(inst.c, cs.name)
        methods = [m for m in members if m.is_callable]
        if not methods:
            if members:  # a field holding a callable, a nested class: call its value
                return self._callee_targets(self.def_value(members[-1]), cs, inst.how)
            return EXTERNAL if self.has_external_ancestor(inst.c) else None
        methods = _by_arity(methods, cs.arity)
        how = "inferred" if inherited else inst.how
        out = [(m, how) for m in methods]
        if dispatch and not inst.concrete:
            seen = {id(m) for m in methods}
            for m in methods:
                for o in self.overriders(m, inst.c):
                    if id(o) not in seen:
                        seen.add(id(o))
                        out.append((o, "inferred"))
        return out

    def _constructors(self, c: Def, arity: int, how: str) -> list[tuple[Def, str]]:
        name = _CONSTRUCTOR_NAME.get(c.file.lang, c.d.name)
        members, inherited = self.lookup(c, name)
        ctors = [m for m in members if m.d.kind == "constructor" or (m.is_callable and m.d.name == name)]
        if not ctors:
            return [(c, how)]
        return [(m, "inferred" if inherited else how) for m in _by_arity(ctors, arity)]

    def _name_fallback(self, fc: FileCtx, cs: CallSite) -> list[tuple[Def, str]] | None:
        candidates = [
            rd for rd in self.callables_by_name.get((_module_namespace(fc.lang), cs.name), ())
            if _arity_ok(rd.d, cs.arity)
        ]
        if len(candidates) == 1:
            return [(candidates[0], "name")]
        return None

    # -- output ------------------------------------------------------------------------------------

    def file_output(self, fc: FileCtx, outcomes: dict[str, int]) -> IndexedFile:
        repo, path = self.repo, fc.path
        fid = file_id(repo, path)
        nodes = [Node(fid, "File", posixpath.basename(path), path, repo, path, 1, 0, 1, 0,
                      {"language": fc.lang, "checksum": fc.checksum, "module": fc.module_key})]
        edges: dict[tuple[str, str, str, int, int], Edge] = {}

        def add(kind: str, src: str, dst: str, line: int = 0, col: int = 0, resolution: str | None = None) -> None:
            k = (kind, src, dst, line, col)
            if k not in edges:
                edges[k] = Edge(kind, src, dst, repo, path, line, col, resolution)

        for rd in fc.defs:
            d = rd.d
            props = _props(fc.lang, d)
            if fc.module_key and fc.lang in ("python", "java"):
                props["module"] = fc.module_key
            nodes.append(Node(rd.id, LABELS[d.kind], d.name, d.qualname, repo, path, d.start_line, d.start_col,
                              d.end_line, d.end_col, props))
            parent = fc.def_at(d.parent, d.start_line) if d.parent else None
            add("CONTAINS", parent.id if parent else fid, rd.id)
            if rd.is_type:
                for text in d.bases:
                    t = self.resolve_type(fc, d.parent, text)
                    if isinstance(t, ClassV) and t.c is not rd:
                        add("EXTENDS", rd.id, t.c.id, d.name_line, d.name_col)
                for text in d.implements:
                    t = self.resolve_type(fc, d.parent, text)
                    if isinstance(t, ClassV) and t.c is not rd:
                        add("IMPLEMENTS", rd.id, t.c.id, d.name_line, d.name_col)
            elif d.kind == "method" and parent is not None and parent.is_type:
                for base in self.bases(parent):
                    found, _ = self.lookup(base, d.name)
                    for m in found:
                        if m.is_callable and _same_arity(m.d, d):
                            add("OVERRIDES", rd.id, m.id, d.name_line, d.name_col)
        unresolved: list[UnresolvedCall] = []
        for cs in fc.ex.calls:
            caller = fc.def_at(cs.caller, cs.line)
            src = caller.id if caller else fid
            targets = self.bind_call(fc, cs)
            if targets is EXTERNAL:
                outcomes["external"] += 1
            elif not targets:
                outcomes["unresolved"] += 1
                unresolved.append(UnresolvedCall(src, cs.name, cs.arity, cs.receiver, repo, path, cs.line, cs.col))
            else:
                assert isinstance(targets, list)
                for target, how in targets:
                    add("CALLS", src, target.id, cs.line, cs.col, how)
                outcomes[targets[0][1]] += 1
        for inj in fc.ex.injections:
            owner = fc.def_at(inj.owner, inj.line)
            t = self.resolve_type(fc, inj.owner, inj.type)
            if owner is not None and isinstance(t, ClassV):
                add("INJECTS", owner.id, t.c.id, inj.line, inj.col)
        for use in fc.ex.type_uses:
            owner = fc.def_at(use.owner, use.line)
            t = self.resolve_type(fc, use.owner, use.type)
            if isinstance(t, ClassV):
                add("USES_TYPE", owner.id if owner else fid, t.c.id, use.line, use.col)
        record = FileRecord(repo, path, fc.lang, fc.checksum, fc.size)
        return IndexedFile(record, nodes, list(edges.values()), unresolved)


def _spans(outer: Definition, inner: Definition) -> bool:
    """Whether ``outer``'s text strictly contains ``inner``'s."""
    if outer is inner:
        return False
    return (outer.start_line, outer.start_col) <= (inner.start_line, inner.start_col) and (
        inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col)


def _is_class_scope(fc: FileCtx, qualname: str) -> bool:
    defs = fc.by_qualname.get(qualname)
    return bool(defs) and defs[0].is_type


def _split_dotted(text: str) -> list[str]:
    """``a.b().c`` -> ``["a", "b()", "c"]``; arguments inside parentheses are dropped."""
    out: list[str] = []
    depth = 0
    cur: list[str] = []
    for ch in text:
        if ch == "(":
            if depth == 0:
                cur.append("()")
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth:
            continue
        elif ch == ".":
            out.append("".join(cur))
            cur = []
        elif ch == "?":
            continue
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [s for s in out if s]


def _arity_ok(d: Definition, arity: int) -> bool:
    if arity < 0:
        return True
    hi = d.max_arity
    return d.min_arity <= arity and (hi is None or arity <= hi)


def _by_arity(defs: list[Def], arity: int) -> list[Def]:
    """Overloads whose arity accepts the call; all of them when none does (varargs, defaults we
    could not see)."""
    if len(defs) <= 1:
        return defs
    fitting = [rd for rd in defs if _arity_ok(rd.d, arity)]
    return fitting or defs


def _same_arity(a: Definition, b: Definition) -> bool:
    return len(a.params) == len(b.params) or a.max_arity is None or b.max_arity is None


def _props(lang: str, d: Definition) -> dict[str, object]:
    props: dict[str, object] = {"language": lang}
    if d.kind in CALLABLE_KINDS:
        props.update(signature=d.signature, arity=len(d.params), min_arity=d.min_arity, max_arity=d.max_arity)
    if d.modifiers:
        props["modifiers"] = list(d.modifiers)
    if d.decorators:
        props["decorators"] = list(d.decorators)
    if d.field_type:
        props["type"] = d.field_type
    if d.return_type:
        props["return_type"] = d.return_type
    if d.exported:
        props["exported"] = True
    return props


def resolve_repository(
    repo: str, extractions: Sequence[tuple[FileExtraction, str, int]], link: LinkOptions | None = None
) -> ResolvedRepository:
    """Resolve one repository.

    ``extractions`` holds ``(extraction, checksum, size)`` per file (checksum: hex SHA-256 of the
    bytes; size in bytes). Returns one :class:`IndexedFile` per file, in input order, with nodes,
    owned edges and unresolved calls (no chunks), plus counters of call outcomes and of framework
    linking (:mod:`indexer.frameworks.link`; ``link`` gives its configuration properties and service
    map).
    """
    py_keys = python_module_keys(ex.path for ex, _, _ in extractions if ex.language == "python")
    ctxs = []
    for ex, checksum, size in extractions:
        if ex.language == "python":
            key = py_keys[ex.path]
        elif ex.language == "java":
            key = ex.package if ex.package is not None else posixpath.dirname(ex.path).replace("/", ".")
        else:
            key = module_path(ex.path)
        ctxs.append(FileCtx(repo, ex, key, checksum, size))
    resolver = _Resolver(repo, ctxs)
    outcomes: dict[str, int] = defaultdict(int)
    files = [resolver.file_output(fc, outcomes) for fc in ctxs]
    links = _add_framework_links(resolver, ctxs, files, link)
    return ResolvedRepository(files, dict(outcomes), links)


def _add_framework_links(
    resolver: _Resolver, ctxs: Sequence[FileCtx], files: Sequence[IndexedFile], link: LinkOptions | None
) -> dict[str, int]:
    """Merge the framework linker's shared nodes and edges into the file outputs (``files[i]`` is
    ``ctxs[i]``'s) and return its outcome counters. Every path that produces file outputs must call
    this once over all files."""
    from indexer.frameworks.link import link_frameworks  # the linker builds on this module

    linked = link_frameworks(resolver, ctxs, link)
    for fc, out in zip(ctxs, files):
        out.nodes.extend(linked.nodes.get(fc.path, ()))
        out.edges.extend(linked.edges.get(fc.path, ()))
    return dict(sorted(linked.outcomes.items()))
