"""HTTP clients written in Kotlin -> :class:`~indexer.model.HttpCall`: Retrofit interfaces and the
Ktor client.

* ``retrofit``: a function of an interface annotated ``@GET("users/{id}")`` (``@POST``, ``@PUT``,
  ``@DELETE``, ``@PATCH``, ``@HEAD``, ``@OPTIONS``; ``@HTTP(method = "X", path = "...")``) is a call
  of that method and URL, ``caller`` the interface function (calls of it reach the request), at the
  annotation's name. The base URL (``Retrofit.Builder().baseUrl(...)``) is set elsewhere: the URL
  stays as written (relative).
* ``feign``: Feign's native ``@RequestLine("GET /users/{id}")`` on an interface function, the same
  way (the ``Feign.builder().target(...)`` URL is set elsewhere).
* ``ktor-client``: ``client.get(url)`` (``post``, ``put``, ``delete``, ``patch``, ``head``,
  ``options``; ``request(url) { method = HttpMethod.Post }``, else ``*``) on a receiver whose declared
  type is ``HttpClient``, or, with no declared type, whose text contains ``client``
  (case-insensitive); the URL is the first argument (``"$base/users"``: ``base`` a ``ref`` the linker
  resolves when it is a constant), at the callee name, ``caller`` the enclosing function. A type-safe
  request (the Resources plugin: ``client.get(Users.Id(id = 3))``) requests the resource class's path
  (:func:`_resource`).
* Spring's fluent clients, as in Java (:mod:`indexer.languages.java.frameworks.java_http_clients`):
  ``client.get().uri("/api/x/{id}", id)`` (``post``, ``put``, ``delete``, ``patch``, ``head``,
  ``options``; ``method(HttpMethod.X)``, else ``*``), at the verb's name, ``caller`` the enclosing
  function, framework ``webclient`` / ``restclient`` / ``webtestclient`` / ``resttestclient`` (a test's
  request to its own application, under the context path:
  :data:`~indexer.frameworks.app_prefixes.APP_RELATIVE_CLIENTS`) by the declared type of the receiver's
  first name (``WebClient``, ``RestClient``, ``WebTestClient``, Spring Framework 7's ``RestTestClient``,
  their ``Builder``), else by that name (``webTestClient``, ``WebClient.create(base)``: containing
  ``webtestclient`` / ``resttestclient`` / ``webclient`` / ``restclient``, case-insensitive). The URL is the first argument of
  ``uri`` as written (a base URL set on the builder is not joined), or the ``path("...")`` pieces of a
  ``uri { it.path("/api/posts/{id}").build(id) }`` lambda.
* Spring's ``RestTemplate`` (``resttemplate``) and Spring Boot's ``TestRestTemplate`` (``testresttemplate``,
  a test's request to its own application, as ``webtestclient``), as in Java: ``getForObject`` /
  ``getForEntity`` (GET), ``postForObject`` / ``postForEntity`` / ``postForLocation`` (POST), ``put``,
  ``delete``, ``patchForObject`` (PATCH), ``headForHeaders``, ``optionsForAllow``, ``exchange`` (the method
  from an ``HttpMethod.X`` argument, else ``*``); Kotlin's reified extensions too
  (``restTemplate.getForEntity<String>("/")``, the Spring Boot Kotlin tutorial's tests). The client by the
  declared type of the receiver's first name (``RestTemplate``, ``RestOperations``, ``OAuth2RestTemplate``,
  ``TestRestTemplate``), else by that name (containing ``testresttemplate``, else ``resttemplate`` or
  ``restoperations``); the URL is the first argument (a name: a ``ref`` the linker resolves when it is a
  constant).
* Spring's ``MockMvc`` (``mockmvc``, in process, under no context path): the request builders
  ``get("/x")`` / ``post`` / ``put`` / ``delete`` / ``patch`` / ``head`` / ``options`` (``request(HttpMethod.X,
  url)``) of ``MockMvcRequestBuilders``, imported by name or with ``*`` or written qualified
  (``mockMvc.perform(get("/api/article/"))``), and the Kotlin DSL ``mockMvc.get("/x") { ... }`` on a
  receiver declared ``MockMvc`` (else named ``...mockMvc``); at the verb, the URL its first argument.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, TypeVar

from indexer.frameworks import HTTP_METHODS, RETROFIT_VERBS
from indexer.languages.kotlin.frameworks.common import (
    KtAnnotation,
    declarations,
    declared_type,
    definition_of,
    local_val,
    string_arg,
    template,
)
from indexer.languages.kotlin.frameworks.ktor import RESOURCE_KEY
from indexer.model import FileExtraction, HttpCall, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

_T = TypeVar("_T")

LANGUAGES = ("kotlin",)
KTOR_VERBS = {"get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH", "head": "HEAD",
              "options": "OPTIONS", "request": "*", "webSocket": "GET", "sse": "GET"}
"""The Ktor client's request calls and their methods (a WebSocket session and an SSE stream open with a ``GET``)."""
_METHOD_SET = re.compile(r"\bmethod\s*=\s*HttpMethod\.(\w+)")


