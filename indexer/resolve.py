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
import copy
import functools
import hashlib
import posixpath
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from indexer.model import CALLABLE_KINDS, TYPE_KINDS, Binding, CallSite, Definition, FileExtraction, Import, base_type
from indexer.symbols import LABELS, definition_ids, file_id, module_path
from stores.contracts import Edge, FileRecord, IndexedFile, Node, UnresolvedCall

if TYPE_CHECKING:
    from indexer.frameworks.link import LinkOptions

__all__ = ["ResolvedRepository", "RepositoryResolver", "FileChange", "resolve_repository", "python_module_keys"]

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
    bases_deps: Deps = ()  # what resolving ``bases`` read (see _Resolver)

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
_T = TypeVar("_T")
Deps = tuple[tuple[str, str, str], ...]
"""What a computation read (see ``_Resolver``'s dependency tracking)."""


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
        self.defs = [Def(node_id, d, self) for d, node_id in zip(ex.definitions, ids)]
        self._index_defs()
        self.lexical_parent = {rd.d.qualname: self._lexical_parent(rd.d) for rd in self.defs}
        for imp in ex.imports:
            if imp.local == "*":
                self.star_imports.append(imp)
            else:
                self.imports[imp.local].append(imp)
        for b in ex.bindings:
            self.bindings[(b.scope, b.name)].append(b)

    def _index_defs(self) -> None:
        self.top, self.by_qualname = defaultdict(list), defaultdict(list)
        self.types = [rd for rd in self.defs if rd.is_type]
        for rd in self.defs:
            self.by_qualname[rd.d.qualname].append(rd)
            if rd.d.parent is None:
                self.top[rd.d.name].append(rd)
        for rd in self.defs:
            if rd.d.parent is not None:
                for parent in self.by_qualname.get(rd.d.parent, ()):
                    parent.members.setdefault(rd.d.name, []).append(rd)

    def reuse_defs(self, old: FileCtx, names: set[str]) -> list[Def]:
        """Take over ``old``'s :class:`Def` objects for the definitions whose name group is among
        ``names`` (unchanged between the versions: same meaning for every other file), so that what
        the resolver memoised about them stays true; returns ``old``'s Defs not taken over (gone,
        or changed)."""
        olds: dict[tuple[str, int], Def] = {}
        seen: Counter[str] = Counter()
        for rd in old.defs:
            olds[(rd.d.qualname, seen[rd.d.qualname])] = rd
            seen[rd.d.qualname] += 1
        seen.clear()
        kept: set[int] = set()
        for i, rd in enumerate(self.defs):
            od = olds.get((rd.d.qualname, seen[rd.d.qualname]))
            seen[rd.d.qualname] += 1
            if od is not None and od.id == rd.id and rd.d.name in names:
                od.d, od.file, od.members = rd.d, self, {}
                self.defs[i] = od
                kept.add(id(od))
        for rd in self.defs:
            rd.members = {}
        self._index_defs()
        return [rd for rd in old.defs if id(rd) not in kept]

    @functools.cached_property
    def interface(self) -> str:
        """Digest of everything the resolution of *another* file can read from this one: the
        definitions without their positions, docstrings and bodies, the imports, exports, module key
        and package, the lexical nesting, and the bindings of the scopes other files reach (module
        level, classes, and the scopes enclosing a class or a function whose return is inferred):
        :attr:`structure` plus :attr:`names`. Two versions with the same interface bind every other
        file's references identically."""
        summary = (self.structure, sorted(self.names.items()))
        return hashlib.sha1(repr(summary).encode("utf-8", "surrogatepass")).hexdigest()

    @functools.cached_property
    def structure(self) -> str:
        """Digest of what concerns every name of the file: language, module key, package and id
        path (node ids)."""
        summary = (self.lang, self.module_key, self.ex.package, self.ex.id_path)
        return hashlib.sha1(repr(summary).encode("utf-8", "surrogatepass")).hexdigest()

    @functools.cached_property
    def names(self) -> dict[str, str]:
        """Per name, a digest of what other files can read under it here: the definitions of that
        short name (top level or member, with the scope lexically enclosing each), imports bound to
        it (``*``: star imports), exports of it
        (``*``: star re-exports; ``default``), bindings of it in the scopes other files reach
        (``self.x`` / ``this.x`` count as ``x``). The resolver records a read of name ``n`` of this
        file as the token ``("name", path, n)``."""
        exposed: set[str | None] = {None}
        for rd in self.defs:
            if rd.is_type or (rd.is_callable and rd.d.inferred_return) or rd.d.kind == "field":
                s: str | None = rd.d.qualname if rd.d.kind != "field" else rd.d.parent
                while s is not None and s not in exposed:
                    exposed.add(s)
                    s = self.parent_scope(s)
        groups: dict[str, list[tuple[object, ...]]] = defaultdict(list)
        for d in self.ex.definitions:
            groups[d.name].append(
                ("def", d.kind, d.qualname, d.parent, self.lexical_parent.get(d.qualname), d.signature,
                 [(p.name, p.type, p.has_default, p.variadic) for p in d.params], d.return_type, d.modifiers,
                 d.decorators, d.bases, d.implements, d.field_type, d.exported, d.inferred_return))
            if "default" in d.modifiers:
                groups["default"].append(("default", d.qualname))
        for i in self.ex.imports:
            groups[i.local].append(("import", i.module, i.name, i.level))
        for e in self.ex.exports:
            groups[e.exported].append(("export", e.local, e.module, e.name))
        for b in self.ex.bindings:
            if b.scope in exposed:
                name = b.name.split(".", 1)[1] if b.name.startswith(("self.", "this.")) else b.name
                groups[name].append(("binding", b.scope, b.name, b.type, b.how))
        return {n: hashlib.sha1(repr(v).encode("utf-8", "surrogatepass")).hexdigest() for n, v in groups.items()}

    def adopt(self, new: FileCtx) -> None:
        """Become ``new`` (a later version of the same file with the same :attr:`interface`) while
        keeping this object and its :class:`Def` objects, which other files' memoised resolutions
        hold: positions, bodies, call sites and framework facts are taken over."""
        self.ex, self.checksum, self.size = new.ex, new.checksum, new.size
        for rd, nd in zip(self.defs, new.defs):
            rd.d = nd.d
        self.imports, self.star_imports, self.bindings = new.imports, new.star_imports, new.bindings
        self.lexical_parent = new.lexical_parent
        for key in ("interface", "structure", "names"):
            self.__dict__[key] = getattr(new, key)

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
        self.files = list(files)
        self.modules: dict[str, dict[str, list[FileCtx]]] = defaultdict(lambda: defaultdict(list))
        self.packages: dict[str, set[str]] = defaultdict(set)  # namespace -> every dotted prefix
        self._package_files: Counter[tuple[str, str]] = Counter()
        self.callables_by_name: dict[tuple[str, str], list[Def]] = defaultdict(list)
        for fc in files:
            self._add_tables(fc)
        _Key = tuple[int, str | None, str, str]
        # Memo buckets by the key's first element (a FileCtx's or a Def's id, 0 for module members), so
        # that RepositoryResolver can drop one file's entries when it patches that file in place.
        # Each entry: [value, what it read, the epoch it was computed or last found valid at].
        self._memo: dict[int, dict[_Key, list]] = {}  # type: ignore[type-arg]
        self._in_progress: set[_Key] = set()
        self._overriders: dict[tuple[int, int], tuple[list[Def], Deps]] = {}
        # Dependency tracking: a stack of frames, each the set of what one computation read: a file
        # (its path: its definitions, bindings, imports) or a module key of the tables
        # (("m", namespace, key): which files hold it, whether it exists). Memo entries keep the set
        # of their computation and pass it on to whoever reuses them, so the set of a file's output
        # (RepositoryResolver keeps it) names everything its bindings depend on.
        self._deps: list[set[tuple[str, str, str]]] = []
        # Invalidation is lazy: ``apply`` stamps the tokens a change touched with a new epoch; a memo
        # entry is checked against the stamps when it is next hit (once per epoch).
        self._epoch = 0
        self._changed_at: dict[tuple[str, str, str], int] = {}
        self.whole_files = False
        """While set (the framework linker runs), files looked up by module key count as read whole."""
        self._tokens: dict[tuple[str, str, str], tuple[str, str, str]] = {}
        for fc in files:  # FileCtx objects outlive a resolver (RepositoryResolver): start clean
            for rd in fc.defs:
                rd.bases, rd.external_base, rd.subclasses, rd.bases_deps = None, False, [], ()
        self._link_subclasses()

    def _module_keys(self, fc: FileCtx) -> list[str]:
        keys = [fc.module_key]
        if _module_namespace(fc.lang) == "ecmascript" and posixpath.basename(fc.module_key) == "index":
            keys.append(posixpath.dirname(fc.module_key))
        return keys

    def _add_tables(self, fc: FileCtx) -> None:
        ns = _module_namespace(fc.lang)
        for key in self._module_keys(fc):
            files = self.modules[ns][key]
            files.append(fc)
            if len(files) > 1:
                files.sort(key=lambda f: f.path)  # the order a full run sees
        if ns in ("python", "java"):
            parts = fc.module_key.split(".")
            for i in range(1, len(parts) + 1):
                self.packages[ns].add(".".join(parts[:i]))
                self._package_files[(ns, ".".join(parts[:i]))] += 1
        for rd in fc.defs:
            if rd.d.kind in ("method", "function"):
                self.callables_by_name[(ns, rd.d.name)].append(rd)

    def _remove_tables(self, fc: FileCtx) -> None:
        ns = _module_namespace(fc.lang)
        for key in self._module_keys(fc):
            files = self.modules[ns][key]
            files[:] = [f for f in files if f is not fc]
            if not files:
                del self.modules[ns][key]
        if ns in ("python", "java"):
            parts = fc.module_key.split(".")
            for i in range(1, len(parts) + 1):
                prefix = (ns, ".".join(parts[:i]))
                self._package_files[prefix] -= 1
                if self._package_files[prefix] <= 0:
                    del self._package_files[prefix]
                    self.packages[ns].discard(prefix[1])
        for rd in fc.defs:
            if rd.d.kind in ("method", "function"):
                named = self.callables_by_name[(ns, rd.d.name)]
                named[:] = [x for x in named if x is not rd]

    def _link_subclasses(self) -> None:
        for fc in self.files:
            for rd in fc.defs:
                rd.subclasses = []
        for fc in self.files:
            for rd in fc.defs:
                if rd.is_type:
                    for base in self.bases(rd):
                        base.subclasses.append(rd)

    def apply(self, removed: Sequence[FileCtx], added: Sequence[FileCtx], tokens: set[tuple[str, str, str]],
              dead: Sequence[Def]) -> None:
        """Swap the contexts ``removed`` for ``added`` (new versions of files, new files; every other
        file unchanged) and forget exactly what read one of ``tokens`` (the names, module keys and
        short names the change touched, see the dependency tracking below): memoised lookups, bases,
        dispatch targets. ``dead``: the definitions of ``removed`` that ``added`` did not take over
        (:meth:`FileCtx.reuse_defs`); whatever holds one of them read its name, which is among
        ``tokens``. What read none of them holds in the new state too, and stays."""
        gone = {id(fc) for fc in removed}
        for fc in removed:
            self._remove_tables(fc)
            self._memo.pop(id(fc), None)
        for rd in dead:
            self._memo.pop(id(rd), None)
            for base in rd.bases or ():
                base.subclasses = [x for x in base.subclasses if x is not rd]
        for fc in added:
            self._add_tables(fc)
        self.files = sorted([fc for fc in self.files if id(fc) not in gone] + list(added), key=lambda f: f.path)
        self._epoch += 1
        for token in tokens:
            self._changed_at[token] = self._epoch
        self._overriders.clear()
        dead_ids = {id(rd) for rd in dead}
        renew = []
        for fc in self.files:
            for rd in fc.types:
                if rd.bases is None:
                    renew.append(rd)
                elif not tokens.isdisjoint(rd.bases_deps) or any(id(b) in dead_ids for b in rd.bases):
                    for base in rd.bases:
                        base.subclasses = [x for x in base.subclasses if x is not rd]
                    rd.bases, rd.external_base, rd.bases_deps = None, False, ()
                    renew.append(rd)
        for rd in renew:
            for base in self.bases(rd):
                base.subclasses.append(rd)

    # -- modules -----------------------------------------------------------------------------------

    def _use(self, token: tuple[str, str, str]) -> None:
        """Record that the computation under way read ``token`` (a name of a file, a module key,
        a short name matched by name). Tokens are interned: memo entries share them."""
        if self._deps:
            self._deps[-1].add(self._tokens.setdefault(token, token))

    def _use_all(self, tokens: Deps) -> None:
        if self._deps and tokens:
            self._deps[-1].update(tokens)

    def tracked(self, compute: Callable[[], _T]) -> tuple[_T, Deps]:
        """``compute()`` and what it read (passed on to an enclosing computation too), as a tuple:
        about a quarter of a frozenset's memory, and memo entries keep one each."""
        self._deps.append(set())
        try:
            value = compute()
        finally:
            deps = tuple(self._deps.pop())
        self._use_all(deps)
        return value, deps

    def _has_package(self, ns: str, key: str) -> bool:
        self._use(("m", ns, key))
        return key in self.packages[ns]

    def module_files(self, lang: str, key: str) -> list[FileCtx]:
        ns = _module_namespace(lang)
        self._use(("m", ns, key))
        files = self.modules[ns].get(key, [])
        if self.whole_files:  # the framework linker reads these files' tables directly
            for fc in files:
                self._use(("file", fc.path, ""))
        return files

    def resolve_import(self, fc: FileCtx, imp: Import) -> Value:
        if fc.lang == "python":
            key = self._absolute_python_module(fc, imp)
            if key is None:
                return EXTERNAL
            if imp.name is None:
                return ModuleV("python", key) if self._has_package("python", key) else EXTERNAL
            if not self._has_package("python", key):
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
                return ModuleV("java", imp.module) if self._has_package("java", imp.module) else EXTERNAL
            v = self.java_path(fc, f"{imp.module}.{imp.name}")
            return EXTERNAL if v is None else v
        return None

    def _absolute_python_module(self, fc: FileCtx, imp: Import) -> str | None:
        return _absolute_python_module(fc, imp)

    def resolve_specifier(self, fc: FileCtx, spec: str) -> str | None:
        """Module key named by a JS/TS import specifier from ``fc``, or ``None`` (a package)."""
        if not spec.startswith("."):
            return None
        target = posixpath.normpath(posixpath.join(posixpath.dirname(fc.path), spec))
        table = self.modules["ecmascript"]
        self._use(("m", "ecmascript", target))
        if target in table:
            return target
        for suffix in _JS_SUFFIXES:
            if target.endswith(suffix):
                self._use(("m", "ecmascript", target[: -len(suffix)]))
                if target[: -len(suffix)] in table:
                    return target[: -len(suffix)]
        return None

    def java_path(self, fc: FileCtx, dotted: str) -> Value:
        """A dotted Java name: the longest package prefix, then a chain of (nested) types."""
        parts = dotted.split(".")
        for i in range(len(parts) - 1, 0, -1):
            pkg = ".".join(parts[:i])
            if self._has_package("java", pkg):
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
        bucket = self._memo.get(key[0])
        if bucket is None:
            bucket = self._memo[key[0]] = {}
        else:
            hit = bucket.get(key)
            if hit is not None and hit[2] != self._epoch:
                changed_at = self._changed_at
                if any(changed_at.get(t, -1) > hit[2] for t in hit[1]):
                    hit = None  # read something changed since: compute again
                else:
                    hit[2] = self._epoch
            if hit is not None:
                self._use_all(hit[1])
                return hit[0]
        if key in self._in_progress:
            return None
        self._in_progress.add(key)
        try:
            v, deps = self.tracked(compute)
        finally:
            self._in_progress.discard(key)
        bucket[key] = [v, deps, self._epoch]
        return v

    def forget(self, fc: FileCtx) -> None:
        """Drop what was memoised about names and expressions *inside* ``fc`` (keyed by the file);
        entries other files computed through ``fc``'s interface stay (see RepositoryResolver)."""
        self._memo.pop(id(fc), None)

    def _module_member(self, lang: str, key: str, name: str) -> Value:
        files = self.module_files(lang, key)
        ns = _module_namespace(lang)
        if ns == "python":
            if files:
                fc = files[0]
                self._use(("name", fc.path, name))
                defs = fc.top.get(name)
                if defs:
                    return self.def_value(defs[-1])
                if name in fc.imports:
                    return self.resolve_import(fc, fc.imports[name][-1])
                if (None, name) in fc.bindings:
                    return self.binding_value(fc, fc.bindings[(None, name)])
            sub = f"{key}.{name}" if key else name
            if self._has_package("python", sub):
                return ModuleV("python", sub)
            for fc in files:
                self._use(("name", fc.path, "*"))
                for imp in fc.star_imports:
                    target = self._absolute_python_module(fc, imp)
                    if target and self._has_package("python", target):
                        v = self.module_member(lang, target, name)
                        if v is not None:
                            return v
            return None
        if ns == "java":
            for fc in files:
                self._use(("name", fc.path, name))
                for rd in fc.top.get(name, ()):
                    return ClassV(rd)
            sub = f"{key}.{name}"
            if self._has_package("java", sub):
                return ModuleV("java", sub)
            return None
        # ECMAScript: explicit exports, exported declarations, star re-exports, then any top-level name.
        for fc in files:
            self._use(("name", fc.path, name))
            self._use(("name", fc.path, "*"))
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
        self._use(("name", rd.file.path, rd.d.name))
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
        self._use(("name", fc.path, name))
        s = scope
        while True:
            if s is not None:  # the scopes' own definitions: their kinds and nesting decide
                self._use(("name", fc.path, s.rpartition(".")[2]))
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
        self._use(("name", fc.path, "*"))
        if fc.lang == "java":
            v = self.module_member("java", fc.module_key, name)
            if v is not None:
                return v
            for imp in fc.star_imports:
                if self._has_package("java", imp.module):
                    v = self.module_member("java", imp.module, name)
                else:
                    v = self.attr(self.java_path(fc, imp.module), name)
                if v is not None:
                    return v
            return None
        if fc.lang == "python":
            for imp in fc.star_imports:
                target = self._absolute_python_module(fc, imp)
                if target and self._has_package("python", target):
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
            self._use(("name", fc.path, s.rpartition(".")[2]))
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
            self._use(("name", v.f.file.path, v.f.d.name))
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
                self._use(("name", c.file.path, name))
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
            _, c.bases_deps = self.tracked(lambda: self._compute_bases(c))
        self._use(("name", c.file.path, c.d.name))
        self._use_all(c.bases_deps)
        return c.bases

    def _compute_bases(self, c: Def) -> None:
        assert c.bases is not None
        for text in (*c.d.bases, *c.d.implements):
            t = self.resolve_type(c.file, c.d.parent, text)
            if isinstance(t, ClassV) and t.c is not c:
                c.bases.append(t.c)
            elif base_type(text) not in ("object", "Object"):
                c.external_base = True

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
            stack.extend(reversed(self.bases(x)))  # records x's file and what its bases read
        return out

    def has_external_ancestor(self, c: Def) -> bool:
        return any(x.external_base for x in self.mro(c))

    def lookup(self, c: Def, name: str) -> tuple[list[Def], bool]:
        """Members named ``name`` of the first class in ``c``'s MRO that has any, and whether that
        class is an ancestor (inherited) rather than ``c`` itself."""
        for x in self.mro(c):
            self._use(("name", x.file.path, name))
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
            self._use_all(cached[1])
            return cached[0]
        out, deps = self.tracked(lambda: self._compute_overriders(m, below))
        self._overriders[ck] = (out, deps)
        return out

    def _compute_overriders(self, m: Def, below: Def | None) -> list[Def]:
        out: list[Def] = []
        self._use(("name", m.file.path, m.d.name))
        if below is None:
            self._use(("name", m.file.path, (m.d.parent or "").rpartition(".")[2]))
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
                self._use(("name", s.file.path, s.d.name))
                self._use(("name", s.file.path, m.d.name))
                for o in s.members.get(m.d.name, ()):
                    if o.is_callable and _same_arity(o.d, m.d):
                        out.append(o)
                stack.extend(s.subclasses)
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
        ns = _module_namespace(fc.lang)
        self._use(("n", ns, cs.name))
        # A call on a receiver (``rv.update(...)``) is a method call: a free function of that name
        # is no candidate (README: ``name`` binds to exactly one *method* of that name and arity),
        # except a JS function assigned to an object's property (``res.send = function () {}``).
        candidates = [rd for rd in self.callables_by_name.get((ns, cs.name), ())
                      if _arity_ok(rd.d, cs.arity) and (
                          cs.receiver is None or rd.d.kind == "method"
                          or (fc.lang in _JS_LANGS and rd.d.parent is not None))]
        for rd in candidates:
            self._use(("name", rd.file.path, rd.d.name))
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


