"""NestJS controllers: ``@Controller(prefix)`` classes and their ``@Get`` / ``@Post`` / ... methods.

Facts, from ``indexer/languages/ecmascript/queries/nest.scm``: one :class:`~indexer.model.Route` per HTTP method
decorator on a method of a class decorated ``@Controller``, with ``path`` the class prefix joined to
the method's path with one ``/`` between them and a leading ``/`` (``@Controller("cats")`` +
``@Get(":id")`` -> ``/cats/:id``; ``@Get()`` adds nothing), ``handler`` the method's qualname
(``CatsController.findOne``), ``router`` ``None`` (the path is absolute). ``app.setGlobalPrefix("api",
{ exclude: ["health", { path: "cats/(.*)", method: RequestMethod.GET }] })`` is a
:class:`~indexer.model.GlobalPrefix` (the linker puts it before the routes of the service folder; an
excluded path is a string or a ``{ path }`` object, its method not read: every method of it is
excluded); a prefix read from ``@nestjs/config`` (``configService.getOrThrow("app.apiPrefix")``) is
the value ``registerAs("app", () => ({ apiPrefix: process.env.API_PREFIX || "api" }))`` gives it,
kept as ``config:app.apiPrefix`` constants (:data:`~indexer.symbols.CONFIG_KEY`). URI versioning:
``app.enableVersioning({ type: VersioningType.URI, prefix, defaultVersion })`` is a
:class:`~indexer.model.UriVersioning`, and a route's versions are its method's ``@Version(...)``,
else its controller's ``{ version }`` (:attr:`~indexer.model.Route.versions`; the linker adds
``/v1``). ``@All`` accepts every method: ``["*"]``.

Prefix and path arguments: a string or template literal, a constant (``ref``), ``{path: ...}``
(``@Controller({ path: "cats", host: ... })``), or an array of any of these: one route per
combination. The decorator names are matched by their last part (``@common.Get()`` too); routing-
controllers' ``@Controller`` / ``@JsonController`` / ``@Get`` have the same meaning and are read alike,
and its ``createExpressServer({ routePrefix })`` is a global prefix (:func:`_route_prefix`).
Position: the method decorator's ``@``.

Cross-cutting code (issue 14), ``kind`` by decorator: ``@UseGuards`` -> ``guard``,
``@UseInterceptors`` -> ``interceptor``, ``@UsePipes`` -> ``pipe``, ``@UseFilters`` ->
``error_handler``. Each argument (``AuthGuard``, ``new AuthGuard()``, passport's ``AuthGuard("jwt")``:
the class or factory named) is a :class:`~indexer.model.WrapperRef` of every route of the method it
is written on, or of every route of the controller class; ordered as Nest runs them: guards,
interceptors, pipes, filters, the class's before the method's. Application-wide
:class:`~indexer.model.Wrapper` facts (``router`` ``None``): ``app.useGlobalGuards(new X())`` (and
``useGlobalInterceptors`` / ``useGlobalPipes`` / ``useGlobalFilters``), and a provider
``{ provide: APP_GUARD, useClass: X }`` (``useExisting`` too; ``APP_INTERCEPTOR``, ``APP_PIPE``,
``APP_FILTER``). Middleware: ``consumer.apply(A, B).forRoutes("cats", { path: "dogs", method })``
gives one ``middleware`` wrapper per class and route path (``/cats``; ``"*"`` or a trailing ``*`` /
``(.*)`` widens to the prefix before it), limited to the object's ``method`` (``RequestMethod.POST``,
or its enum number: ``Wrapper.methods``; ``RequestMethod.ALL`` or a method not written as either:
any); a controller class given to ``forRoutes`` has no path the
file knows and is left out, ``.exclude(...)`` is not subtracted (the wrapper over-covers). A class
defined in this file is the ``owner``, otherwise the ``owner_ref``. Position: the call's (or the
provider object's) start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, join_paths, js_file, unwrap
from indexer.languages.ecmascript.frameworks.js_constants import constants_of
from indexer.model import (
    COMPOSED_BY,
    TYPE_KINDS,
    Binding,
    FileExtraction,
    GlobalPrefix,
    Route,
    StringConstant,
    Template,
    UriVersioning,
    Wrapper,
    WrapperRef,
)
from indexer.resolve.context import REGISTERS
from indexer.symbols import ANY_STRATEGY, CONFIG_KEY, DEFAULT_STRATEGY

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "decorated_class", "decorated_method", "detect"]

LANGUAGES = ("javascript", "typescript")

FRAMEWORK = "nest"
PASSPORT = "@nestjs/passport"
_CLASSES = frozenset({"class_declaration", "abstract_class_declaration", "class"})
_CONTROLLERS = frozenset({"Controller", "JsonController"})
"""Class decorators making a controller: Nest's and routing-controllers' ``@Controller``, and
routing-controllers' ``@JsonController`` (the same routes, answering JSON)."""
_KINDS = {"Guards": "guard", "Interceptors": "interceptor", "Pipes": "pipe", "Filters": "error_handler"}
_ORDER = ("guard", "interceptor", "pipe", "error_handler")
_NEST_DECORATORS = frozenset({"Controller", "JsonController", "Get", "Post", "Put", "Delete", "Patch", "Options", "Head",
                              "All", "Version", "UseGuards", "UseInterceptors", "UsePipes", "UseFilters", "HttpCode",
                              "Header", "Redirect", "Render", "SetMetadata", "Injectable"})
