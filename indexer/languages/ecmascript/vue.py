"""The Vue single-file component extractor (``.vue``), language ``vue``.

A ``.vue`` file is parsed with the ``vue`` grammar (tree-sitter-language-pack) to find its blocks.
Its ``<script>`` and ``<script setup>`` blocks are extracted by the TypeScript extractor (any block
with ``lang="ts"`` / ``"tsx"``) or the JavaScript one, over a copy of the file in which every
character outside the script blocks is a space (line breaks kept): positions are the real ones with no
mapping table, in lines and code-point columns, and the two blocks read as one module (as Vue compiles
them). The ECMAScript framework detectors (``axios``, ``fetch``, URL-passing calls...) run on it as on
any script.

The component is a definition of its own: kind ``class``, named by the ``name:`` option of the
default-exported options object (``export default { name: "X" }``, ``defineComponent({...})``,
``Vue.extend({...})``), else by the file name (``TodoItem.vue`` -> ``TodoItem``); exported as the
module's ``default`` (``import TodoItem from "./TodoItem.vue"`` binds it). It spans the options
object, else the ``<template>``, else the first script block. Options API members become its methods
(``Comp.submit``): the functions of ``methods``, ``computed`` and ``watch``, and function-valued
options (``data``, ``setup``, lifecycle hooks such as ``mounted``); calls and framework facts
written in them (which the ECMAScript extractor, seeing an object literal, gave module level) are
theirs, and ``this.submit()`` resolves through the class. ``<script setup>`` functions stay
module-level functions.

Template event handlers are calls from the component: ``@click="submit"`` and
``v-on:submit.prevent="submit"`` call ``submit`` (arity unknown: Vue passes the event);
``@click="save(item)"`` calls ``save`` (every plain call in the handler expression; ``$emit(...)``
and other ``$`` built-ins, and calls on a receiver, are left out), at the name's real position,
``caller`` the component. They bind to the component's methods (implicit ``this``) or to the
``<script setup>`` module's functions.
"""

from __future__ import annotations

import posixpath
import re

from tree_sitter import Node

from indexer.languages import base
from indexer.languages.ecmascript.javascript import EXTRACTOR as JAVASCRIPT
from indexer.languages.ecmascript.typescript import EXTRACTOR as TYPESCRIPT
from indexer.model import CallSite, Definition, Export, FileExtraction, Param

__all__ = ["EXTRACTOR", "VueExtractor", "component_name"]

GRAMMAR = "vue"
MEMBER_GROUPS = frozenset({"methods", "computed", "watch"})
"""Options whose object's functions are component methods."""
_WRAPPERS = frozenset({"defineComponent", "Vue.extend", "extend"})
_FUNCTION_VALUES = frozenset({"function_expression", "function", "arrow_function", "generator_function"})
_CALL = re.compile(r"(?<![\w$.])([A-Za-z_][\w$]*)\s*\(")
_NAME = re.compile(r"^\s*([A-Za-z_$][\w$]*)\s*$")
_KEYWORDS = frozenset({"if", "for", "while", "switch", "return", "typeof", "new", "function", "void", "await"})


def component_name(path: str) -> str:
    """The component name a file gives: ``src/components/todo-item.vue`` -> ``todo-item``'s
    identifier form ``TodoItem`` (kebab or snake case joined, first letters upper-cased)."""
    stem = posixpath.basename(path).rsplit(".", 1)[0]
    parts = [p for p in re.split(r"[-_.\s]+", stem) if p]
    return "".join(p[:1].upper() + p[1:] for p in parts) or "Component"


class VueExtractor:
    """The Vue :class:`~indexer.languages.base.Extractor` (``EXTRACTOR`` in this module)."""

    language = "vue"
    extensions = (".vue",)

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """Extract a single-file component (see the module docstring); never raises on bad input."""
        out = FileExtraction(path=path, language=self.language)
        try:
            src = base.SourceText(source)
            root = base.parser(GRAMMAR).parse(source).root_node
            out.errors.extend(base.parse_errors(root, src))
            scripts = [c for c in root.named_children if c.type == "script_element"]
            templates = [c for c in root.named_children if c.type == "template_element"]
            typed = any(_attribute(src, s, "lang") in ("ts", "tsx") for s in scripts)
            inner = TYPESCRIPT if typed else JAVASCRIPT
            bodies = [b for b in (next((c for c in s.named_children if c.type == "raw_text"), None) for s in scripts)
                      if b is not None]
            if bodies:
                blank = _blanked(source, [(b.start_byte, b.end_byte) for b in bodies])
                sub = inner.extract(path, blank)
                sub.language = self.language
                sub.errors = out.errors + sub.errors
                out = sub
                js_root = base.parser(inner.grammar_for(path)).parse(blank).root_node
                options = _options_object(js_root)
                js_src = base.SourceText(blank)
            else:
                options, js_src = None, src
            _Component(src, js_src, out, path).build(
                options, templates[0] if templates else (scripts[0] if scripts else None))
        except Exception as exc:  # noqa: BLE001 - a bad file costs that file only
            out.errors.append(f"0:0: extractor failure: {type(exc).__name__}: {exc}")
        return out


