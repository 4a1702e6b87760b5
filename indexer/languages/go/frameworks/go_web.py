"""Go HTTP routes (``net/http``, gin, echo, chi, gorilla/mux, Fiber) and clients (``net/http``, resty).

Routers are found per file and their prefixes computed in the file (framework in ``Route.framework``):

* ``net/http``: ``http.HandleFunc`` / ``http.Handle`` (the default mux) and the same calls on a
  ``http.NewServeMux()``; a Go 1.22 pattern ``"POST /items/{id}"`` gives the method, a pattern
  without one any method (``["*"]``); a mux handled behind ``http.StripPrefix("/api", sub)`` serves
  ``sub``'s routes under ``/api`` (``_Routers._stripped``).
* gin: ``gin.Default()`` / ``gin.New()``; ``X.GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|Any(path,
  ...handlers)`` (the last handler handles, the ones before are ``middleware`` wrappers),
  ``X.Handle("GET", path, ...)``, ``g := X.Group("/v1", ...)`` (prefix joined as gin's
  ``joinPaths`` does); middleware of ``X.Use(mw...)`` and of ``X.Group(path, mw...)`` runs before
  every route registered on that router (or a group made from it) afterwards, before the route's own.
  ``X.Use(mw...)`` returns the router, so ``auth := r.Group("/").Use(mw)`` is a router running ``mw``,
  and a route may be registered on such an expression itself (``r.Group("/admin").Use(mw).GET(...)``).
* echo: ``echo.New()``; ``X.GET|...|Any(path, handler, ...middleware)``, ``X.Match([]string{...},
  path, h)``, ``g := X.Group("/api")``.
* chi: ``chi.NewRouter()`` / ``chi.NewMux()``; ``X.Get|Post|Put|Delete|Patch|Head|Options(path, h)``,
  ``X.Method("GET", path, h)`` / ``MethodFunc``, ``X.Handle|HandleFunc(path, h)`` (any method);
  ``X.Route("/p", func(r chi.Router) {...})`` (``r`` is a router under ``/p``), ``X.Group(func(r
  chi.Router) {...})`` and ``X.Mount("/p", sub)`` of a router of the file; ``X.With(mw...)`` is ``X``
  (``r.With(paginate).Get("/", list)``); middleware of ``X.Use(mw...)`` and ``X.With(mw...)`` as gin's, inherited
  by a ``Route`` / ``Group`` function's router and by a router a function returns mounted there
  (``X.Mount("/admin", adminRouter())``, also through ``X.With(mw).Mount``).
* gorilla/mux: ``mux.NewRouter()``; ``X.HandleFunc|Handle(path, h)`` with ``.Methods("GET",
  http.MethodPost)`` after it; ``s := X.PathPrefix("/p").Subrouter()``; ``{id:[0-9]+}`` is ``{id}``.
* Fiber (``github.com/gofiber/fiber``, v2 and v3): ``fiber.New()``; ``X.Get|Post|Put|Delete|Patch|Head|
  Options|Connect|Trace|All(path, ...handlers)`` (as gin: the last handler handles, the ones before are
  ``middleware``), ``X.Add(method, path, ...)`` (v3: ``[]string{...}``), ``g := X.Group("/v1", mw...)``
  (joined as Fiber's ``getGroupPath``: the prefix's trailing ``/`` dropped, a ``/`` added before a path
  without one) and ``X.Route("/p", func(r fiber.Router) {...})``; middleware of ``X.Use(mw...)`` and
  ``Group`` as gin's. Fiber routes are not strict by default, so a route's trailing ``/`` is dropped
  (``/tasks/`` is ``/tasks``).

A router is a name assigned one of those (``r := mux.NewRouter()``, ``s.router = gin.New()``) or a
parameter or field declared with a router type (``*gin.Engine``, ``*gin.RouterGroup``, ``*echo.Echo``,
``*echo.Group``, ``chi.Router``, ``*chi.Mux``, ``*mux.Router``, ``*http.ServeMux``). Paths are absolute
(``router`` ``None``), except below a router a function receives as a parameter (``func
addUserRoutes(rg *gin.RouterGroup)``): that router is ``Router`` ``addUserRoutes#0`` (the function's
qualname, ``#``, the parameter's position), its routes' paths are relative to it, and a call passing a
router of the file (``addUserRoutes(v1)``, in any file of the repository) is a :class:`~indexer.model.Mount`
of that function's parameter (``argument`` 0) under the router passed, with its prefix: the linker
resolves the callee and chains the prefixes (``/v1`` + ``/users``), as it does for mounted routers of
other frameworks. A ``_test.go`` file hands routers to no function (a test's own engine mounts the
application's routes under prefixes of its own). A handler named by
expression is a ``handler_ref`` resolved from the enclosing function; a function literal becomes a
definition of its own named after the route (``GET /x``). A handler wrapped in one conversion
(``http.HandlerFunc(h)``) is ``h``.

Clients (``HttpCall``, framework ``net/http`` / ``resty``): ``http.Get|Head|Post|PostForm(url, ...)``,
``http.NewRequest(method, url, body)`` / ``NewRequestWithContext(ctx, method, url, body)``, and a
resty request ``X.R()....Get|Post|Put|Delete|Patch|Head|Options(url)``; URLs as templates (literals,
``+``, ``fmt.Sprintf``); a URL with no literal part and no constant is left out.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages import base
from indexer.languages.go.frameworks.common import HTTP_METHOD_CONSTANTS, GoFile, go_file
from indexer.model import FileExtraction, HttpCall, Mount, Route, Router, Template, Wrapper, WrapperRef
from indexer.symbols import handler_name

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("go",)

_IMPORTS = {
    "net/http": "net/http",
    "github.com/gin-gonic/gin": "gin",
    "github.com/labstack/echo": "echo",
    "github.com/go-chi/chi": "chi",
    "github.com/gorilla/mux": "gorilla",
    "github.com/gofiber/fiber": "fiber",
}
_CONSTRUCTORS = {
    "net/http": ("NewServeMux",), "gin": ("Default", "New"), "echo": ("New",), "chi": ("NewRouter", "NewMux"),
    "gorilla": ("NewRouter",), "fiber": ("New",),
}
_ROUTER_TYPES = {
    "net/http": ("ServeMux",), "gin": ("Engine", "RouterGroup", "IRouter", "IRoutes"), "echo": ("Echo", "Group"),
    "chi": ("Router", "Mux"), "gorilla": ("Router",), "fiber": ("App", "Router", "Group"),
}
_VERBS = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")
_CHI_VERBS = {v.capitalize(): v for v in _VERBS}
_FIBER_VERBS = {v.capitalize(): v for v in (*_VERBS, "CONNECT", "TRACE")}
_CHAINED = frozenset({"gin", "fiber"})
"""Routers whose route takes a chain of handlers, the last one handling (the ones before it, and those
of ``Use`` / ``Group(path, mw...)``, are middleware)."""
_MIDDLEWARE = frozenset({*_CHAINED, "chi"})
"""Routers whose ``Use(mw...)`` middleware is tracked: it wraps the routes registered on the router after it
(chi requires every ``Use`` before the routes), on a router made from it, and (chi, Fiber) in a ``Route`` /
``Group`` function's router."""
_PATTERN_METHOD = re.compile(r"^([A-Z]+)\s+(/.*)$")
_REGEX_PARAM = re.compile(r"\{(\w+):[^{}]*(?:\{[^{}]*\}[^{}]*)*\}")
_PACKAGE_VERBS = frozenset((*_VERBS, "CONNECT", "TRACE", "PROPFIND", "REPORT"))
"""Verbs a package may export as constants named as the verb (echo's ``echo.POST = http.MethodPost``)."""
_CLIENT_VERBS = {"Get": "GET", "Head": "HEAD", "Post": "POST", "PostForm": "POST"}
_RESTY_VERBS = {v.capitalize(): v for v in _VERBS}


