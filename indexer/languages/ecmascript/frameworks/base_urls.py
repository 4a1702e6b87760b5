"""Base URLs set outside the request, in JavaScript / TypeScript: development-server proxies and
Angular interceptors.

Facts, from ``indexer/languages/ecmascript/queries/base_urls.scm``:

* :class:`~indexer.model.DevProxy`, one per proxy rule of a development server's configuration: the
  ``proxy`` table of a ``server`` / ``devServer`` block (Vite ``server.proxy``, webpack
  ``devServer.proxy``) in a configuration file (``vite.config.*``, ``vitest.config.*``,
  ``webpack*.config.*``, ``vue.config.*``), and the table an Angular ``proxy*.js`` / ``.mjs`` /
  ``.cjs`` / ``.ts`` file exports (``module.exports = {...}``, ``export default [...]``, or a
  module-level ``const`` of this file so exported). A table is ``{ "/api": "http://host:8080" }`` or
  ``{ "/api": { target, pathRewrite: { "^/api": "" }, rewrite: (p) => p.replace(/^\\/api/, "") } }``
  or ``[{ context: ["/api", "/auth"], target, pathRewrite }]``. A rule without a ``target``, a context
  that is not a string, or a ``rewrite`` that is not one ``.replace(/regex/, "string")`` is left out
  (the rewrite only: the rule stays).
* :class:`~indexer.model.UrlRewrite`: ``R.clone({ url: X })`` where ``X`` names ``R.url``
  (``environment.apiUrl + req.url``, ```${base}/${req.url}```), inside a function or method named
  ``intercept`` (a class ``HttpInterceptor``) or any function of a file importing from
  ``@angular/common/http`` (a functional ``HttpInterceptorFn``): every Angular request of the package
  gets that URL.

Position: the rule's key or array element; the ``clone`` call.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.model import DevProxy, FileExtraction, UrlRewrite

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "is_proxy_config"]

LANGUAGES = ("javascript", "typescript")

_CONFIG_FILE = re.compile(r"^(?:vite|vitest|vue|webpack(?:\.[\w-]+)?)\.config\.[cm]?[jt]s$|^webpack\.[\w-]+\.[cm]?[jt]s$")
_PROXY_FILE = re.compile(r"^proxy[\w.-]*\.[cm]?[jt]s$")
_SERVER_KEYS = frozenset({"server", "devServer", "preview"})
MAX_RULES = 200


def is_proxy_config(path: str) -> tuple[bool, bool]:
    """``(config, proxy_file)``: whether the file at ``path`` is a development server's configuration
    file (its ``server.proxy`` tables count) or an Angular proxy file (its exported table counts)."""
    name = path.rsplit("/", 1)[-1]
    return bool(_CONFIG_FILE.match(name)), bool(_PROXY_FILE.match(name))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's proxy rules to ``out.dev_proxies`` and its interceptor rewrites to
    ``out.url_rewrites``."""
    jf = js_file(root, src, out)
    matches = jf.matches("base_urls")
    if not matches:
        return
    config, proxy_file = is_proxy_config(out.path)
    angular = bool(jf.import_locals("@angular/common/http"))
    for caps in matches:
        if "proxy" in caps and config:
            pair = caps["proxy"][0].parent
            holder = pair.parent.parent if pair is not None and pair.parent is not None else None
            key = holder.child_by_field_name("key") if holder is not None and holder.type == "pair" else None
            if key is not None and jf.text(key).strip("'\"") in _SERVER_KEYS:
                _table(jf, out, caps["proxy"][0])
        elif "exported" in caps and proxy_file:
            node = unwrap(caps["exported"][0]) or caps["exported"][0]
            if node.type == "identifier":
                node = _module_value(jf, jf.text(node)) or node
            if node.type in ("object", "array"):
                _table(jf, out, node)
        elif "clone" in caps:
            _rewrite(jf, out, caps, angular)


def _module_value(jf: JsFile, name: str) -> Node | None:
    """The initialiser of the (first) module-level ``const|let|var name = ...`` of the file."""
    found = jf.module_values(name)
    return (unwrap(found[0]) or found[0]) if found else None