"""Nest's own decorators, read here or composing nothing: never an application's composition."""
_TOKENS = {"APP_GUARD": "guard", "APP_INTERCEPTOR": "interceptor", "APP_PIPE": "pipe", "APP_FILTER": "error_handler"}


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the routes of the file's Nest controllers to ``out``."""
    jf = js_file(root, src, out)
    if jf.has(b"PassportStrategy"):
        _strategies(out)
    if jf.has(b"defaultStrategy"):
        _default_strategy(jf, root, out)
    if jf.has(b"applyDecorators", b"return Use", b"=> Use"):
        _composed(jf, root, out)
    if jf.has(PASSPORT.encode()):
        _passport_factories(jf, root, out)
    matches = jf.matches("nest")
    if not matches:
        return
    _global_wrappers(jf, out, [c for c in matches if "decorator" not in c])
    if not jf.has(b"Controller"):
        return
    controllers: dict[int, tuple[str, list[Template], list[Template]]] = {}  # class id -> (qualname, prefixes, versions)
    methods: list[tuple[str, Node, Node]] = []  # (verb, decorator, args)
    versions: dict[int, list[Template]] = {}  # method node id -> its @Version(...)
    uses: dict[int, list[tuple[str, WrapperRef]]] = {}  # class / method node id -> (kind, wrapper)
    for caps in matches:
        if "composed" in caps:  # an application's own decorator: what it composes, in the linker
            target = decorated_class(caps["composed"][0]) or decorated_method(caps["composed"][0])
            name = jf.text(caps["composed_name"][0])
            if target is not None and name not in _NEST_DECORATORS and not (jf.imported(name) or "").startswith("@nestjs/"):
                uses.setdefault(target.id, []).append(("decorator", WrapperRef("decorator", name)))
            continue
        if "decorator" not in caps:
            continue
        name = jf.text(caps["name"][0]).rpartition(".")[2]
        decorator = caps["decorator"][0]
        if name.startswith("Use"):
            target = decorated_class(decorator) or decorated_method(decorator)
            if target is not None:
                kind = _KINDS[name[3:]]
                for arg in arguments(caps["args"][0]):
                    runs = jf.runs(arg, decorator, kind)
                    if runs is not None and (runs[0] or runs[1]):
                        expr = _factory_call(jf, arg) or _default_guard(jf, arg) or runs[0] or runs[1] or ""
                        uses.setdefault(target.id, []).append((kind, WrapperRef(kind, expr)))
            continue
        if name in _CONTROLLERS:
            cls = decorated_class(decorator)
            if cls is None:
                continue
            d = jf.definition_named(cls.child_by_field_name("name"))
            qualname = d.qualname if d is not None else jf.text(cls.child_by_field_name("name"))
            given = arguments(caps["args"][0])
            version = jf.object_pairs(unwrap(given[0]) or given[0]).get("version") if given else None
            controllers[cls.id] = (qualname, _paths(jf, caps["args"][0], "path"),
                                   _versions(jf, version) if version is not None else [])
        elif name == "Version":
            method = decorated_method(decorator)
            given = arguments(caps["args"][0])
            if method is not None and given:
                versions[method.id] = _versions(jf, given[0])
        else:
            methods.append((name, decorator, caps["args"][0]))
    for verb, decorator, args in methods:
        method = decorated_method(decorator)
        if method is None or method.parent is None or method.parent.parent is None:
            continue
        owner = controllers.get(method.parent.parent.id)
        if owner is None:
            continue
        class_qualname, prefixes, class_versions = owner
        name_node = method.child_by_field_name("name")
        d = jf.definition_named(name_node)
        handler = d.qualname if d is not None else f"{class_qualname}.{jf.text(name_node)}"
        line, col = jf.pos(decorator)
        http = ["*"] if verb == "All" else [verb.upper()]
        own = uses.get(method.parent.parent.id, []) + uses.get(method.id, [])
        wrappers = [w for kind in (*_ORDER, "decorator") for k, w in own if k == kind]
        for prefix in prefixes:
            for path in _paths(jf, args, None):
                out.routes.append(
                    Route(FRAMEWORK, list(http), join_paths(prefix, path), handler, line, col, wrappers=list(wrappers),
                          versions=list(versions.get(method.id, class_versions)))
                )