_FUNCS = ("function_declaration", "method_declaration", "func_literal")
_NAMED_FUNCS = ("function_declaration", "method_declaration")

_Found = tuple[str, Template, "str | None"]
"""What a router name means: (framework, prefix, origin): ``origin`` the router key of the function
parameter the router was made from (``addUserRoutes#0``), the prefix relative to it; ``None`` when the
prefix is absolute."""


class _Routers:
    """Router names of the file, per function scope -> (framework, prefix, origin) (:data:`_Found`)."""

    def __init__(self, gf: GoFile) -> None:
        self.gf = gf
        self.by_name: dict[tuple[int | None, str], _Found] = {}
        self._returns: dict[int, set[str]] = {}  # named function's start -> the names it returns
        self.names: frozenset[str] = frozenset()
        """Every name bound to a router in some scope (after :meth:`collect`): a quick test before :meth:`get`."""
        self.handing = not gf.out.path.endswith("_test.go")
        """Whether calls of this file hand routers on (a ``_test.go`` engine's prefixes are not the application's)."""
        self.results: dict[tuple[int | None, str], Node] = {}
        self._funcs = base.Innermost(gf.root, _FUNCS)  # the function (literal) around a node
        self._scopes: dict[int, list[int | None]] = {}  # function node id -> scopes() of its body
        """Names assigned the result of a call that makes no router (``apiMux := api.ServeMux()``),
        per function scope: what a function of the repository may return as a router."""
        self.fields: set[str] = set()
        """Struct fields declared with a router type (``engine *gin.Engine``): ``x.engine`` is one."""
        # gin middleware a router runs before its routes' handlers: (where it was added, expression)
        self.middleware: dict[tuple[int | None, str], list[tuple[int, str]]] = {}
        self.fw_of_local = {local: fw for local, path in gf.imports.items() for p, fw in _IMPORTS.items()
                            if path == p or path.startswith(p + "/")}
        self.http_local = gf.has_import("net/http")
        """The name the file imports ``net/http`` as (``http``), ``None`` when it does not."""

    def scopes(self, node: Node) -> list[int | None]:
        """Start bytes of the functions (literals too) around ``node``, innermost first, then ``None``
        (the file: fields and package-level names). Each function's list is kept: a walk out of every
        link of a chain by ``Node.parent`` (each step costing the node's depth) took 17.7 s for 800."""
        chain: list[Node] = []
        fn = self._funcs.of(node)
        while fn is not None and fn.id not in self._scopes:
            chain.append(fn)
            fn = self._funcs.of(fn)
        out = self._scopes[fn.id] if fn is not None else [None]
        for f in reversed(chain):
            out = self._scopes[f.id] = [f.start_byte, *out]
        return out

    def get(self, node: Node, name: str) -> _Found | None:
        """The router ``name`` means at ``node`` (the innermost scope binding it)."""
        key = self._key(node, name)
        return self.by_name[key] if key is not None else None

    def _key(self, node: Node, name: str) -> tuple[int | None, str] | None:
        for sc in self.scopes(node):
            if (sc, name) in self.by_name:
                return sc, name
        field = name.rpartition(".")[2]  # s.engine: a struct field declared with a router type
        return (None, field) if "." in name and field in self.fields else None

    def middleware_at(self, node: Node, name: str) -> list[str]:
        """The gin middleware router ``name`` applies to a route registered at ``node``: what its
        ``Use`` calls and the ``Group(path, mw...)`` calls making it added before ``node``."""
        key = self._key(node, name)
        return [expr for at, expr in self.middleware.get(key, ()) if at < node.start_byte] if key else []

    def _use(self, call: Node) -> None:
        """gin ``X.Use(mw...)``, and ``g := X.Group(path, mw...)`` (the parent's middleware so far, then
        its own): handlers that run before every route registered on the router afterwards."""
        gf = self.gf
        sel = gf.selector(call)
        found = self.receiver(call) if sel is not None else None
        if sel is None or found is None or found[0] not in _MIDDLEWARE:
            return
        operand = _operand(call)
        if sel[1] == "Use" and operand is not None and operand.type != "call_expression":
            key = self._key(call, sel[0])
            self.middleware.setdefault(key, []).extend((call.start_byte, e) for e in _wrapper_exprs(gf, gf.args(call)))
        if sel[1] in ("Group", "Use") and call.parent is not None and call.parent.type == "expression_list":
            stmt = call.parent.parent
            left = stmt.child_by_field_name("left") if stmt is not None else None
            if left is None or not left.named_children or stmt.type not in ("short_var_declaration",
                                                                             "assignment_statement"):
                return
            key = self._key(call, gf.expr(left.named_children[0]))
            if key is not None:
                self.middleware[key] = [(call.start_byte, e) for e in self.chain_middleware(call, call)]

    def _inherit(self, call: Node, parent: str, key: tuple[int | None, str]) -> None:
        """The router of a ``Route`` / ``Group`` function (``key``) runs the middleware its parent router
        ``parent`` has at ``call``."""
        inherited = self.middleware_at(call, parent)
        if inherited:
            self.middleware[key] = [(call.start_byte, e) for e in inherited]

    def receiver(self, call: Node) -> _Found | None:
        """The router ``call`` (``recv.Name(...)``) is made on: a name bound to one, or an expression
        making one (``r.Group("/v1")`` in ``r.Group("/v1").GET(...)``, ``r.With(mw)``); else ``None``."""
        operand = _operand(call)
        if operand is None:
            return None
        if operand.type == "call_expression":
            return self.made(operand)
        return self.get(call, self.gf.expr(operand))

    def chain_middleware(self, value: Node, at: Node) -> list[str]:
        """The gin / Fiber middleware a router expression ``value`` runs for a route registered at
        ``at``: a name's (``middleware_at``); a group's (``X.Group(path, mw...)``) or a ``X.Use(mw...)``
        result's: ``X``'s, then the call's own, in order."""
        gf = self.gf
        if value.type != "call_expression":
            return self.middleware_at(at, gf.expr(value)) if value.type in ("identifier", "selector_expression") else []
        sel, operand = gf.selector(value), _operand(value)
        if sel is None or operand is None or sel[1] not in ("Group", "Use", "With"):
            return []
        args = gf.args(value)
        own = _wrapper_exprs(gf, args[1:] if sel[1] == "Group" else args)
        inner = self.chain_middleware(operand, at) if operand.type == "call_expression" else \
            self.middleware_at(value, sel[0])
        return [*inner, *own]

    def bind(self, node: Node, name: str, value: _Found) -> None:
        """Bind ``name`` in the innermost function around ``node`` (a field: the file)."""
        self.by_name[(self.scopes(node)[0] if node.type != "field_declaration" else None, name)] = value

    def framework_of_type(self, text: str) -> str | None:
        t = re.sub(r"\s+", "", text).lstrip("*")
        pkg, _, name = t.rpartition(".")
        fw = self.fw_of_local.get(pkg)
        return fw if fw is not None and name in _ROUTER_TYPES.get(fw, ()) else None

    def made(self, value: Node) -> _Found | None:
        """What a value assigned to a name makes: a new router, a group of a known one."""
        gf = self.gf
        if value.type != "call_expression":
            return None
        sel = gf.selector(value)
        if sel is None:
            return None
        recv, name = sel
        fw = self.fw_of_local.get(recv)
        if fw is not None and name in _CONSTRUCTORS.get(fw, ()):
            return fw, Template(), None
        if name == "Subrouter":  # gorilla: X.PathPrefix("/p").Subrouter()
            inner = value.child_by_field_name("function").child_by_field_name("operand")
            if inner is not None and inner.type == "call_expression":
                isel = gf.selector(inner)
                found = self.get(value, isel[0]) if isel is not None and isel[1] == "PathPrefix" else None
                if found is not None:
                    fw0, prefix, origin = found
                    args = gf.args(inner)
                    return fw0, prefix + (gf.template(args[0]) or Template()) if args else prefix, origin
            return None
        found = self.receiver(value) if name in ("Group", "Use", "With") else None
        if found is not None:
            fw0, prefix, origin = found
            args = gf.args(value)
            if name == "Group" and fw0 in ("gin", "echo", "fiber") and args:
                return fw0, _joined(fw0, prefix, _path(gf, args[0]) or Template()), origin
            if (name == "Use" and fw0 in _CHAINED) or (name == "With" and fw0 == "chi"):
                return found  # gin / Fiber Use and chi With return the router (with that middleware)
        return None

    def collect(self) -> None:
        gf = self.gf
        stack = [gf.root]
        order: list[Node] = []
        while stack:
            n = stack.pop()
            order.append(n)
            stack.extend(reversed(n.named_children))
        for n in order:  # what each named function returns by name, for returned_key
            if n.type == "return_statement" and n.named_children:
                values = n.named_children[0]
                first = values.named_children[0] if values.type == "expression_list" and values.named_children else values
                func = self._funcs.of(n)
                if func is not None and func.type in _NAMED_FUNCS and first.type == "identifier":
                    self._returns.setdefault(func.start_byte, set()).add(gf.text(first))
        for n in order:
            if n.type in ("parameter_declaration", "field_declaration"):
                tnode = n.child_by_field_name("type")
                fw = self.framework_of_type(gf.text(tnode)) if tnode is not None else None
                if fw is not None:
                    key = self.scopes(n)[0] if n.type == "parameter_declaration" else None
                    for nm in n.children_by_field_name("name"):  # a chi Route's parameter keeps its prefix
                        self.by_name.setdefault((key, gf.text(nm)), (fw, Template(), self.parameter_key(n, nm)))
                        if n.type == "field_declaration":
                            self.fields.add(gf.text(nm))
            elif n.type in ("short_var_declaration", "assignment_statement", "var_spec"):
                if n.type == "var_spec":  # var router = gin.Default(), at package level too
                    names, value = n.children_by_field_name("name"), n.child_by_field_name("value")
                else:
                    left, value = n.child_by_field_name("left"), n.child_by_field_name("right")
                    names = left.named_children if left is not None else []
                for name, right in zip(names, value.named_children if value is not None else ()):
                    made = self.made(right)
                    if made is None and right.type == "call_expression" and name.type == "identifier":
                        self.results[(self.scopes(n)[0], gf.text(name))] = right  # apiMux := api.ServeMux()
                    if made is not None and made[2] is None:  # a router the function returns: relative to its mount
                        made = (made[0], made[1], self.returned_key(n, gf.expr(name)))
                    if made is not None:
                        self.bind(n, gf.expr(name), made)
            elif n.type == "call_expression":
                self._scoped(n)
                self._use(n)
                self._stripped(n)
        self.names = frozenset(name for _, name in self.by_name)

    def _stripped(self, call: Node) -> None:
        """``X.Handle("/api/", http.StripPrefix("/api", sub))``: router ``sub`` sees the paths below
        ``/api``, so its routes are under that prefix. On a ``net/http`` mux (``X`` one, or ``http``
        for the default mux) the prefix is ``X``'s own (what was stripped before it) plus the stripped
        one; on a chi / gorilla router, which match the whole path, the stripped prefix alone, and
        only on a router with no prefix of its own. ``sub`` is a router of the file (its prefix is
        re-bound) or a call of a function returning one (``api.Routes()``: a
        :class:`~indexer.model.Mount` of ``<callee>#return``); a ``StripPrefix`` inside another adds
        its prefix after the outer one's. Anything else handled (a file server,
        a handler) mounts nothing."""
        gf = self.gf
        sel = gf.selector(call)
        if sel is None or sel[1] != "Handle":
            return
        http_local = self.http_local
        found = ("net/http", Template(), None) if http_local is not None and sel[0] == http_local else \
            self.get(call, sel[0])
        args = gf.args(call)
        if found is None or len(args) != 2 or args[1].type != "call_expression":
            return
        inner = gf.selector(args[1])
        inner_args = gf.args(args[1])
        if inner is None or inner != (http_local, "StripPrefix") or len(inner_args) != 2:
            return
        stripped = gf.template(inner_args[0])
        child = inner_args[1]
        while stripped is not None and child.type == "call_expression" and gf.selector(child) == inner:
            # StripPrefix("/api", StripPrefix("/v1", sub)): the outer strips first, sub sees the rest
            inner_args = gf.args(child)
            if len(inner_args) != 2:
                return
            more = gf.template(inner_args[0])
            stripped = stripped + more if more is not None else None
            child = inner_args[1]
        fw, prefix, origin = found
        if stripped is None or (fw != "net/http" and (prefix.parts or origin is not None)):
            return
        prefix = prefix + stripped if fw == "net/http" else stripped
        key = self._key(call, gf.expr(child)) if child.type in ("identifier", "selector_expression") else None
        if key is not None:
            self.by_name[key] = (self.by_name[key][0] if key in self.by_name else fw, prefix, origin)
            return
        if child.type == "identifier":  # apiMux := api.ServeMux(); ... StripPrefix("/api", apiMux)
            child = next((self.results[(sc, gf.text(child))] for sc in self.scopes(call)
                          if (sc, gf.text(child)) in self.results), child)
        if child.type == "call_expression" and self.made(child) is None and self.handing:
            fn = child.child_by_field_name("function")
            if fn is not None and fn.type in ("identifier", "selector_expression") and not gf.standard_library(fn):
                line, col = gf.pos(call)
                gf.out.mounts.append(Mount(fw, origin or "", _callee(gf, fn), prefix, line, col, argument=-1))

    def returned_key(self, node: Node, name: str) -> str | None:
        """``<qualname>#return`` when the named function around ``node`` returns the router ``name``
        (``r := chi.NewRouter(); ...; return r``, mounted by the caller: ``r.Mount("/users",
        users.Routes())``); else ``None``."""
        func = self._funcs.of(node)
        if func is None or func.type not in _NAMED_FUNCS or name not in self._returns.get(func.start_byte, ()):
            return None
        owner = self.gf.owner(func.child_by_field_name("name") or func)
        return f"{owner}#return" if owner is not None else None

    def parameter_key(self, decl: Node, name: Node) -> str | None:
        """The router key of parameter ``name`` (declared by ``decl``) of a named function or method:
        ``<qualname>#<position>`` (the receiver not counted); ``None`` for a field or a function
        literal's parameter."""
        plist = decl.parent
        func = plist.parent if plist is not None else None
        if decl.type != "parameter_declaration" or func is None or func.type not in _NAMED_FUNCS or \
                func.child_by_field_name("parameters") != plist:
            return None
        owner = self.gf.owner(func.child_by_field_name("name") or func)
        if owner is None:
            return None
        position = 0
        for p in plist.named_children:
            names = p.children_by_field_name("name")
            for nm in names or [p]:
                if nm == name:
                    return f"{owner}#{position}"
                position += 1
        return None

    def _scoped(self, call: Node) -> None:
        """chi ``X.Route("/p", func(r chi.Router) {...})`` / ``X.Group(func(r ...) {...})`` /
        ``X.Mount("/p", sub)``."""
        gf = self.gf
        sel = gf.selector(call)
        found = self.get(call, sel[0]) if sel is not None else None
        if found is None and sel is not None and sel[1] == "Mount":
            found = self.receiver(call)  # r.With(mw).Mount("/p", sub)
        if sel is None or found is None:
            return
        fw, prefix, origin = found
        args = gf.args(call)
        if sel[1] in ("Route", "Group") and args and args[-1].type == "func_literal" and fw != "fiber":
            sub = prefix + ((gf.template(args[0]) or Template()) if sel[1] == "Route" and len(args) == 2 else Template())
            params = args[-1].child_by_field_name("parameters")
            for p in params.named_children if params is not None else ():
                for nm in p.children_by_field_name("name"):
                    self.by_name[(args[-1].start_byte, gf.text(nm))] = (fw, sub, origin)
                    self._inherit(call, sel[0], (args[-1].start_byte, gf.text(nm)))
        elif fw == "fiber" and sel[1] == "Route" and len(args) >= 2 and args[1].type == "func_literal":
            sub = _joined(fw, prefix, gf.template(args[0]) or Template())  # app.Route("/p", func(r fiber.Router) {...})
            params = args[1].child_by_field_name("parameters")
            for p in params.named_children if params is not None else ():
                for nm in p.children_by_field_name("name"):
                    self.by_name[(args[1].start_byte, gf.text(nm))] = (fw, sub, origin)
                    self._inherit(call, sel[0], (args[1].start_byte, gf.text(nm)))
        elif sel[1] == "Mount" and len(args) == 2:
            child = self.get(call, gf.expr(args[1]))
            if child is not None:
                self.bind(call, gf.expr(args[1]), (child[0], prefix + (gf.template(args[0]) or Template()), origin))
            elif args[1].type == "call_expression" and self.made(args[1]) is None and self.handing:
                fn = args[1].child_by_field_name("function")  # r.Mount("/users", users.Routes()): what it returns
                if fn is not None and fn.type in ("identifier", "selector_expression"):
                    self._mount_returned(call, fn, fw, prefix + (gf.template(args[0]) or Template()), origin)

    def _mount_returned(self, call: Node, fn: Node, fw: str, prefix: Template, origin: str | None) -> None:
        """chi ``X.Mount("/p", users.Routes())``: the router ``fn`` returns (``<callee>#return``) mounted at
        ``prefix``. When ``X`` runs middleware (its ``Use`` calls, a ``With`` chain) the returned router is
        mounted under a router of this call alone (``<callee>@<line>:<col>#return``), each middleware a
        :class:`~indexer.model.Wrapper` of it, as :func:`_router_arguments` does for a router handed on: chi
        runs a parent's middleware before a mounted router's own."""
        gf = self.gf
        line, col = gf.pos(call)
        callee = _callee(gf, fn)
        middleware = self.chain_middleware(_operand(call), call) if fw in _MIDDLEWARE else []
        if not middleware:
            gf.out.mounts.append(Mount(fw, origin or "", callee, prefix, line, col, argument=-1))
            return
        key = f"{callee}@{line}:{col}#return"
        gf.out.routers.append(Router(fw, key, Template(), line))
        gf.out.mounts.append(Mount(fw, origin or "", key, prefix, line, col))
        gf.out.wrappers.extend(Wrapper(fw, "middleware", None, line, col, owner_ref=m, router=key) for m in middleware)
        gf.out.mounts.append(Mount(fw, key, callee, Template(), line, col, argument=-1))