def _table(jf: JsFile, out: FileExtraction, node: Node) -> None:
    """The rules of one proxy table (object or array form)."""
    if node.type == "object":
        for c in node.named_children:
            if c.type != "pair" or len(out.dev_proxies) >= MAX_RULES:
                continue
            key, value = c.child_by_field_name("key"), c.child_by_field_name("value")
            context = jf.string(key) if key is not None and key.type == "string" else None
            if context is None and key is not None and key.type == "property_identifier":
                context = jf.text(key)
            if context and value is not None:
                _rule(jf, out, [context], value, c)
    else:
        for item in node.named_children:
            item = unwrap(item) or item
            if item.type != "object" or len(out.dev_proxies) >= MAX_RULES:
                continue
            ctx = jf.object_pairs(item).get("context")
            ctx = unwrap(ctx) if ctx is not None else None
            if ctx is None:
                continue
            contexts = [jf.string(e) for e in (ctx.named_children if ctx.type == "array" else [ctx])]
            _rule(jf, out, [c for c in contexts if c], item, item)


def _rule(jf: JsFile, out: FileExtraction, contexts: list[str], value: Node, at: Node) -> None:
    """One rule: ``value`` a target string or an options object."""
    if not contexts:
        return
    value = unwrap(value) or value
    rewrite = None
    if value.type == "object":
        pairs = jf.object_pairs(value)
        target = pairs.get("target")
        if target is None:
            return
        if "pathRewrite" in pairs:
            table = jf.object_pairs(pairs["pathRewrite"])
            first = next(iter(table.items()), None)
            replacement = jf.string(first[1]) if first is not None else None
            if first is not None and replacement is not None:
                rewrite = (first[0], replacement)
        elif "rewrite" in pairs:
            rewrite = _replace_call(jf, pairs["rewrite"])
    else:
        target = value
    line, col = jf.pos(at)
    out.dev_proxies.append(DevProxy(contexts, jf.template(target), line, col, rewrite))


def _replace_call(jf: JsFile, fn: Node) -> tuple[str, str] | None:
    """``(pattern, replacement)`` of Vite's ``rewrite: (path) => path.replace(/^\\/api/, "")``."""
    fn = unwrap(fn) or fn
    body = fn.child_by_field_name("body") if fn.type in ("arrow_function", "function_expression") else None
    body = unwrap(body) if body is not None else None
    if body is not None and body.type == "statement_block":
        ret = next((c for c in body.named_children if c.type == "return_statement"), None)
        body = unwrap(ret.named_children[0]) if ret is not None and ret.named_children else None
    if body is None or body.type != "call_expression":
        return None
    callee = body.child_by_field_name("function")
    if callee is None or callee.type != "member_expression" or jf.text(callee.child_by_field_name("property")) != "replace":
        return None
    args = arguments(body.child_by_field_name("arguments"))
    if len(args) != 2 or args[0].type != "regex":
        return None
    pattern = args[0].child_by_field_name("pattern")
    replacement = jf.string(args[1])
    if pattern is None or replacement is None:
        return None
    return jf.text(pattern), replacement


def _rewrite(jf: JsFile, out: FileExtraction, caps: dict[str, list[Node]], angular: bool) -> None:
    """A :class:`UrlRewrite` of ``req.clone({ url })`` when the new URL names ``req.url``."""
    call = caps["clone"][0]
    receiver = jf.text(caps["clone_receiver"][0])
    url = jf.object_pairs(caps["clone_config"][0]).get("url")
    if url is None:
        return
    tpl = jf.template(url)
    original = f"{receiver}.url"
    if ("ref", original) not in tpl.parts or tpl.parts == (("ref", original),):
        return
    owner = jf.code_scope(call)
    if not angular and (owner is None or owner.rpartition(".")[2] != "intercept"):
        return
    line, col = jf.pos(call)
    out.url_rewrites.append(UrlRewrite("angular", tpl, original, owner, line, col))
