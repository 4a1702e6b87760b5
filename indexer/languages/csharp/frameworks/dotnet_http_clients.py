"""C# HTTP clients (``HttpCall``): ``HttpClient`` requests and Refit interfaces.

* ``HttpClient`` (framework ``httpclient``), in a file that names ``HttpClient`` or
  ``IHttpClientFactory`` (or that uses ``System.Net.Http``, on a receiver whose name holds ``client``): ``X.GetAsync(url)`` / ``GetStringAsync`` / ``GetStreamAsync`` /
  ``GetByteArrayAsync`` / ``GetFromJsonAsync<T>(url)`` (GET), ``PostAsync`` / ``PostAsJsonAsync``
  (POST), ``PutAsync`` / ``PutAsJsonAsync`` (PUT), ``PatchAsync`` / ``PatchAsJsonAsync`` (PATCH),
  ``DeleteAsync`` / ``DeleteFromJsonAsync`` (DELETE), and ``new HttpRequestMessage(HttpMethod.Post,
  url)``; the URL is the first argument as a template (literals, interpolated strings, ``+``, the
  file's ``const`` strings); a URL with no literal part is left out. A relative URL stays relative
  (the client's ``BaseAddress`` is configuration, not read). Ardalis.HttpClientTestExtensions' extension
  methods on such a client, or on a receiver named ``*client*``, read the same (``GetAndDeserializeAsync<T>(url)``,
  ``PostAndEnsureBadRequestAsync``: the verb the name starts with).
* In-process test clients (framework ``aspnet-test``): the same requests on an ``HttpClient`` that
  ``Microsoft.AspNetCore.Mvc.Testing``'s ``WebApplicationFactory<TEntryPoint>.CreateClient()`` or
  ``Microsoft.AspNetCore.TestHost``'s ``TestServer.CreateClient()`` made, in a test file
  (:func:`in_process_clients`): ``server.CreateClient().GetAsync(url)`` itself, or a name of the file
  given such a client (``Client = factory.CreateClient(options)`` in a constructor, ``var client =
  _factory.CreateClient()``, a property returning one). Such a request goes to the application under
  test, so it carries the test's application (:data:`indexer.frameworks.app_prefixes.OWN_APP_CLIENTS`).
* Refit (``refit``): a method of an interface with ``[Get("/users/{id}")]`` / ``[Post]`` /
  ``[Put]`` / ``[Delete]`` / ``[Patch]`` / ``[Head]`` / ``[Options]`` is a request from that
  interface method (as for a Feign client): whoever calls the method calls the URL.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.csharp.frameworks.common import CsFile, attribute_args, attribute_name, cs_file
from indexer.model import FileExtraction, HttpCall, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["IN_PROCESS", "LANGUAGES", "detect", "in_process_clients"]

IN_PROCESS = "aspnet-test"
"""The client framework of a request made with a ``WebApplicationFactory`` / ``TestServer`` client."""

LANGUAGES = ("csharp",)
_CLIENT = {
    "GetAsync": "GET", "GetStringAsync": "GET", "GetStreamAsync": "GET", "GetByteArrayAsync": "GET",
    "GetFromJsonAsync": "GET", "PostAsync": "POST", "PostAsJsonAsync": "POST", "PutAsync": "PUT",
    "PutAsJsonAsync": "PUT", "PatchAsync": "PATCH", "PatchAsJsonAsync": "PATCH", "DeleteAsync": "DELETE",
    "DeleteFromJsonAsync": "DELETE",
}
_TEST_EXTENSION = re.compile(r"^(Get|Post|Put|Patch|Delete)And\w+Async$")
"""Ardalis.HttpClientTestExtensions' requests (``GetAndDeserializeAsync<T>(url)``, ``PostAndEnsureBadRequestAsync(url,
content)``, ``DeleteAndEnsureNoContentAsync(url)``): the verb first, the URL the first argument."""
_REFIT = {"Get": "GET", "Post": "POST", "Put": "PUT", "Delete": "DELETE", "Patch": "PATCH", "Head": "HEAD",
          "Options": "OPTIONS"}
_METHODS = {"Get", "Post", "Put", "Delete", "Patch", "Head", "Options"}
_TEST_USINGS = ("Xunit", "NUnit.Framework", "Microsoft.VisualStudio.TestTools.UnitTesting",
                "Microsoft.AspNetCore.Mvc.Testing", "Microsoft.AspNetCore.TestHost")
_TEST_HOSTS = (b"WebApplicationFactory", b"TestServer")
_NAMED_FACTORY = re.compile(r"httpclientfactory|clientfactory", re.IGNORECASE)
"""A receiver named as an ``IHttpClientFactory`` (``_httpClientFactory``, ``clientFactory``): its
``CreateClient()`` gives an outgoing client, not a test one."""
_MEMBERS = frozenset({"property_declaration", "method_declaration", "local_function_statement", "lambda_expression"})
_CLIENT_NAME = re.compile(r"client", re.IGNORECASE)
"""In a file that uses ``System.Net.Http`` but never writes ``HttpClient`` (``var client = ProgramTest.NewClient;``,
the client made in another file), a receiver whose last name holds ``client``."""
_TEST_PATH = re.compile(r"(?:^|[/.])[^/]*tests?(?:[/.]|$)", re.IGNORECASE)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's HttpClient requests and Refit interface methods to ``out``."""
    cf = cs_file(root, src, out)
    made = in_process_clients(cf, out.path) if b"CreateClient" in src.data else frozenset()
    named = b"HttpClient" in src.data or bool(made)
    if named or cf.uses("System.Net.Http"):
        for call in cf.calls:
            sel = cf.member(call)
            verb = _CLIENT.get(sel[1]) if sel is not None else None
            extension = _TEST_EXTENSION.match(sel[1]) if sel is not None and verb is None else None
            if extension is not None and (_CLIENT_NAME.search(sel[0].rsplit(".", 1)[-1]) or made and _made_here(cf, call, made)):
                verb = extension.group(1).upper()  # on a client only: a cache's GetAndRemoveAsync is none
            if sel is None or verb is None or not named and not _CLIENT_NAME.search(sel[0].rsplit(".", 1)[-1]):
                continue
            args = cf.args(call)
            url = cf.template(args[0]) if args else None
            if url is None:
                continue
            line, col = cf.pos(call)
            framework = IN_PROCESS if made and _made_here(cf, call, made) else "httpclient"
            out.http_calls.append(HttpCall(framework, verb, url, cf.owner(call), line, col))
        stack = [root]
        while stack:
            n = stack.pop()
            stack.extend(n.named_children)
            if n.type == "object_creation_expression" and cf.expr(n.child_by_field_name("type")) == "HttpRequestMessage":
                args = cf.args(n)
                if len(args) < 2:
                    continue
                verb = cf.expr(args[0]).rsplit(".", 1)[-1]
                url = cf.template(args[1])
                if url is None:
                    continue
                line, col = cf.pos(n)
                out.http_calls.append(HttpCall("httpclient", verb.upper() if verb in _METHODS else "*", url,
                                               cf.owner(n), line, col))
    if b"Refit" in src.data:
        interfaces = {d.qualname for d in out.definitions if d.kind == "interface"}
        for d in out.definitions:
            if d.kind != "method" or d.parent not in interfaces:
                continue
            for a in d.decorators:
                verb = _REFIT.get(attribute_name(a))
                path = attribute_args(a) if verb else None
                if verb and path is not None:
                    out.http_calls.append(HttpCall("refit", verb, Template.of(path), d.qualname, d.name_line,
                                                   d.name_col))
    out.http_calls.sort(key=lambda h: (h.line, h.col))