def _joined(fw: str, prefix: Template, rel: Template) -> Template:
    """``rel`` under a group's ``prefix`` as the framework joins them. gin's ``joinPaths`` is
    ``path.Join(prefix, rel)`` keeping ``rel``'s trailing ``/`` (``/v1`` + ``users`` -> ``/v1/users``,
    ``/`` + ``/stream`` -> ``/stream``, ``/v1`` + ``/`` -> ``/v1/``): one ``/`` at the seam; the other
    routers concatenate (echo's ``g.prefix + path``, chi's and gorilla's prefixes), except Fiber's
    ``getGroupPath`` (``/v1/`` + ``users`` -> ``/v1/users``: the prefix's trailing ``/`` dropped, a ``/``
    put before a path not starting with one; an empty path is the prefix)."""
    if fw == "fiber":
        if not rel.parts:
            return prefix
        head, tail = list(prefix.parts), list(rel.parts)
        if head and head[-1][0] == "lit":
            head[-1] = ("lit", head[-1][1].rstrip("/"))
        if tail[0][0] != "lit" or not tail[0][1].startswith("/"):
            tail.insert(0, ("lit", "/"))
        return Template.merged([*head, *tail])
    if fw != "gin":
        return prefix + rel
    prefix = prefix if prefix.parts else Template.of("/")  # an engine's base path
    if not rel.parts:
        return prefix
    head, tail = list(prefix.parts), list(rel.parts)
    if head[-1][0] == "lit":
        head[-1] = ("lit", head[-1][1].rstrip("/"))
    if tail[0][0] == "lit":
        tail[0] = ("lit", tail[0][1].lstrip("/"))
    ends_slash = rel.parts[-1][0] == "lit" and rel.parts[-1][1].endswith("/")
    if tail == [("lit", "")]:
        return Template.merged([*head, ("lit", "/" if ends_slash else "")]) if head != [("lit", "")] else Template.of("/")
    return Template.merged([*head, ("lit", "/"), *tail])


