"""Spring HTTP clients -> :class:`~indexer.model.HttpCall`: RestTemplate, WebClient, RestClient, Feign
and ``@HttpExchange`` interfaces.

Calls (``queries/java/http_clients.scm``), at the callee name, ``caller`` the enclosing method:

* ``resttemplate`` (``testresttemplate`` when the receiver is declared a Spring Boot
  ``TestRestTemplate``, whose relative URLs are inside the application under test: the linker puts
  its context path before them): ``getForObject`` / ``getForEntity`` (GET), ``postForObject`` / ``postForEntity``
  / ``postForLocation`` (POST), ``put``, ``delete``, ``patchForObject`` (PATCH), ``headForHeaders``,
  ``optionsForAllow``, ``exchange`` / ``execute`` (the method from ``HttpMethod.X``, else ``*``); the
  URL is the first argument. ``exchange(request, type)`` takes both from a
  ``RequestEntity.get(url)`` / ``RequestEntity.method(HttpMethod.X, url)`` chain written in place or
  in a local declared once; another request object is skipped.
* ``webclient`` / ``restclient``: ``client.get().uri(url, ...)`` and likewise ``post`` / ``put`` /
  ``delete`` / ``patch`` / ``head`` / ``options`` / ``method(HttpMethod.X)``; a ``uri`` lambda
  (``b -> b.path("/x").build()``) contributes its ``path(...)`` pieces. The test clients of the same
  shape are read alike: ``webtestclient`` (``WebTestClient``), ``resttestclient`` (Spring Framework 7's
  ``RestTestClient``) and ``mockmvc`` (Spring 6.2's AssertJ
  ``MockMvcTester``: ``mvc.get().uri("/x")``), requests of a test to its own application (the
  linker puts the context path before their relative paths: see
  :mod:`indexer.languages.java.frameworks.spring_test_clients`).

Receiver rule: the receiver's first name (``restTemplate``, ``this.webClient``, ``builder`` in
``builder.build().get()``) is looked up among the parameters, locals and fields of the enclosing
scopes; when its declared type is known it decides (``RestTemplate``, ``RestOperations``,
``TestRestTemplate``, ``OAuth2RestTemplate``, ``OAuth2RestOperations``; ``WebClient``,
``WebClient.Builder``; ``RestClient``, ``RestClient.Builder``; ``WebTestClient``,
``WebTestClient.Builder``; ``MockMvcTester``).
When no declared type is found, the receiver text decides: it names a client when it contains
``resttemplate``, ``restoperations``, ``webclient`` or ``restclient`` (case-insensitive), which
also covers ``WebClient.create()`` chains (``webtestclient`` for ``webTestClient``).

Base URLs: a relative URL is joined (one ``/``) to the ``baseUrl(...)`` / ``rootUri(...)`` given to
the builder in the receiver's own chain, or to the variable or field the receiver starts with when
that was assigned a chain containing ``baseUrl(...)`` in the same class. A client built elsewhere
(a ``@Bean`` method) keeps its relative URL.

Interfaces, one call per mapped method (``caller`` that interface method, position the mapping
annotation's name):

* ``feign``: ``@FeignClient(name | value | serviceId = "customers-service", url = ..., path = ...)``:
  the base is ``url`` when given, else ``"http://" + name``, then ``path``, then a class-level
  ``@RequestMapping``, then the method's ``@GetMapping`` / ... / ``@RequestMapping`` path
  (``@RequestMapping`` without ``method`` is GET, as Feign's Spring contract has it) or its
  Feign-native ``@RequestLine("GET /owners/{id}")``.
* ``httpexchange``: Spring 6 ``@HttpExchange`` interfaces: the class-level ``@HttpExchange`` URL
  (none when only the methods are annotated) joined with the method's ``@GetExchange`` /
  ``@PostExchange`` / ... / ``@HttpExchange(method=...)``. Such an interface is also a server
  contract (Spring 6.1 maps the exchange annotations of an interface a ``@RestController``
  implements): each method is a :class:`~indexer.model.Route` of framework ``http-exchange``
  whose ``handler`` is the interface method (:data:`~indexer.model.EXCHANGE_ROUTE`); the linker makes the implementing controllers' methods
  EXPOSE it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import (
    GRAMMAR,
    HTTP_METHODS,
    Annotation,
    JavaFile,
    compact,
    concat,
    http_method,
    join_path,
    rooted,
    string_value,
)
from indexer.languages.java.frameworks.spring_web import MAPPINGS, mapping_methods, mapping_paths
from indexer.languages.base import query, run_query
from indexer.model import EXCHANGE_ROUTE, FileExtraction, HttpCall, Route, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["CLIENT_TYPES", "LANGUAGES", "TEMPLATE_METHODS", "detect"]

LANGUAGES = ("java",)
TEMPLATE_METHODS: dict[str, str | None] = {
    "getForObject": "GET",
    "getForEntity": "GET",
    "postForObject": "POST",
    "postForEntity": "POST",
    "postForLocation": "POST",
    "put": "PUT",
    "delete": "DELETE",
    "patchForObject": "PATCH",
    "headForHeaders": "HEAD",
    "optionsForAllow": "OPTIONS",
    "exchange": None,
    "execute": None,
}
CLIENT_TYPES = {
    "RestTemplate": "resttemplate",
    "RestOperations": "resttemplate",
    "TestRestTemplate": "testresttemplate",
    "OAuth2RestTemplate": "resttemplate",
    "OAuth2RestOperations": "resttemplate",
    "WebClient": "webclient",
    "WebClient.Builder": "webclient",
    "RestClient": "restclient",
    "RestClient.Builder": "restclient",
    "WebTestClient": "webtestclient",
    "WebTestClient.Builder": "webtestclient",
    "RestTestClient": "resttestclient",  # Spring Framework 7's RestClient-based test client (Boot 4's @AutoConfigureRestTestClient)
    "RestTestClient.Builder": "resttestclient",
    "MockMvcTester": "mockmvc",
}
EXCHANGE_VERBS = {
    "GetExchange": "GET",
    "PostExchange": "POST",
    "PutExchange": "PUT",
    "DeleteExchange": "DELETE",
    "PatchExchange": "PATCH",
}
_BASE_CALLS = frozenset({"baseUrl", "rootUri"})
_CALL_NAMES = frozenset({*TEMPLATE_METHODS, "uri"})  # a file calling none of these has no client call


def _args(node: Node | None) -> list[Node]:
    if node is None:
        return []
    return [c for c in node.named_children if c.type not in ("line_comment", "block_comment")]


def _top_of_chain(node: Node) -> Node:
    """The outermost call of the chain ``node`` is a link of (``a.b(x).c().d()`` from ``b(x)``)."""
    while node.parent is not None and node.parent.type == "method_invocation":
        if node.parent.child_by_field_name("object") != node:
            break
        node = node.parent
    return node


def _assigned_name(jf: JavaFile, node: Node) -> str | None:
    """The variable or field an expression is assigned to (``x = e``, ``this.x = e``, ``T x = e``)."""
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "variable_declarator" and parent.child_by_field_name("value") == node:
        return jf.src.text(parent.child_by_field_name("name"))
    if parent.type == "assignment_expression" and parent.child_by_field_name("right") == node:
        return compact(jf.src, parent.child_by_field_name("left")).removeprefix("this.")
    return None


def _base_in_chain(jf: JavaFile, node: Node | None) -> Template | None:
    """The ``baseUrl(...)`` / ``rootUri(...)`` argument in the receiver chain below ``node``."""
    while node is not None and node.type == "method_invocation":
        if jf.src.text(node.child_by_field_name("name")) in _BASE_CALLS:
            args = _args(node.child_by_field_name("arguments"))
            return jf.template(args[0]) if args else None
        node = node.child_by_field_name("object")
    return None


def _lambda_path(jf: JavaFile, fn: Node) -> Template:
    """The ``path(...)`` pieces of a ``uri(builder -> builder.path("/x")...build())`` lambda."""
    found: list[Node] = []
    stack = [fn]
    while stack:
        n = stack.pop()
        if n.type == "method_invocation" and jf.src.text(n.child_by_field_name("name")) == "path":
            found.append(n)
        stack.extend(n.named_children)
    path = Template()
    for call in sorted(found, key=lambda c: c.child_by_field_name("name").start_byte):
        args = _args(call.child_by_field_name("arguments"))
        if args:
            path = join_path(path, jf.template(args[0]))
    return path


def _is_absolute(url: Template) -> bool:
    return bool(url.parts) and url.parts[0][0] == "lit" and "://" in url.parts[0][1]


class _Detector:
    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.jf = JavaFile.of(root, src, out)
        self.src, self.out, self.root = src, out, root
        self.bases: dict[tuple[int, str], Template] = {}

    def run(self) -> None:
        matches = []
        if self.jf.calls_any(_CALL_NAMES):
            matches = list(run_query(query(GRAMMAR, "java/queries", "http_clients"), self.root))
        for _, m in matches:
            if "base_call" in m:
                self._base(m)
        for _, m in matches:
            if "template_call" in m:
                self._rest_template(m)
            elif "fluent_call" in m:
                self._fluent(m)
        self._interfaces()
        self.out.http_calls.sort(key=lambda c: (c.line, c.col))

    def _base(self, m: dict[str, list[Node]]) -> None:
        name = _assigned_name(self.jf, _top_of_chain(m["base_call"][0]))
        owner = self.jf.enclosing_type(m["base_call"][0])
        if name and owner is not None:
            self.bases[(owner.id, name)] = self.jf.template(m["base"][0])

    def _kind(self, name_node: Node, receiver: Node) -> tuple[str | None, str | None]:
        """(client kind, caller) of a call whose callee name is ``name_node``."""
        call = self.jf.call(name_node)
        caller = call.caller if call is not None else self.jf.enclosing(name_node)
        text = call.receiver if call is not None else compact(self.src, receiver)
        return self.jf.client_kind(text, caller, CLIENT_TYPES), caller

    def _with_base(self, receiver: Node, url: Template) -> Template:
        if _is_absolute(url):
            return url
        base = _base_in_chain(self.jf, receiver)
        if base is None:
            head = receiver
            while head.type in ("method_invocation", "field_access"):
                obj = head.child_by_field_name("object")
                if obj is None or obj.type == "this":
                    break
                head = obj
            owner = self.jf.enclosing_type(receiver)
            name = compact(self.src, head).removeprefix("this.")
            base = self.bases.get((owner.id, name)) if owner is not None else None
        return join_path(base, url) if base is not None else url

    def _rest_template(self, m: dict[str, list[Node]]) -> None:
        name_node, receiver = m["name"][0], m["receiver"][0]
        kind, caller = self._kind(name_node, receiver)
        if kind not in ("resttemplate", "testresttemplate"):
            return
        name = self.src.text(name_node)
        args = _args(m["args"][0])
        fixed = TEMPLATE_METHODS[name]
        if not args:
            return
        if fixed is None and len(args) < 4:  # exchange(RequestEntity, type) / execute(...)
            found = self._request_entity(args[0])
            if found is None:
                return
            method, url_node = found
        else:
            method = fixed or http_method(self.src, args[1]) or "*"
            url_node = args[0]
        url = self._with_base(receiver, self.jf.template(url_node))
        self.out.http_calls.append(
            HttpCall(kind, method, url, caller, self.src.line(name_node), self.src.col(name_node))
        )

    def _request_entity(self, node: Node) -> tuple[str, Node] | None:
        """(method, URL expression) of ``RequestEntity.get(url)...build()`` /
        ``RequestEntity.method(HttpMethod.X, url)...`` written in place or in a local declared once."""
        if node.type == "identifier":
            node = self.jf.local(node)[1] or node
        link: Node | None = node
        while link is not None and link.type == "method_invocation":
            obj = link.child_by_field_name("object")
            if obj is not None and compact(self.src, obj).rsplit(".", 1)[-1] == "RequestEntity":
                verb = self.src.text(link.child_by_field_name("name"))
                args = _args(link.child_by_field_name("arguments"))
                if verb == "method" and len(args) >= 2:
                    return http_method(self.src, args[0]) or "*", args[1]
                if verb.upper() in HTTP_METHODS and args:
                    return verb.upper(), args[0]
                return None
            link = obj
        return None

    def _fluent(self, m: dict[str, list[Node]]) -> None:
        verb_node, receiver = m["verb"][0], m["receiver"][0]
        kind, caller = self._kind(verb_node, receiver)
        if kind not in ("webclient", "restclient", "webtestclient", "resttestclient", "mockmvc"):
            return
        verb = self.src.text(verb_node)
        if verb == "method":
            vargs = _args(m["verb_args"][0])
            method = (http_method(self.src, vargs[0]) if vargs else None) or "*"
        else:
            method = verb.upper()
        url_node = m["url"][0]
        url = _lambda_path(self.jf, url_node) if url_node.type == "lambda_expression" else self.jf.template(url_node)
        url = self._with_base(receiver, url)
        self.out.http_calls.append(
            HttpCall(kind, method, url, caller, self.src.line(verb_node), self.src.col(verb_node))
        )

    # -- declarative interfaces ----------------------------------------------------------------------

    def _interfaces(self) -> None:
        jf = self.jf
        exchanges: dict[int, Node] = {}  # interfaces with exchange methods and no type-level annotation
        for decl, anns in jf.annotated("FeignClient", "HttpExchange", *EXCHANGE_VERBS):
            if decl.type == "method_declaration":
                owner = decl.parent.parent if decl.parent is not None else None
                if owner is not None and owner.type == "interface_declaration" and not any(
                        a.name in ("FeignClient", "HttpExchange") for a in jf.annotations(owner)):
                    exchanges.setdefault(owner.id, owner)
                continue
            if decl.type != "interface_declaration":
                continue
            feign = next((a for a in anns if a.name == "FeignClient"), None)
            if feign is not None:
                self._feign(decl, anns, feign)
            elif any(a.name == "HttpExchange" for a in anns):
                exchange = next(a for a in anns if a.name == "HttpExchange")
                values = exchange.values("url", "value")
                self._exchange(decl, jf.template(values[0]) if values else Template())
        for decl in exchanges.values():
            self._exchange(decl, Template())

    def _feign(self, decl: Node, anns: list[Annotation], feign: Annotation) -> None:
        jf = self.jf
        base = Template()
        url = feign.values("url")
        if url:
            base = jf.template(url[0])
        if not base.parts:
            name = feign.values("name", "value", "serviceId")
            if name:
                base = concat(Template.of("http://"), jf.template(name[0]))
        path = feign.values("path")
        if path:
            base = join_path(base, jf.template(path[0]))
        cls_map = next((a for a in anns if a.name == "RequestMapping"), None)
        if cls_map is not None:
            base = join_path(base, mapping_paths(jf, cls_map)[0])
        for method in jf.methods(decl):
            caller = jf.qualname(method)
            for ann in jf.annotations(method):
                pairs: list[tuple[str, Template]] = []
                if ann.name in MAPPINGS:
                    verbs = mapping_methods(jf, ann) or ["GET"]
                    pairs = [(v, p) for v in verbs for p in mapping_paths(jf, ann)]
                elif ann.name == "RequestLine":
                    pairs = self._request_line(ann)
                for verb, mpath in pairs:
                    self._interface_call("feign", verb, join_path(base, mpath), caller, ann)

    def _request_line(self, ann: Annotation) -> list[tuple[str, Template]]:
        values = ann.values("value")
        if not values or values[0].type != "string_literal":
            return []
        verb, _, rest = string_value(self.src, values[0]).strip().partition(" ")
        return [(verb.upper(), Template.of(rest.strip()))] if verb.upper() in HTTP_METHODS else []

    def _exchange(self, decl: Node, base: Template) -> None:
        jf = self.jf
        for method in jf.methods(decl):
            caller = jf.qualname(method)
            for ann in jf.annotations(method):
                verb = EXCHANGE_VERBS.get(ann.name)
                if verb is None and ann.name == "HttpExchange":
                    given = ann.values("method")
                    verb = (
                        string_value(self.src, given[0]).upper() if given and given[0].type == "string_literal" else "*"
                    )
                if verb is None:
                    continue
                values = ann.values("url", "value")
                path = jf.template(values[0]) if values else Template()
                self._interface_call("httpexchange", verb, join_path(base, path), caller, ann)
                if caller is not None:  # the server side: a controller implementing the interface
                    line, col = self.src.line(ann.name_node), self.src.col(ann.name_node)
                    self.out.routes.append(Route(EXCHANGE_ROUTE, [verb], rooted(join_path(base, path)), caller, line, col))

    def _interface_call(self, framework: str, verb: str, url: Template, caller: str | None, ann: Annotation) -> None:
        line, col = self.src.line(ann.name_node), self.src.col(ann.name_node)
        self.out.http_calls.append(HttpCall(framework, verb, url, caller, line, col))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's RestTemplate / WebClient / RestClient calls and Feign / ``@HttpExchange``
    interface methods to ``out.http_calls``."""
    _Detector(root, src, out).run()