def _composed(jf: JsFile, root: Node, out: FileExtraction) -> None:
    """Decorator composition: a function returning ``applyDecorators(...)`` composes the guards, interceptors,
    pipes and filters of the ``UseGuards(...)`` / ``UseInterceptors(...)`` / ``UsePipes(...)`` / ``UseFilters(...)``
    among its arguments, and one returning such a ``Use*(...)`` call those of that call (all imported from
    ``@nestjs/common``): one :class:`~indexer.model.Wrapper` each, router ``COMPOSED_BY + <the function's
    qualname>`` (:data:`~indexer.model.COMPOSED_BY`), for the routes decorated with the function (their
    ``decorator`` :class:`~indexer.model.WrapperRef`)."""
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        fn = n.child_by_field_name("function") if n.type == "call_expression" else None
        name = jf.text(fn) if fn is not None and fn.type == "identifier" else ""
        if name != "applyDecorators" and not (name.startswith("Use") and name[3:] in _KINDS):
            continue
        if jf.imported(name) != "@nestjs/common":
            continue
        if n.parent is None or n.parent.type not in ("return_statement", "arrow_function"):
            continue  # a decorator value built at module level is not a function the routes call
        line = fn.start_point[0] + 1
        composer = next((c.caller for c in out.calls if c.name == name and c.line == line), None)
        if composer is None:
            continue
        uses = arguments(n.child_by_field_name("arguments")) if name == "applyDecorators" else [n]
        for use in uses:
            head = use.child_by_field_name("function") if use.type == "call_expression" else None
            name = jf.text(head) if head is not None and head.type == "identifier" else ""
            if not name.startswith("Use") or name[3:] not in _KINDS:
                continue
            kind = _KINDS[name[3:]]
            for arg in arguments(use.child_by_field_name("arguments")):
                runs = _runs(jf, arg, use, kind)
                if runs is None:
                    continue
                owner, ref = runs
                at_line, at_col = jf.pos(arg)
                out.wrappers.append(Wrapper(FRAMEWORK, kind, owner, at_line, at_col, ref, COMPOSED_BY + composer))


