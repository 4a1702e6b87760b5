"""Requests a Spring application's tests make to the application itself -> :class:`~indexer.model.HttpCall`.

A test driving the application through Spring's test clients calls its endpoints as an outside
client would, so each request is a client call (CALLS_HTTP from the test method to the Endpoint),
as supertest and Starlette's ``TestClient`` requests are. Calls (``queries/java/test_clients.scm``),
at the verb's name, ``caller`` the enclosing method:

* ``mockmvc``: a request builder of ``MockMvcRequestBuilders`` (or Spring REST Docs'
  ``RestDocumentationRequestBuilders``, which mirrors it): ``get`` / ``post`` / ``put`` / ``delete``
  / ``patch`` / ``head`` / ``options`` ``(urlTemplate, uriVars...)``, ``multipart(url)`` (POST) and
  ``request(HttpMethod.X, url)``, written qualified (``MockMvcRequestBuilders.get("/x")``) or
  unqualified where the file imports the verb statically from one of those classes (``import static
  ...MockMvcRequestBuilders.get`` or ``.*``). An unqualified ``get(...)`` without such an import (a
  method of the test class) and any ``x.get(...)`` on another receiver (a ``Map.get``) are not requests.
* ``restassured`` / ``restassured-mockmvc``: a verb of RestAssured's request specification whose
  receiver chain starts at ``given()`` / ``when()`` / ``with()`` of ``io.restassured.RestAssured`` or
  of its Spring modules ``RestAssuredMockMvc`` / ``RestAssuredWebTestClient`` (statically imported
  or written qualified), directly or through a local declared once (``RequestSpecification req =
  given().auth()...; req.get("/x")``); also the static shortcuts ``RestAssured.get("/x")`` and a
  statically imported ``get("/x")``. The MockMvc and WebTestClient modules run the request in
  process (framework ``restassured-mockmvc``).

The URL is the first argument (``{name}`` variables stay variables; ``"/owners/" + id`` has a hole),
rendered by :meth:`~indexer.languages.java.frameworks.common.JavaFile.template`. WebTestClient and
AssertJ's ``MockMvcTester`` use the fluent ``client.get().uri(url)`` form of WebClient: they are read
by :mod:`indexer.languages.java.frameworks.java_http_clients`.

A request of an in-process client (``mockmvc``, ``restassured-mockmvc``, ``webtestclient``) names the
path inside the application: the linker puts the application's context path before a relative one
(:data:`indexer.frameworks.app_prefixes.APP_RELATIVE_CLIENTS`). Plain RestAssured sends the path as
written to the server (its ``basePath`` is configuration the tests set at run time).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.java.frameworks.common import GRAMMAR, JavaFile, compact, http_method
from indexer.model import FileExtraction, HttpCall

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "MOCKMVC_BUILDERS", "RESTASSURED_ENTRIES", "detect"]

LANGUAGES = ("java",)
MOCKMVC_BUILDERS = frozenset({"MockMvcRequestBuilders", "RestDocumentationRequestBuilders"})
"""Classes whose static verbs build a MockMvc request."""
RESTASSURED_ENTRIES = {
    "RestAssured": "restassured",
    "RestAssuredMockMvc": "restassured-mockmvc",
    "RestAssuredWebTestClient": "restassured-mockmvc",
}
"""RestAssured's entry classes and the client framework of their requests."""
_STARTS = frozenset({"given", "when", "with"})
_VERBS = frozenset({"get", "post", "put", "delete", "patch", "head", "options"})
_MAX_CHAIN = 64


def _args(node: Node | None) -> list[Node]:
    if node is None:
        return []
    return [c for c in node.named_children if c.type not in ("line_comment", "block_comment")]


