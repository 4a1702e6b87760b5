"""The extraction IR: what a language extractor reports about one file.

An extractor (one module per language under ``indexer/languages/``) turns the bytes of one file into a
:class:`FileExtraction`. Nothing here is bound yet: call sites name their callee by short name and
receiver *text*, types are *type texts* as written. :mod:`indexer.resolve` binds them across files.

This module holds the code records (definitions, calls, imports, bindings, reads, injections) and
:class:`FileExtraction`; the records of framework facts live by family and are re-exported here, so
extractors import everything from :mod:`indexer.model`: :mod:`indexer.string_templates` (strings in
pieces, constants), :mod:`indexer.model_http` (routes, routers, wrappers, HTTP clients),
:mod:`indexer.model_services` (topics, queues, entry points, RPC, GraphQL, tables).

Conventions every extractor follows (the resolver relies on them):

* Positions: ``line`` is 1-based, ``col`` is 0-based and counts Unicode code points (not bytes, not
  UTF-16 units); the language server converts to the client's encoding at its edge.
* ``qualname`` is the dotted path of a definition inside its file: ``Outer.Inner.method``; a function
  nested in a function is ``outer.inner``. Module-level code has no qualname (``None``).
* Constructor names are the language's own: Java ``Foo`` (qualname ``Foo.Foo``), TypeScript / JavaScript
  ``constructor``, Python ``__init__`` (kind ``constructor``).
* ``CallSite.caller`` is the qualname of the innermost enclosing *named* function, method or
  constructor; calls inside lambdas and anonymous / arrow callbacks belong to that enclosing function,
  except in an inline handler a framework detector made a definition of its own (a route's or a
  message consumer's anonymous function, named after the route: :mod:`indexer.symbols`), which the
  detector gives its calls.
  A call in a field initialiser or class body belongs to the class; at module level, ``None``.
* Receiver text is normalised: no whitespace, generic arguments dropped. ``self`` / ``this`` / ``super``
  stand for themselves; Python ``super()`` and ``super(X, self)`` are written ``super``; a chained call
  receiver is written with ``()``: ``a.b().c()`` has receiver ``a.b()``. A ``new`` expression is
  written ``new Foo()`` (``new a.Foo(x).m()`` has receiver ``new a.Foo()``: exactly a ``Foo``), a Java
  cast ``(Foo)`` (``((Foo) o).m()``: an instance of ``Foo``), and ``this`` inside an anonymous JS/TS
  ``function`` callback ``function.this`` (not the enclosing class's ``this``; binds nothing).
* Type texts drop generic arguments, array / nullable markers and qualifiers the resolver cannot use:
  ``List<Owner>`` -> ``List``, ``Owner[]`` -> ``Owner``, ``Optional[Owner]`` stays ``Optional[Owner]``
  only in ``Param.type`` as written; use :func:`base_type` to reduce.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from indexer.model_http import (COMPOSED_BY, DJANGO_ADMIN_SITE, DRF_AUTHENTICATION, DRF_PERMISSION, DRF_ROUTE, EXCHANGE_ROUTE, GRAPHQL_SCHEMA,
                                WRAPPER_KINDS, ClientFixture, DevProxy, GatewayRouteDecl, GlobalPrefix, HttpCall, ListenPort, Mount, Route, Router, UriVersioning,
                                UrlArgCall, UrlBuilder, UrlFixture, UrlRewrite, Wrapper, WrapperRef)
from indexer.model_pickling import pickle_records
from indexer.model_services import (ENTRY_KINDS, GRAPHQL_CLIENT_OPERATIONS, ORM_ATTRIBUTE, RPC_ROLES, TABLE_ROLES,
                                    EntryRegistration, NamedLoader, GraphqlDocument, GraphqlFragment, GraphqlOperation, GraphqlUse,
                                    MessageTransport, QueueBinding, RpcService, RpcUse, TableDef, TableUse, TopicUse)
from indexer.string_templates import CALL_REF, MAX_JOINED, StringConstant, Template, call_ref, is_call_ref, read_call_ref
from indexer.typetext import base_type, drop_generics, simple_name, unwrapped
from indexer.ui_component import UiComponent

__all__ = [
    "COMPOSED_BY", "GatewayRouteDecl", "NamedLoader", "CALLABLE_KINDS", "TYPE_KINDS", "TYPE_ALIAS", "Param", "Definition", "CallSite", "NamedArgument", "Import", "Export", "Binding",
    "TypeUse", "ValueRead", "Injection", "Template", "QueueBinding", "MessageTransport", "GRAPHQL_CLIENT_OPERATIONS", "GraphqlOperation",
    "GraphqlFragment", "GraphqlDocument", "GraphqlUse", "Route", "WrapperRef", "Wrapper", "WRAPPER_KINDS", "Router",
    "Mount", "HttpCall", "UrlArgCall", "UrlBuilder", "TopicUse", "StringConstant", "MAX_JOINED", "CALL_REF", "call_ref",
    "is_call_ref", "read_call_ref", "EntryRegistration", "ENTRY_KINDS",
    "GRAPHQL_SCHEMA", "RpcService", "RpcUse", "RPC_ROLES", "FileExtraction", "TableDef", "TableUse", "TABLE_ROLES",
    "UiComponent", "unwrapped",
    "base_type", "drop_generics", "simple_name", "MAX_RECEIVER_LINKS", "LONG_RECEIVER", "LONG_CHAIN", "LITERAL_RECEIVER", "NARROWED",
    "STRINGS", "holds_on_lines",
    "EXCHANGE_ROUTE", "DRF_ROUTE", "DJANGO_ADMIN_SITE", "DRF_AUTHENTICATION", "DRF_PERMISSION", "GlobalPrefix", "ListenPort", "UriVersioning", "UrlRewrite",
    "DevProxy", "ORM_ATTRIBUTE", "ClientFixture", "UrlFixture",
]

NARROWED = "narrowed"  # the Binding.how of a name a type test guards over lines
STRINGS = "strings"
"""The :attr:`Binding.how` of a module-level name bound to a collection of string literals (Python's
``METH_ALL = {"GET", "POST"}``): ``type`` holds the strings joined by ``|``. Read by a ``getattr``
name pattern naming the collection (:mod:`indexer.resolve.name_patterns`), no value otherwise."""
MAX_RECEIVER_LINKS = 16
"""Receivers are normalised through at most this many attribute / call links; a longer chain (a
generated builder, minified code) is written :data:`LONG_RECEIVER`. Bounds extraction time, which
would otherwise grow with the square of the chain length."""

LONG_RECEIVER = "…"
"""Receiver text of a chain longer than :data:`MAX_RECEIVER_LINKS`: the resolver cannot bind it."""
LONG_CHAIN = "long_chain"
""":attr:`FileExtraction.partial` of a file with calls of calls (``f()()...()``) past
:data:`MAX_RECEIVER_LINKS` links: what such a call calls has no name the resolver can follow, so it is
not kept; the calls within the bound are."""

LITERAL_RECEIVER = "<literal>"
"""Head of a receiver that is a literal (``", ".join(x)``, ``{}.get(k)``) and type of a name bound to
one (``opts = {}``): an external value, whose methods are never matched to the repository's by name."""

