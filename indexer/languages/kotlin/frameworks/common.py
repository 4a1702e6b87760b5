"""Helpers shared by the Kotlin framework detectors and the extractor (not a detector).

* :func:`annotation_nodes`: the annotations of a declaration, including those the grammar parses as
  a ``prefix_expression`` before a top-level declaration (``@RestController`` on its own line);
* :class:`KtAnnotation`: an annotation's name and its arguments by name (a lone or first positional
  argument is ``value``), :meth:`KtAnnotation.values` expanding ``["a", "b"]`` / ``arrayOf(...)``;
* :func:`template`: an expression as a :class:`~indexer.model.Template`: a string's text is ``lit``
  (``$NAME`` / ``${a.b}`` interpolations of names are ``ref`` pieces, other ``${...}`` are holes),
  ``a + b`` concatenates, a name or dotted name is a ``ref``, an environment variable's read with a
  default (``System.getenv("T") ?: "orders"``, :data:`~indexer.frameworks.env_config.ENV_READ`) is the
  default, Spring's ``UriComponentsBuilder.fromHttpUrl(base).path("/x").pathSegment(a)...toUriString()`` its base
  and path (:func:`uri_builder_parts`, as the Java detectors read it), a call ``f(a)`` / ``x.f(a)`` with positional
  arguments a ``call:`` piece
  (:func:`indexer.frameworks.url_builder_rule.call_piece`, folded by the linker when ``f`` is a URL builder),
  anything else a ``hole``;
* :func:`definition_of`: the :class:`~indexer.model.Definition` the extractor made of a declaration
  node (matched by its name's position);
* :func:`declarations`: every class, object and function declaration node with its annotations.

Position convention (as the Java detectors'): a fact declared by an annotation sits at the
annotation's name, a fact declared by a call at the callee name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from indexer.frameworks import ENV_READ, URI_BUILDER_KEEPS, URI_BUILDER_ROOTS, URI_BUILDERS, call_piece
from indexer.languages.base import SourceText, storable
from indexer.model import Definition, FileExtraction, Template
from indexer.symbols import inline_definition, unique_name

__all__ = ["KtAnnotation", "annotation_nodes", "callee", "caller_at", "detached_arguments", "declarations", "declared_type", "definition_of",
           "elements", "inline_function", "local_val", "short_type", "string_arg", "template", "uri_builder_parts"]

_WS = re.compile(r"\s+")
_MAX_CHAIN = 32
_DECLS = frozenset({"class_declaration", "object_declaration", "function_declaration", "companion_object"})


def annotation_nodes(node: Node) -> list[Node]:
    """The ``annotation`` nodes of ``node`` itself (an annotation), of its ``modifiers``, or of a
    ``prefix_expression`` chain of annotations (the grammar's reading of annotations before a
    top-level declaration), in source order."""
    if node.type == "annotation":
        return [node]
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        for c in n.named_children:
            if c.type == "annotation":
                out.append(c)
            elif c.type in ("prefix_expression", "modifiers"):
                stack.append(c)
    out.sort(key=lambda a: a.start_byte)
    return out


def detached_arguments(ann: Node) -> Node | None:
    """The ``parenthesized_expression`` the grammar puts after an annotation it read as a prefix
    expression (a top-level ``@RequestMapping("/api")`` followed by a declaration): the annotation's
    arguments; ``None`` when there is none."""
    nxt = ann.next_named_sibling
    if ann.parent is not None and ann.parent.type == "prefix_expression" and nxt is not None \
            and nxt.type == "parenthesized_expression" and nxt.start_byte == ann.end_byte:
        return nxt
    return None


@dataclass(slots=True)
class KtAnnotation:
    """One annotation: ``name`` its last dotted segment (``GetMapping``), ``name_node`` the type
    identifier, ``args`` the argument expressions by name (``value`` for the first positional one,
    ``_1``, ``_2``... for the next)."""

    name: str
    node: Node
    name_node: Node
    args: dict[str, Node]

    @staticmethod
    def parse(src: SourceText, node: Node) -> KtAnnotation | None:
        """Read an ``annotation`` node; ``None`` when it names no type."""
        inv = next((c for c in node.named_children if c.type == "constructor_invocation"), None)
        utype = next((c for c in (inv or node).named_children if c.type == "user_type"), None)
        if utype is None:
            return None
        ids = [c for c in utype.named_children if c.type == "type_identifier"]
        if not ids:
            return None
        args: dict[str, Node] = {}
        vargs = next((c for c in inv.named_children if c.type == "value_arguments"), None) if inv else None
        loose = detached_arguments(node) if inv is None else None
        if loose is not None:  # ``@RequestMapping("/api")`` read as a prefix expression: one argument
            inner = loose.named_children[0] if loose.named_children else None
            if inner is not None:
                args["value"] = inner
        positional = 0
        for va in vargs.named_children if vargs is not None else ():
            if va.type != "value_argument" or not va.named_children:
                continue
            kids = va.named_children
            if len(kids) >= 2 and kids[0].type == "simple_identifier" and b"=" in src.data[kids[0].end_byte:kids[1].start_byte]:
                args[src.text(kids[0])] = kids[-1]
            else:
                args["value" if positional == 0 else f"_{positional}"] = kids[-1]
                positional += 1
        return KtAnnotation(src.text(ids[-1]), node, ids[-1], args)

    def values(self, *keys: str) -> list[Node] | None:
        """The value nodes of the first of ``keys`` present (an array expanded), ``None`` if none is."""
        for k in keys:
            if k in self.args:
                return elements(self.args[k])
        return None


_COLLECTIONS = frozenset({b"arrayOf", b"listOf", b"setOf", b"mutableListOf", b"arrayListOf", b"mutableSetOf",
                          b"singletonList", b"asList"})
"""Calls building a collection of their arguments (``Collections.singletonList(t)`` and ``Arrays.asList``
by their last name)."""


def elements(node: Node) -> list[Node]:
    """``["a", "b"]`` / ``arrayOf("a", "b")`` / ``listOf`` / ``setOf`` ... (:data:`_COLLECTIONS`) -> their
    element nodes; any other value -> ``[node]``."""
    if node.type == "collection_literal":
        return list(node.named_children)
    if node.type == "call_expression" and node.named_children \
            and node.named_children[0].type in ("simple_identifier", "navigation_expression"):
        callee = (node.named_children[0].text or b"").rsplit(b".", 1)[-1].strip()
        if callee in _COLLECTIONS:
            suffix = node.named_children[-1]
            vargs = next((c for c in suffix.named_children if c.type == "value_arguments"), None)
            if vargs is not None:
                return [va.named_children[-1] for va in vargs.named_children
                        if va.type == "value_argument" and va.named_children]
    return [node]


def template(src: SourceText, node: Node | None) -> Template:
    """The :class:`~indexer.model.Template` of an expression (see the module docstring)."""
    if node is None:
        return Template()
    t = node.type
    if t == "string_literal" or t == "multiline_string_literal":
        parts: list[tuple[str, str]] = []
        for c in node.named_children:
            if c.type == "string_content":
                parts.append(("lit", storable(_ESCAPE.sub(lambda m: _unescape(m.group(0)), src.text(c)))))
            elif c.type == "escape_sequence":
                parts.append(("lit", storable(_unescape(src.text(c)))))
            elif c.type == "interpolated_identifier":
                parts.append(("ref", src.text(c)))
            elif c.type == "interpolated_expression":
                inner = c.named_children[0] if c.named_children else None
                if inner is not None and inner.type == "call_expression":  # "${ownerUrl(id)}/pets"
                    parts.extend(template(src, inner).parts)
                    continue
                text = _WS.sub("", src.text(inner)) if inner is not None else ""
                dotted = inner is not None and inner.type in ("simple_identifier", "navigation_expression") \
                    and all(p.isidentifier() for p in text.split("."))
                parts.append(("ref" if dotted else "hole", text))
        return Template.merged(parts)
    if t == "additive_expression" and len(node.named_children) == 2 and b"+" in (node.text or b""):
        left, right = node.named_children
        return template(src, left) + template(src, right)
    if t == "parenthesized_expression" and node.named_children:
        return template(src, node.named_children[0])
    if t == "elvis_expression" and len(node.named_children) == 2 \
            and ENV_READ.match(_WS.sub("", src.text(node.named_children[0]))):
        return template(src, node.named_children[1])
    text = _WS.sub("", src.text(node))
    if t in ("simple_identifier", "navigation_expression") and all(p.isidentifier() for p in text.split(".")):
        return Template((("ref", text.removeprefix("this.")),))
    if t in ("integer_literal", "long_literal"):
        return Template.of(text)
    if t == "call_expression" and node.named_children and node.named_children[0].type in (
            "simple_identifier", "navigation_expression"):
        built = uri_builder_parts(src, node)
        if built is not None:
            return built
        callee = _WS.sub("", src.text(node.named_children[0])).removeprefix("this.")
        args = _call_arguments(node)
        if args is not None:  # a URL builder's call (:mod:`indexer.languages.kotlin.frameworks.url_builders`)
            return Template((call_piece(callee, [template(src, a) for a in args], text),))
    return Template((("hole", text),))


def local_val(src: SourceText, at: Node, name: str) -> Node | None:
    """The initial value of the ``val name`` declared before ``at`` in the function (or lambda) around it (the
    last such declaration before ``at``; a ``var`` is never read: it may be given another value); ``None`` when
    there is none."""
    fn = at.parent
    while fn is not None and fn.type not in ("function_declaration", "anonymous_function", "lambda_literal"):
        fn = fn.parent
    if fn is None:
        return None
    found = None
    stack = [fn]
    while stack:
        n = stack.pop()
        if n.start_byte >= at.start_byte:
            continue
        stack.extend(n.named_children)
        if n.type != "property_declaration" or not (n.text or b"").lstrip().startswith(b"val"):
            continue
        var = next((c for c in n.named_children if c.type == "variable_declaration"), None)
        ident = next((c for c in var.named_children if c.type == "simple_identifier"), None) if var else None
        value = n.named_children[-1]
        if ident is not None and src.text(ident) == name and value is not var:
            found = value if found is None or value.start_byte > found.start_byte else found
    return found


def uri_builder_parts(src: SourceText, node: Node) -> Template | None:
    """Spring's ``UriComponentsBuilder.fromHttpUrl(base).path("/x").pathSegment(a, b)...toUriString()`` (also
    ``fromUriString`` / ``fromPath`` and ``ServletUriComponentsBuilder``, ending ``build()`` / ``buildAndExpand(...)`` /
    ``toUri()`` / ``encode()`` / ``toString()``) as a template: the base, then each ``path`` and ``pathSegment``
    (``/`` before each segment); query and fragment calls add nothing to the path (Spring's rules, as
    ``JavaFile._uri_builder_parts`` reads Java). ``None`` for any other expression, a chain longer than 32 calls,
    one with a named argument or a trailing lambda, or one setting the scheme, host or port or replacing the path
    (not read)."""
    calls: list[tuple[str, list[Node]]] = []
    n: Node | None = node
    while n is not None and n.type == "call_expression" and len(calls) < _MAX_CHAIN:
        nav = n.named_children[0] if n.named_children else None
        args = _call_arguments(n)
        if nav is None or nav.type != "navigation_expression" or args is None or len(nav.named_children) != 2:
            return None
        suffix = nav.named_children[1]
        name = suffix.named_children[0] if suffix.type == "navigation_suffix" and suffix.named_children else None
        if name is None or name.type != "simple_identifier":
            return None
        calls.append((src.text(name), args))
        obj = nav.named_children[0]
        if obj.type == "simple_identifier" and src.text(obj) in URI_BUILDERS:
            break
        n = obj
    else:
        return None
    calls.reverse()
    first, first_args = calls[0]
    if first not in URI_BUILDER_ROOTS or len(first_args) != 1:
        return None
    out = template(src, first_args[0])
    for name, args in calls[1:]:
        if name == "path" and len(args) == 1:
            out += template(src, args[0])
        elif name == "pathSegment":
            for a in args:
                out = out + Template.of("/") + template(src, a)
        elif name not in URI_BUILDER_KEEPS:
            return None
    return out


def _call_arguments(call: Node) -> list[Node] | None:
    """The argument expressions of a call with positional arguments only and no trailing lambda; else ``None``."""
    suffix = call.named_children[-1] if len(call.named_children) == 2 else None
    if suffix is None or suffix.type != "call_suffix" or len(suffix.named_children) != 1:
        return None
    vargs = suffix.named_children[0]
    if vargs.type != "value_arguments":
        return None
    out = []
    for va in vargs.named_children:
        if va.type != "value_argument" or len(va.named_children) != 1:
            return None  # a named argument, a spread
        out.append(va.named_children[0])
    return out


_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|.)")
_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", "r": "\r", "$": "$", '"': '"', "'": "'", "\\": "\\"}


def _unescape(text: str) -> str:
    if text.startswith("\\u") and len(text) == 6:
        return chr(int(text[2:], 16))
    return _ESCAPES.get(text[1:2], text[1:])


def string_arg(src: SourceText, call: Node, index: int = 0) -> Node | None:
    """The ``index``-th positional argument expression of a ``call_expression`` (``None``: absent)."""
    suffix = call.named_children[-1] if call.named_children else None
    if suffix is None or suffix.type != "call_suffix":
        return None
    vargs = next((c for c in suffix.named_children if c.type == "value_arguments"), None)
    if vargs is None:
        return None
    positional = [va for va in vargs.named_children if va.type == "value_argument" and va.named_children
                  and not (len(va.named_children) >= 2 and va.named_children[0].type == "simple_identifier"
                           and b"=" in src.data[va.named_children[0].end_byte:va.named_children[1].start_byte])]
    return positional[index].named_children[-1] if index < len(positional) else None


def definition_of(out: FileExtraction, src: SourceText, node: Node) -> Definition | None:
    """The definition the extractor made of declaration ``node`` (by its name's position)."""
    name = next((c for c in node.named_children if c.type in ("type_identifier", "simple_identifier")), None)
    if name is None:
        return None
    line, col = src.line(name), src.col(name)
    return next((d for d in out.definitions if d.name_line == line and d.name_col == col and d.generated is None),
                None)


def declarations(src: SourceText, root: Node) -> list[tuple[Node, list[KtAnnotation]]]:
    """Every class, object and function declaration under ``root`` with its annotations (those of
    its ``modifiers`` and a top-level ``prefix_expression`` just before it), in source order."""
    found: list[tuple[Node, list[KtAnnotation]]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        kids = n.named_children
        for i, c in enumerate(kids):
            if c.type in _DECLS:
                nodes: list[Node] = []
                mods = next((m for m in c.named_children if m.type == "modifiers"), None)
                if i > 0 and kids[i - 1].type in ("prefix_expression", "annotation") \
                        and kids[i - 1].end_point[0] + 1 >= c.start_point[0]:
                    nodes += annotation_nodes(kids[i - 1])
                if mods is not None:
                    nodes += [a for a in mods.named_children if a.type == "annotation"]
                anns = [a for a in (KtAnnotation.parse(src, x) for x in nodes) if a is not None]
                found.append((c, anns))
            if c.named_child_count:
                stack.append(c)
    found.sort(key=lambda p: p[0].start_byte)
    return found


def caller_at(out: FileExtraction, line: int, col: int) -> str | None:
    """The ``caller`` of the call site the extractor recorded at (``line``, ``col``) (``None``: none
    there, or module level)."""
    return next((c.caller for c in out.calls if c.line == line and c.col == col), None)


def callee(call: Node) -> tuple[Node | None, Node | None]:
    """The callee's name node (a ``simple_identifier``) and its explicit receiver (``None``: implicit) of a
    ``call_expression``: ``send(r)`` -> (``send``, None), ``consumer.poll(d)`` -> (``poll``, ``consumer``);
    ``(None, None)`` for any other callee (a call of a call, a lambda)."""
    head = call.named_children[0] if call.named_children else None
    if head is None:
        return None, None
    if head.type == "simple_identifier":
        return head, None
    if head.type == "navigation_expression" and len(head.named_children) == 2:
        suffix = head.named_children[1]
        name = suffix.named_children[0] if suffix.named_children else None
        if name is not None and name.type == "simple_identifier":
            return name, head.named_children[0]
    return None, None


def short_type(text: str) -> str:
    """A declared type's simple name: ``KStream<String, Order>?`` / ``org.x.KStream`` /
    ``KafkaConsumer().apply`` -> ``KStream`` / ``KafkaConsumer``."""
    return text.split("(", 1)[0].split("<", 1)[0].rstrip("?").rsplit(".", 1)[-1].strip()


def declared_type(out: FileExtraction, scope: str | None, name: str) -> str | None:
    """The declared or constructed type of ``name`` seen from ``scope`` (a qualname): a binding of
    the scope or of an enclosing one (``this.x`` too); ``None`` when the file binds none."""
    name = name.removeprefix("this.")
    scopes: list[str | None] = []
    s = scope
    while s:
        scopes.append(s)
        s = s.rpartition(".")[0] or None
    scopes.append(None)
    for sc in scopes:
        for b in out.bindings:
            if b.scope == sc and b.name in (name, f"this.{name}") and b.how in ("declared", "constructed"):
                return b.type
    return None


def inline_function(out: FileExtraction, src: SourceText, fn: Node, name: str, parent: str | None) -> str:
    """Make the lambda ``fn`` (a Ktor route's handler block) a function definition of its own named
    ``name`` (``#2``... when taken) under ``parent``; the calls written in it that belonged to
    ``parent`` now belong to it. Returns its qualname (the convention is :mod:`indexer.symbols`')."""
    unique = unique_name(name, {d.name for d in out.definitions if d.parent == parent})
    return inline_definition(out, src, fn, unique, parent, signature=unique)