def _passport_factories(jf: JsFile, root: Node, out: FileExtraction) -> None:
    """An application's guard factory around passport's: a function returning ``AuthGuard(names)`` of
    ``@nestjs/passport`` (under any local name), ``names`` a string, an array of strings, or a local
    ``const names = ["jwt"]`` the function only ``push``-es strings to (a push inside a branch, loop or
    ``try`` runs on some calls only and is left out), composes the guard
    ``AuthGuard([...every name])``: a ``guard`` :class:`~indexer.model.Wrapper` of that text, router
    ``COMPOSED_BY + <the function's qualname>``; a guard made by calling the function runs those strategies'
    callbacks (:func:`indexer.frameworks.auth_guards.factory_callbacks`). Another argument composes nothing."""
    local = next((i.local for i in out.imports if i.module == PASSPORT and i.name == "AuthGuard"), None)
    if local is None:
        return
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        fn = n.child_by_field_name("function") if n.type == "call_expression" else None
        if fn is None or fn.type != "identifier" or jf.text(fn) != local:
            continue
        if n.parent is None or n.parent.type not in ("return_statement", "arrow_function"):
            continue
        line = fn.start_point[0] + 1
        composer = next((c.caller for c in out.calls if c.name == local and c.line == line), None)
        given = arguments(n.child_by_field_name("arguments"))
        names = _strategy_names(jf, given[0], out, composer) if composer is not None and len(given) == 1 else None
        if names:
            text = "AuthGuard([" + ", ".join(f'"{x}"' for x in names) + "])"
            at_line, at_col = jf.pos(n)
            out.wrappers.append(Wrapper(FRAMEWORK, "guard", None, at_line, at_col, text, COMPOSED_BY + composer))


def _strategy_names(jf: JsFile, arg: Node, out: FileExtraction, composer: str) -> list[str] | None:
    """The strategy names of a passport ``AuthGuard`` argument (:func:`_passport_factories`); ``None`` when
    they are not all known."""
    if arg.type == "string":
        value = jf.string(arg)
        return [value] if value else None
    if arg.type == "array":
        found = [jf.string(e) if e.type == "string" else None for e in arg.named_children if e.type != "comment"]
        return [x for x in found if x] if found and all(found) else None
    if arg.type != "identifier":
        return None
    name, body = jf.text(arg), arg
    while body is not None and body.type not in ("function_declaration", "function_expression", "arrow_function",
                                                 "method_definition"):
        body = body.parent
    if body is None:
        return None
    names: list[str] = []
    declared = False
    stack = [body]
    while stack:
        n = stack.pop()
        stack.extend(reversed(n.named_children))
        if n.type == "variable_declarator" and jf.text(n.child_by_field_name("name")) == name:
            value = n.child_by_field_name("value")
            if declared or value is None or value.type != "array":
                return None
            first = _strategy_names(jf, value, out, composer)
            if first is None:
                return None
            names[:0], declared = first, True
        elif n.type == "call_expression" and jf.text(n.child_by_field_name("function")) == f"{name}.push":
            pushed = [jf.string(a) if a.type == "string" else None for a in arguments(n.child_by_field_name("arguments"))]
            if not pushed or not all(pushed):
                return None
            if not _conditional(n, body):  # a name pushed only on some calls is not always run: left out
                names += [x for x in pushed if x]
        elif n.type == "assignment_expression" and jf.text(n.child_by_field_name("left")) == name:
            return None
    return list(dict.fromkeys(names)) if declared else None


_BRANCHES = frozenset({"if_statement", "switch_statement", "ternary_expression", "for_statement", "for_in_statement",
                       "while_statement", "do_statement", "try_statement", "catch_clause"})


def _conditional(node: Node, body: Node) -> bool:
    """Whether ``node`` runs only on some paths through ``body`` (inside a branch, a loop or a ``try``)."""
    n = node.parent
    while n is not None and n != body:
        if n.type in _BRANCHES:
            return True
        n = n.parent
    return False