CALLABLE_KINDS, TYPE_KINDS = frozenset({"method", "function", "constructor"}), frozenset({"class", "interface", "enum"})
TYPE_ALIAS = "type_alias"  # a callable's modifier: a type too, of its return_type (FastAPI `X = Annotated[T, Depends(f)]`)


@dataclass(slots=True)
class Param:
    """One formal parameter.

    ``type`` is the declared type text or ``None``; ``variadic`` is ``"*"`` (``*args``, ``...rest``,
    Java varargs), ``"**"`` (``**kwargs``) or ``None``. Python's ``self`` / ``cls`` are *not* listed.
    ``fields``: for a destructured object parameter (JS ``({ url, method: m = "GET" })``), the
    ``(property key, local name)`` of each property it binds (``("url", "url"), ("method", "m")``)."""

    name: str
    type: str | None = None
    has_default: bool = False
    variadic: str | None = None
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(slots=True)
class Definition:
    """A class, interface, enum, method, function, constructor or field defined in the file.

    ``kind`` is one of ``class | interface | enum | method | function | constructor | field``.
    ``parent`` is the qualname of the enclosing definition (``None`` at top level).
    ``start_*`` / ``end_*`` span the whole definition (decorators included); ``name_line`` /
    ``name_col`` point at the identifier. ``signature`` is the header as written up to the body
    (``def save(self, force_insert=False)``, ``public void save(Owner owner)``), whitespace collapsed.
    ``decorators`` are decorator / annotation texts without the ``@`` (``Autowired``,
    ``app.get("/x")``, ``GetMapping("/owners/{id}")``). ``bases`` / ``implements`` are the type texts a
    class extends / implements (Python: every base expression goes in ``bases``; a Java or TypeScript
    interface's ``extends`` list goes in ``bases``). ``field_type`` is a field's declared type text.
    ``exported`` marks JS/TS top-level declarations that are exported (``export default`` too).
    ``inferred_return`` is the callee text of the call(s) a function without ``return_type`` returns
    (``def get(): return Resolver(x)`` -> ``Resolver``; ``a.b`` for ``return a.b(x)``): set only when
    *every* ``return`` with a value in the function's own body (not in nested definitions or lambdas)
    returns a call of that same plain or dotted name; ``None`` otherwise (and for generators)."""

    kind: str
    name: str
    qualname: str
    parent: str | None
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    name_line: int
    name_col: int
    signature: str = ""
    params: list[Param] = field(default_factory=list)
    return_type: str | None = None
    modifiers: list[str] = field(default_factory=list)
    decorators: list[str] = field(default_factory=list)
    bases: list[str] = field(default_factory=list)
    implements: list[str] = field(default_factory=list)
    field_type: str | None = None
    docstring: str | None = None
    exported: bool = False
    inferred_return: str | None = None
    returned_refs: list[str] = field(default_factory=list)
    """Names of functions the function returns uncalled (Python ``return inner``, ``return _strict if
    required else _lenient``), in order, no repeats; a factory whose result is one (FastAPI ``Depends(
    get_authorizer())``) stands for them. ``returns_other``: some ``return`` hands back something else
    (a call, a parameter); ``applies_refs``: each of those calls one of the names (``return dec(f)``).
    ``yielded_refs``: likewise, what a generator yields uncalled (``for f in handlers(): f()``)."""
    returns_other: bool = False
    applies_refs: bool = False
    yielded_refs: list[str] = field(default_factory=list)
    returned_param: str | None = None
    """The parameter every ``return`` with a value hands back as it was handed (Python ``def
    register(f): REGISTRY.append(f); return f``; no other value returned, never re-bound in the
    body, not variadic): a call's result is then the argument bound to it. ``None`` otherwise, and for
    languages whose extractor does not read it."""
    generated: str | None = None
    """What wrote this definition when the source does not (``lombok``: a getter, setter, builder or
    constructor an annotation generates): front ends mark it, search does not chunk it. Such a
    definition spans the field or annotation that generates it."""
    receiver_type: str | None = None
    """The type an extension function extends, as written without generics (Kotlin ``fun User.name()``
    -> ``User``); ``None`` for every other definition. The resolver binds ``u.name()`` to it only when
    ``u``'s type is that class or a subclass of it."""
    accessor_of: str | None = None
    """For a generated accessor (getter, setter, builder step), the qualname of the field (in the same
    file) it reads or writes: the resolver links the accessor to the field (a CALLS edge ``accessor ->
    field``), so a change to the field reaches the accessor's callers."""
    shadowed: bool = False
    """A later definition of the same qualname in the same body replaces this one when the body runs
    (Python: an unconditional, undecorated ``def`` / ``class`` of that name later in the module or
    class body), and so it does the definitions nested in this one: no lookup by name or member
    reaches them. Each keeps its node, its own calls and edges. Set by the Python extractor only."""

    @property
    def min_arity(self) -> int:
        """Positional arguments a call must pass (parameters without default, not variadic)."""
        return sum(1 for p in self.params if not p.has_default and p.variadic is None)

    @property
    def max_arity(self) -> int | None:
        """Most arguments a call may pass; ``None`` when a variadic parameter accepts any number."""
        if any(p.variadic for p in self.params):
            return None
        return len(self.params)


