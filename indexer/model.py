"""The extraction IR: what a language extractor reports about one file.

An extractor (one module per language under ``indexer/languages/``) turns the bytes of one file into a
:class:`FileExtraction`. Nothing here is bound yet: call sites name their callee by short name and
receiver *text*, types are *type texts* as written. :mod:`indexer.resolve` binds them across files.

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

from collections.abc import Iterable
import operator
from dataclasses import dataclass, field, fields, is_dataclass

from indexer.typetext import base_type, drop_generics, unwrapped
from indexer.ui_component import UiComponent

__all__ = [
    "CALLABLE_KINDS", "TYPE_KINDS", "TYPE_ALIAS", "Param", "Definition", "CallSite", "NamedArgument", "Import", "Export", "Binding",
    "TypeUse", "ValueRead", "Injection", "Template", "QueueBinding", "GRAPHQL_CLIENT_OPERATIONS", "GraphqlOperation",
    "GraphqlFragment", "GraphqlDocument", "GraphqlUse", "Route", "WrapperRef", "Wrapper", "WRAPPER_KINDS", "Router",
    "Mount", "HttpCall", "UrlArgCall", "TopicUse", "StringConstant", "EntryRegistration", "ENTRY_KINDS",
    "GRAPHQL_SCHEMA", "RpcService", "RpcUse", "RPC_ROLES", "FileExtraction", "TableDef", "TableUse", "TABLE_ROLES",
    "UiComponent", "unwrapped",
    "base_type", "drop_generics", "MAX_RECEIVER_LINKS", "LONG_RECEIVER", "LITERAL_RECEIVER", "NARROWED",
]

NARROWED = "narrowed"  # the Binding.how of a name a type test guards over lines
MAX_RECEIVER_LINKS = 16
"""Receivers are normalised through at most this many attribute / call links; a longer chain (a
generated builder, minified code) is written :data:`LONG_RECEIVER`. Bounds extraction time, which
would otherwise grow with the square of the chain length."""

LONG_RECEIVER = "…"
"""Receiver text of a chain longer than :data:`MAX_RECEIVER_LINKS`: the resolver cannot bind it."""

LITERAL_RECEIVER = "<literal>"
"""Head of a receiver that is a literal (``", ".join(x)``, ``{}.get(k)``) and type of a name bound to
one (``opts = {}``): an external value, whose methods are never matched to the repository's by name."""

CALLABLE_KINDS, TYPE_KINDS = frozenset({"method", "function", "constructor"}), frozenset({"class", "interface", "enum"})
TYPE_ALIAS = "type_alias"  # a callable's modifier: a type too, of its return_type (FastAPI `X = Annotated[T, Depends(f)]`)


