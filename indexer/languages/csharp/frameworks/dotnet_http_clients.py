"""C# HTTP clients (``HttpCall``): ``HttpClient`` requests and Refit interfaces.

* ``HttpClient`` (framework ``httpclient``), in a file that names ``HttpClient`` or
  ``IHttpClientFactory``: ``X.GetAsync(url)`` / ``GetStringAsync`` / ``GetStreamAsync`` /
  ``GetByteArrayAsync`` / ``GetFromJsonAsync<T>(url)`` (GET), ``PostAsync`` / ``PostAsJsonAsync``
  (POST), ``PutAsync`` / ``PutAsJsonAsync`` (PUT), ``PatchAsync`` / ``PatchAsJsonAsync`` (PATCH),
  ``DeleteAsync`` / ``DeleteFromJsonAsync`` (DELETE), and ``new HttpRequestMessage(HttpMethod.Post,
  url)``; the URL is the first argument as a template (literals, interpolated strings, ``+``, the
  file's ``const`` strings); a URL with no literal part is left out. A relative URL stays relative
  (the client's ``BaseAddress`` is configuration, not read).
* Refit (``refit``): a method of an interface with ``[Get("/users/{id}")]`` / ``[Post]`` /
  ``[Put]`` / ``[Delete]`` / ``[Patch]`` / ``[Head]`` / ``[Options]`` is a request from that
  interface method (as for a Feign client): whoever calls the method calls the URL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.csharp.frameworks.common import attribute_args, attribute_name, cs_file
from indexer.model import FileExtraction, HttpCall, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("csharp",)
_CLIENT = {
    "GetAsync": "GET", "GetStringAsync": "GET", "GetStreamAsync": "GET", "GetByteArrayAsync": "GET",
    "GetFromJsonAsync": "GET", "PostAsync": "POST", "PostAsJsonAsync": "POST", "PutAsync": "PUT",
    "PutAsJsonAsync": "PUT", "PatchAsync": "PATCH", "PatchAsJsonAsync": "PATCH", "DeleteAsync": "DELETE",
    "DeleteFromJsonAsync": "DELETE",
}
_REFIT = {"Get": "GET", "Post": "POST", "Put": "PUT", "Delete": "DELETE", "Patch": "PATCH", "Head": "HEAD",
          "Options": "OPTIONS"}
_METHODS = {"Get", "Post", "Put", "Delete", "Patch", "Head", "Options"}


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's HttpClient requests and Refit interface methods to ``out``."""
    cf = cs_file(root, src, out)
    if b"HttpClient" in src.data:
        for call in cf.calls:
            sel = cf.member(call)
            if sel is None or sel[1] not in _CLIENT:
                continue
            args = cf.args(call)
            url = cf.template(args[0]) if args else None
            if url is None:
                continue
            line, col = cf.pos(call)
            out.http_calls.append(HttpCall("httpclient", _CLIENT[sel[1]], url, cf.owner(call), line, col))
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