def _global_wrappers(jf: JsFile, out: FileExtraction, matches: list[dict[str, list[Node]]]) -> None:
    """``useGlobal*`` calls, ``APP_*`` providers and ``consumer.apply(...).forRoutes(...)``."""
    for caps in matches:
        if "prefix_call" in caps:
            _global_prefix(jf, out, caps)
        elif "server_call" in caps:
            _route_prefix(jf, out, caps)
        elif "versioning_call" in caps:
            _uri_versioning(jf, out, caps)
        elif "config_call" in caps:
            _config_values(jf, out, caps)
        elif "global" in caps:
            kind = _KINDS[jf.text(caps["global"][0])[len("useGlobal"):]]
            call = caps["call"][0]
            for arg in arguments(caps["args"][0]):
                _emit(jf, out, kind, arg, call, Template())
        elif "provider" in caps:
            kind = _TOKENS[jf.text(caps["token"][0]).rpartition(".")[2]]
            pairs = jf.object_pairs(caps["provider"][0])
            value = pairs.get("useClass") or pairs.get("useExisting")
            if value is not None:
                _emit(jf, out, kind, value, caps["provider"][0], Template())
        elif "routes" in caps:
            applied = _applied(jf, caps["chain"][0])
            if not applied:
                continue
            call = caps["call"][0]
            for route in arguments(caps["routes"][0]):
                path = _middleware_path(jf, route)
                if path is None:
                    continue
                for mw in applied:
                    _emit(jf, out, "middleware", mw, call, path, _route_methods(jf, route))


def _global_prefix(jf: JsFile, out: FileExtraction, caps: dict[str, list[Node]]) -> None:
    """``app.setGlobalPrefix(prefix, { exclude })``: a :class:`GlobalPrefix`; a prefix read from a
    ``ConfigService`` is a reference to its configuration key (:func:`_config_read`), one computed
    otherwise (``computePrefix()``) an unknown piece: the routes get a ``{}`` segment, as for a
    constant of unknown value, rather than no prefix."""
    args = arguments(caps["prefix_args"][0])
    if not args:
        return
    prefix = _config_read(jf, args[0])
    exclude: list[Template] = []
    if len(args) > 1:
        value = jf.object_pairs(args[1]).get("exclude")
        if value is not None:
            value = unwrap(value) or value
            items = value.named_children if value.type == "array" else [value]
            exclude = [t for item in items for t in _values(jf, item, "path") if t.parts]
    line, col = jf.pos(caps["prefix_call"][0])
    out.global_prefixes.append(GlobalPrefix(FRAMEWORK, prefix or jf.template(args[0]), line, col, exclude))


def _route_prefix(jf: JsFile, out: FileExtraction, caps: dict[str, list[Node]]) -> None:
    """routing-controllers' ``createExpressServer({ routePrefix: "/api", ... })`` (``useExpressServer(app,
    {...})``, ``createKoaServer``, ``useKoaServer``): the options object's ``routePrefix`` is a
    :class:`GlobalPrefix` without exclusions (a value the file cannot read, ``env.app.routePrefix``, an
    unknown piece, as :func:`_global_prefix` keeps one); no ``routePrefix``, or options not written as
    an object literal, nothing."""
    for arg in arguments(caps["server_args"][0]):
        node = unwrap(arg) or arg
        if node.type != "object":
            continue
        value = jf.object_pairs(node).get("routePrefix")
        if value is not None:
            line, col = jf.pos(caps["server_call"][0])
            out.global_prefixes.append(GlobalPrefix(FRAMEWORK, jf.template(unwrap(value) or value), line, col, []))
        return


_CONFIG_GETTERS = frozenset({"get", "getOrThrow"})


def _config_read(jf: JsFile, node: Node) -> Template | None:
    """``configService.get("app.apiPrefix")`` / ``.getOrThrow(...)`` with a literal key: the
    template of one ``ref`` to that configuration key (:data:`~indexer.symbols.CONFIG_KEY`), or for a key
    without a dot (``get("API_PREFIX")``) to the environment variable ``process.env.API_PREFIX``, which
    is what a ``ConfigService`` reads then; ``None`` for anything else."""
    node = unwrap(node) or node
    fn = node.child_by_field_name("function") if node.type == "call_expression" else None
    if fn is None or fn.type != "member_expression" or jf.text(fn.child_by_field_name("property")) not in _CONFIG_GETTERS:
        return None
    given = arguments(node.child_by_field_name("arguments"))
    key = jf.template(given[0]).literal() if given and given[0].type in ("string", "template_string") else None
    if not key:
        return None
    return Template((("ref", (CONFIG_KEY if "." in key else "process.env.") + key),))