def _test_client_call(cf: CsFile, call: Node) -> bool:
    """Whether ``call`` is ``X.CreateClient()`` / ``X.CreateClient(options)`` of a
    ``WebApplicationFactory`` or ``TestServer``: no argument or one that is no string (an
    ``IHttpClientFactory`` names its client: ``CreateClient("catalog")``), on a receiver not named as
    an ``IHttpClientFactory``."""
    sel = cf.member(call)
    if sel is None or sel[1] != "CreateClient" or _NAMED_FACTORY.search(sel[0]):
        return False
    args = cf.args(call)
    return not args or (len(args) == 1 and args[0].type == "object_creation_expression")


def in_process_clients(cf: CsFile, path: str) -> frozenset[str]:
    """The names of a test file given an in-process test client: the left side's last name of
    ``Client = factory.CreateClient(...)`` / ``this._client = ...``, a local or field declared with
    one (``var client = server.CreateClient()``), a property or method returning one
    (``public static HttpClient NewClient => _application.CreateClient();``), plus ``""`` when the
    file makes any (then ``server.CreateClient().GetAsync(url)`` counts too). Empty for a file that is
    no test: none of the test frameworks' or test hosts' namespaces used, no ``WebApplicationFactory``
    / ``TestServer`` named and no ``test`` / ``tests`` folder or project in its path."""
    if not (cf.uses(*_TEST_USINGS) or any(h in cf.src.data for h in _TEST_HOSTS) or _TEST_PATH.search(path)):
        return frozenset()
    names: set[str] = set()
    for call in cf.calls:
        if not _test_client_call(cf, call):
            continue
        names.add("")
        node = call.parent
        while node is not None and node.type in ("await_expression", "parenthesized_expression"):
            node = node.parent
        if node is None:
            continue
        if node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None:
                names.add(cf.expr(left).rsplit(".", 1)[-1])
        elif node.type in ("variable_declarator", "equals_value_clause"):
            decl = node if node.type == "variable_declarator" else node.parent
            name = decl.child_by_field_name("name") if decl is not None else None
            if name is None and decl is not None and decl.named_children:
                name = decl.named_children[0]
            if name is not None:
                names.add(cf.text(name))
        elif node.type in ("arrow_expression_clause", "return_statement"):
            while node is not None and node.type not in _MEMBERS:
                node = node.parent
            name = node.child_by_field_name("name") if node is not None else None
            if name is not None:
                names.add(cf.text(name))
    return frozenset(names)


def _made_here(cf: CsFile, call: Node, made: frozenset[str]) -> bool:
    """Whether the request ``call``'s receiver is an in-process test client (:func:`in_process_clients`
    gave ``made``): a ``CreateClient()`` call itself, or a name (its last part) the file gives one."""
    fn = call.child_by_field_name("function")
    recv = fn.child_by_field_name("expression") if fn is not None else None
    if recv is None:
        return False
    if recv.type == "invocation_expression":
        return _test_client_call(cf, recv)
    name = cf.expr(recv).rsplit(".", 1)[-1]
    return bool(name) and name in made