@dataclass(slots=True)
class CallSite:
    """One call expression (or ``new`` expression, ``is_new=True``).

    ``name`` is the callee's short name (for ``new Foo()`` / Python ``Foo()`` the class name);
    ``receiver`` the normalised receiver text or ``None`` for a bare call; ``arity`` the number of
    arguments written, or ``-1`` when a spread / ``*args`` / ``**kwargs`` makes it unknown.
    ``line`` / ``col`` point at the callee name.
    ``via``: ``None`` for a call written as such; otherwise a call the resolver reads into the code,
    bound only through values (never by name) and neither counted nor recorded when it does not
    bind: ``"dunder"``, a call the language makes (Python ``with x`` -> ``x.__enter__()``, ``for a in
    x`` -> ``x.__iter__()``, ``a + b`` -> ``a.__add__(b)``); ``"element"``, one of the functions a
    container holds, called through a subscript (``handlers[kind](x)`` with ``handlers = {"a": f,
    "b": g}``: one site per element), bound at most ``inferred`` since which one runs is unknown;
    ``"decorator"``, a bare decorator (``@login_required``) called with the decorated definition;
    ``"class"``, a class named by a literal (Java ``Class.forName("a.b.C")``), bound to the class
    itself; ``"reflect"``, a constructor or method invoked by reflection on such a class;
    ``"result"``, a call of what calling the named callee returns (FastAPI's ``Depends(factory(...))``
    runs the function ``factory`` returns, ``Depends(Checker(...))`` the instance's ``__call__``);
    ``"library"``, a method of the application's object a library method calls back (DRF's
    ``serializer.save()`` -> the serializer's ``create`` / ``update``), bound at most ``inferred``.
    ``handed``: the arguments written as a (dotted) name, which may hand the callee a function it
    calls through its parameter (``run(handler)``, ``run(cb=self.on_done)``); empty when none is."""

    caller: str | None
    name: str
    receiver: str | None
    arity: int
    line: int
    col: int
    is_new: bool = False
    via: str | None = None
    handed: tuple[NamedArgument, ...] = field(default=(), compare=False)
    """Auxiliary to the call (not part of its identity): two sites at one position are one call."""
    arg_types: tuple[str, ...] = field(default=(), compare=False)
    """Per argument, what its type is as written (:mod:`indexer.resolve.overloads`): a type text
    (``String`` for a literal, ``X`` for ``new X()``), ``=name`` / ``@a.b()``... forms (Java's ``arguments.py``), ``""``."""