def _retrofit(root: Node, src: SourceText, out: FileExtraction) -> None:
    for decl, anns in declarations(src, root):
        if decl.type != "function_declaration":
            continue
        for ann in anns:
            if ann.name in RETROFIT_VERBS:
                method, url = ann.name, ann.values("value")
            elif ann.name == "HTTP":
                m = ann.values("method")
                method = src.text(m[0]).strip('"').upper() if m else "*"
                url = ann.values("path")
            elif ann.name == "RequestLine":
                _request_line(src, out, decl, ann)
                continue
            else:
                continue
            d = definition_of(out, src, decl)
            if d is None or url is None:
                continue
            out.http_calls.append(HttpCall("retrofit", method if method in HTTP_METHODS else "*",
                                           template(src, url[0]), d.qualname, src.line(ann.name_node),
                                           src.col(ann.name_node)))


def _request_line(src: SourceText, out: FileExtraction, decl: Node, ann: KtAnnotation) -> None:
    """Feign's native ``@RequestLine("GET /api/x/{id}")``: the method, then the path (a query kept)."""
    d = definition_of(out, src, decl)
    value = ann.values("value")
    if d is None or not value:
        return
    url = template(src, value[0])
    first = url.parts[0] if url.parts else None
    if first is None or first[0] != "lit" or " " not in first[1].lstrip():
        return
    verb, _, rest = first[1].lstrip().partition(" ")
    if verb.upper() not in HTTP_METHODS:
        return
    path = Template.merged([("lit", rest.lstrip()), *url.parts[1:]])
    out.http_calls.append(HttpCall("feign", verb.upper(), path, d.qualname, src.line(ann.name_node),
                                   src.col(ann.name_node)))


def _resource(src: SourceText, arg: Node) -> Template | None:
    """The URL of a type-safe Ktor client request (the Resources plugin's ``client.get(Users.Id(id = 3))``,
    ``client.post(Articles.New())``, an ``object`` resource ``client.get(Users)``): the path of the resource
    class named, a ``ref`` to its string constant (:data:`~indexer.languages.kotlin.frameworks.ktor.RESOURCE_KEY`,
    resolved by the linker as a route's is); ``None`` for any other argument. A class is named in
    PascalCase (``Users.Id``), so an upper-case constant (``URL``) stays a URL."""
    node = arg
    if node.type == "call_expression" and node.named_children and node.named_children[-1].type == "call_suffix":
        suffix = node.named_children[-1]
        if any(c.type == "annotated_lambda" for c in suffix.named_children):
            return None
        node = node.named_children[0]
    elif node.type != "simple_identifier" and node.type != "navigation_expression":
        return None
    text = src.text(node)
    parts = text.split(".")
    if not all(p.isidentifier() for p in parts) or not all(p[:1].isupper() and not p.isupper() for p in parts):
        return None
    return Template((("ref", f"{text}.{RESOURCE_KEY}"),))


_SPRING_VERB = re.compile(r"^(.+)\.(get|post|put|delete|patch|head|options|method)\(\)$")
_SPRING_TYPES = {"WebClient": "webclient", "RestClient": "restclient", "WebTestClient": "webtestclient",
                 "RestTestClient": "resttestclient"}
_SPRING_NAMES = (("webtestclient", "webtestclient"), ("resttestclient", "resttestclient"), ("webclient", "webclient"),
                 ("restclient", "restclient"))


_TEMPLATE_VERBS = {"getForObject": "GET", "getForEntity": "GET", "postForObject": "POST", "postForEntity": "POST",
                   "postForLocation": "POST", "put": "PUT", "delete": "DELETE", "patchForObject": "PATCH",
                   "headForHeaders": "HEAD", "optionsForAllow": "OPTIONS", "exchange": "*"}
_TEMPLATE_TYPES = {"RestTemplate": "resttemplate", "RestOperations": "resttemplate", "OAuth2RestTemplate": "resttemplate",
                   "TestRestTemplate": "testresttemplate"}
_TEMPLATE_NAMES = (("testresttemplate", "testresttemplate"), ("resttemplate", "resttemplate"),
                   ("restoperations", "resttemplate"))


