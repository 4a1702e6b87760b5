"""Apache HttpClient requests in Java -> :class:`~indexer.model.HttpCall` (framework ``apache-httpclient``),
in a file importing from ``org.apache.http`` (HttpClient 4) or ``org.apache.hc`` (HttpClient 5).

A request is built before a client executes it, and that is where its method and URL are written:

* ``new HttpGet(url)`` / ``HttpPost`` / ``HttpPut`` / ``HttpDelete`` / ``HttpPatch`` / ``HttpHead`` /
  ``HttpOptions`` / ``HttpTrace`` (HttpClient 4's ``org.apache.http.client.methods``, 5's
  ``org.apache.hc.client5.http.classic.methods``): the class names the method;
* ``RequestBuilder.get(url)`` (4), ``ClassicRequestBuilder`` / ``SimpleRequestBuilder.post(url)`` (5) and the
  fluent ``Request.Get(url)`` (4) / ``Request.get(url)`` (5): the factory's name is the method.

The class or builder must be a name the file imports from one of those packages (a class of the
application's own named ``HttpGet`` is not one); ``url`` is the first argument, a
:meth:`~indexer.languages.java.frameworks.common.JavaFile.template` (a ``URI.create(x)`` is ``x``); a URL
with no literal and no constant piece is left out. The call sits at the ``new`` / the factory's
name, owned by the enclosing method.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import JavaFile, compact
from indexer.model import FileExtraction, HttpCall

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "apache-httpclient"
_PACKAGES = ("org.apache.http.", "org.apache.hc.")
_METHODS = {f"Http{m.capitalize()}": m.upper()
            for m in ("get", "post", "put", "delete", "patch", "head", "options", "trace")}
"""Request classes -> the method they send."""
_BUILDERS = frozenset({"RequestBuilder", "ClassicRequestBuilder", "SimpleRequestBuilder", "Request"})
_VERBS = frozenset({"get", "post", "put", "delete", "patch", "head", "options", "trace"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Apache HttpClient requests to ``out.http_calls``."""
    ours = [i for i in out.imports if (i.module + ".").startswith(_PACKAGES)]
    imported = {i.local for i in ours if i.local != "*"}
    if any(i.local == "*" for i in ours):  # import org.apache.http.client.methods.*;
        imported |= _METHODS.keys() | _BUILDERS
    if not imported & (_METHODS.keys() | _BUILDERS):
        return
    jf = JavaFile.of(root, src, out)
    found: list[HttpCall] = []
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        method = at = None
        if n.type == "object_creation_expression":
            name = compact(src, n.child_by_field_name("type")).split("<", 1)[0]
            method, at = (_METHODS.get(name), n) if name in imported else (None, None)
        elif n.type == "method_invocation":
            obj, name_node = n.child_by_field_name("object"), n.child_by_field_name("name")
            verb = src.text(name_node).lower() if name_node is not None else ""
            if obj is not None and obj.type == "identifier" and src.text(obj) in imported & _BUILDERS and verb in _VERBS:
                method, at = verb.upper(), name_node
        if method is None or at is None:
            continue
        args = [c for c in (n.child_by_field_name("arguments") or n).named_children
                if c.type not in ("line_comment", "block_comment")]
        url = jf.template(args[0]) if args else None
        if url is None or all(k == "hole" for k, _ in url.parts):
            continue
        found.append(HttpCall(FRAMEWORK, method, url, jf.enclosing(n), src.line(at), src.col(at)))
    out.http_calls.extend(sorted(found, key=lambda c: (c.line, c.col)))