@dataclass(frozen=True, slots=True)
class NamedArgument:
    """An argument written as a name or dotted name (``handler``, ``self.on_done``) or a call of one
    (``make()``): ``key`` its position (``"0"``, ...) or keyword, ``text`` as written (a decorator's,
    the decorated definition: :attr:`DECORATED` + how many decorators are under it), ``line`` / ``col``."""

    DECORATED = "@"
    key: str
    text: str
    line: int
    col: int


@dataclass(slots=True)
class Import:
    """A name bound by an import statement.

    ``local`` is the bound name (``"*"`` for star / wildcard imports). ``module`` is the module as
    written: Python dotted without leading dots (``level`` counts them: ``from .. import x`` is
    ``module=""``, ``level=2``); JS/TS the specifier (``"./util"``, ``"react"``); Java the package or
    outer type (``import org.x.Foo`` -> ``module="org.x"``, ``name="Foo"``;
    ``import static org.x.Foo.bar`` -> ``module="org.x.Foo"``, ``name="bar"``; ``import org.x.*`` ->
    ``module="org.x"``, ``name=None``, ``local="*"``). ``name`` is the imported member, or ``None`` when
    the module itself is bound (``import os.path`` binds ``local="os"``, ``module="os"``; ``import
    os.path as p`` binds ``local="p"``, ``module="os.path"``; JS ``import * as ns``). JS default imports
    use ``name="default"``. C#: ``level=1`` marks a ``global using`` (seen by every file of the project).
    """

    local: str
    module: str
    name: str | None
    level: int = 0
    line: int = 0


@dataclass(slots=True)
class Export:
    """A JS/TS export that is not just an ``export`` keyword on a declaration.

    ``export { f as g }`` -> ``Export("g", local="f")``; ``export default f`` ->
    ``Export("default", local="f")``; ``export { x as y } from "./m"`` ->
    ``Export("y", local=None, module="./m", name="x")``; ``export * from "./m"`` ->
    ``Export("*", module="./m")``.
    """

    exported: str
    local: str | None = None
    module: str | None = None
    name: str | None = None


