"""Spring cross-cutting code -> :class:`~indexer.model.Wrapper` / :class:`~indexer.model.WrapperRef`
(framework ``spring``): what runs around the handlers of a Spring application.

* **Filter beans** (kind ``filter``, app-wide, owner the class): a class annotated ``@Component`` /
  ``@Service`` / ``@Named`` / ``@Configuration`` that extends or implements a servlet filter type
  (:data:`FILTER_TYPES`: ``OncePerRequestFilter``, ``GenericFilterBean``, ``Filter``, WebFlux
  ``WebFilter``, ...) or defines
  ``doFilter`` / ``doFilterInternal`` (a filter whose filter base lies in another file). Spring Boot
  registers every such bean for every request.
* **``@Bean`` filters**: a ``@Bean`` method returning a filter type (a name ending in ``Filter``)
  registers what it returns: ``owner_ref`` the ``new X(...)`` it returns, else the return type. A
  ``@Bean`` returning ``FilterRegistrationBean<X>`` registers the filter given to its constructor or
  ``setFilter(...)`` (else ``X``), limited to each ``addUrlPatterns`` / ``setUrlPatterns`` pattern
  (``/api/*``), one wrapper per pattern.
* **Spring Security**: ``http.addFilterBefore(f, X.class)`` / ``addFilterAfter`` / ``addFilterAt`` /
  ``addFilter(f)``: ``owner_ref`` the filter expression (a field or parameter ``jwtFilter``, ``new
  JwtFilter(...)``, a bean method call ``jwtFilter()``), resolved by the linker where it is written.
* **Interceptors** (kind ``interceptor``): ``registry.addInterceptor(i)`` with each pattern of the
  ``.addPathPatterns(...)`` chained to it (``/api/**``), else for every path.
* **Controller advice**: methods of a ``@ControllerAdvice`` / ``@RestControllerAdvice`` class
  annotated ``@ExceptionHandler`` (kind ``error_handler``) or ``@ModelAttribute`` / ``@InitBinder``
  (kind ``hook``), app-wide, owner the method.
* **GraphQL error handlers** (kind ``error_handler``, framework :data:`GRAPHQL_ERRORS`, app-wide): the
  methods a bean implementing graphql-java's ``DataFetcherExceptionHandler`` (DGS's way: ``onException`` /
  ``handleException``) or Spring for GraphQL's ``DataFetcherExceptionResolver`` (``resolveException``) /
  ``DataFetcherExceptionResolverAdapter`` (``resolveToSingleError`` / ``resolveToMultipleErrors``) runs, and an
  advice's ``@GraphQlExceptionHandler`` methods. They handle the GraphQL endpoints' errors only, and an
  advice's ``@ExceptionHandler`` / ``@ModelAttribute`` / ``@InitBinder`` methods run for MVC routes only
  (:func:`indexer.frameworks.web_families.wrapper_runs_for`).
* **Inside a controller**: its own ``@ExceptionHandler`` / ``@ModelAttribute`` / ``@InitBinder``
  methods wrap that controller's routes: one :class:`~indexer.model.WrapperRef` per route of the
  class (the routes :mod:`~indexer.languages.java.frameworks.spring_web` found; this detector runs
  after it), ``expr`` the method's name, resolved in the route's scope.

Positions: an annotation-declared fact sits at the annotation's name (``Component``,
``ExceptionHandler``), a call-declared one at the callee name (``addFilterBefore``,
``addInterceptor``, ``addUrlPatterns``), as :mod:`~indexer.languages.java.frameworks.common` says.

Not seen here (over- or under-approximations, said plainly): an advice's ``assignableTypes`` /
``basePackages`` / ``annotations`` limits (the advice is taken as app-wide), interceptors'
``excludePathPatterns`` and a filter's ``shouldNotFilter`` (everything the registration names is
wrapped), Spring Security's ``securityMatcher`` / ``requestMatchers`` per filter chain (every chain's
filters are app-wide), filters registered through ``ServletContext.addFilter`` or ``web.xml``, and
WebFlux ``HandlerFilterFunction`` s of functional routes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.java.frameworks.common import GRAMMAR, Annotation, JavaFile, compact, elements
from indexer.model import FileExtraction, Template, Wrapper, WrapperRef, base_type

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["BEANS", "FILTER_TYPES", "GRAPHQL_ERRORS", "GRAPHQL_ERROR_METHODS", "LANGUAGES", "detect"]

LANGUAGES = ("java",)
FILTER_TYPES = frozenset({
    "Filter", "OncePerRequestFilter", "GenericFilterBean", "HttpFilter", "AbstractAuthenticationProcessingFilter",
    "UsernamePasswordAuthenticationFilter", "BasicAuthenticationFilter", "AuthenticationFilter",
    "AbstractRequestLoggingFilter", "CommonsRequestLoggingFilter", "AbstractPreAuthenticatedProcessingFilter",
    "WebFilter",
})
"""Servlet filter types of the Servlet API and Spring, and WebFlux's ``WebFilter`` (last dotted
segment; a WebFlux filter runs through its ``filter`` method)."""
BEANS = frozenset({"Component", "Service", "Named", "Configuration"})
"""Annotations that make a class a bean Spring Boot registers as a filter when it is one."""
_FILTER_METHODS = frozenset({"doFilter", "doFilterInternal"})
_SECURITY = frozenset({"addFilterBefore", "addFilterAfter", "addFilterAt", "addFilter"})
_REGISTRATION_CALLS = frozenset({*_SECURITY, "addInterceptor", "setFilter", "addUrlPatterns", "setUrlPatterns"})
_ADVICE = frozenset({"ControllerAdvice", "RestControllerAdvice"})
_ADVICE_KINDS = {"ExceptionHandler": "error_handler", "ModelAttribute": "hook", "InitBinder": "hook",
                 "GraphQlExceptionHandler": "error_handler"}
GRAPHQL_ERRORS = "graphql-java"
"""The :attr:`~indexer.model.Wrapper.framework` of a GraphQL error handler (a ``DataFetcherExceptionHandler``
bean, a ``DataFetcherExceptionResolver`` one, an advice's ``@GraphQlExceptionHandler``): it handles what the
data fetchers of every GraphQL endpoint of the application throw, and nothing an MVC controller throws."""
GRAPHQL_ERROR_METHODS = {
    "DataFetcherExceptionHandler": ("onException", "handleException"),
    "DataFetcherExceptionResolver": ("resolveException",),
    "DataFetcherExceptionResolverAdapter": ("resolveToSingleError", "resolveToMultipleErrors"),
}
"""graphql-java's (DGS's) and Spring for GraphQL's exception handler types -> the methods they run on an error."""
_COMMENTS = frozenset({"line_comment", "block_comment"})
_MAX_CHAIN = 16