def _config_values(jf: JsFile, out: FileExtraction, caps: dict[str, list[Node]]) -> None:
    """``registerAs("app", () => ({ key: value }))`` (or a body ending ``return { ... }``): each
    constant value as a :class:`~indexer.model.StringConstant` ``config:app.key`` (nested objects:
    ``config:app.a.b``), by the rule of :mod:`js_constants`."""
    namespace = jf.template(caps["config_ns"][0]).literal()
    body = caps["config_fn"][0].child_by_field_name("body")
    if not namespace or body is None:
        return
    if body.type == "statement_block":
        returns = [n for n in body.named_children if n.type == "return_statement" and n.named_children]
        body = returns[-1].named_children[0] if returns else None
    if body is not None:
        out.constants.extend(constants_of(jf, CONFIG_KEY + namespace, body))


_FACTORY_ARGS = frozenset({"string", "array", ",", "[", "]", "(", ")", "comment"})


def _factory_call(jf: JsFile, node: Node) -> str | None:
    """The text of a guard made by a factory called with names only (passport's ``AuthGuard("jwt")``,
    ``AuthGuard(["jwt", "anonymous"])``): the linker runs the callbacks registered under them
    (:func:`indexer.frameworks.auth_guards.factory_callbacks`); ``None`` for anything else."""
    node = unwrap(node) or node
    args = node.child_by_field_name("arguments") if node.type == "call_expression" else None
    if args is None or not args.named_children:
        return None
    flat = [n for a in args.children for n in ([a] if a.type != "array" else [a, *a.children])]
    return jf.text(node) if all(n.type in _FACTORY_ARGS for n in flat) else None


def _default_guard(jf: JsFile, node: Node) -> str | None:
    """``AuthGuard()`` of ``@nestjs/passport`` (no strategy named: the default one, see
    :func:`indexer.frameworks.auth_guards.factory_keys`) as written; ``None`` for anything else."""
    node = unwrap(node) or node
    if node.type != "call_expression":
        return None
    fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
    if fn is None or fn.type != "identifier" or args is None or args.named_children:
        return None
    return jf.text(node) if jf.imported(jf.text(fn)) == PASSPORT else None


def _default_strategy(jf: JsFile, root: Node, out: FileExtraction) -> None:
    """``PassportModule.register({ defaultStrategy: "jwt" })`` (``registerAsync``'s factory alike: any
    ``defaultStrategy: "<name>"`` pair of a file importing ``@nestjs/passport``): the constant
    :data:`~indexer.frameworks.auth_guards.DEFAULT_STRATEGY` naming the strategy ``AuthGuard()`` runs
    (the first string written; an array's first name)."""
    if not jf.import_locals(PASSPORT):
        return
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "pair" and jf.text(n.child_by_field_name("key")).strip("'\"") == "defaultStrategy":
            value = unwrap(n.child_by_field_name("value")) or n.child_by_field_name("value")
            if value is not None and value.type == "array" and value.named_children:
                value = value.named_children[0]
            name = jf.string(value)
            if name:
                out.constants.append(StringConstant(DEFAULT_STRATEGY, Template.of(name)))
                return
        stack.extend(reversed(n.named_children))


_DEFAULT_STRATEGIES = {"passport-http-bearer": "bearer", "passport-http": "basic", "passport-google-oauth20": "google",
                       "passport-google-oauth2": "google", "passport-github2": "github", "passport-oauth2": "oauth2"}
"""Strategies whose default name is not their package's name after ``passport-`` (``passport-jwt``:
``jwt``, ``passport-local``: ``local``)."""