@dataclass(slots=True)
class Binding:
    """A name bound to a type or to another name inside a scope.

    ``scope`` is the qualname of the function / class whose body binds it (``None``: module level).
    ``name`` is the bound name as receivers spell it: ``x``, ``self.repo``, ``this.repo``; a Java or TS
    field declared with a type is bound as ``this.repo`` *and* as ``repo`` in its class scope.
    ``how`` is ``declared`` (a written type: annotation, Java/TS declaration, parameter type, field
    type), ``constructed`` (assigned ``Foo(...)`` / ``new Foo(...)``: ``type`` is ``Foo``) or ``alias``
    (assigned another name without call: ``g = f``, ``const g = f``; ``type`` holds the name text ``f``)
    or ``object`` (JavaScript / TypeScript: declared as an object literal whose properties are
    definitions, ``const api = { list() {} }``, ``const auth = { required: jwt({ getToken }) }``;
    ``type`` holds the name itself): the name stands for that object, whose properties resolve to
    those definitions (:class:`indexer.resolve.values.ObjV`), or ``reverse`` (Django: ``~name`` in a
    model class gives instances of the class ``type`` names an attribute ``name``, an instance of it),
    or ``narrowed`` (:data:`NARROWED`: Java's ``if (o instanceof C) o.m();`` guards lines ``line`` to ``end``),
    or ``entered`` (Python ``with X() as y``, written before the ``constructed`` binding of the same name and line:
    what the repository's ``X.__enter__`` returns, :meth:`indexer.resolve.scope_lookup.ScopeLookup.entered`).
    Any other binding with an ``end`` holds on lines ``line`` to ``end`` only (:func:`holds_on_lines`: a
    JavaScript / TypeScript callback's parameter, a ``for ... of`` variable), where it hides the name's
    other bindings and imports from a lookup that knows its line."""

    scope: str | None
    name: str
    type: str
    how: str
    line: int = 0
    end: int = 0


def holds_on_lines(b: Binding) -> bool:
    """Whether ``b`` holds on its lines ``b.line`` to ``b.end`` only, not in its whole scope: a binding
    with an ``end`` other than a :data:`NARROWED` one (which a type test guards over its lines, read
    apart: :mod:`indexer.resolve.either`). The resolver keeps these apart from the ``(scope, name)``
    table (:meth:`indexer.resolve.bindings.ScopedBindings.at_line`)."""
    return b.end > 0 and b.how != NARROWED


@dataclass(slots=True)
class TypeUse:
    """A type named in a declaration: parameter, return, field, local variable, ``new``, cast, generic.

    ``owner`` is the qualname of the innermost enclosing definition (method, field or class)."""

    owner: str | None
    type: str
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class ValueRead:
    """A name or attribute read without being called (a call is a :class:`CallSite`).

    ``owner`` is the qualname of the innermost enclosing definition (``None`` at module level, the
    class for a class body), as ``CallSite.caller``; ``name`` the name read (the attribute for
    ``recv.name``); ``receiver`` the normalised receiver text (``CallSite`` conventions) or ``None``
    for a bare name; ``line`` / ``col`` point at ``name``. ``handed``: written where the value is
    handed on (an argument, the right side of an assignment, an element of a list, tuple, set or
    dict, a returned value), so it may name a function used as a value (``sorted(xs, key=by_name)``,
    ``callbacks.append(self.on_done)``): a ``REFERENCES`` edge when it resolves to one. Any attribute
    read (handed or not) runs a getter when its receiver is an instance whose class declares the
    name as one (Python ``@property`` / ``@cached_property``, a JavaScript / TypeScript ``get x()``):
    a ``CALLS`` edge. Both only through values, never by name (:mod:`indexer.resolve.reads`).
    Extractors record an attribute read only when it is neither called, nor assigned or deleted."""

    owner: str | None
    name: str
    receiver: str | None
    line: int
    col: int
    handed: bool = False