def _absolute_python_module(fc: FileCtx, imp: Import) -> str | None:
    """The dotted module a Python import names from ``fc`` (relative levels applied), ``None`` when
    a relative import climbs above the top package."""
    if imp.level == 0:
        return imp.module
    parts = fc.module_key.split(".") if fc.module_key else []
    is_package = posixpath.basename(fc.path).startswith("__init__.")
    drop = imp.level - (1 if is_package else 0)
    if drop > len(parts):
        return None
    base = parts[: len(parts) - drop] if drop else parts
    return ".".join([*base, *([imp.module] if imp.module else [])])


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
    resolver = RepositoryResolver(repo, link)
    resolver.update(extractions)
    return resolver.resolve([ex.path for ex, _, _ in extractions])


def _module_key(ex: FileExtraction, py_keys: dict[str, str]) -> str:
    if ex.language == "python":
        return py_keys[ex.path]
    if ex.language == "java":
        return ex.package if ex.package is not None else posixpath.dirname(ex.path).replace("/", ".")
    return module_path(ex.path)


def _has_framework_facts(ex: FileExtraction) -> bool:
    return bool(ex.routes or ex.routers or ex.mounts or ex.http_calls or ex.topics or ex.constants)


def _framework_facts(fc: FileCtx | None) -> str:
    """The file's framework facts without their positions (``""``: none, or no file)."""
    if fc is None:
        return ""
    ex = fc.ex
    if not _has_framework_facts(ex):
        return ""
    return repr((
        [(r.framework, r.methods, r.path, r.handler, r.handler_ref, r.router) for r in ex.routes],
        [(r.framework, r.name, r.prefix) for r in ex.routers],
        [(m.framework, m.parent, m.child, m.prefix, m.child_module) for m in ex.mounts],
        [(h.framework, h.method, h.url, h.caller) for h in ex.http_calls],
        [(t.framework, t.role, t.topic, t.owner) for t in ex.topics],
        [(c.qualname, c.value) for c in ex.constants],
    ))