def _untrailed(path: Template) -> Template:
    """``path`` without its trailing ``/`` (not the root ``/``): a Fiber app not ``StrictRouting``
    serves ``/tasks/`` and ``/tasks`` alike and registers the route as ``/tasks``."""
    parts = list(path.parts)
    if parts and parts[-1][0] == "lit" and parts[-1][1].endswith("/") and path.literal() != "/":
        parts[-1] = ("lit", parts[-1][1].rstrip("/"))
        cut = Template.merged(parts)
        return cut if cut.parts else Template.of("/")
    return path


def _path(gf: GoFile, node: Node) -> Template | None:
    """A route's path argument; an empty string literal (``api.GET("", h)``: the group's own path)
    is the empty template, not "no path"."""
    if node.type in ("interpreted_string_literal", "raw_string_literal") and gf.text(node) in ('""', "``"):
        return Template()
    return gf.template(node)


def _clean(path: Template) -> Template:
    """gorilla / chi ``{id:[0-9]+}`` -> ``{id}`` in literal pieces."""
    return Template.merged((k, _REGEX_PARAM.sub(r"{\1}", t) if k == "lit" else t) for k, t in path.parts)


def _methods_of(gf: GoFile, nodes: list[Node]) -> list[str]:
    """The HTTP methods ``nodes`` name: ``http.MethodPost``, an imported package's constant named as the
    verb itself (echo's ``echo.POST``), a string literal or constant."""
    out = []
    for n in nodes:
        if n.type == "selector_expression":
            field = gf.text(n.child_by_field_name("field"))
            m = HTTP_METHOD_CONSTANTS.get(field)
            if m is None and field in _PACKAGE_VERBS and gf.text(n.child_by_field_name("operand")) in gf.imports:
                m = field
            if m:
                out.append(m)
        else:
            t = gf.template(n)
            lit = t.literal() if t is not None else None
            if lit:
                out.append(lit.upper())
    return out