def _strategies(out: FileExtraction) -> None:
    """``class JwtStrategy extends PassportStrategy(Strategy, "jwt")`` with a ``validate`` method: a
    ``registers`` binding ``@AuthGuard:jwt`` of ``JwtStrategy.validate``, the callback
    ``@UseGuards(AuthGuard("jwt"))`` runs. Without a name, the strategy's own: the package
    ``Strategy`` is imported from (``passport-local``: ``local``; :data:`_DEFAULT_STRATEGIES`)."""
    methods = {d.qualname for d in out.definitions if d.kind == "method"}
    for d in out.definitions:
        if d.kind not in TYPE_KINDS or f"{d.qualname}.validate" not in methods:
            continue
        for base in d.bases:
            head, _, rest = base.partition("(")
            if head.strip().rpartition(".")[2] != "PassportStrategy":
                continue
            args = [a.strip() for a in rest.rpartition(")")[0].split(",")]
            name = args[1].strip("'\"`") if len(args) > 1 and args[1][:1] in "'\"`" else None
            if name is None:
                module = next((i.module for i in out.imports if i.local == args[0]), "")
                name = _DEFAULT_STRATEGIES.get(module) or (module[len("passport-"):] if module.startswith("passport-") else None)
            if name:
                out.bindings.append(Binding(None, f"@AuthGuard:{name}", f"{d.qualname}.validate", REGISTERS, d.start_line))
                # any strategy of the repository: `AuthGuard()` with no default registered runs the only one
                out.bindings.append(Binding(None, f"@{ANY_STRATEGY}", f"{d.qualname}.validate", REGISTERS, d.start_line))


def _uri_versioning(jf: JsFile, out: FileExtraction, caps: dict[str, list[Node]]) -> None:
    """``app.enableVersioning({ type: VersioningType.URI, prefix, defaultVersion })``: a
    :class:`UriVersioning` (prefix ``"v"`` unless a string or ``false`` is written; none for another
    type, or a type or prefix the file cannot read)."""
    args = arguments(caps["versioning_args"][0])
    pairs = jf.object_pairs(unwrap(args[0]) or args[0]) if args else {}
    kind = pairs.get("type")
    if kind is None or jf.text(unwrap(kind) or kind).rpartition(".")[2] != "URI":
        return
    prefix = "v"
    if "prefix" in pairs:
        node = unwrap(pairs["prefix"]) or pairs["prefix"]
        literal = jf.template(node).literal() if node.type in ("string", "template_string") else None
        if node.type == "false":
            prefix = ""
        elif literal is None:
            return
        else:
            prefix = literal
    default = pairs.get("defaultVersion")
    line, col = jf.pos(caps["versioning_call"][0])
    out.uri_versionings.append(UriVersioning(FRAMEWORK, prefix, line, col,
                                             _versions(jf, default) if default is not None else []))


def _versions(jf: JsFile, node: Node) -> list[Template]:
    """The versions a ``version`` / ``@Version`` / ``defaultVersion`` value names: a string or
    constant each, an array of them; ``VERSION_NEUTRAL`` is the empty template."""
    node = unwrap(node) or node
    if node.type == "array":
        return [t for element in node.named_children for t in _versions(jf, element)]
    if node.type in ("identifier", "member_expression") and jf.text(node).rpartition(".")[2] == "VERSION_NEUTRAL":
        return [Template()]
    return [jf.template(node)]


def _runs(jf: JsFile, node: Node, at: Node, kind: str) -> tuple[str | None, str | None] | None:
    """What a guard / interceptor / pipe / filter argument ``node`` at ``at`` runs: ``(owner class, reference)``
    from :meth:`JsFile.runs`, a reference naming a class of this file taken as that class; None when it runs
    nothing the repository can name."""
    runs = jf.runs(node, at, kind)
    if runs is None or not (runs[0] or runs[1]):
        return None
    owner, ref = runs
    if owner is None and ref is not None and _local_class(jf, ref):
        return ref, None
    return owner, ref


def _emit(jf: JsFile, out: FileExtraction, kind: str, node: Node, at: Node, path: Template,
          methods: list[str] | None = None) -> None:
    runs = _runs(jf, node, at, kind)
    if runs is None:
        return
    owner, ref = runs
    line, col = jf.pos(at)
    out.wrappers.append(Wrapper(FRAMEWORK, kind, owner, line, col, ref, None, path, methods or []))