def _attribute(src: base.SourceText, element: Node, name: str) -> str | None:
    tag = next((c for c in element.named_children if c.type == "start_tag"), None)
    for a in tag.named_children if tag is not None else ():
        if a.type != "attribute":
            continue
        an = next((c for c in a.named_children if c.type == "attribute_name"), None)
        if an is not None and src.text(an) == name:
            val = next((c for c in a.named_children if c.type in ("quoted_attribute_value", "attribute_value")), None)
            return src.text(val).strip("\"'") if val is not None else ""
    return None


def _blanked(source: bytes, keep: list[tuple[int, int]]) -> bytes:
    """``source`` with every character outside the ``keep`` byte ranges a space (line breaks kept),
    so byte offsets inside the ranges change only by what multi-byte characters before them lose,
    and lines and code-point columns stay exact."""
    out = bytearray()
    pos = 0
    for start, end in sorted(keep):
        outside = source[pos:start].decode("utf-8", "replace")
        out += "".join(ch if ch == "\n" else " " for ch in outside).encode()
        out += source[start:end]
        pos = end
    outside = source[pos:].decode("utf-8", "replace")
    out += "".join(ch if ch == "\n" else " " for ch in outside).encode()
    return bytes(out)


def _options_object(root: Node) -> Node | None:
    """The object of ``export default { ... }`` (or of ``defineComponent({...})`` /
    ``Vue.extend({...})`` exported by default), ``None`` when the script exports none."""
    for stmt in root.named_children:
        if stmt.type != "export_statement" or not any(c.type == "default" for c in stmt.children):
            continue
        value = stmt.child_by_field_name("value") or (stmt.named_children[-1] if stmt.named_children else None)
        if value is not None and value.type == "call_expression":
            fn = value.child_by_field_name("function")
            args = value.child_by_field_name("arguments")
            if fn is not None and (fn.text or b"").decode() in _WRAPPERS and args is not None and args.named_children:
                value = args.named_children[0]
        return value if value is not None and value.type == "object" else None
    return None