def _method(gf: GoFile, node: Node) -> list[str]:
    if node.type == "composite_literal":  # echo Match([]string{"GET", "POST"}, ...)
        body = node.child_by_field_name("body")
        return _methods_of(gf, [c.named_children[0] if c.type == "literal_element" and c.named_children else c
                                for c in (body.named_children if body is not None else [])])
    return _methods_of(gf, [node])


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's routes and HTTP client calls to ``out``."""
    gf = go_file(root, src, out)
    if not gf.has_import(*_IMPORTS, "github.com/go-resty/resty", "gopkg.in/resty"):
        return
    routers = _Routers(gf)
    routers.collect()
    http_local = routers.http_local
    resty = gf.has_import("github.com/go-resty/resty", "gopkg.in/resty")
    declared: set[str] = set()
    for call in list(gf.calls):
        sel = gf.selector(call)
        found = routers.receiver(call) if sel is not None else None
        if found is None and routers.handing:
            _router_arguments(gf, out, call, routers)
        if sel is None:
            continue
        recv, name = sel
        if recv == http_local and recv is not None and name in ("HandleFunc", "Handle"):
            _route(gf, out, call, "net/http", Template(), None, name)
        elif found is not None:
            origin = found[2]
            middleware = routers.chain_middleware(_operand(call), call) if found[0] in _MIDDLEWARE else []
            if _route(gf, out, call, found[0], found[1], recv, name, middleware, origin) \
                    and origin is not None and origin not in declared:
                declared.add(origin)
                out.routers.append(Router(found[0], origin, Template(), gf.pos(call)[0]))
        if http_local is not None and recv == http_local:
            _client(gf, out, call, name)
        elif resty is not None and name in _RESTY_VERBS and (recv.endswith(".R()") or ".R()." in recv):
            args = gf.args(call)
            url = gf.template(args[0], calls=True) if args else None
            if url is not None:
                line, col = gf.pos(call)
                out.http_calls.append(HttpCall("resty", _RESTY_VERBS[name], url, gf.owner(call), line, col))