_REQUEST_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "ALL", "OPTIONS", "HEAD")
"""Nest's ``RequestMethod`` enum in member order (``GET = 0``, ...): a number stands for its member."""


def _route_methods(jf: JsFile, node: Node) -> list[str]:
    """The HTTP method a ``forRoutes`` argument limits its middleware to: ``{ path, method:
    RequestMethod.POST }`` (or the enum's number) -> ``["POST"]``; ``[]`` (any method) for
    ``RequestMethod.ALL``, a string path, or a method the file cannot know (a variable)."""
    node = unwrap(node) or node
    value = jf.object_pairs(node).get("method") if node.type == "object" else None
    if value is None:
        return []
    text = jf.text(unwrap(value) or value).strip()
    if text.isdigit():
        text = _REQUEST_METHODS[int(text)] if int(text) < len(_REQUEST_METHODS) else ""
    name = text.rpartition(".")[2]
    return [name] if name in _REQUEST_METHODS and name != "ALL" else []


def _local_class(jf: JsFile, name: str) -> bool:
    return any(d.qualname == name and d.kind in TYPE_KINDS for d in jf.out.definitions)


def _applied(jf: JsFile, chain: Node) -> list[Node]:
    """The arguments of the ``apply(...)`` a ``forRoutes`` chain starts from (through ``exclude``)."""
    node: Node | None = chain
    for _ in range(8):
        if node is None or node.type != "call_expression":
            return []
        fn = node.child_by_field_name("function")
        if fn is None or fn.type != "member_expression":
            return []
        prop = jf.text(fn.child_by_field_name("property"))
        if prop == "apply":
            return arguments(node.child_by_field_name("arguments"))
        if prop != "exclude":
            return []
        node = fn.child_by_field_name("object")
    return []


def _middleware_path(jf: JsFile, node: Node) -> Template | None:
    """The path prefix a ``forRoutes`` argument gives: a string, ``{ path }``; ``None`` for a
    controller class or anything else."""
    node = unwrap(node) or node
    if node.type == "object":
        value = jf.object_pairs(node).get("path")
        return _middleware_path(jf, value) if value is not None else None
    if node.type not in ("string", "template_string"):
        return None
    tpl = jf.template(node)
    text = tpl.literal()
    if text is not None:
        for tail in ("(.*)", "*"):
            text = text.removesuffix(tail)
        return join_paths(Template.of(text)) if text.strip("/") else Template()
    return join_paths(tpl)


def decorated_class(decorator: Node) -> Node | None:
    """The class a class decorator is written on (directly or on its ``export`` statement)."""
    parent = decorator.parent
    if parent is None:
        return None
    if parent.type in _CLASSES:
        return parent
    if parent.type == "export_statement":
        decl = parent.child_by_field_name("declaration") or parent.child_by_field_name("value")
        return decl if decl is not None and decl.type in _CLASSES else None
    return None


def decorated_method(decorator: Node) -> Node | None:
    """The method a member decorator is written on: its parent in JavaScript; in TypeScript the next
    member of the class body that is not a decorator or a comment."""
    parent = decorator.parent
    if parent is None:
        return None
    if parent.type == "method_definition":
        return parent
    if parent.type != "class_body":
        return None
    n = decorator.next_named_sibling
    while n is not None and n.type in ("decorator", "comment"):
        n = n.next_named_sibling
    return n if n is not None and n.type == "method_definition" else None


def _paths(jf: JsFile, args: Node, object_key: str | None) -> list[Template]:
    """The path templates a decorator's first argument gives (``[Template()]`` when none)."""
    given = arguments(args)
    if not given:
        return [Template()]
    return _values(jf, given[0], object_key) or [Template()]


def _values(jf: JsFile, node: Node, object_key: str | None) -> list[Template]:
    node = unwrap(node) or node
    if node.type == "array":
        out: list[Template] = []
        for element in node.named_children:
            out.extend(_values(jf, element, None))
        return out
    if node.type == "object":
        value = jf.object_pairs(node).get(object_key) if object_key else None
        return _values(jf, value, None) if value is not None else [Template()]
    return [jf.template(node)]