def _owns_framework_edges(ex: FileExtraction) -> bool:
    """Whether the linker can give this file edges (EXPOSES, CALLS_HTTP, PRODUCES, CONSUMES)."""
    return bool(ex.routes or ex.http_calls or ex.topics)


@dataclass(slots=True)
class FileChange:
    """One file as :meth:`RepositoryResolver.update` changed it: ``old`` / ``new`` contexts (``None``
    when the file was added / removed) and whether what other files can see of it
    (:attr:`FileCtx.interface`) changed. A file whose module key or id path moved because another
    file came or went is a change too (its node ids move)."""

    path: str
    old: FileCtx | None
    new: FileCtx | None
    interface_changed: bool


class RepositoryResolver:
    """The resolution state of one repository, kept across incremental updates.

    :meth:`update` adds, replaces and removes files; :meth:`resolve` produces the outputs of the files
    asked for (plus every file whose framework facts can own edges) against the current state of all
    files. When an update changes no file's :attr:`FileCtx.interface` (an edit inside bodies, the
    usual save), the files are patched in place and the cross-file lookups memoised so far stay
    valid; otherwise the lookup tables are rebuilt (about 80 ms for Django's 2,864 files) on the next
    resolve.

    Every output records what its bindings read (files, module keys, names matched by name: see
    ``_Resolver``'s dependency tracking); :meth:`dependents` answers which files read what an update
    changed. Callers add what only the store knows (edges into vanished nodes, unresolved calls)
    and the callers a new override can reach (:meth:`dispatch_targets`).
    """

    def __init__(self, repo: str, link: LinkOptions | None = None) -> None:
        self.repo = repo
        self.link = link
        self.files: dict[str, FileCtx] = {}
        self._resolver: _Resolver | None = None
        self._py_keys: dict[str, str] = {}
        self._stems: dict[str, set[str]] = defaultdict(set)
        self._framework: set[str] = set()
        self._prefixes: Counter[tuple[str, str]] = Counter()  # (namespace, dotted prefix) -> files under it
        self._deps: dict[str, Deps] = {}
        self._readers: dict[tuple[str, str, str], set[str]] = defaultdict(set)
        self._changed_tokens: set[tuple[str, str, str]] = set()
        self._changed_names: dict[str, set[str]] = {}
        self._link_dirty = True  # links may differ from the last resolve's
        self._link_deps: set[tuple[str, str, str]] = set()  # what the last full link read

    # -- updating ----------------------------------------------------------------------------------

    def set_link(self, link: LinkOptions | None) -> None:
        """New framework-linking options (the repository's configuration changed): the next resolve
        links again."""
        if link != self.link:
            self.link = link
            self._link_dirty = True

    def update(
        self, files: Sequence[tuple[FileExtraction, str, int]], removed: Iterable[str] = ()
    ) -> list[FileChange]:
        """Add or replace ``files`` (``(extraction, checksum, size)``), drop the ``removed`` paths.

        Sets each extraction's ``id_path`` (the full path when another file shares its path up to
        the suffix). Returns one :class:`FileChange` per file given or removed, plus one per other
        file whose module key or id path changed as a consequence."""
        given = {ex.path: (ex, checksum, size) for ex, checksum, size in files}
        gone = [p for p in dict.fromkeys(removed) if p in self.files and p not in given]
        added = [p for p in given if p not in self.files]
        old = {p: self.files.get(p) for p in [*given, *gone]}
        redo: dict[str, tuple[FileExtraction, str, int]] = dict(given)
        # Same path up to the suffix: ids keep the suffix (util.ts beside util.js).
        stems = set()
        for p in gone:
            self._stems[module_path(p)].discard(p)
            stems.add(module_path(p))
        for p in added:
            self._stems[module_path(p)].add(p)
            stems.add(module_path(p))
        for stem in stems:
            for p in self._stems[stem]:
                if p not in redo:  # a copy: the old context keeps its own id_path
                    fc = self.files[p]
                    redo[p] = (copy.copy(fc.ex), fc.checksum, fc.size)
        # Python module keys depend on which folders hold an __init__.py.
        if any(p.endswith((".py", ".pyi")) for p in [*added, *gone]) or not self._py_keys:
            py_paths = [p for p in [*self.files, *added] if p not in gone and _is_python(p, given, self.files)]
            keys = python_module_keys(py_paths)
            for p, key in keys.items():
                if p not in redo and self._py_keys.get(p) != key:
                    fc = self.files[p]
                    redo[p] = (copy.copy(fc.ex), fc.checksum, fc.size)
            self._py_keys = keys
        new_ctxs: dict[str, FileCtx] = {}
        for p, (ex, checksum, size) in redo.items():
            ex.id_path = p if len(self._stems[module_path(p)]) > 1 else None
            new_ctxs[p] = FileCtx(self.repo, ex, _module_key(ex, self._py_keys), checksum, size)
        changes = []
        for p, fc in new_ctxs.items():
            before = self.files.get(p)
            changes.append(FileChange(p, before, fc, before is None or before.interface != fc.interface))
        changes += [FileChange(p, old[p], None, True) for p in gone]
        # Framework facts are not part of the interface: links change when they change (positions
        # aside, which only move the owning file's own edges), or when what the linker read does
        # (see _index: the files it looked up by module key count as read whole); a file that comes
        # or goes may be a module a mount or handler names.
        if any(_framework_facts(c.old) != _framework_facts(c.new) or (c.new is None or c.old is None)
               for c in changes):
            self._link_dirty = True
        reuse = self._resolver is not None and sum(c.interface_changed for c in changes) <= APPLY_LIMIT
        for c in changes:
            if reuse and not c.interface_changed:
                # Same interface: patch in place; what other files memoised through it stays true.
                assert c.old is not None and c.new is not None and self._resolver is not None
                c.old.adopt(c.new)
                self._resolver.forget(c.old)
                c.new = c.old
            elif c.new is None:
                del self.files[c.path]
            else:
                self.files[c.path] = c.new
        self._index(changes)
        if self._resolver is not None and reuse:
            swapped = [c for c in changes if c.interface_changed]
            if swapped:
                dead: list[Def] = []
                for c in swapped:
                    if c.old is None:
                        continue
                    if c.new is None or c.old.structure != c.new.structure:
                        dead += c.old.defs
                    else:
                        unchanged = {n for n, h in c.new.names.items() if c.old.names.get(n) == h}
                        dead += c.new.reuse_defs(c.old, unchanged)
                self._resolver.apply([c.old for c in swapped if c.old is not None],
                                     [c.new for c in swapped if c.new is not None], self._changed_tokens, dead)
        else:
            self._resolver = None
        return changes

    def _index(self, changes: Sequence[FileChange]) -> None:
        """Framework file set, module-prefix counts and the tokens the changes touched."""
        tokens: set[tuple[str, str, str]] = set()
        self._changed_names = {}
        before: dict[tuple[str, str], int] = {}
        for c in changes:
            self._framework.discard(c.path)
            if c.new is not None and _has_framework_facts(c.new.ex):
                self._framework.add(c.path)
            if not c.interface_changed:
                continue
            old_names = c.old.names if c.old is not None else {}
            new_names = c.new.names if c.new is not None else {}
            if c.old is None or c.new is None or c.old.structure != c.new.structure:
                changed = set(old_names) | set(new_names)
            else:
                changed = {n for n in set(old_names) | set(new_names) if old_names.get(n) != new_names.get(n)}
            tokens.update(("name", c.path, n) for n in changed)
            tokens.add(("file", c.path, ""))
            self._changed_names[c.path] = changed
            callables = {rd.d.name for fc in (c.old, c.new) if fc is not None for rd in fc.defs if rd.is_callable}
            for fc, step in ((c.old, -1), (c.new, 1)):
                if fc is None:
                    continue
                ns = _module_namespace(fc.lang)
                if c.old is None or c.new is None or c.old.module_key != c.new.module_key:
                    tokens.update(_module_tokens(fc))
                tokens.update(("n", ns, n) for n in changed & callables)
                for prefix in _dotted_prefixes(fc):
                    before.setdefault(prefix, self._prefixes[prefix])
                    self._prefixes[prefix] += step
        for prefix, n in before.items():
            if (n > 0) != (self._prefixes[prefix] > 0):  # a package came or went
                tokens.add(("m", *prefix))
            if self._prefixes[prefix] <= 0:
                del self._prefixes[prefix]
        self._changed_tokens = tokens
        if not tokens.isdisjoint(self._link_deps):
            self._link_dirty = True

    def _current(self) -> _Resolver:
        if self._resolver is None:
            # Sorted by path, as a full run sees them: lookups that meet several files of one module
            # key take the first, so the order must not depend on the history of updates.
            self._resolver = _Resolver(self.repo, [self.files[p] for p in sorted(self.files)])
        return self._resolver

    # -- resolving ---------------------------------------------------------------------------------

    def framework_paths(self) -> set[str]:
        """Paths of the files with framework facts (routes, routers, mounts, HTTP calls, topics,
        constants): the framework linker reads them all, so every resolve includes them."""
        return set(self._framework)

    def resolve(self, paths: Iterable[str]) -> ResolvedRepository:
        """Outputs of ``paths`` (unknown paths ignored; input order), then of every other file whose
        framework facts can own edges (routes, HTTP calls, topics), against the current state of all
        files. The linker reads every file with framework facts (constants, routers and mounts too):
        a changed constant or mount re-links the files that use it.

        Links cannot differ from the last resolve's when no interface and no framework fact (moved
        positions aside) changed since: then the other framework files are not produced, and the
        linker runs only when one of ``paths`` owns framework edges (whose positions may have moved)."""
        wanted = [p for p in dict.fromkeys(paths) if p in self.files]
        context: list[FileCtx] | None = None
        extra: list[str] = []
        if self._link_dirty or any(_owns_framework_edges(self.files[p].ex) for p in wanted):
            if self._link_dirty:
                extra = sorted(p for p in self._framework.difference(wanted) if _owns_framework_edges(self.files[p].ex))
            seen = set(wanted).union(extra)
            context = [self.files[p] for p in sorted(self._framework.difference(seen))]
        ctxs = [self.files[p] for p in [*wanted, *extra]]
        resolver = self._current()
        outcomes: dict[str, int] = defaultdict(int)
        # The one place where file outputs are produced, for full and incremental runs alike; framework
        # linking (Endpoint / Topic nodes and their edges) is merged into them right here.
        files = []
        for fc in ctxs:
            out, deps = resolver.tracked(lambda: resolver.file_output(fc, outcomes))  # noqa: B023
            files.append(out)
            self._record(fc.path, deps)
        links: dict[str, int] = {}
        if context is not None:
            resolver.whole_files = True
            try:
                links, deps = resolver.tracked(lambda: _add_framework_links(resolver, ctxs, files, self.link, context))
            finally:
                resolver.whole_files = False
            if self._link_dirty:
                self._link_deps = set(deps)
            else:
                self._link_deps.update(deps)
        self._link_dirty = False
        return ResolvedRepository(files, dict(outcomes), links)

    def _record(self, path: str, deps: Deps) -> None:
        for token in self._deps.get(path, ()):
            readers = self._readers.get(token)
            if readers is not None:
                readers.discard(path)
        self._deps[path] = deps
        for token in deps:
            self._readers[token].add(path)

    # -- what else an update touches ---------------------------------------------------------------

    def dependents(self, changes: Sequence[FileChange]) -> set[str]:
        """Files whose last output read something the interface changes of the last :meth:`update`
        touched (``changes`` is what it returned): a changed file, a module key that it holds or
        that came or went, a name of a definition that came or went (name-matched calls)."""
        if not any(c.interface_changed for c in changes):
            return set()
        out: set[str] = set()
        for token in self._changed_tokens:
            out |= self._readers.get(token, set())
        return {p for p in out if p in self.files}

    def dispatch_targets(self, changes: Sequence[FileChange]) -> list[str]:
        """Ids of the ancestors' methods that changed methods of the changed files' classes (new
        versions) override, all of a class's methods when its own definition (bases) changed: calls
        bound to them may now also reach an override (dynamic dispatch) or the override itself (a
        receiver of the subclass). Which classes derive from which is global: no lookup records it."""
        resolver = self._current()
        out: set[str] = set()
        for c in changes:
            if c.new is None or not c.interface_changed:
                continue
            changed = self._changed_names.get(c.path, set())
            for rd in c.new.defs:
                if not rd.is_type:
                    continue
                names = set(rd.members) if rd.d.name in changed else changed.intersection(rd.members)
                if not names:
                    continue
                for ancestor in resolver.mro(rd)[1:]:
                    for name in names:
                        out.update(m.id for m in ancestor.members.get(name, ()) if m.is_callable)
        return sorted(out)