def _operand(call: Node) -> Node | None:
    """``recv`` of a call ``recv.Name(...)``, else ``None``."""
    fn = call.child_by_field_name("function")
    return fn.child_by_field_name("operand") if fn is not None and fn.type == "selector_expression" else None


def _callee(gf: GoFile, fn: Node) -> str:
    """A callee as the resolver reads it: ``users.Register``, ``s.routes``; a method called on a
    composite literal by its type (``usersResource{}.Routes`` -> ``usersResource.Routes``)."""
    operand = fn.child_by_field_name("operand") if fn.type == "selector_expression" else None
    if operand is not None and operand.type == "composite_literal" and operand.child_by_field_name("type") is not None:
        return f"{gf.expr(operand.child_by_field_name('type'))}.{gf.text(fn.child_by_field_name('field'))}"
    return gf.expr(fn)


def _router_arguments(gf: GoFile, out: FileExtraction, call: Node, routers: _Routers) -> None:
    """A call handing a router of the file to a function (``addUserRoutes(v1)``,
    ``routes.Register(api)``, ``s.routes(r)``, ``users.Register(v1.Group("/users"))``): a
    :class:`~indexer.model.Mount` per router argument (``child`` the callee as written, ``argument``
    its position, ``parent`` the router's origin, ``""`` for an absolute one; ``prefix`` its prefix
    relative to that). When the router runs gin middleware (``Use`` before the call, ``Group(path,
    mw...)``), the router of this call alone (``<callee>@<line>:<col>#<position>``) is mounted at that
    prefix, the function's parameter under it, and each middleware is a
    :class:`~indexer.model.Wrapper` of it: it wraps the routes the function registers, under this
    call's prefix only."""
    fn = call.child_by_field_name("function")
    if fn is None or fn.type not in ("identifier", "selector_expression") or gf.standard_library(fn):
        return
    line, col = gf.pos(call)
    for i, arg in enumerate(gf.args(call)):
        if arg.type in ("identifier", "selector_expression"):
            name = gf.expr(arg)
            if name not in routers.names and name.rpartition(".")[2] not in routers.fields:
                continue
            found = routers.get(call, name)
            middleware = routers.middleware_at(call, name) if found is not None else []
        elif arg.type == "call_expression":  # users.Register(v1.Group("/users")): a group made in the argument
            found = routers.made(arg)
            middleware = routers.chain_middleware(arg, call) if found is not None and found[0] in _MIDDLEWARE else []
        else:
            continue
        if found is None:
            continue
        parent = found[2] or ""
        if middleware:  # the gin middleware the router runs: on a router of this call alone, mounted there
            parent = f"{_callee(gf, fn)}@{line}:{col}#{i}"
            out.routers.append(Router(found[0], parent, Template(), line))
            out.mounts.append(Mount(found[0], found[2] or "", parent, found[1], line, col))
            out.wrappers.extend(Wrapper(found[0], "middleware", None, line, col, owner_ref=m, router=parent)
                                for m in middleware)
        out.mounts.append(Mount(found[0], parent, _callee(gf, fn), Template() if middleware else found[1], line, col,
                                argument=i))