def _spring_kind(out: FileExtraction, scope: str | None, head: str, types: dict[str, str] = _SPRING_TYPES,
                 names: tuple[tuple[str, str], ...] = _SPRING_NAMES) -> str | None:
    """The Spring client framework of a fluent chain's head (``webClient``, ``this.client``,
    ``WebClient.create(base)``), by the declared type of its first name, else by its text (``types`` /
    ``names``: the fluent clients' by default, or the templates')."""
    first = head.split(".")[1 if head.startswith("this.") else 0].split("(", 1)[0]
    declared = declared_type(out, scope, first)
    if declared and declared[:1].isupper():
        # `WebClient.Builder`; a factory's result `WebClient.create` / `WebClient.builder.build`: the type named
        named = [p for p in declared.split("<", 1)[0].removesuffix("?").split(".") if p[:1].isupper() and p != "Builder"]
        return types.get(named[-1]) if named else None
    low = head.lower()
    return next((kind for key, kind in names if key in low), None)


def _sited_calls(root: Node, src: SourceText, sites: dict[tuple[int, int], _T],
                 bare: bool = False) -> Iterator[tuple[_T, Node, Node]]:
    """``(site, callee name node, call_expression)`` of each call ``recv.name(...)`` (and, with ``bare``,
    ``name(...)``) under ``root`` whose callee name is at a position of ``sites`` (the extractor's
    ``CallSite`` positions)."""
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type == "navigation_suffix" and n.named_children:
            name, call = n.named_children[0], n.parent.parent if n.parent is not None else None
        elif bare and n.type == "call_expression" and n.named_children and n.named_children[0].type == "simple_identifier":
            name, call = n.named_children[0], n
        else:
            continue
        site = sites.get((src.line(name), src.col(name)))
        if site is not None and call is not None and call.type == "call_expression":
            yield site, name, call


def _lambda_path(src: SourceText, call: Node) -> Template | None:
    """The path a ``uri { it.path("/api/posts/{id}").build(id) }`` lambda builds: its ``path(...)`` calls'
    string arguments in source order, joined (``None``: no lambda, or no ``path`` call with a string)."""
    suffix = call.named_children[-1] if call.named_children else None
    lam = next((c for c in suffix.named_children if c.type == "annotated_lambda"), None) \
        if suffix is not None and suffix.type == "call_suffix" else None
    if lam is None:
        return None
    pieces: list[Node] = []
    stack = [lam]
    while stack:
        n = stack.pop()
        stack.extend(reversed(n.named_children))
        nav = n.named_children[0] if n.type == "call_expression" and n.named_children else None
        last = nav.named_children[-1] if nav is not None and nav.type == "navigation_expression" else None
        if last is not None and last.type == "navigation_suffix" and src.text(last).lstrip("?.").strip() == "path":
            arg = string_arg(src, n, 0)
            if arg is not None and arg.type in ("string_literal", "line_string_literal", "multi_line_string_literal"):
                pieces.append(arg)
    pieces.sort(key=lambda a: a.start_byte)
    return Template.merged(part for a in pieces for part in template(src, a).parts) if pieces else None


def _spring_fluent(root: Node, src: SourceText, out: FileExtraction) -> None:
    """``client.get().uri(url)`` chains of Spring's WebClient, RestClient and WebTestClient (module docstring)."""
    sites = {}
    for c in out.calls:
        m = _SPRING_VERB.match(c.receiver or "") if c.name == "uri" and c.arity >= 1 else None
        if m is not None:
            sites[(c.line, c.col)] = (c, m.group(1), m.group(2))
    if not sites:
        return
    found: list[HttpCall] = []
    for (site, head, verb), uri, call in _sited_calls(root, src, sites):
        kind = _spring_kind(out, site.caller, head)
        arg = string_arg(src, call, 0)
        if arg is not None and arg.type == "simple_identifier":  # a local `val` holding the URL
            arg = local_val(src, call, src.text(arg)) or arg
        url = template(src, arg) if arg is not None else _lambda_path(src, call)
        nav = uri.parent.parent if uri.parent is not None else None  # `<verb call>.uri`
        verb_call = nav.named_children[0] if nav is not None and nav.named_children else None
        verb_nav = verb_call.named_children[0] if verb_call is not None and verb_call.named_children else None
        verb_suffix = verb_nav.named_children[-1] if verb_nav is not None and verb_nav.type == "navigation_expression" else None
        verb_name = verb_suffix.named_children[0] if verb_suffix is not None and verb_suffix.named_children else None
        if kind is None or url is None or verb_call is None or verb_name is None:
            continue
        method = verb.upper()
        if verb == "method":
            m = re.search(r"\bHttpMethod\.(\w+)", src.text(verb_call.named_children[-1]))
            method = m.group(1).upper() if m and m.group(1).upper() in HTTP_METHODS else "*"
        found.append(HttpCall(kind, method, url, site.caller, src.line(verb_name), src.col(verb_name)))
    out.http_calls.extend(sorted(found, key=lambda h: (h.line, h.col)))