class _Detector:
    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.jf = JavaFile.of(root, src, out)
        self.src, self.out, self.root = src, out, root
        # static imports: member name (or "*") -> the classes (last dotted name) it comes from
        self.static: dict[str, set[str]] = {}
        for imp in out.imports:
            cls = imp.module.rsplit(".", 1)[-1]
            if cls in MOCKMVC_BUILDERS or cls in RESTASSURED_ENTRIES:
                self.static.setdefault(imp.name or imp.local, set()).add(cls)

    def run(self) -> None:
        text = self.src.text(self.root)
        if "MockMvc" not in text and "RestAssured" not in text and "RestDocumentation" not in text:
            return
        if not self.jf.calls_any(_VERBS | {"request", "multipart"}):
            return
        found: list[HttpCall] = []
        for _, m in run_query(query(GRAMMAR, "java/queries", "test_clients"), self.root):
            call = self._request(m)
            if call is not None:
                found.append(call)
        found.sort(key=lambda c: (c.line, c.col))
        self.out.http_calls.extend(found)

    def _imported(self, name: str) -> set[str]:
        """The classes a static import of the file brings ``name`` from (a named or ``*`` import)."""
        return self.static.get(name, set()) | self.static.get("*", set())

    def _request(self, m: dict[str, list[Node]]) -> HttpCall | None:
        verb_node = m["verb"][0]
        verb = self.src.text(verb_node)
        receiver = m["receiver"][0] if "receiver" in m else None
        args = _args(m["args"][0])
        if not args:
            return None
        framework: str | None
        if receiver is None:  # `get("/x")`: a statically imported builder or RestAssured shortcut
            owners = self._imported(verb)
            framework = ("mockmvc" if owners & MOCKMVC_BUILDERS
                         else next((RESTASSURED_ENTRIES[c] for c in sorted(owners) if c in RESTASSURED_ENTRIES), None))
        else:
            qual = compact(self.src, receiver).rsplit(".", 1)[-1]
            if qual in MOCKMVC_BUILDERS and receiver.type in ("identifier", "scoped_identifier", "field_access"):
                framework = "mockmvc"
            else:
                framework = self._restassured(receiver) if verb in _VERBS else None
        if framework is None:
            return None
        if verb == "request":  # MockMvc's request(HttpMethod.X, url)
            if framework != "mockmvc" or len(args) < 2:
                return None
            method, url_node = http_method(self.src, args[0]) or "*", args[1]
        elif verb == "multipart":
            if framework != "mockmvc":
                return None
            method, url_node = "POST", args[0]
            if len(args) >= 2 and http_method(self.src, args[0]):  # multipart(HttpMethod.PUT, url)
                method, url_node = http_method(self.src, args[0]) or "POST", args[1]
        else:
            method, url_node = verb.upper(), args[0]
        site = self.jf.call(verb_node)
        caller = site.caller if site is not None else self.jf.enclosing(verb_node)
        return HttpCall(framework, method, self.jf.template(url_node), caller, self.src.line(verb_node),
                        self.src.col(verb_node))

    def _restassured(self, receiver: Node) -> str | None:
        """The framework of a RestAssured request whose verb is called on ``receiver``: the chain
        below it starts at an entry of :data:`RESTASSURED_ENTRIES` (module docstring), else ``None``."""
        node: Node | None = receiver
        for _ in range(_MAX_CHAIN):
            if node is None:
                return None
            if node.type == "identifier":
                text = self.src.text(node)
                if text in RESTASSURED_ENTRIES:  # RestAssured.get("/x")
                    return RESTASSURED_ENTRIES[text]
                node = self.jf.local(node)[1]  # a local declared once: its value
                continue
            if node.type in ("scoped_identifier", "field_access"):
                return RESTASSURED_ENTRIES.get(compact(self.src, node).rsplit(".", 1)[-1])
            if node.type == "parenthesized_expression":
                node = next(iter(_args(node)), None)
                continue
            if node.type != "method_invocation":
                return None
            obj = node.child_by_field_name("object")
            if obj is None:  # the head of the chain: a statically imported given() / when()
                name = self.src.text(node.child_by_field_name("name"))
                if name not in _STARTS:
                    return None
                owners = sorted(c for c in self._imported(name) if c in RESTASSURED_ENTRIES)
                return RESTASSURED_ENTRIES[owners[0]] if owners else None
            node = obj
        return None


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's MockMvc request builders and RestAssured requests to ``out.http_calls``."""
    _Detector(root, src, out).run()