@dataclass(slots=True)
class Param:
    """One formal parameter.

    ``type`` is the declared type text or ``None``; ``variadic`` is ``"*"`` (``*args``, ``...rest``,
    Java varargs), ``"**"`` (``**kwargs``) or ``None``. Python's ``self`` / ``cls`` are *not* listed."""

    name: str
    type: str | None = None
    has_default: bool = False
    variadic: str | None = None


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
    or ``narrowed`` (:data:`NARROWED`: Java's ``if (o instanceof C) o.m();`` guards lines ``line`` to ``end``)."""

    scope: str | None
    name: str
    type: str
    how: str
    line: int = 0
    end: int = 0


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


# --- framework facts (HTTP routes and clients, cross-cutting code, Kafka) -----------------------------
# Found per file by the detectors of :mod:`indexer.frameworks`; :mod:`indexer.frameworks.link` joins
# them across files (router prefixes, constants, configuration placeholders) into Endpoint / Topic
# nodes and EXPOSES / CALLS_HTTP / PRODUCES / CONSUMES / WRAPS edges.


@dataclass(frozen=True, slots=True)
class Template:
    """A string as the code builds it, in pieces. ``parts`` is a tuple of ``(kind, text)``:

    * ``("lit", "/owners/")``: literal text;
    * ``("ref", "Paths.OWNERS")``: a constant named by an expression, resolved across files through
      :class:`StringConstant` (Java ``static final`` fields, Python / JS module-level constants);
    * ``("hole", "ownerId")``: a value not known statically (a variable, a call); in a URL path it
      becomes a path variable ``{}``; the text is the expression, for display only.

    Spring ``${a.b:default}`` placeholders stay inside ``lit`` text; the linker resolves them from
    ``application.yml`` / ``.properties``. ``Template.of("/x")`` builds a literal-only template.
    """

    parts: tuple[tuple[str, str], ...] = ()

    @staticmethod
    def of(*literals: str) -> Template:
        """A template of literal pieces only."""
        return Template(tuple(("lit", t) for t in literals if t))

    @staticmethod
    def merged(parts: Iterable[tuple[str, str]]) -> Template:
        """A template of ``parts`` with adjacent literal pieces joined and empty literals dropped
        (the one normal form every detector builds)."""
        out: list[tuple[str, str]] = []
        for kind, text in parts:
            if kind == "lit":
                if not text:
                    continue
                if out and out[-1][0] == "lit":
                    out[-1] = ("lit", out[-1][1] + text)
                    continue
            out.append((kind, text))
        return Template(tuple(out))

    def __add__(self, other: Template) -> Template:
        return Template.merged(self.parts + other.parts)

    def literal(self) -> str | None:
        """The whole text when every part is literal, else ``None``."""
        if all(k == "lit" for k, _ in self.parts):
            return "".join(t for _, t in self.parts)
        return None


WRAPPER_KINDS = frozenset({
    "filter", "middleware", "interceptor", "guard", "pipe", "hook", "dependency", "error_handler", "decorator",
})
"""What cross-cutting code does for the endpoints it wraps: ``filter`` (servlet / Spring / JAX-RS filters),
``middleware`` (Express / Koa / Hono / FastAPI / Django middleware), ``interceptor`` (Spring ``HandlerInterceptor``,
Nest interceptors), ``guard`` (Nest guards), ``pipe`` (Nest pipes), ``hook`` (Flask ``before_request`` /
``after_request`` / ``teardown_*``, Fastify hooks, Spring ``@ModelAttribute`` in a controller advice), ``dependency``
(FastAPI ``Depends``), ``error_handler`` (``@ExceptionHandler``, Flask ``errorhandler``, Express error middleware),
``decorator`` (a Python view decorator such as ``login_required``)."""


@dataclass(frozen=True, slots=True)
class WrapperRef:
    """Cross-cutting code applied to one route: ``kind`` (:data:`WRAPPER_KINDS`) and ``expr``, the expression
    naming the function or class that runs, resolved like a call's callee in the route's scope (Express
    ``auth.required``, Nest ``AuthGuard`` of ``@UseGuards(AuthGuard)``, FastAPI ``get_user`` of
    ``Depends(get_user)``, Python ``login_required`` of ``@login_required``), or the qualname in the route's
    file of an inline function a detector made a definition of its own (``middleware GET /x``,
    :mod:`indexer.symbols`). A class means the methods the framework calls on it (``doFilter``, ...)."""

    kind: str
    expr: str
    annotation: bool = False  # an imported parameter type (``s: SessionDep``): a wrapper only if it names a callable


@dataclass(slots=True)
class Wrapper:
    """Cross-cutting code registered for many routes at once: an application- or router-wide filter,
    middleware, interceptor, guard, hook, dependency or error handler.

    ``framework`` as for :class:`Route`; ``kind`` among :data:`WRAPPER_KINDS`. What runs is ``owner``,
    the qualname in this file of the function, method or class (a ``@Component class JwtFilter extends
    OncePerRequestFilter`` detected in its own file: ``JwtFilter``), or else ``owner_ref``, an
    expression naming it resolved like a callee (``app.use(auth)``: ``auth``;
    ``http.addFilterBefore(jwtFilter, ...)``: ``jwtFilter``; Django ``MIDDLEWARE``'s
    ``"shop.middleware.Audit"``: the dotted path). ``router`` is the expression of the router object it
    is registered on (``app``, ``router``, ``bp``): it wraps the routes of that router and of every
    router mounted into it; ``None`` means every route of the application (the repository, or the
    module folder of a multi-service repository, that holds the file). ``path`` limits it to routes
    whose full path starts with that prefix (``app.use("/api", auth)``; a servlet filter's
    ``urlPatterns = "/api/*"`` as ``/api``); empty: no limit. ``methods`` likewise limits it to endpoints of
    those HTTP methods or of any (Nest ``forRoutes({ path, method })``). A router- or app-wide registration
    whose owner is a class wraps through that class's framework methods (see :class:`WrapperRef`). ``order``:
    its argument's index in the registering call (``app.use(a, router, b)``: 0, 1, 2; Express runs them so)."""

    framework: str
    kind: str
    owner: str | None
    line: int
    col: int
    owner_ref: str | None = None
    router: str | None = None
    path: Template = field(default_factory=Template)
    methods: list[str] = field(default_factory=list)
    order: int = 0


GRAPHQL_SCHEMA = "graphql-schema"
"""The ``framework`` of the routes a GraphQL schema file (``.graphql`` / ``.graphqls``) declares: one per field of
``type Query`` / ``Mutation`` / ``Subscription`` (``extend type`` too), ``handler`` the schema field's qualname
(``Query.owner``). The linker makes them the same Endpoint nodes resolvers expose, with a DECLARES edge from the
schema field instead of EXPOSES (a declared operation without a resolver is still a node)."""


@dataclass(slots=True)
class Route:
    """An HTTP endpoint or a GraphQL operation this file exposes.

    ``framework``: ``spring``, ``jaxrs``, ``servlet``, ``fastapi``, ``flask``, ``django``, ``express``,
    ``nest``. ``methods``: upper-case HTTP methods, ``["*"]`` when any method is accepted.
    ``path``: the route's path *including* prefixes declared in the same class (Spring / JAX-RS /
    Nest class-level mappings), but *not* prefixes of a router mounted elsewhere. ``handler``: the
    qualname, in this file, of the function or method that handles it; ``handler_ref``: otherwise an
    expression naming it (Django ``views.owner_list``, ``OwnerView.as_view()``), resolved like a call's
    callee. ``router``: expression of the router object the route hangs on (``router``, ``bp``,
    ``app``), ``None`` when the path is absolute (Spring, JAX-RS, Nest). Django routes use
    ``router="urlpatterns"``: the module's pattern list is its router.

    GraphQL resolvers are routes too: ``methods`` one of ``QUERY`` / ``MUTATION`` / ``SUBSCRIPTION`` /
    ``FIELD`` (:data:`stores.contracts.GRAPHQL_OPERATIONS`; the linker re-derives it from the rendered
    type name, so a detector that cannot know the type writes ``FIELD``), ``path`` the template of
    ``Type.field`` (``Template.of("Query.owner")``; Netflix DGS constants stay ``ref`` pieces),
    ``router`` ``None``; ``framework`` ``spring-graphql``, ``dgs``, ``graphql-java``, ``apollo``,
    ``nest-graphql``, ``strawberry``, ``graphene``, ``ariadne`` or :data:`GRAPHQL_SCHEMA`."""

    framework: str
    methods: list[str]
    path: Template
    handler: str | None
    line: int
    col: int
    handler_ref: str | None = None
    router: str | None = None
    wrappers: list[WrapperRef] = field(default_factory=list)
    """Cross-cutting code applied to this route alone, in the order it runs: an Express / Fastify route's middleware
    arguments, Nest ``@UseGuards`` / ``@UseInterceptors`` / ``@UsePipes`` on the method or its controller class,
    FastAPI ``Depends`` in the signature or ``dependencies=[...]``, Python view decorators, Spring ``@ModelAttribute``
    / ``@ExceptionHandler`` methods of the same controller."""
    scope: str | None = None
    """The qualname ``handler_ref`` is resolved from (``None``: module level); set where the
    reference names a field or local (graphql-java's ``fetchers.bookById()`` inside a method)."""
    operation: str | None = None
    """API-first routes, whose method and path come from the repository's OpenAPI specs
    (:mod:`indexer.frameworks.openapi`) and not from this file: ``"PetsApi.listPets"``, the generated interface or
    delegate a method of ``handler`` implements and the method's name (an operationId candidate), with ``methods`` and
    ``path`` empty; or ``"*"`` for a connexion ``add_api`` registration, ``path`` naming the spec file: every
    operation of that spec is handled by the Python function its dotted operationId names."""
    versions: list[Template] = field(default_factory=list)
    """NestJS: ``@Version("2")`` of the method, else its controller's ``{ version: ["1", "2"] }``, one path each under
    :class:`UriVersioning`; ``Template()`` is ``VERSION_NEUTRAL``, ``[]`` none written (``defaultVersion``)."""


EXCHANGE_ROUTE = "http-exchange"
"""The framework of a :class:`Route` a Spring ``@HttpExchange`` interface method declares (``handler``
the interface method): the controllers implementing the interface expose it (the linker finds them)."""
DRF_ROUTE = "drf"
"""The framework of a DRF router and a viewset registration's :class:`Route` (the linker expands it)."""

DRF_AUTHENTICATION = "drf-authentication"
"""The framework of a :class:`Wrapper` from DRF's ``REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"]``
setting (``owner_ref`` a class's dotted path): its ``authenticate`` runs for every DRF view of the
application that sets no ``authentication_classes`` of its own (:mod:`indexer.frameworks.drf_defaults`)."""

DRF_PERMISSION = "drf-permission"
"""As :data:`DRF_AUTHENTICATION`, for ``DEFAULT_PERMISSION_CLASSES`` (``has_permission``;
``permission_classes`` overrides it)."""


@dataclass(slots=True)
class Router:
    """A router object defined at module level: ``name`` is the variable (``router``, ``bp``,
    ``urlpatterns``; Go: a function's router parameter, :class:`Mount` ``argument``), ``prefix`` its
    own prefix (FastAPI ``APIRouter(prefix=...)``, Flask ``Blueprint(url_prefix=...)``; or empty)."""

    framework: str
    name: str
    prefix: Template
    line: int


@dataclass(slots=True)
class Mount:
    """A router mounted under a prefix: FastAPI ``app.include_router(items.router, prefix="/api")``,
    Flask ``app.register_blueprint(bp, url_prefix="/x")``, Express ``app.use("/api", router)``, Django
    ``path("api/", include("shop.urls"))``. ``parent``: expression of the router mounted into (``app``; Django ``"urlpatterns"``).
    ``child``: expression of the mounted router (``items.router``), or ``None`` with
    ``child_module`` the dotted module named by a string (Django ``include("shop.urls")``: that
    module's ``urlpatterns``). ``prefix`` is added before the child's own prefix. ``argument``: a
    router handed to a function (Go ``addUserRoutes(v1)``, Express ``users(app)``): ``child`` the callee, the router its
    parameter at this position (``<callee>#<argument>``; -1: what it returns, ``#return``); ``parent`` a key here.
    ``order``: the child's argument index in the registering call, as :attr:`Wrapper.order`."""

    framework: str
    parent: str
    child: str | None
    prefix: Template
    line: int
    col: int
    child_module: str | None = None
    argument: int | None = None
    order: int = 0


@dataclass(slots=True)
class HttpCall:
    """An outgoing HTTP request: ``framework`` is the client (``resttemplate``, ``webclient``, ``feign``, ``requests``,
    ``httpx``, ``fetch``, ``axios``, ``angular``); ``method`` upper-case or ``"*"`` when unknown; ``url`` the URL as
    built (scheme and host included when written, e.g. a Feign client's ``http://customers-service`` + its mapping);
    ``caller`` the qualname of the enclosing function or method (a Feign interface method for Feign)."""

    framework: str
    method: str
    url: Template
    caller: str | None
    line: int
    col: int
    operation: str | None = None
    """A generated client's call (``framework`` ``openapi-client``), whose method and URL come from the repository's
    OpenAPI specs: ``"PetsApi.listPets"`` (the client class or service, or the openapi-python-client tag package, then
    the called name, an operationId candidate); ``method`` ``"*"`` and ``url`` empty."""


@dataclass(slots=True)
class UrlArgCall:
    """A call passing a URL-like string to a function or method that may wrap an HTTP client (``request("/orders")``,
    ``api.get("orders")``, ``this.api.get(`orders/${id}`)``): ``callee`` the callee as written (receiver text, ``.``,
    name: ``this.api.get``), ``args`` the arguments in order as templates, ``None`` for one that is no string, name or
    concatenation; ``caller`` as for :class:`HttpCall`. The linker makes it a call of the HTTP request in the callee's
    body when that request's URL names the callee's parameters (a *client template*: :mod:`indexer.frameworks.link`)."""

    callee: str
    args: tuple[Template | None, ...]
    caller: str | None
    line: int
    col: int


@dataclass(slots=True)
class TopicUse:
    """A topic, queue, channel or task produced to or consumed from: ``role`` is ``produces`` or ``consumes``;
    ``framework``: ``spring-kafka``, ``kafka-python``, ``confluent-kafka``, ``kafkajs``, ``spring-rabbit``, ``pika``,
    ``amqplib``, ``spring-jms``, ``spring-cloud-stream``, ``celery``, ...; ``owner`` the qualname of the producing /
    consuming function or method (the listener method); ``broker`` one of :data:`stores.contracts.BROKERS`. ``topic``
    is the destination's name: a Kafka topic, a RabbitMQ queue (consumers) or routing key (producers, with
    ``exchange`` the exchange they publish to: ``Template()`` for the default exchange, whose routing key is the
    queue's name; ``None`` for a use that names a queue directly), a JMS destination, a Celery task name. ``target``:
    an expression naming the consumer itself (Celery ``cleanup.delay()``: ``cleanup``), which the linker resolves to
    the task's function and its task name; ``topic`` is then empty. ``binding``: a Spring Cloud Stream binding name
    (``orders-in-0``, a ``StreamBridge.send`` name) the linker maps to its configured destination. ``handed_as``: the
    message is handed to the callee ``target`` names (a wrapper, an outbox: ``service.AddAndSaveEventAsync(e)``); the
    use holds only when that callee declares a parameter of one of these types (the bus's message base types)."""

    framework: str
    role: str
    topic: Template
    owner: str | None
    line: int
    col: int
    broker: str = "kafka"
    exchange: Template | None = None
    target: str | None = None
    binding: str | None = None
    handed_as: tuple[str, ...] = ()


@dataclass(slots=True)
class QueueBinding:
    """A RabbitMQ binding declared in code: messages published to ``exchange`` with a routing key matching ``key``
    (``#`` / ``*`` wildcards of a topic exchange; empty for a fanout exchange) go to ``queue``. From Spring
    ``BindingBuilder.bind(queue).to(exchange).with(key)`` beans and ``@QueueBinding``, pika ``queue_bind``, amqplib
    ``bindQueue``. ``queue`` / ``exchange`` are templates of names, or of expressions naming a ``Queue`` /
    ``Exchange`` bean (``("ref", ...)`` resolved like constants; a bean method's ``new Queue("orders")`` is recorded
    as a constant of the method's qualname)."""

    framework: str
    queue: Template
    exchange: Template
    key: Template
    line: int
    col: int
    owner: str | None = None
    """The enclosing method's qualname: where ``ref`` pieces are looked up (a bean parameter
    ``Queue ordersQueue`` resolves to the class's ``ordersQueue`` bean)."""


@dataclass(slots=True)
class StringConstant:
    """A string constant other files may name: ``qualname`` is ``Class.NAME`` (Java ``static final``
    fields, class attributes) or ``NAME`` (module-level Python / JS / TS constants)."""

    qualname: str
    value: Template


ENTRY_KINDS = frozenset({"scheduled", "cli", "main", "runtime", "trigger"})
"""Kinds of :class:`EntryRegistration`: ``scheduled`` (run by a scheduler), ``cli`` (a command of a command-line
interface), ``main`` (a program's entry: a ``__main__`` block, a console script or package ``bin``, a Spring Boot
``CommandLineRunner``), ``runtime`` (run by the language runtime itself: a JVM static initialiser or serialization
hook), ``trigger`` (run when records change: an Apex trigger)."""


@dataclass(slots=True)
class EntryRegistration:
    """Code that something outside the code runs, registered by a call or a configuration entry
    rather than by a decorator on the code itself (decorators and annotations, ``@Scheduled``,
    ``@click.command``, ``@Cron``, are read from ``Definition.decorators`` by the analysis; this is
    the one mechanism for everything else). The linker turns each into an ``ENTRY`` self-edge on
    the code that runs (:data:`stores.contracts.EDGE_KINDS`), owned by this file, with ``kind``,
    ``framework`` and ``name`` as properties, so the analysis sees an entry point wherever it was
    registered.

    ``kind`` among :data:`ENTRY_KINDS`; ``framework``: ``celery-beat``, ``apscheduler``,
    ``node-cron``, ``cron``, ``node-schedule``, ``argparse``, ``python-main``, ``spring-boot``, ...
    What runs is ``owner``, the qualname in this file of the function or method (an inline function
    made a definition of its own, :mod:`indexer.symbols`), else ``owner_ref``, an expression naming it,
    resolved like a call's callee from ``scope`` (``cleanup`` of ``cleanup.s()``; a dotted path
    string such as Celery's ``"pkg.tasks.cleanup"`` is resolved as a module path when it is not a
    name of this file); both ``None``: the file's module-level code (a ``__main__`` block). ``name``:
    the schedule, command or script name, or the schedule expression (``"*/5 * * * *"``).
    """

    framework: str
    kind: str
    owner: str | None
    line: int
    col: int
    owner_ref: str | None = None
    scope: str | None = None
    name: str = ""


@dataclass(slots=True)
class RpcService:
    """A gRPC service a ``.proto`` file declares: ``package`` its ``package`` (``""``: none),
    ``name`` the service, ``rpcs`` its rpc names in order, ``qualname`` the service's definition
    (the rpcs are ``<qualname>.<rpc>``), ``java_package`` its ``option java_package`` (``None``: not
    set; the generated ``<name>Grpc`` class then lies in ``package``), ``csharp_namespace`` its
    ``option csharp_namespace`` (``None``: not set; the C# code then lies in ``package`` PascalCased)."""

    package: str
    name: str
    rpcs: list[str]
    qualname: str
    line: int
    java_package: str | None = None
    csharp_namespace: str | None = None


RPC_ROLES = ("serves", "calls")
"""Roles of an :class:`RpcUse`: ``serves`` (a server implementation EXPOSES the rpc) or ``calls``
(a client stub CALLS it)."""


@dataclass(slots=True)
class RpcUse:
    """Code serving or calling a gRPC service, as one file sees it (the linker finds the ``.proto``).

    ``framework``: ``grpc-java``, ``grpc-python``, ``grpc-js``. ``role`` among :data:`RPC_ROLES`.
    ``service``: the service name the code writes (``OrderService`` of ``OrderServiceGrpc.
    OrderServiceImplBase``, ``order_pb2_grpc.OrderServiceStub``, ``proto.OrderService``). ``rpc``: the
    method name as written (``getOrder``, ``GetOrder``; the linker matches it to the rpc ``GetOrder``
    by the framework's naming rule), ``None`` for a server class: every rpc the class (``owner``)
    implements. ``owner``: qualname in this file of the implementing class or method, or of the
    calling function; ``owner_ref``: an expression naming the implementation instead (Python
    ``add_OrderServiceServicer_to_server(Impl(), server)``, a Node handler named by reference),
    resolved from ``scope``. ``package``: the proto package when the code names it (a Node
    ``loadPackageDefinition(def).shop.v1`` chain); ``module``: where the generated code is imported
    from (the Java package of ``OrderServiceGrpc``, the Python module of ``order_pb2_grpc``; in C# the
    namespaces the code sees, its own and enclosing ones and its ``using``s, space-separated), matched to
    the ``.proto``'s ``java_package`` / file path / C# namespace. Without either, the link is made by service name
    (certainty ``name``)."""

    framework: str
    role: str
    service: str
    rpc: str | None
    owner: str | None
    line: int
    col: int
    owner_ref: str | None = None
    scope: str | None = None
    package: str | None = None
    module: str | None = None


GRAPHQL_CLIENT_OPERATIONS = ("QUERY", "MUTATION", "SUBSCRIPTION")
"""Operation types of a GraphQL client document (:class:`GraphqlOperation`): the shorthand ``{ a }`` is a ``QUERY``."""


@dataclass(slots=True)
class GraphqlOperation:
    """One operation of a GraphQL executable document: ``operation`` among :data:`GRAPHQL_CLIENT_OPERATIONS`, ``name``
    its name (``None``: anonymous), ``fields`` the fields it selects at the root in order (an alias ``x: orders``
    selects ``orders``; ``__typename`` and other introspection fields left out; the fields of an inline fragment at
    the root included), ``spreads`` the names of the fragments spread at the root (the linker expands them). ``line``
    / ``col``: where it starts in the host file."""

    operation: str
    name: str | None
    fields: list[str]
    spreads: list[str]
    line: int
    col: int


@dataclass(slots=True)
class GraphqlFragment:
    """A fragment definition of a GraphQL document: its ``name``, the type it is ``on``, and (as for
    :class:`GraphqlOperation`) the ``fields`` and ``spreads`` of its own top-level selection."""

    name: str
    on: str
    fields: list[str]
    spreads: list[str]


@dataclass(slots=True)
class GraphqlDocument:
    """A GraphQL executable document written in this file: a ``gql`` / ``graphql`` tagged template or
    call (JS / TS), a ``gql("...")`` call (Python ``gql``), a literal handed to a Java GraphQL client,
    or a ``.graphql`` / ``.gql`` operations file (then ``framework`` ``graphql-documents``).

    ``name``: the module-level constant holding it (``GET_ORDERS`` of ``const GET_ORDERS = gql`...```,
    ``Queries.ORDERS`` of a Java ``static final``), ``None`` when it is written elsewhere; ``owner``:
    the qualname of the code it is written in (the enclosing function or method, the operation's
    definition in a ``.graphql`` file), ``None`` at module level. ``includes``: the expressions
    interpolated into it (``${ORDER_FIELDS}``), whose fragments the linker adds; ``errors``: how many
    syntax errors the text has (what parsed is kept). ``run``: a use in this file runs it where it is
    written (``useQuery(gql`...`)``)."""

    framework: str
    name: str | None
    owner: str | None
    operations: list[GraphqlOperation]
    fragments: list[GraphqlFragment]
    line: int
    col: int
    includes: list[str] = field(default_factory=list)
    errors: int = 0
    run: bool = False


@dataclass(slots=True)
class GraphqlUse:
    """Code running a GraphQL document (``useQuery(GET_ORDERS)``, ``client.mutate({mutation: M})``,
    ``request(url, doc)``, ``client.execute(query)``, Spring ``graphQlClient.documentName("x")``,
    DGS ``new GraphQLQueryRequest(new ShowsGraphQLQuery())``).

    ``owner``: qualname of the running function or method (``None``: module-level code, the File
    node). The document is one of: ``document``, the index in :attr:`FileExtraction.graphql_documents`
    of one written in the call; ``ref``, an expression naming a constant that holds one (resolved
    from ``scope`` like a constant, across imports); ``path``, a document file named by path
    (``graphql-documents/x``: any ``.graphql`` / ``.gql`` file of the repository whose path, without
    suffix, ends with it; ``operation`` then picks the operation of that name when the file has it);
    ``root_field``, a root field named by generated code (DGS ``ShowsGraphQLQuery`` -> ``shows``), whose
    operation type the schema says. ``strict``: the call surely runs a GraphQL document (a GraphQL
    hook or client), so a ``ref`` resolving to nothing is counted as unlinked rather than ignored."""

    framework: str
    owner: str | None
    line: int
    col: int
    document: int | None = None
    ref: str | None = None
    scope: str | None = None
    path: str | None = None
    operation: str | None = None
    root_field: str | None = None
    strict: bool = True


@dataclass(slots=True)
class GlobalPrefix:
    """A prefix an application puts before every route of its own (NestJS ``app.setGlobalPrefix("api", { exclude:
    [...] })``): the linker puts ``prefix`` before each absolute route of ``framework`` in the service folder holding
    this file, except routes whose path ``exclude`` names (the path as the controller writes it; a trailing ``*`` /
    ``(.*)`` matches everything below)."""

    framework: str
    prefix: Template
    line: int
    col: int
    exclude: list[Template] = field(default_factory=list)


@dataclass(slots=True)
class UriVersioning:
    """NestJS ``app.enableVersioning({ type: VersioningType.URI, prefix: "v", defaultVersion: "1" })`` (other types change
    no path): ``prefix`` + version after the global prefix of each absolute route of ``framework`` in the service
    folder holding this file, the route's :attr:`Route.versions` else ``default`` (``Template()``: neutral)."""

    framework: str
    prefix: str
    line: int
    col: int
    default: list[Template] = field(default_factory=list)


@dataclass(slots=True)
class UrlRewrite:
    """Code that rewrites the URL of every request a client sends (an Angular ``HttpInterceptor``:
    ``req.clone({ url: environment.apiUrl + req.url })``): ``url`` is the new URL, in which the ``ref``
    piece ``original`` (``req.url``) stands for the request's own URL. The linker applies it to the
    relative URLs of ``framework``'s requests (``angular``) in the package folder holding this file.
    ``owner``: the qualname of the enclosing function or method."""

    framework: str
    url: Template
    original: str
    owner: str | None
    line: int
    col: int


@dataclass(slots=True)
class DevProxy:
    """A development-server proxy rule read from a JavaScript / TypeScript configuration file (Vite ``server.proxy``,
    webpack ``devServer.proxy``, an Angular ``proxy.conf.js``): requests whose path matches one of ``context`` (a path
    prefix, a glob such as ``/api/**``, or a regular expression starting with ``^``) go to ``target``
    (``http://localhost:8080``), the path first rewritten by ``rewrite`` (``(pattern, replacement)``, a regular
    expression as JavaScript writes it: ``("^/api", "")``) when given. The linker applies it to the relative request
    URLs of the package folder holding this file."""

    context: list[str]
    target: Template
    line: int
    col: int
    rewrite: tuple[str, str] | None = None


TABLE_ROLES = ("reads", "writes", "repository", "sql", "jpql")
ORM_ATTRIBUTE = "orm_attribute"
"""The :attr:`TableUse.framework` of an access through an ORM instance's attribute (``user.email = x``): the
linker keeps only the names that are columns of the table the object's class maps to."""
""":attr:`TableUse.role`: the code reads or writes the table; ``repository`` marks a Spring Data repository interface
(``owner``) managing the entity ``entity`` (its inherited CRUD methods); ``sql`` / ``jpql``: the statement in
:attr:`TableUse.sql` decides (parsed by the linker once its constants are known; JPQL names entities, not tables)."""


@dataclass(slots=True)
class TableDef:
    """A database table a file declares: a ``CREATE TABLE`` (or ``ALTER TABLE ... ADD``) in SQL, an ORM model (Django,
    SQLAlchemy, JPA, TypeORM, Prisma). ``name`` / ``schema`` as the source spells them (case kept; ``schema`` ``None``
    when unqualified); ``columns`` ``(name, type)`` in order (``type`` ``None`` when unknown); ``entity``: the qualname
    in this file of the class (or module variable, SQLAlchemy ``Table(...)``) that maps to the table, ``None`` for SQL.
    ``alter``: the statement adds columns to a table declared elsewhere (declares no table alone)."""

    framework: str
    name: str
    schema: str | None
    columns: list[tuple[str, str | None]]
    line: int
    col: int
    entity: str | None = None
    alter: bool = False
    kind: str = "table"
    """``table``: declares the table; ``abstract``: the class declares columns for the tables of its subclasses (a JPA
    ``@MappedSuperclass``, a Django ``abstract`` model; ``name`` empty); ``proxy``: the class uses its base's table (a
    Django proxy model); ``candidate``: a class that declares ``name`` only if one of its bases is a model (the linker
    decides: a Django class in a models module whose base is another module's class). A migration's schema change:
    ``drop`` (the table), ``rename`` / ``rename_column`` (``renamed`` = ``(old, new)``), ``drop_column``
    (``columns``); the linker replays them in migration order. ``m2m`` / ``m2m-ref``: a SQLAlchemy ``relationship(
    secondary=...)`` field (``entity`` ``Model.field``) whose join table is ``name`` (``m2m``) or the ``Table(...)``
    variable ``name`` refers to (``m2m-ref``). EF Core's ``mapped`` (``ToTable``), then ``default`` (a ``DbSet``'s
    name) map the type text ``entity`` (file top level) to ``name`` unless mapped already."""
    renamed: tuple[str, str] | None = None
    cascades: tuple[str, ...] = ()
    """Type texts of the entities a JPA write of this one cascades to (relationship fields with a
    ``cascade`` that persists, merges or removes, or ``orphanRemoval``): their tables are written too."""


@dataclass(slots=True)
class TableUse:
    """Code reading or writing a table (``role`` one of :data:`TABLE_ROLES`). The table is named by ``table`` (a name
    from SQL, ``schema.name`` allowed) or by ``entity``: an expression text, resolved by the linker in the scope
    ``owner`` to a mapped class or an instance of one (``Owner``, ``owner``, ``self.model``). ``columns``: the columns
    the access names (empty: unknown or every column). ``owner``: qualname of the enclosing function or method
    (``None``: module level). ``resolution``: ``exact`` when the source names the table or entity itself, ``inferred``
    when a naming rule or a receiver's type led to it."""

    framework: str
    role: str
    owner: str | None
    line: int
    col: int
    table: str | None = None
    entity: str | None = None
    columns: list[str] = field(default_factory=list)
    resolution: str = "exact"
    sql: Template | None = None
    """The statement of a ``sql`` / ``jpql`` use: literals and constant references (``ref``)."""
    receiver: str | None = None
    """A Spring Data call (``owners.findById(id)``): the receiver expression, resolved in ``owner``'s
    scope; when it is an instance of a repository interface (a ``repository`` use), the access is to
    that repository's entity's table (inherited CRUD methods nobody declares in the code)."""


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
    topics: list[TopicUse] = field(default_factory=list)
    queue_bindings: list[QueueBinding] = field(default_factory=list)
    constants: list[StringConstant] = field(default_factory=list)
    entries: list[EntryRegistration] = field(default_factory=list)
    rpc_services: list[RpcService] = field(default_factory=list)
    rpc_uses: list[RpcUse] = field(default_factory=list)
    global_prefixes: list[GlobalPrefix] = field(default_factory=list)
    uri_versionings: list[UriVersioning] = field(default_factory=list)
    url_rewrites: list[UrlRewrite] = field(default_factory=list)
    dev_proxies: list[DevProxy] = field(default_factory=list)
    graphql_documents: list[GraphqlDocument] = field(default_factory=list)
    graphql_uses: list[GraphqlUse] = field(default_factory=list)
    tables: list[TableDef] = field(default_factory=list)
    table_uses: list[TableUse] = field(default_factory=list)
    components: list[UiComponent] = field(default_factory=list)
    partial: str | None = None
    """Why the file was extracted only in part (``None``: it was not): ``too_deep`` (subtrees nested
    deeper than the extraction budget's depth), ``syntax_errors`` (an ERROR node too wide to query),
    ``time_budget`` (the file's time budget ran out); see :class:`indexer.languages.base.Budget`;
    ``chunk_cap`` (a documentation, configuration or SQL file with more chunks than
    :data:`indexer.content.MAX_CHUNKS`: the content extractor's); the pipeline sets the others."""
    id_path: str | None = None
    """The path node ids are built from (``None``: ``path`` without its suffix); the pipeline sets it to
    the full path when another file has the same path but another suffix (``util.ts`` beside ``util.js``,
    ``mod.py`` beside ``mod.pyi``), so their ids cannot collide. Extractors leave it alone."""


def _pickle_by_fields(cls: type) -> None:
    """Pickle ``cls`` as its constructor and field values in order, not through a slotted dataclass's
    per-object ``__setstate__``: a third faster to load, 40% smaller (extraction cache, workers)."""
    get = operator.attrgetter(*(f.name for f in fields(cls)))
    single = len(fields(cls)) == 1

    def __reduce__(self: object) -> tuple[type, tuple[object, ...]]:
        return (cls, (get(self),) if single else get(self))

    cls.__reduce__ = __reduce__  # type: ignore[method-assign,assignment]


for _cls in list(globals().values()):
    if isinstance(_cls, type) and is_dataclass(_cls) and _cls.__module__ == __name__:
        _pickle_by_fields(_cls)
del _cls