def _client(gf: GoFile, out: FileExtraction, call: Node, name: str) -> None:
    """A ``net/http`` request (see the module docstring). A parameter of the enclosing function in the
    URL is a ``ref`` piece and one given as ``NewRequest``'s method is :attr:`HttpCall.method_param`
    (method ``*``); a URL held in a local given one value (``url := c.base + path``) is that value.
    The function is then a client template whose callers choose them
    (:mod:`indexer.frameworks.client_chains`, the calls :mod:`.go_http_wrappers` reports)."""
    args = gf.args(call)
    method: str | None = None
    method_param: str | None = None
    url_node: Node | None = None
    owner = gf.owner(call)
    params = gf.parameters(owner)
    if name in _CLIENT_VERBS and args:
        method, url_node = _CLIENT_VERBS[name], args[0]
    elif name in ("NewRequest", "NewRequestWithContext"):
        i = 1 if name == "NewRequestWithContext" else 0
        if len(args) > i + 1:
            ms = _methods_of(gf, [args[i]])
            method, url_node = (ms[0] if ms else "*"), args[i + 1]
            if not ms and args[i].type == "identifier" and gf.text(args[i]) in params:
                method_param = gf.text(args[i])
    if method is None or url_node is None:
        return
    if url_node.type == "identifier" and gf.text(url_node) not in params:  # `url := c.base + path`
        url_node = gf.single_value(url_node) or url_node
    url = gf.template(url_node, params, calls=True)
    if url is None:
        return
    line, col = gf.pos(call)
    out.http_calls.append(HttpCall("net/http", method, url, owner, line, col, method_param=method_param))