def _rest_templates(root: Node, src: SourceText, out: FileExtraction) -> None:
    """``restTemplate.getForObject("/x", ...)`` calls of Spring's RestTemplate and TestRestTemplate (module docstring)."""
    sites = {(c.line, c.col): c for c in out.calls if c.name in _TEMPLATE_VERBS and c.receiver and c.arity >= 1}
    if not sites:
        return
    found: list[HttpCall] = []
    for site, _, call in _sited_calls(root, src, sites):
        kind = _spring_kind(out, site.caller, site.receiver or "", _TEMPLATE_TYPES, _TEMPLATE_NAMES)
        url = string_arg(src, call, 0)
        if kind is None or url is None:
            continue
        if url.type == "simple_identifier":  # `val u = UriComponentsBuilder...toUriString(); rest.getForObject(u, ...)`
            url = local_val(src, call, src.text(url)) or url
        method = _TEMPLATE_VERBS[site.name]
        if method == "*":
            m = re.search(r"\bHttpMethod\.(\w+)", src.text(call.named_children[-1]))
            method = m.group(1).upper() if m and m.group(1).upper() in HTTP_METHODS else "*"
        found.append(HttpCall(kind, method, template(src, url), site.caller, site.line, site.col))
    out.http_calls.extend(sorted(found, key=lambda h: (h.line, h.col)))


_BUILDERS = "org.springframework.test.web.servlet.request.MockMvcRequestBuilders"
_MOCK_VERBS = {"get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH", "head": "HEAD",
               "options": "OPTIONS", "request": "*"}


def _mock_mvc(root: Node, src: SourceText, out: FileExtraction) -> None:
    """MockMvc requests: ``MockMvcRequestBuilders``' builders and the Kotlin DSL (module docstring)."""
    builders = {i.local for i in out.imports if i.module == _BUILDERS and i.name in _MOCK_VERBS}
    star = any(i.module == _BUILDERS and i.local == "*" for i in out.imports)
    sites = {}
    for c in out.calls:
        if c.name not in _MOCK_VERBS or c.arity < 1:
            continue
        if c.receiver is None and (c.name in builders or star) or c.receiver in ("MockMvcRequestBuilders", _BUILDERS):
            sites[(c.line, c.col)] = c
        elif c.receiver and c.name != "request" and _spring_kind(out, c.caller, c.receiver, {"MockMvc": "mockmvc"},
                                                                 (("mockmvc", "mockmvc"),)) == "mockmvc":
            sites[(c.line, c.col)] = c
    if not sites:
        return
    found: list[HttpCall] = []
    for site, _, call in _sited_calls(root, src, sites, bare=True):  # `mockMvc.get(...)`, `get(...)`
        method = _MOCK_VERBS[site.name]
        url = string_arg(src, call, 0)
        if method == "*":  # request(HttpMethod.POST, url)
            m = re.search(r"\bHttpMethod\.(\w+)", src.text(url)) if url is not None else None
            method = m.group(1).upper() if m and m.group(1).upper() in HTTP_METHODS else "*"
            url = string_arg(src, call, 1)
        if url is None:
            continue
        found.append(HttpCall("mockmvc", method, template(src, url), site.caller, site.line, site.col))
    out.http_calls.extend(sorted(found, key=lambda h: (h.line, h.col)))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Retrofit, Ktor client and Spring client (fluent, RestTemplate, MockMvc) requests to
    ``out.http_calls``."""
    _retrofit(root, src, out)
    _spring_fluent(root, src, out)
    _rest_templates(root, src, out)
    _mock_mvc(root, src, out)
    sites = {(c.line, c.col): c for c in out.calls if c.name in KTOR_VERBS and c.receiver and c.arity >= 1}
    if not sites:
        return
    found: list[HttpCall] = []
    for site, _, call in _sited_calls(root, src, sites):
        recv = site.receiver or ""
        first = recv.split(".")[1 if recv.startswith("this.") else 0]
        declared = declared_type(out, site.caller, first)
        if declared and not declared.rsplit(".", 1)[-1][:1].isupper():
            declared = None  # the text of a call (`val client = client.config { }`), no type: read by name
        is_client = declared.rsplit(".", 1)[-1] == "HttpClient" if declared else "client" in recv.lower()
        url = string_arg(src, call, 0)
        if not is_client or url is None:
            continue
        method = KTOR_VERBS[site.name]
        if method == "*":
            m = _METHOD_SET.search(src.text(call))
            method = m.group(1).upper() if m and m.group(1).upper() in HTTP_METHODS else "*"
        typed = _resource(src, url)
        found.append(HttpCall("ktor-client", method, typed or template(src, url), site.caller, site.line, site.col))
    out.http_calls.extend(sorted(found, key=lambda h: (h.line, h.col)))