@dataclass(slots=True)
class Injection:
    """A dependency injected into a class (Spring @Autowired / @Inject / @Resource field or setter,
    or a constructor parameter of a class whose constructor is injected: Spring's single constructor
    or one annotated @Autowired / @Inject). ``owner``: class qualname; ``type``: type text; ``via``: ``field`` / ``constructor``."""

    owner: str
    type: str
    via: str
    line: int
    col: int


@dataclass(slots=True)
class FileExtraction:
    """Everything one extractor saw in one file. ``errors`` lists parse problems as
    ``"line:col: message"`` strings: a file with syntax errors is still extracted as far as it goes."""

    path: str
    language: str
    package: str | None = None
    definitions: list[Definition] = field(default_factory=list)
    calls: list[CallSite] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    exports: list[Export] = field(default_factory=list)
    bindings: list[Binding] = field(default_factory=list)
    type_uses: list[TypeUse] = field(default_factory=list)
    value_reads: list[ValueRead] = field(default_factory=list)
    injections: list[Injection] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    routes: list[Route] = field(default_factory=list)
    wrappers: list[Wrapper] = field(default_factory=list)
    routers: list[Router] = field(default_factory=list)
    mounts: list[Mount] = field(default_factory=list)
    http_calls: list[HttpCall] = field(default_factory=list)
    url_arg_calls: list[UrlArgCall] = field(default_factory=list)
    arg_candidates: list[UrlArgCall] = field(default_factory=list)
    """Candidate calls of a wrapper the Java, Kotlin, C# and Python detectors record (a call passing a literal or a
    constant: :mod:`indexer.frameworks.arg_call_rule`); no framework fact themselves: the resolver copies into
    :attr:`url_arg_calls` those calling a name some function of the repository that may be a wrapper has
    (:class:`indexer.frameworks.arg_call_rule.CandidateGate`)."""
    url_builders: list[UrlBuilder] = field(default_factory=list)
    topics: list[TopicUse] = field(default_factory=list)
    queue_bindings: list[QueueBinding] = field(default_factory=list)
    transports: list[MessageTransport] = field(default_factory=list)
    constants: list[StringConstant] = field(default_factory=list)
    entries: list[EntryRegistration] = field(default_factory=list)
    rpc_services: list[RpcService] = field(default_factory=list)
    rpc_uses: list[RpcUse] = field(default_factory=list)
    global_prefixes: list[GlobalPrefix] = field(default_factory=list)
    uri_versionings: list[UriVersioning] = field(default_factory=list)
    listen_ports: list[ListenPort] = field(default_factory=list)
    url_rewrites: list[UrlRewrite] = field(default_factory=list)
    dev_proxies: list[DevProxy] = field(default_factory=list)
    gateway_routes: list[GatewayRouteDecl] = field(default_factory=list)
    named_loaders: list[NamedLoader] = field(default_factory=list)
    graphql_documents: list[GraphqlDocument] = field(default_factory=list)
    graphql_uses: list[GraphqlUse] = field(default_factory=list)
    tables: list[TableDef] = field(default_factory=list)
    table_uses: list[TableUse] = field(default_factory=list)
    components: list[UiComponent] = field(default_factory=list)
    client_fixtures: list[ClientFixture] = field(default_factory=list)
    url_fixtures: list[UrlFixture] = field(default_factory=list)
    partial: str | None = None
    """Why the file was extracted only in part (``None``: it was not): ``too_deep`` (subtrees nested
    deeper than the extraction budget's depth), ``syntax_errors`` (an ERROR node too wide to query),
    ``time_budget`` (the file's time budget ran out); see :class:`indexer.languages.base.Budget`;
    ``long_chain`` (calls of calls past the receiver bound, :data:`LONG_CHAIN`);
    ``chunk_cap`` (a documentation, configuration or SQL file with more chunks than
    :data:`indexer.content.MAX_CHUNKS`: the content extractor's); the pipeline sets the others."""
    id_path: str | None = None
    """The path node ids are built from (``None``: ``path`` without its suffix); the pipeline sets it to
    the full path when another file has the same path but another suffix (``util.ts`` beside ``util.js``,
    ``mod.py`` beside ``mod.pyi``), so their ids cannot collide. Extractors leave it alone."""


pickle_records(globals(), __name__)