class _Component:
    """Adds the component definition, its Options API methods and template calls to ``out``.

    ``src`` is the file, ``js`` the blanked copy the script nodes were parsed from (byte offsets
    differ after a multi-byte character outside the scripts; lines and columns do not)."""

    def __init__(self, src: base.SourceText, js: base.SourceText, out: FileExtraction, path: str) -> None:
        self.src = src
        self.js = js
        self.out = out
        self.path = path

    def build(self, options: Node | None, fallback: Node | None) -> None:
        src, out = self.src, self.out
        name = self._name_option(options) or component_name(self.path)
        if any(d.parent is None and d.name == name for d in out.definitions):
            name = f"{name}Component"
        span = options if options is not None else fallback
        if span is None:
            return
        src = self.js if options is not None else self.src
        comp = Definition("class", name, name, None, src.line(span), src.col(span), span.end_point[0] + 1,
                          src.end_col(span), src.line(span), src.col(span), signature=f"component {name}",
                          exported=True, decorators=["component"])
        out.definitions.append(comp)
        out.exports = [e for e in out.exports if e.exported != "default"]
        out.exports.append(Export("default", local=name))
        members = self._members(options, name) if options is not None else []
        self._reown(comp, members)
        self._template_calls(name)

    def _name_option(self, options: Node | None) -> str | None:
        for pair in options.named_children if options is not None else ():
            if pair.type == "pair" and self._key(pair) == "name":
                value = pair.child_by_field_name("value")
                if value is not None and value.type == "string":
                    text = self.js.text(value)[1:-1]
                    if text.isidentifier():
                        return text
        return None

    def _key(self, node: Node) -> str:
        key = node.child_by_field_name("key") or node.child_by_field_name("name")
        return self.js.text(key).strip("\"'") if key is not None else ""

    def _members(self, options: Node, comp: str) -> list[Definition]:
        found: list[Definition] = []
        for prop in options.named_children:
            key = self._key(prop)
            value = prop.child_by_field_name("value") if prop.type == "pair" else None
            if key in MEMBER_GROUPS and value is not None and value.type == "object":
                for inner in value.named_children:
                    self._member(inner, comp, found)
            else:
                self._member(prop, comp, found)
        return found

    def _member(self, node: Node, comp: str, found: list[Definition]) -> None:
        src = self.js
        if node.type == "method_definition":
            fn = node
        elif node.type == "pair":
            fn = node.child_by_field_name("value")
            if fn is None or fn.type not in _FUNCTION_VALUES:
                return
        else:
            return
        key_node = node.child_by_field_name("key") or node.child_by_field_name("name")
        name = self._key(node)
        if not name or key_node is None or any(d.name == name for d in found):
            return
        params_node = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
        params = [Param(src.text(p.child_by_field_name("pattern") or p))
                  for p in (params_node.named_children if params_node is not None and params_node.type != "identifier"
                            else [params_node] if params_node is not None else [])
                  if p.type != "comment"]
        body = fn.child_by_field_name("body")
        header = src.data[node.start_byte: body.start_byte if body is not None else node.end_byte]
        d = Definition("method", name, f"{comp}.{name}", comp, src.line(node), src.col(node), node.end_point[0] + 1,
                       src.end_col(node), src.line(key_node), src.col(key_node),
                       signature=" ".join(header.decode("utf-8", "replace").split()).rstrip(" {=>:"), params=params)
        found.append(d)
        self.out.definitions.append(d)

    def _reown(self, comp: Definition, members: list[Definition]) -> None:
        """Calls and facts the script gave module level that sit in the component now belong to
        the member (or the component) holding them."""
        def owner(line: int, col: int) -> str | None:
            for m in members:
                if (m.start_line, m.start_col) <= (line, col) < (m.end_line, m.end_col):
                    return m.qualname
            if (comp.start_line, comp.start_col) <= (line, col) < (comp.end_line, comp.end_col):
                return comp.qualname
            return None

        out = self.out
        for c in out.calls:
            if c.caller is None:
                c.caller = owner(c.line, c.col)
        for rec in (*out.http_calls, *out.url_arg_calls):
            if rec.caller is None:
                rec.caller = owner(rec.line, rec.col)
        for t in out.topics:
            if t.owner is None:
                t.owner = owner(t.line, t.col)
        for b in out.bindings:
            if b.scope is None and b.line and owner(b.line, 0) not in (None, comp.qualname):
                b.scope = owner(b.line, 0)

    def _template_calls(self, comp: str) -> None:
        src = self.src
        root = base.parser(GRAMMAR).parse(src.data).root_node
        stack = [c for c in root.named_children if c.type == "template_element"]
        while stack:
            n = stack.pop()
            stack.extend(n.named_children)
            if n.type != "directive_attribute":
                continue
            dname = next((c for c in n.named_children if c.type == "directive_name"), None)
            if not (src.text(n).startswith("@") or (dname is not None and src.text(dname) == "v-on")):
                continue
            qv = next((c for c in n.named_children if c.type == "quoted_attribute_value"), None)
            value = next((c for c in qv.named_children if c.type == "attribute_value"), None) if qv else None
            if value is None:
                continue
            self._handler_calls(comp, value)

    def _handler_calls(self, comp: str, value: Node) -> None:
        text = self.src.text(value)
        line0, col0 = self.src.line(value), self.src.col(value)

        def at(offset: int) -> tuple[int, int]:
            before = text[:offset]
            nl = before.count("\n")
            return (line0 + nl, (col0 + offset) if nl == 0 else offset - before.rfind("\n") - 1)

        m = _NAME.match(text)
        if m is not None:
            if not m.group(1).startswith("$"):
                line, col = at(m.start(1))
                self.out.calls.append(CallSite(comp, m.group(1), None, -1, line, col))
            return
        for m in _CALL.finditer(text):
            if m.group(1) in _KEYWORDS:
                continue
            line, col = at(m.start(1))
            self.out.calls.append(CallSite(comp, m.group(1), None, _arity(text, m.end()), line, col))


def _arity(text: str, open_paren: int) -> int:
    """Arguments of the call whose ``(`` ends at ``open_paren`` (top-level commas); -1 if unbalanced."""
    depth, n, seen = 1, 0, False
    quote = ""
    for ch in text[open_paren:]:
        if quote:
            quote = "" if ch == quote else quote
            continue
        if ch in "\"'`":
            quote, seen = ch, True
        elif ch in "([{":
            depth += 1
            seen = True
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return n + (1 if seen else 0)
        elif ch == "," and depth == 1:
            n += 1
        elif not ch.isspace():
            seen = True
    return -1


EXTRACTOR = VueExtractor()