def _route(gf: GoFile, out: FileExtraction, call: Node, fw: str, prefix: Template, recv: str | None,
           name: str, inherited: list[str] | None = None, origin: str | None = None) -> bool:
    """Append the route registered by ``call`` on a router (``fw``, ``prefix``; ``origin`` the
    parameter router its prefix is relative to); whether one was."""
    args = gf.args(call)
    methods: list[str]
    handlers: list[Node]
    if fw in ("net/http", "gorilla") and name in ("HandleFunc", "Handle") and len(args) == 2:
        path = gf.template(args[0])
        methods, handlers = ["*"], [args[1]]
        lit = path.literal() if path is not None else None
        m = _PATTERN_METHOD.match(lit or "")
        if m and fw == "net/http":
            methods, path = [m.group(1)], Template.of(m.group(2))
        parent = call.parent
        if fw == "gorilla" and parent is not None and parent.type == "selector_expression" and \
                gf.text(parent.child_by_field_name("field")) == "Methods" and parent.parent is not None and \
                parent.parent.type == "call_expression":
            methods = _methods_of(gf, gf.args(parent.parent)) or ["*"]
    elif fw in ("gin", "echo") and (name in _VERBS or name == "Any") and len(args) >= 2:
        path, methods = _path(gf, args[0]), ["*"] if name == "Any" else [name]
        handlers = list(reversed(args[1:])) if fw == "gin" else args[1:]
    elif fw == "fiber" and (name in _FIBER_VERBS or name == "All") and len(args) >= 2:
        path, methods = _path(gf, args[0]), ["*"] if name == "All" else [_FIBER_VERBS[name]]
        handlers = list(reversed(args[1:]))
    elif fw == "fiber" and name == "Add" and len(args) >= 3:  # v2 Add("GET", p, h...); v3 Add([]string{...}, p, h...)
        path, methods, handlers = _path(gf, args[1]), _method(gf, args[0]), list(reversed(args[2:]))
    elif fw == "gin" and name == "Handle" and len(args) >= 3:
        path, methods, handlers = _path(gf, args[1]), _method(gf, args[0]), list(reversed(args[2:]))
    elif fw == "echo" and name == "Match" and len(args) >= 3:
        path, methods, handlers = gf.template(args[1]), _method(gf, args[0]), args[2:]
    elif fw == "echo" and name == "Add" and len(args) >= 3:  # e.Add(echo.POST, "/p", h, middleware...)
        path, methods, handlers = _path(gf, args[1]), _methods_of(gf, [args[0]]), args[2:]
    elif fw == "chi" and name in _CHI_VERBS and len(args) == 2:
        path, methods, handlers = gf.template(args[0]), [_CHI_VERBS[name]], [args[1]]
    elif fw == "chi" and name in ("Method", "MethodFunc") and len(args) == 3:
        path, methods, handlers = gf.template(args[1]), _method(gf, args[0]), [args[2]]
    elif fw == "chi" and name in ("Handle", "HandleFunc") and len(args) == 2:
        path, methods, handlers = gf.template(args[0]), ["*"], [args[1]]
    else:
        return False
    if path is None or not methods:
        return False
    full = _clean(_joined(fw, prefix, path))
    if fw == "fiber":
        full = _untrailed(full)
    line, col = gf.pos(call)
    scope = gf.owner(call)
    handler, handler_ref = _handler(gf, handlers[0], methods, full, scope)
    if handler is None and handler_ref is None:
        return False
    own = _wrapper_exprs(gf, list(reversed(handlers[1:])) if fw in _CHAINED else handlers[1:])
    wrappers = [WrapperRef("middleware", e) for e in [*(inherited or ()), *own]]
    out.routes.append(Route(fw, methods, full, handler, line, col, handler_ref=handler_ref, wrappers=wrappers,
                            scope=scope if handler_ref is not None else None, router=origin))
    return True


def _wrapper_exprs(gf: GoFile, nodes: list[Node]) -> list[str]:
    """The functions middleware arguments name: ``auth`` / ``mw.Auth`` as written, a factory's
    function for a call (gin's ``auth()``, echo's ``middleware.JWT(k)``); other arguments skipped."""
    out = []
    for w in nodes:
        if w.type in ("identifier", "selector_expression"):
            out.append(gf.expr(w))
        elif w.type == "call_expression":
            fn = w.child_by_field_name("function")
            if fn is not None and fn.type in ("identifier", "selector_expression"):
                out.append(gf.expr(fn))
    return out


def _handler(gf: GoFile, node: Node, methods: list[str], path: Template, scope: str | None
             ) -> tuple[str | None, str | None]:
    if node.type == "func_literal":
        return gf.inline_function(node, handler_name(methods, path), scope), None
    if node.type == "call_expression":  # http.HandlerFunc(h), a conversion around the handler
        args = gf.args(node)
        if len(args) == 1 and args[0].type in ("identifier", "selector_expression", "func_literal"):
            return _handler(gf, args[0], methods, path, scope)
        return None, None
    if node.type in ("identifier", "selector_expression"):
        return None, gf.expr(node)
    return None, None
