"""Spring functional routes (WebFlux ``RouterFunctions``, WebMvc ``RouterFunctions`` of
``org.springframework.web.servlet.function``) -> :class:`~indexer.model.Route` (framework ``spring``).

Two forms:

* a request predicate given to a route call: ``RouterFunctions.route(GET("/owners"), handler)``,
  ``.andRoute(POST("/owners").and(accept(JSON)), handler)``: the path is the predicate's argument,
  the handler the route call's second argument;
* the builder: ``route().GET("/owners/{id}", handler)``, ``.POST("/owners", accept(JSON), handler)``:
  the path is the first argument, the handler the last.

Prefixes: a route inside ``.path("/api", builder -> ...)``, ``.nest(path("/api"), builder -> ...)``
or ``RouterFunctions.nest(path("/api"), route(...))`` gets each enclosing prefix, outermost first
(:func:`~indexer.languages.java.frameworks.common.join_path`); the result is made absolute.

Handlers: a method reference ``this::list`` is the method of this file's class (``handler``);
``OwnerHandler::list`` and ``handler::list`` (a parameter, field or local, by its declared type) are
``handler_ref`` ``OwnerHandler.list``, resolved by the linker. A lambda (``req -> ok().build()``) is
an inline handler, a definition of its own named after the route (:func:`indexer.symbols.handler_name`,
``GET /owners``) under the method around it, owning the calls in its body. Position: the verb's name
(``GET``).

Not seen here: a handler held in a variable of type ``HandlerFunction`` (no route is made), routes
composed in another method or file (``route(...).and(otherRoutes())``: those routes are found where
they are written, without this file's prefixes), predicates built without a verb (``path("/x")``
alone, ``method(HttpMethod.GET)``), and the Kotlin DSL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import around, query, run_query
from indexer.languages.java.frameworks.common import GRAMMAR, JavaFile, compact, join_path, rooted
from indexer.model import FileExtraction, Param, Route, Template
from indexer.symbols import handler_name, inline_definition, inline_header

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "VERBS", "detect"]

LANGUAGES = ("java",)
VERBS = frozenset({"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"})
_ROUTE_CALLS = frozenset({"route", "andRoute"})
_NESTING = frozenset({"path", "nest"})
_COMMENTS = frozenset({"line_comment", "block_comment"})
_HANDLER_TYPES = frozenset({"method_reference", "lambda_expression"})
_MAX_CHAIN = 16


def _args(arglist: Node | None) -> list[Node]:
    return [c for c in arglist.named_children if c.type not in _COMMENTS] if arglist is not None else []


class _Detector:
    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.root, self.src, self.out = root, src, out
        self.jf = JavaFile.of(root, src, out)
        self._nested: dict[int, tuple[Template, ...]] = {}  # nest call id -> the prefixes inside its second argument

    def name(self, inv: Node) -> str:
        return self.src.text(inv.child_by_field_name("name"))

    def route_of(self, inv: Node, args: list[Node]) -> tuple[Node, Node] | None:
        """``(path node, handler node)`` of a verb call in either form, else ``None``."""
        if len(args) >= 2 and inv.child_by_field_name("object") is not None and args[-1].type in _HANDLER_TYPES:
            return args[0], args[-1]  # builder: route().GET("/x", [predicate,] handler)
        if len(args) != 1:
            return None
        link = inv
        for _ in range(_MAX_CHAIN):  # GET("/x").and(accept(JSON))...
            parent = link.parent
            if parent is None or parent.type != "method_invocation" or parent.child_by_field_name("object") != link:
                break
            link = parent
        holder = link.parent
        call = holder.parent if holder is not None and holder.type == "argument_list" else None
        if call is None or call.type != "method_invocation" or self.name(call) not in _ROUTE_CALLS:
            return None
        route_args = _args(holder)
        if len(route_args) == 2 and route_args[0] == link and route_args[1].type in (*_HANDLER_TYPES, "identifier"):
            return args[0], route_args[1]
        return None

    def prefixes(self, inv: Node) -> list[Template]:
        """The ``path`` / ``nest`` prefixes around ``inv``, outermost first. The nodes around it come from
        one :func:`~indexer.languages.base.around` walk (each ``Node.parent`` costs the node's depth), and
        each ``nest`` call's prefixes are remembered for the routes inside it, so 500 ``nest`` calls each
        holding a route cost the routes times their depth once, not its cube (15 s)."""
        chain = list(around(self.root, inv))  # innermost first: each node's parent is the next one
        found: list[tuple[int, Template]] = []  # (nest call id, its prefix), innermost first
        base: tuple[Template, ...] = ()
        cur = inv
        for i, holder in enumerate(chain[:-1]):
            call = chain[i + 1]
            if holder.type == "argument_list" and call.type == "method_invocation" and self.name(call) in _NESTING:
                args = _args(holder)
                if len(args) == 2 and cur == args[1]:
                    if call.id in self._nested:
                        base = self._nested[call.id]
                        break
                    first = args[0]
                    if first.type == "method_invocation" and self.name(first) == "path" and len(_args(
                            first.child_by_field_name("arguments"))) == 1:
                        first = _args(first.child_by_field_name("arguments"))[0]
                    found.append((call.id, self.jf.template(first)))
            cur = holder
        for call_id, prefix in reversed(found):
            base = self._nested[call_id] = (*base, prefix)
        return list(base)

    def handler(self, node: Node, methods: list[str], path: Template) -> tuple[str | None, str | None]:
        """``(handler, handler_ref)`` of a handler expression (module docstring); ``(None, None)``: none."""
        jf = self.jf
        scope = jf.enclosing(node)
        if node.type == "lambda_expression":
            return self.inline(node, handler_name(methods, path), scope), None
        if node.type != "method_reference":
            return None, None
        parts = [c for c in node.named_children if c.type not in _COMMENTS]
        if len(parts) != 2:
            return None, None
        left, method = compact(self.src, parts[0]), self.src.text(parts[1])
        if left == "this":
            owner = jf.enclosing_type(node)
            q = jf.qualname(owner) if owner is not None else None
            mine = f"{q}.{method}" if q else None
            if mine and any(d.qualname == mine for d in self.out.definitions):
                return mine, None
            return None, None
        if parts[0].type == "identifier" and not left[:1].isupper():
            left = jf.declared_type(left, scope) or left
        return None, f"{left}.{method}"

    def inline(self, lam: Node, name: str, scope: str | None) -> str:
        """Make the lambda a definition of its own (kind ``function``, under ``scope``) that owns the
        calls in its body; its qualname (:mod:`indexer.symbols`)."""
        src = self.src
        params: list[Param] = []
        plist = lam.child_by_field_name("parameters")
        # An untyped parameter of a HandlerFunction lambda is a ServerRequest (the id's signature says so).
        if plist is not None and plist.type == "identifier":
            params.append(Param(src.text(plist), "ServerRequest"))
        for p in plist.named_children if plist is not None and plist.type != "identifier" else ():
            if p.type == "identifier":
                params.append(Param(src.text(p), "ServerRequest"))
            elif p.type == "formal_parameter":
                params.append(Param(src.text(p.child_by_field_name("name")), compact(src, p.child_by_field_name("type"))))
        signature = inline_header(src, lam).removesuffix("->").strip()
        return inline_definition(self.out, src, lam, name, scope, params, signature)

    def run(self) -> None:
        if not self.jf.calls_any(VERBS):
            return
        for _, m in run_query(query(GRAMMAR, "java/queries", "router_functions"), self.root):
            inv, verb = m["call"][0], m["verb"][0]
            found = self.route_of(inv, _args(m["args"][0]))
            if found is None:
                continue
            path_node, handler_node = found
            methods = [self.src.text(verb)]
            own = self.jf.template(path_node)
            full = Template()
            for prefix in self.prefixes(inv):
                full = join_path(full, prefix)
            full = rooted(join_path(full, own))
            handler, ref = self.handler(handler_node, methods, own)
            if handler is None and ref is None:
                continue
            self.out.routes.append(Route("spring", methods, full, handler, self.src.line(verb), self.src.col(verb),
                                         handler_ref=ref))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's functional routes to ``out.routes`` (and their lambdas to its definitions)."""
    _Detector(root, src, out).run()
