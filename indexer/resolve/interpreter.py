"""The resolver core: a small abstract interpreter over values, the same for every language.

How a name is bound, in order (values: a module, a class, an instance of a class, a function, or
"external" — known to live outside the repository; :mod:`indexer.resolve.values`):

1. Lexical scope: bindings and nested definitions of the enclosing function, then its enclosing
   scopes, then the file's top level, then its imports; then what the language adds
   (:meth:`~indexer.resolve.language.ModuleSystem.resolve_unbound`: Java's same-package types and
   wildcard imports, Python's star imports).
2. Imports follow the language's module system (``FileCtx.rules``, a
   :class:`~indexer.resolve.language.ModuleSystem` from the language's folder): Python dotted
   modules, JS/TS specifiers and re-exports, Java packages and nested types.
3. Receivers: ``self`` / ``this`` is an instance of the enclosing class; a variable's type comes from
   its declaration, parameter, field or a constructor call assigned to it; ``a.b().c`` follows the
   return type of ``b``.
4. A method is looked up in the receiver's class, then its bases (C3 order, Python's MRO); a call
   through a base or interface type also reaches every override in the subclasses — unless the
   receiver was built by calling the class itself (``Repo()``, ``new Repo()``, not ``cls()``): its
   run-time class is then known and no subclass override can run
   (:mod:`indexer.resolve.hierarchy`, :mod:`indexer.resolve.calls`).

5. Order and shadowing: a name bound several ways in one scope takes the binding written last
   before the use (:meth:`Resolver.resolve_expr_at`); an untyped parameter hides the enclosing
   scopes' names. Calls the resolver reads into the code (``CallSite.via``: dunders of ``with``,
   ``for`` and operators, functions held in a container called through a subscript, bare
   decorators) bind only through values, never by name, and count only when they bind.

Every CALLS edge records how it was bound (design, "Data model"): ``exact`` when the import or the
declared type fixes the target; ``inferred`` when the receiver type was inferred from a constructor
call or a return type, or the target was reached through inheritance (inherited method, ``super``,
an override reached by dynamic dispatch); ``name`` when the receiver is unknown and exactly one
callable of that short name and a compatible arity exists in the repository. A receiver whose type is
known never falls back to a name match: when its class lacks the method the call stays unresolved.

Every lookup is memoised and records what it read (:mod:`indexer.resolve.tracking`), so that
:class:`~indexer.resolve.repository.RepositoryResolver` can keep one :class:`Resolver` across
incremental updates and redo only what a change touched.

The :class:`Resolver` keeps expression evaluation, types and attributes; name and scope lookup is
:mod:`indexer.resolve.scope_lookup`, return inference :mod:`indexer.resolve.return_inference` (mixins).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from indexer.model import LITERAL_RECEIVER, TYPE_ALIAS, Binding, CallSite, Import, base_type
from indexer.resolve.dotted import calls_off, split_dotted, subscripts_off, too_long
from indexer.resolve.ambient import ambient_type
from indexer.resolve.calls import CallBinder
from indexer.resolve.context import FileCtx, decorator_name
from indexer.resolve.container_bases import container_element
from indexer.resolve.generics import declared_instance, generic_attribute, member_result
from indexer.resolve.hierarchy import ClassHierarchy
from indexer.resolve.multimap import entries, every
from indexer.resolve.output import file_output
from indexer.resolve.reads import is_getter
from indexer.resolve.return_inference import MAX_RETURNED_VALUES, ReturnInference
from indexer.resolve.scope_lookup import ScopeLookup
from indexer.resolve.tables import ModuleTables
from indexer.resolve.tracking import DependencyTracker, MemoKey
from indexer.resolve.values import (BUILTIN, EXTERNAL, MAX_NESTING, ClassV, Def, FuncV, InstV, ModuleV, ObjV,
                                    QueryV, Token, TupleV, Value, element, element_of, module_name_token, nested,
                                    CLASSES)
from stores.contracts import IndexedFile

if TYPE_CHECKING:
    from indexer.resolve.language import ModuleSystem

__all__ = ["INDEXED_MODULE_FILES", "MAX_RETURNED_VALUES", "Resolver"]

INDEXED_MODULE_FILES = 16
"""Files a module needs for :meth:`Resolver.module_holders` to answer from its name index (smaller
ones are read file by file: a few reads per lookup, no index held)."""

_NEW = re.compile(r"new ([\w$.]+)\(\)")
"""A receiver written for a ``new`` expression (``new Foo()``, ``new a.b.Foo()``): its type text."""
_CAST = re.compile(r"\(([\w$.]+)\)")
"""A receiver written for a cast (``(Foo)``, ``(a.b.Foo)``): its type text."""


class Resolver(ScopeLookup, ReturnInference):
    """Evaluates the names and expressions of one repository's files to values.

    ``systems`` maps each language name to its module system. Implements
    :class:`~indexer.resolve.language.Lookup` (what module systems and the framework linker use).
    Owns the tables (:class:`~indexer.resolve.tables.ModuleTables`), the class hierarchy
    (:attr:`classes`), the call binder (:attr:`calls`) and the dependency tracker (:attr:`track`)."""

    def __init__(self, repo: str, files: Sequence[FileCtx], systems: Mapping[str, ModuleSystem],
                 module_configs: Mapping[str, object] | None = None, memo_budget: int | None = None) -> None:
        """``memo_budget``: the memo keeps at most about that many entries it can compute again
        (:class:`~indexer.resolve.tracking.DependencyTracker`; ``None``: all of them)."""
        self.repo = repo
        self.module_configs = dict(module_configs or {})
        """Per namespace, the repository configuration its module system reads (:meth:`module_config`)."""
        self.files = list(files)
        self._by_path = {fc.path: fc for fc in self.files}
        self.track = DependencyTracker(memo_budget)
        # Bound once: these run on every lookup.
        self.use = self.track.use
        self.tracked = self.track.tracked
        self._memoised = self.track.memoised
        self._by_namespace = {ms.namespace: ms for ms in systems.values()}
        self._namespaces = {**{lang: ms.namespace for lang, ms in systems.items()}, **{ns: ns for ns in self._by_namespace}}
        self.tables = ModuleTables(self._namespaces)
        self._modules = self.tables.modules
        self._packages = self.tables.packages
        self.primitives: frozenset[str] = frozenset().union(*(ms.primitives for ms in systems.values()))
        for fc in self.files:
            self.tables.add(fc)
        self.whole_files = False
        """While set (the framework linker runs), files looked up by module key count as read whole."""
        self.classes = ClassHierarchy(self.track, self.resolve_type, self.module_holders)
        self.calls = CallBinder(self)
        self.classes.reset(self.files)

    def apply(self, removed: Sequence[FileCtx], added: Sequence[FileCtx], tokens: set[Token],
              dead: Sequence[Def]) -> None:
        """Swap the contexts ``removed`` for ``added`` (new versions of files, new files; every other
        file unchanged) and forget exactly what read one of ``tokens`` (the names, module keys and
        short names the change touched, see :mod:`indexer.resolve.tracking`): memoised lookups,
        bases, dispatch targets. ``dead``: the definitions of ``removed`` that ``added`` did not take
        over (:meth:`FileCtx.reuse_defs`); whatever holds one of them read its name, which is among
        ``tokens``. What read none of them holds in the new state too, and stays."""
        gone = {id(fc) for fc in removed}
        if removed:
            self.tables.count_packages(self.files)  # (once: the tables keep the counts from then on)
        for fc in removed:
            self.tables.remove(fc)
        self.track.drop(removed)
        self.track.drop(dead)
        for fc in added:
            self.tables.add(fc)
        self.files = sorted([fc for fc in self.files if id(fc) not in gone] + list(added), key=lambda f: f.path)
        self._by_path = {fc.path: fc for fc in self.files}
        self.track.advance(tokens)
        self.classes.renew(self.files, tokens, dead)

    def forget(self, fc: FileCtx) -> None:
        """Drop what was memoised about names and expressions *inside* ``fc`` (keyed by the file);
        entries other files computed through ``fc``'s interface stay (see RepositoryResolver)."""
        self.track.drop([fc])

    def file_output(self, fc: FileCtx, outcomes: dict[str, int]) -> IndexedFile:
        """``fc``'s graph output (:func:`indexer.resolve.output.file_output`), its call sites read
        back once for the whole of it (:meth:`FileCtx.binding`)."""
        with fc.binding():
            return file_output(self, self.calls, fc, outcomes)

    # -- modules (the Lookup surface) --------------------------------------------------------------

    def has_package(self, ns: str, key: str) -> bool:
        """Whether ``key`` is a dotted package of namespace ``ns`` (recorded)."""
        self.use(("m", ns, key))
        return key in self._packages[ns]

    def is_package(self, ns: str, key: str) -> bool:
        """:meth:`has_package` without recording the read."""
        return key in self._packages[ns]

    def has_module(self, ns: str, key: str) -> bool:
        """Whether some file holds module ``key`` of namespace ``ns`` (recorded)."""
        self.use(("m", ns, key))
        return key in self._modules[ns]

    def module_files(self, lang: str, key: str) -> list[FileCtx]:
        """The files holding module ``key`` of ``lang``'s namespace, in path order."""
        ns = self._namespaces.get(lang, lang)
        self.use(("m", ns, key))
        files = self._modules[ns].get(key, [])
        if self.whole_files:  # the framework linker reads these files' tables directly
            for fc in files:
                self.use(("file", fc.path, ""))
        return files

    def module_holders(self, lang: str, key: str, name: str, members: bool = False) -> Sequence[FileCtx]:
        """The files of module ``key`` of ``lang``'s namespace that define ``name`` at top level
        (``members``: as a member), in path order (:meth:`indexer.resolve.tables.ModuleTables.holders`:
        a superset of those whose lookup finds it). Recorded as the module key and
        :func:`~indexer.resolve.values.module_name_token`: a file of the module gaining or losing the
        name changes the answer; read each file's definitions with a ``("name", path, name)`` use.
        While the framework linker runs (:attr:`whole_files`) every file of the module counts as
        read whole, as :meth:`module_files` records. A module of fewer than :data:`INDEXED_MODULE_FILES`
        files is not indexed: all its files are answered (:meth:`module_files`), which the caller reads
        one by one as before (the index's memory goes to the namespaces whose scans cost)."""
        ns = self._namespaces.get(lang, lang)
        if len(self._modules[ns].get(key, ())) < INDEXED_MODULE_FILES:
            return self.module_files(lang, key)
        self.use(("m", ns, key))
        self.use(module_name_token(ns, key, name))
        if self.whole_files:
            for fc in self._modules[ns].get(key, ()):
                self.use(("file", fc.path, ""))
        return self.tables.holders(ns, key, name, members)

    def memoised(self, key: MemoKey, compute: Callable[[], Value]) -> Value:
        """``compute()`` once per ``key`` (a tuple whose first element is ``id(fc)`` of the file the
        answer belongs to, or ``0`` for the repository's), with what it read recorded and replayed
        like every lookup's (:meth:`indexer.resolve.tracking.DependencyTracker.memoised`: a key met
        again while computing yields ``None``)."""
        return self._memoised(key, compute)

    def resolve_import(self, fc: FileCtx, imp: Import) -> Value:
        """The value an import of ``fc`` binds (through the file's module system)."""
        return fc.rules.resolve_import(self, fc, imp)

    def module_member(self, lang: str, key: str, name: str) -> Value:
        """The value a module exports under ``name`` (following re-exports), or ``None``.

        Cached; an import cycle (``a`` re-exports ``x`` from ``b``, which imports it from ``a``)
        yields ``None`` for the cyclic path."""
        ns = self._namespaces.get(lang, lang)
        return self._memoised((0, key, name, "member:" + ns),
                              lambda: self._by_namespace[ns].module_member(self, key, name))

    def module_config(self, ns: str) -> object | None:
        """The repository configuration given to namespace ``ns``'s module system, or ``None``."""
        return self.module_configs.get(ns)

    def lookup(self, c: Def, name: str) -> tuple[list[Def], bool]:
        """Members ``name`` of the first class in ``c``'s MRO having any, and whether inherited."""
        return self.classes.lookup(c, name)

    def call_targets(self, fc: FileCtx, cs: CallSite) -> list[tuple[Def, str]]:
        """The definitions ``cs`` binds to, each with its resolution (:meth:`CallBinder.bind_call`);
        empty when it binds none or a library's."""
        found = self.calls.bind_call(fc, cs)
        return found if isinstance(found, list) else []

    def registered(self, ns: str, decorator: str) -> list[Def]:
        """The callables of namespace ``ns`` registered as ``decorator`` (:meth:`registrations`), each once."""
        out: dict[int, Def] = {}
        for rd, _, _ in self.registrations(ns, decorator):
            out.setdefault(id(rd), rd)
        return list(out.values())

    def registrations(self, ns: str, decorator: str) -> list[tuple[Def, FileCtx, str]]:
        """The callables of namespace ``ns`` decorated by ``decorator`` (see
        :attr:`ModuleTables.decorated`) or handed to a call standing for it (a ``registers`` binding,
        ``jwt.user_loader_callback_loader(f)``: :attr:`ModuleTables.registrations`), each with the
        file registering it and the decorator text (``login.user_loader``, the call's callee), in
        (path, line) order of the registrations; records the read as ``("n", ns, "@" + decorator)``."""
        self.use(("n", ns, "@" + decorator))
        found = [(rd.file.path, rd.d.start_line, rd, rd.file, d)
                 for rd in self.tables.decorated.get((ns, decorator), ())
                 for d in rd.heads.decorators if decorator_name(d) == decorator]
        for fc, b in self.tables.registrations.get((ns, decorator), ()):
            v = self.resolve_expr(fc, b.scope, b.type)
            if isinstance(v, FuncV):
                found.append((fc.path, b.line, v.f, fc, b.name[1:]))
        found.sort(key=lambda x: (x[0], x[1]))
        return [(rd, fc, text) for _, _, rd, fc, text in found]

    def registration_bindings(self, ns: str, name: str) -> list[tuple[FileCtx, Binding]]:
        """The ``registers`` bindings of namespace ``ns`` named ``@name`` (any dotted prefix), each with
        its file, in path order, unresolved (a detector's record of something other than a callable:
        Apollo's data-source objects); records the read as ``("n", ns, "@" + name)``."""
        self.use(("n", ns, "@" + name))
        return sorted(self.tables.registrations.get((ns, name), ()), key=lambda x: (x[0].path, x[1].line))

    def mro(self, c: Def) -> list[Def]:
        """``c`` and its ancestors, each once, in C3 order (:meth:`ClassHierarchy.mro`)."""
        return self.classes.mro(c)

    def getter_named(self, ns: str, name: str) -> bool:
        """Whether some getter of namespace ``ns`` bears the short name ``name``
        (:attr:`ModuleTables.getters`; recorded as ``("n", ns, name)``)."""
        self.use(("n", ns, name))
        return (ns, name) in self.tables.getters

    def callable_named(self, fc: FileCtx, name: str) -> bool:
        """Whether ``name`` may stand for a function of the repository in ``fc``: a function or method
        of ``fc``'s namespace bears it, or an import of ``fc`` binds it (``import f as g``);
        recorded as ``("n", ns, name)``."""
        ns = fc.rules.namespace
        self.use(("n", ns, name))
        return bool(self.tables.callables_by_name.get((ns, name))) or name in fc.imports

    def types_named(self, ns: str, name: str) -> list[Def]:
        """The classes of namespace ``ns`` whose short name is ``name``, in path order (recorded as
        ``("n", ns, name)``)."""
        self.use(("n", ns, name))
        return list(self.tables.types_by_name.get((ns, name), ()))

    def constant_files(self, ns: str, name: str) -> list[FileCtx]:
        """The files of namespace ``ns`` setting the module-level string constant ``name``, in path
        order (recorded as ``("n", ns, "=" + name)``; read the value with a ``("name", path, name)`` use)."""
        self.use(("n", ns, "=" + name))
        return list(self.tables.constant_files.get((ns, name), ()))

    def reverse_members(self, ns: str, name: str) -> list[tuple[Def, str]]:
        """The classes whose ``reverse`` bindings give another class's instances attribute ``name``,
        each with the binding's type text (recorded as ``("n", ns, "~" + name)``)."""
        self.use(("n", ns, "~" + name))
        return list(self.tables.reverse_members.get((ns, name), ()))

    # -- names and expressions ---------------------------------------------------------------------

    def def_value(self, rd: Def) -> Value:
        """The value a definition stands for: a class, a function, a typed field's instance."""
        self.use(("name", rd.file.path, rd.name))
        if rd.is_type:
            return ClassV(rd)
        if rd.is_callable:
            return FuncV(rd)
        if rd.kind == "field" and rd.d.field_type:
            return self.typed_value(rd.file, rd.parent, rd.d.field_type, "exact")
        return None

    def resolve_type(self, fc: FileCtx, scope: str | None, text: str | None) -> Value:
        """A type text to ``ClassV`` (a class of the repository), ``EXTERNAL`` or ``None``."""
        t = base_type(text)
        if not t:
            return None
        if t in self.primitives:
            return EXTERNAL
        if getattr(fc.rules, "package_level_types", False):  # optional: Go names types at package level
            scope = None  # only (`T`, `pkg.T`): a field `store` never hides the package `store`
        v = self.resolve_expr(fc, scope, t)
        if isinstance(v, ModuleV):  # JS `util.inherits(Sub, View)` of `const View = require('./view')`
            exported = self.module_member(v.ns, v.key, "default")  # the module's `module.exports = View`
            v = exported if isinstance(exported, ClassV | FuncV) else v
        if isinstance(v, ClassV):
            return v
        if isinstance(v, FuncV) and self.is_constructor(v.f):  # JS `new View()`, `Object.create(View.prototype)`
            return ClassV(v.f)
        if isinstance(v, FuncV) and TYPE_ALIAS in v.f.d.modifiers and v.f.d.return_type \
                and base_type(v.f.d.return_type) != v.f.name:  # FastAPI `CurrentUser = Annotated[User, Depends(f)]`
            return self.resolve_type(v.f.file, v.f.parent, v.f.d.return_type)
        if "." not in t:  # a type and a value sharing a name (`interface X` + `const X = make()`): the type
            own = self._type_named(fc, scope, t)
            if own is not None:
                return own
        return EXTERNAL if v is EXTERNAL or v is BUILTIN else None

    def typed_value(self, fc: FileCtx, scope: str | None, text: str, how: str) -> Value:
        """The value a name declared (or a function returning) with type text ``text`` holds: an
        instance (``how``: ``exact`` | ``inferred``) of the repository class it names; for a library
        container of one (the module system's optional ``container_element``: Java's ``Optional<Owner>``,
        ``List<Owner>``, ``Map<K, Owner>``), a :class:`QueryV` of the element class, whose calls the
        class's module system reads (``query_call``); for a map of one (the optional ``map_value``:
        ``dict[str, User]``), a :class:`QueryV` of the value class with the language's view of it; for a
        tuple (the optional ``tuple_items``: ``tuple[Channel, bool]``), a :class:`TupleV` of each
        position's value; for a class itself (the optional ``class_of``: Python's ``type[User]``), the class
        or any subclass of it (``ClassV``, ``dynamic``); else what :meth:`resolve_type` gives."""
        rules = fc.rules
        of = getattr(rules, "class_of", None)
        named = of(text) if of is not None and text else None
        k = self.resolve_type(fc, scope, named) if named else None
        if isinstance(k, ClassV):
            return ClassV(k.c, dynamic=True)
        found = self._container(fc, scope, text, MAX_NESTING)
        if found is not None:
            return found
        items = getattr(rules, "tuple_items", None)  # optional: `tuple[Channel, bool]`, `[User, boolean]`
        parts = items(text) if items is not None and text else None
        if parts:
            values = tuple(self.typed_value(fc, scope, p, how) for p in parts)
            if any(isinstance(v, InstV | QueryV | TupleV) for v in values):
                names = getattr(rules, "tuple_names", None)  # optional: C#'s `t.Item1`, `t.order`
                return TupleV(values, names(text) if names is not None else ())
        t = self.resolve_type(fc, scope, text)
        if t is None and ambient_type(self, fc, scope, text):  # `s: NodeJS.ReadableStream`: the library's
            return EXTERNAL
        return declared_instance(self, fc, scope, text, t.c, how) if isinstance(t, ClassV) else t

    def _container(self, fc: FileCtx, scope: str | None, text: str, levels: int) -> QueryV | None:
        """The :class:`QueryV` of a library container (``container_element``) or map (``map_value``) type
        text of a repository class's instances or, up to ``levels`` more levels, of containers of them
        (``Map<String, List<Owner>>``, TypeScript's ``User[][]``: :attr:`QueryV.inner`) or of the class itself
        (``dict[str, type[Handler]]``: the optional ``class_of``, :data:`CLASSES`); ``None`` otherwise."""
        element_text = getattr(fc.rules, "container_element", None)
        e = element_text(text) if element_text is not None and text else None
        mapped = getattr(fc.rules, "map_value", None)  # optional: `dict[str, User]`, `Map<string, User>`
        m = mapped(text) if mapped is not None and text and not e else None
        inner_text, view = (e, "") if e else m if m else (None, "")
        if not inner_text:
            return None
        if levels > 0 and (element_text(inner_text) or mapped is not None and mapped(inner_text)):  # of containers
            return nested(view, self._container(fc, scope, inner_text, levels - 1))
        k = of(inner_text) if (of := getattr(fc.rules, "class_of", None)) is not None else None  # `type[H]`: classes
        t = self.resolve_type(fc, scope, k or inner_text)  # before the type itself: TypeScript's `User[]` is `User`'s
        return QueryV(t.c, view=view, inner=(CLASSES,) if k else ()) if isinstance(t, ClassV) else None

    def _type_named(self, fc: FileCtx, scope: str | None, name: str) -> ClassV | None:
        """The type definition ``name`` of ``fc`` visible from ``scope`` (its enclosing scopes, then
        the top level), or ``None``: what a type position means where a value of the same name
        shadows it (TypeScript keeps types and values apart)."""
        self.use(("name", fc.path, name))
        s = scope
        while s is not None:
            for rd in entries(fc.by_qualname, f"{s}.{name}"):
                if rd.is_type:
                    return ClassV(rd)
            s = fc.parent_scope(s)
        for rd in reversed(entries(fc.top, name)):
            if rd.is_type:
                return ClassV(rd)
        return None

    def resolve_expr(self, fc: FileCtx, scope: str | None, text: str) -> Value:
        """The value of a dotted expression text (``a.b().c``) in ``scope`` of ``fc``."""
        return self._memoised((id(fc), scope, text, "expr"), lambda: self._resolve_expr(fc, scope, text))

    def _resolve_expr(self, fc: FileCtx, scope: str | None, text: str) -> Value:
        if text.startswith("new "):  # `new Foo()`, `new a.Foo().bar()`: an instance of exactly Foo
            made = _NEW.match(text)
            if made is None:
                return None
            t = self.resolve_type(fc, scope, made.group(1))
            if t is None and ambient_type(self, fc, scope, made.group(1)):
                t = EXTERNAL  # `new Date()`, `new URL(u)`: a class of the ambient library
            v: Value = InstV(t.c, "exact", concrete=True) if isinstance(t, ClassV) else t
            rest = text[made.end():]
            return self.follow(v, split_dotted(rest[1:])) if rest.startswith(".") else v
        if text.startswith("("):  # `(Owner)` + rest: a cast (Java), an instance of that type
            cast = _CAST.match(text)
            t = self.resolve_type(fc, scope, cast.group(1)) if cast else None
            if not isinstance(t, ClassV) or cast is None:
                return t
            rest = text[cast.end():]
            v = InstV(t.c, "exact")
            return self.follow(v, split_dotted(rest[1:])) if rest.startswith(".") else v
        segments = split_dotted(text)
        if not segments or too_long(segments):  # past MAX_EXPRESSION_LINKS: no value
            return None
        head, subs = subscripts_off(segments[0])
        name, calls = calls_off(head)
        called = calls > 0 or bool(subs)
        if name != LITERAL_RECEIVER and not name.isidentifier() and not name.replace("$", "_").isidentifier():
            return None
        v: Value
        if name == LITERAL_RECEIVER:  # `", ".join(...)`, `{}.get(k).strip()`: the language's own objects
            v = BUILTIN
        elif name in ("self", "this"):
            cls = self.enclosing_class(fc, scope) or self._prototype_owner(fc, scope)
            if cls is None and name == "this":
                cls = self._constructor_function(fc, scope)
            if cls is not None:
                v = InstV(cls, "exact")
            elif name == "this":  # JS `obj.m = function () { this... }`: the object
                v = self._property_owner(fc, scope)
            else:  # no class around: `self` is a name like any other (a Go function `self`)
                v = self.resolve_name(fc, scope, name)
        elif name == fc.rules.class_receiver and (scope, name) not in fc.bindings:  # a local `cls = ...` is a variable
            cls = self.enclosing_class(fc, scope)  # no class around: `cls` is a name like any other
            v = ClassV(cls, dynamic=True) if cls is not None else self.resolve_name(fc, scope, name)
        else:
            v = self.resolve_name(fc, scope, name)
            if v is None and len(segments) > 1 and not called:
                q = fc.rules.qualified_name(self, fc, text.split("(", 1)[0])
                if q is not None:
                    return q
        for i in range(calls):  # `f()()`: what calling what `f` returns yields
            v = self.call_result(v, "exact" if i == 0 else "inferred")
        if subs:  # `users[0]`, `f()[0]`
            return self.follow(self._postfix(v, subs), segments[1:])
        hook = getattr(fc.rules, "framework_receiver", None)  # optional: Python's Django ``request.user``
        if hook is not None:
            found = hook(self, fc, scope, segments, v)
            if found is not None:
                return self.follow(found[0], segments[found[1]:])
        return self.follow(v, segments[1:])

    def follow(self, v: Value, segments: list[str]) -> Value:
        """The value of ``v`` followed by the segments of a dotted expression (``["b()", "c"]``:
        attribute ``b``, called, then attribute ``c``); a getter read on an instance (a Python
        ``@property``, a JavaScript ``get``) is what calling it returns. Whatever precedes it, a data-model attribute
        (:data:`DATA_MODEL_ATTRIBUTES`: ``obj.__dict__``) is the language's own object (``BUILTIN``); ``None``
        past :data:`~indexer.resolve.dotted.MAX_EXPRESSION_LINKS` links."""
        if too_long(segments):
            return None
        for i in range(len(segments) - 1, -1, -1):
            if segments[i] in DATA_MODEL_ATTRIBUTES:
                v, segments = BUILTIN, segments[i + 1:]
                break
        for seg in segments:
            if v is None or v is EXTERNAL:
                return v
            if v is BUILTIN:  # what a builtin object's member is or hands back: unknown
                return None
            seg, subs = subscripts_off(seg)
            name, calls = calls_off(seg)
            owner, v = v, self.attr(v, name)
            if v is None or v is EXTERNAL:  # `repo.model` typed by a type parameter its class binds
                v = generic_attribute(self, owner, name) or v
            if not calls and isinstance(v, FuncV) and isinstance(owner, InstV) and is_getter(v.f):
                v = self.own_class(owner, v, self.call_result(v, "inferred"))  # what the @property returns
            for i in range(calls):
                v = self.own_class(owner, v, self.call_result(v, "exact"), name) if i == 0 \
                    else self.call_result(v, "inferred")
            if subs and (v is not EXTERNAL or calls):  # a library object's attribute subscripted stays the
                v = self._postfix(v, subs)  # library's; what a library method returns, subscripted, is unknown
        return v

    def _postfix(self, v: Value, ops: list[str]) -> Value:
        """``v`` followed by the subscripts and calls ``ops`` (:func:`~indexer.resolve.dotted.subscripts_off`: ``["[0]",
        "()"]``): :meth:`subscripted`, :meth:`call_result`."""
        for op in ops:
            if v is None:
                return None
            v = self.call_result(v, "inferred") if op == "()" else self.subscripted(v, op[1:-1].strip())
        return v

    def own_class(self, receiver: Value, method: Value, result: Value, name: str = "") -> Value:
        """What calling ``method``, read on ``receiver`` as member ``name``, yields when ``result`` is
        what its body gives (:func:`~indexer.resolve.generics.member_result`: a classmethod returning
        ``cls(...)`` called on a subclass, a member returning its class's type parameter, a query
        object's member as its module system reads it)."""
        return member_result(self, receiver, method, result, name)

    def call_result(self, v: Value, how: str) -> Value:
        """The value calling ``v`` yields: an instance of a class, a function's (inferred) return."""
        if isinstance(v, ClassV):
            return InstV(v.c, how, concrete=not v.dynamic)
        if isinstance(v, ModuleV):  # a CommonJS module called: its `module.exports = f` is called
            v = self.module_member(v.ns, v.key, "default")
            if isinstance(v, ModuleV):
                return None
            return self.call_result(v, how)
        if isinstance(v, FuncV):
            self.use(("name", v.f.file.path, v.f.name))
            rt = v.f.d.return_type
            if not rt and self.is_constructor(v.f):
                # A JS constructor function with a prototype (`View.prototype.render = ...`): what it
                # builds is an instance whose members are its prototype's.
                return InstV(v.f, how)
            if not rt:
                # No annotation: what every ``return`` of the function calls, resolved in its own body.
                # The key stops functions returning each other's results (``f`` -> ``g()`` -> ``f()``).
                ir = v.f.d.inferred_return
                if not ir:
                    return self._returned_function(v.f)
                f = v.f
                return self._memoised((id(f), f.qualname, ir, "return"), lambda: self._inferred_return(f, ir))
            return self.typed_value(v.f.file, v.f.parent, rt, "inferred")
        if isinstance(v, QueryV):  # `q.filter()`, `q.first()`: what the module system says the method returns
            query_call = getattr(v.c.file.rules, "query_call", None)
            return query_call(v) if query_call is not None and v.method else EXTERNAL
        if v is EXTERNAL or v is BUILTIN:  # `set()`: a builtin object
            return v
        return None

    def called(self, fc: FileCtx, scope: str | None, callee: str) -> Value:
        """What calling the callee text ``callee`` in ``scope`` of ``fc`` yields (``inferred``): a
        classmethod read on a class (``User.get_by_id``), or a library method where the module system
        reads query objects (``self.filter`` of a Django queryset class), as :meth:`own_class` says."""
        target = self.resolve_expr(fc, scope, callee)
        result = self.call_result(target, "inferred")
        head, dot, member = callee.rpartition(".")
        if dot and (isinstance(target, FuncV) or (target is EXTERNAL and hasattr(fc.rules, "query_member"))):
            result = self.own_class(self.resolve_expr(fc, scope, head), target, result, member)
        return result

    @staticmethod
    def is_constructor(f: Def) -> bool:
        """Whether the function ``f`` is a JavaScript constructor: it has prototype methods
        (``View.prototype.render = function () {}``, members of kind ``method``) or a prototype the
        extractor gave bases (``Object.create(Base.prototype)``, ``X.prototype.m = foo``:
        :mod:`indexer.languages.ecmascript.prototypes`)."""
        return f.kind == "function" and (bool(f.heads.bases) or any(m.kind == "method" for m in every(f.members)))

    element_of = staticmethod(element_of)  # what iterating a value yields

    def subscripted(self, v: Value, index: str) -> Value:
        """The value of ``v[index]`` (``index`` the subscript's text, arguments dropped): of a tuple, the
        item an integer literal picks (``f()[0]``); of a container or map of a repository class's
        instances, one (``users[i]``, ``d[k]``, ``Check.objects.filter()[0]``), a slice the container
        again (``users[1:]``); of an instance, its record field (the module system's optional
        ``record_item``), else what its class's ``__getitem__`` returns; ``index``
        ``*`` stands for any element, what iterating ``v`` yields (:meth:`iterated`'s rule: an
        unpacked loop variable is ``d.items()[*][1]``). ``None`` when unknown, also of a library's object
        (a library's container may hold the repository's objects: ``context["t"].m()`` is left to the
        name match)."""
        if index == "*":
            return self._protocol_element(v.c) or container_element(self, v, "*") if isinstance(v, InstV) else self.element_of(v)
        if isinstance(v, TupleV):
            try:
                i = int(index)
            except ValueError:
                return None
            return v.items[i] if -len(v.items) <= i < len(v.items) else None
        if isinstance(v, QueryV) and not v.method:
            if ":" in index:  # a slice: the same sequence (a map has none)
                return None if v.view else v
            return element(v)
        if isinstance(v, InstV):  # a repository class's own subscript (Python's `__getitem__`), else a library base's
            record = getattr(v.c.file.rules, "record_item", None)  # optional: Python's TypedDict `cfg["db"]`
            item = record(self, v.c, index) if record is not None else None
            if item is not None:
                return item
            getters, _ = self.classes.lookup(v.c, "__getitem__")
            found = self.call_result(FuncV(getters[-1], "inferred"), "inferred") \
                if getters and getters[-1].is_callable else container_element(self, v, index)  # `reg[k]`: a library base's
            return EXTERNAL if found is None and self.classes.has_external_ancestor(v.c) else found
        return None

    def iterated(self, fc: FileCtx, scope: str | None, text: str) -> Value:
        """What iterating the value of the expression ``text`` (in ``scope`` of ``fc``) yields, one
        element (``inferred``): of a call of a generator function, what it yields (:meth:`yielded`:
        ``for f in handlers(): f()``); of an instance of a repository class, what its iteration
        protocol hands out (:meth:`_protocol_element`); else :meth:`element_of`. ``None`` when unknown."""
        if text.endswith("()"):
            gen = self.resolve_expr(fc, scope, text[:-2])
            if isinstance(gen, FuncV) and not gen.f.d.return_type and gen.f.d.yielded_refs:
                return self.yielded(gen.f)
        return self.subscripted(self.resolve_expr(fc, scope, text), "*")

    def attr(self, v: Value, name: str) -> Value:
        """Member ``name`` of ``v``: a module's export, a class's or instance's attribute (its
        bindings in the class body or through ``self.`` / ``this.``, then members, inherited too);
        a class's attribute as the class's module system sees it (optional ``class_query``: Django's
        ``M.objects`` is a :class:`QueryV`)."""
        found = self._attr(v, name)
        if isinstance(v, ClassV):
            query = getattr(v.c.file.rules, "class_query", None)
            if query is not None:
                return query(self, v.c, name, found)
        return found

    def _attr(self, v: Value, name: str) -> Value:
        if v is None or v is EXTERNAL:
            return v
        if v is BUILTIN:
            return None
        if isinstance(v, TupleV):  # C#'s `pair.Value`; any other member is the library's tuple's
            return v.items[v.names.index(name) % len(v.items)] if name and name in v.names else EXTERNAL
        if isinstance(v, QueryV):  # a query's method: its manager's own, else the library's
            if v.method:
                return EXTERNAL
            read = getattr(v.c.file.rules, "query_read", None)  # optional: a container's property (C# `d.Values`)
            if read is not None:
                found = read(v, name)
                if found is not None:
                    return found
            if v.manager is not None:
                own = self.attr(v.manager, name)
                if own is not None and own is not EXTERNAL:
                    return own
            return QueryV(v.c, name, v.manager, v.view, v.inner)
        if isinstance(v, ModuleV):
            return self.module_member(v.ns, v.key, name)
        if isinstance(v, ObjV):
            self.use(("name", v.path, name))
            fc = self._by_path.get(v.path)
            q = f"{v.qualname}.{name}"
            defs = entries(fc.by_qualname, q) if fc is not None else ()
            if defs:
                return self.def_value(defs[-1])
            bound = fc.bindings.get((v.qualname, name)) if fc is not None else None
            return self.binding_value(fc, bound) if bound else None  # `{ b: foo }` (JS): foo
        if isinstance(v, ClassV | InstV):
            cls = v.c
            use = self.use
            for c in self.classes.mro(cls):
                use(("name", c.file.path, name))
                rules = c.file.rules
                # an instance sees `self.x` and the class's attributes; the class its class-body
                # names and what a classmethod set through `cls.x` (Python)
                on_class = (name, f"{rules.class_receiver}.{name}") if rules.class_receiver else (name,)
                for bound in ((rules.instance_prefix + name, name) if isinstance(v, InstV) else on_class):
                    bindings = c.file.bindings.get((c.qualname, bound))
                    if bindings:
                        bv = self.binding_value(c.file, bindings, isinstance(v, InstV))
                        if bv is not None:
                            return bv
            members, _ = self.classes.lookup(cls, name)
            if members:  # a class's static member and its instances' namesake (TS `static m(x)` + `m()`)
                side = [m for m in members if ("static" in m.d.modifiers) == isinstance(v, ClassV)] if len(members) > 1 else ()
                return self.def_value((side or members)[-1])
            reverse = getattr(cls.file.rules, "reverse_member", None)  # optional: Django's reverse one-to-one
            if reverse is not None and isinstance(v, InstV):
                found = reverse(self, cls, name)
                if found is not None:
                    return found
            return EXTERNAL if self.classes.has_external_ancestor(cls) else None
        return None


DATA_MODEL_ATTRIBUTES = frozenset({"__dict__", "__name__", "__qualname__", "__module__", "__doc__",
                                   "__annotations__", "__mro__", "__bases__"})
"""Attributes every Python object or class has whose value is a builtin object (a dict, a string, a
tuple): ``self.__dict__.pop(name)`` calls ``dict.pop``, never a repository method named ``pop``."""