def _last(text: str | None) -> str:
    """``jakarta.servlet.Filter`` -> ``Filter`` (generics dropped)."""
    return (base_type(text) or "").rsplit(".", 1)[-1]


def _args(arglist: Node | None) -> list[Node]:
    return [c for c in arglist.named_children if c.type not in _COMMENTS] if arglist is not None else []


class _Detector:
    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.root, self.src, self.out = root, src, out
        self.jf = JavaFile.of(root, src, out)

    def _at(self, node: Node, **kw: object) -> Wrapper:
        fields: dict = {"framework": "spring", "kind": "filter", "owner": None, "line": self.src.line(node),
                        "col": self.src.col(node)}
        fields.update(kw)
        return Wrapper(**fields)

    def patterns(self, nodes: list[Node]) -> list[Template]:
        """URL patterns given as strings, string arrays or ``List.of`` / ``Arrays.asList`` arguments."""
        found: list[Template] = []
        for n in nodes:
            if n.type == "method_invocation" and self.src.text(n.child_by_field_name("name")) in ("of", "asList"):
                found += self.patterns(_args(n.child_by_field_name("arguments")))
            elif n.type in ("array_creation_expression",):
                init = n.child_by_field_name("value")
                found += self.patterns(elements(init) if init is not None else [])
            elif n.type in ("element_value_array_initializer", "array_initializer"):
                found += self.patterns(elements(n))
            else:
                found.append(self.jf.template(n))
        return found

    # -- classes -----------------------------------------------------------------------------------

    def filter_beans(self) -> None:
        jf = self.jf
        for decl, anns in jf.annotated(*BEANS):
            if decl.type != "class_declaration":
                continue
            d = jf.definition(decl)
            if d is None:
                continue
            typed = any(_last(t) in FILTER_TYPES for t in [*d.bases, *d.implements])
            defines = any(self.src.text(m.child_by_field_name("name")) in _FILTER_METHODS for m in jf.methods(decl))
            if typed or defines:
                bean = next(a for a in anns if a.name in BEANS)
                self.out.wrappers.append(self._at(bean.name_node, owner=d.qualname))
            runs = {m for t in [*d.bases, *d.implements] for m in GRAPHQL_ERROR_METHODS.get(_last(t), ())}
            for m in jf.methods(decl) if runs else ():
                name = m.child_by_field_name("name")
                q = jf.qualname(m)
                if name is not None and self.src.text(name) in runs and q is not None:
                    bean = next(a for a in anns if a.name in BEANS)
                    self.out.wrappers.append(self._at(bean.name_node, framework=GRAPHQL_ERRORS, kind="error_handler",
                                                      owner=q))

    def bean_methods(self) -> None:
        jf = self.jf
        for decl, anns in jf.annotated("Bean"):
            if decl.type != "method_declaration":
                continue
            d = jf.definition(decl)
            returns = _last(d.return_type if d is not None else None)
            bean = next(a for a in anns if a.name == "Bean")
            if returns == "FilterRegistrationBean":
                self.registration_bean(decl, d.return_type if d is not None else None, bean)
            elif returns.endswith("Filter"):
                ref = self.returned_new(decl) or returns
                self.out.wrappers.append(self._at(bean.name_node, owner_ref=ref))

    def returned_new(self, method: Node) -> str | None:
        """``new X(...)`` when the method's only ``return`` returns one (its text, whitespace dropped)."""
        body = method.child_by_field_name("body")
        found = [c for c in (body.named_children if body is not None else ()) if c.type == "return_statement"]
        if len(found) != 1:
            return None
        value = next((c for c in found[0].named_children if c.type not in _COMMENTS), None)
        if value is not None and value.type == "object_creation_expression":
            return "new " + compact(self.src, value.child_by_field_name("type")).split("<", 1)[0] + "()"
        return None

    def registration_bean(self, method: Node, return_type: str | None, bean: Annotation) -> None:
        """A ``@Bean FilterRegistrationBean<X>`` method: its filter and URL patterns (module docstring)."""
        owner: str | None = None
        patterns: list[Template] = []
        for _, name, args in self._registrations(method):
            if name in ("setFilter", "new") and args:
                owner = self._filter_expr(args[0])
            elif name in ("addUrlPatterns", "setUrlPatterns"):
                patterns += self.patterns(args)
        if owner is None and return_type and "<" in return_type:
            inner = return_type.split("<", 1)[1].rsplit(">", 1)[0].strip()
            owner = _last(inner) or None
        if owner is None:
            return
        for path in patterns or [Template()]:
            self.out.wrappers.append(self._at(bean.name_node, owner_ref=owner, path=path))

    def _filter_expr(self, node: Node) -> str:
        if node.type == "object_creation_expression":
            return "new " + compact(self.src, node.child_by_field_name("type")).split("<", 1)[0] + "()"
        return compact(self.src, node)

    # -- calls -------------------------------------------------------------------------------------

    def _matches(self) -> list[tuple[Node, str, list[Node]]]:
        """``(call or new node, callee name or "new", argument nodes)`` of every registration call."""
        if not hasattr(self, "_found"):
            self._found: list[tuple[Node, str, list[Node]]] = []
            if self.jf.calls_any(_REGISTRATION_CALLS | {"FilterRegistrationBean"}):
                for _, m in run_query(query(GRAMMAR, "java/queries", "wrappers"), self.root):
                    if "call" in m:
                        self._found.append((m["call"][0], self.src.text(m["name"][0]), _args(m["args"][0])))
                    else:
                        self._found.append((m["new"][0], "new", _args(m["args"][0])))
        return self._found

    def _registrations(self, method: Node) -> list[tuple[Node, str, list[Node]]]:
        return [(n, name, args) for n, name, args in self._matches()
                if method.start_byte <= n.start_byte and n.end_byte <= method.end_byte]

    def registrations(self) -> None:
        for call, name, args in self._matches():
            name_node = call.child_by_field_name("name")
            if name in _SECURITY and args and (len(args) == 2) == (name != "addFilter"):
                self.out.wrappers.append(self._at(name_node, owner_ref=self._filter_expr(args[0])))
            elif name == "addInterceptor" and len(args) == 1:
                paths: list[Template] = []
                link = call
                for _ in range(_MAX_CHAIN):
                    parent = link.parent
                    if parent is None or parent.type != "method_invocation" or parent.child_by_field_name("object") != link:
                        break
                    if self.src.text(parent.child_by_field_name("name")) == "addPathPatterns":
                        paths += self.patterns(_args(parent.child_by_field_name("arguments")))
                    link = parent
                ref = self._filter_expr(args[0])
                for path in paths or [Template()]:
                    self.out.wrappers.append(self._at(name_node, kind="interceptor", owner_ref=ref, path=path))

    # -- advice and controller-local handlers --------------------------------------------------------

    def advice(self) -> None:
        jf = self.jf
        local: dict[str, list[tuple[str, str]]] = {}  # controller qualname -> (kind, method name)
        for decl, anns in jf.annotated(*_ADVICE_KINDS):
            if decl.type != "method_declaration":
                continue
            owner = jf.enclosing_type(decl)
            q = jf.qualname(decl)
            if owner is None or q is None:
                continue
            owner_anns = {a.name for a in jf.annotations(owner)}
            cls = jf.qualname(owner)
            for ann in anns:
                kind = _ADVICE_KINDS.get(ann.name)
                if kind is None:
                    continue
                if owner_anns & _ADVICE:
                    fw = GRAPHQL_ERRORS if ann.name == "GraphQlExceptionHandler" else "spring"
                    self.out.wrappers.append(self._at(ann.name_node, framework=fw, kind=kind, owner=q))
                elif cls is not None and any(n.endswith("Controller") or n == "RequestMapping" for n in owner_anns):
                    local.setdefault(cls, []).append((kind, q.rpartition(".")[2]))
        if local:
            for route in self.out.routes:
                if route.framework == "spring" and route.handler:
                    for kind, name in local.get(route.handler.rpartition(".")[0], ()):
                        route.wrappers.append(WrapperRef(kind, name))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Spring filters, interceptors and advice to ``out.wrappers``, and a
    controller's own exception handlers and model attributes to its routes' ``wrappers``."""
    d = _Detector(root, src, out)
    d.filter_beans()
    d.bean_methods()
    d.registrations()
    d.advice()