APPLY_LIMIT = 64
"""Updates changing the interface of more files than this rebuild the resolver's tables and memo
instead of patching them (a rebuild costs about 80 ms plus cold lookups on Django)."""


def _is_python(path: str, given: dict[str, tuple[FileExtraction, str, int]], files: dict[str, FileCtx]) -> bool:
    if path in given:
        return given[path][0].language == "python"
    return files[path].lang == "python"


def _module_tokens(fc: FileCtx) -> list[tuple[str, str, str]]:
    """The module-table keys under which other files find ``fc``."""
    ns = _module_namespace(fc.lang)
    keys = [fc.module_key]
    if ns == "ecmascript" and posixpath.basename(fc.module_key) == "index":
        keys.append(posixpath.dirname(fc.module_key))
    return [("m", ns, k) for k in keys]


def _dotted_prefixes(fc: FileCtx) -> list[tuple[str, str]]:
    """``(namespace, prefix)`` for every package prefix ``fc``'s module key makes exist (Python, Java)."""
    if fc.lang not in ("python", "java"):
        return []
    parts = fc.module_key.split(".")
    return [(fc.lang, ".".join(parts[:i])) for i in range(1, len(parts) + 1)]


def _add_framework_links(
    resolver: _Resolver,
    ctxs: Sequence[FileCtx],
    files: Sequence[IndexedFile],
    link: LinkOptions | None,
    context: Sequence[FileCtx] = (),
) -> dict[str, int]:
    """Merge the framework linker's shared nodes and edges into the file outputs (``files[i]`` is
    ``ctxs[i]``'s) and return its outcome counters. Called once per resolve, from
    :meth:`RepositoryResolver.resolve` only; ``ctxs`` plus ``context`` (files whose facts the linker
    reads but whose output is not produced: constants, routers, mounts) hold every file with
    framework facts."""
    from indexer.frameworks.link import link_frameworks  # the linker builds on this module

    # In path order, as a full run sees them: mount order decides which prefixes come first.
    linked = link_frameworks(resolver, sorted([*ctxs, *context], key=lambda fc: fc.path), link)
    for fc, out in zip(ctxs, files):
        out.nodes.extend(linked.nodes.get(fc.path, ()))
        out.edges.extend(linked.edges.get(fc.path, ()))
    return dict(sorted(linked.outcomes.items()))
