"""Helpers shared by the Java framework detectors (not a detector: not in the registry).

* :class:`JavaFile`: one file's view, built once and shared by the Java detectors of that file (the
  registry runs them one after the other on the same ``src`` and ``out``): the definition of a
  declaration node, the annotations of each declaration (``queries/java/annotations.scm``), call
  sites by position, declared types of names, and :meth:`JavaFile.template`;
* :class:`Annotation`: an annotation's name and its arguments by element name;
* :func:`join_path` / :func:`rooted`: path composition the way Spring combines a class-level and a
  method-level mapping (also a base URL and a request path).

Position convention of every Java detector: a fact declared by an annotation sits at the
annotation's name (``GetMapping`` in ``@GetMapping("/x")``); a fact declared by a call sits at the
callee name (``getForObject``, ``get`` in ``client.get().uri(...)``, ``send``), as
:class:`~indexer.model.CallSite` does; a servlet route sits at its ``doGet`` / ``doPost`` method name.

Templates (:meth:`JavaFile.template`): a string literal is ``lit`` (escapes decoded, a text block
dedented); ``a + b`` concatenates; a number or char literal is ``lit``; a parenthesised expression
is its content; ``URI.create(x)`` and ``new URI(x)`` are ``x``; an environment variable's read with a
default (``System.getenv().getOrDefault("T", "orders")``, ``Optional.ofNullable(System.getenv("T")).orElse("orders")``:
:data:`~indexer.frameworks.env_config.ENV_READ`) is the default; a name or dotted name is a ``ref``
(``Paths.OWNERS``, ``BASE``; ``this.x`` is ``x``) except a parameter or local variable of the
enclosing method: a local declared once with a value and never assigned again is replaced by its
value (``String base = "http://vets-service/"``), any other local or parameter is a ``hole``;
anything else (a call, a ternary) is a ``hole`` holding the expression's text without whitespace.
Adjacent literal pieces are merged, empty ones dropped. Locals are matched by name within the
method (declaration order and block scoping are not checked).

Walking a node's parents (the enclosing method or type) and reading inside one expression (a
template) is done in Python here: a query cannot express either. Everything else is found by the
query files.
"""

from __future__ import annotations

import bisect
import re
import textwrap
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass

from tree_sitter import Node

from indexer.frameworks import HTTP_METHODS, join_path, rooted
from indexer.frameworks import ENV_READ, URI_BUILDER_KEEPS, URI_BUILDER_ROOTS, URI_BUILDERS, call_piece
from indexer.languages.base import SourceText, query, run_query, storable
from indexer.model import CallSite, Definition, FileExtraction, Template, TopicUse, base_type

__all__ = [
    "GRAMMAR",
    "HTTP_METHODS",
    "POLLING_RECEIVES",
    "Annotation",
    "JavaFile",
    "compact",
    "concat",
    "elements",
    "http_method",
    "listener_uses",
    "polled_destination",
    "join_path",
    "rooted",
    "string_value",
]

GRAMMAR = "java"

_WS = re.compile(r"\s+")
_DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_ESCAPE = re.compile(r"\\(u+[0-9a-fA-F]{4}|[0-7]{1,3}|\n|.)", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", "r": "\r", "f": "\f", "s": " ", "\n": ""}
_MAX_DEPTH = 48  # nesting a template follows; deeper becomes a hole
_FORMAT = re.compile(r"%(?:[-#+ 0,(]*\d*(?:\.\d+)?)([a-zA-Z%])")
_COMMENTS = frozenset({"line_comment", "block_comment"})
_MAX_CHAIN = 32
_NUMBERS = frozenset(
    {
        "decimal_integer_literal",
        "hex_integer_literal",
        "octal_integer_literal",
        "binary_integer_literal",
        "decimal_floating_point_literal",
        "hex_floating_point_literal",
    }
)
_DECL_KINDS = {
    "class_declaration": "class",
    "record_declaration": "class",
    "interface_declaration": "interface",
    "annotation_type_declaration": "interface",
    "enum_declaration": "enum",
    "method_declaration": "method",
    "annotation_type_element_declaration": "method",
    "constructor_declaration": "constructor",
    "compact_constructor_declaration": "constructor",
}
_TYPE_DECLS = frozenset(
    {
        "class_declaration",
        "record_declaration",
        "interface_declaration",
        "annotation_type_declaration",
        "enum_declaration",
    }
)
_CALLABLE_DECLS = frozenset({"method_declaration", "constructor_declaration", "compact_constructor_declaration"})


POLLING_RECEIVES = frozenset(
    {"receive", "receiveAndConvert", "receiveAndReply", "receiveSelected", "receiveSelectedAndConvert"})
"""Polling reads of Spring's ``RabbitTemplate`` / ``JmsTemplate``: the first argument, when it is a
name rather than a timeout, callback or type reference, is the queue or destination consumed."""
_NOT_DESTINATIONS = _NUMBERS | {"lambda_expression", "method_reference", "object_creation_expression",
                                "class_literal", "null_literal"}


def listener_uses(jf: JavaFile, annotation: str, keys: tuple[str, ...], framework: str,
                  broker: str) -> list[TopicUse]:
    """``consumes`` :class:`~indexer.model.TopicUse` facts of the methods annotated ``@annotation``
    (``@JmsListener(destination = "q")``, ``@SqsListener({"a", "b"})``): one per destination the
    first of ``keys`` present names (a template each), owned by the method, at the annotation's name."""
    src = jf.src
    found: list[TopicUse] = []
    for decl, anns in jf.annotated(annotation):
        if decl.type != "method_declaration":
            continue
        owner = jf.qualname(decl)
        for ann in anns:
            if ann.name == annotation:
                for v in ann.values(*keys) or []:
                    found.append(TopicUse(framework, "consumes", jf.template(v), owner, src.line(ann.name_node),
                                          src.col(ann.name_node), broker=broker))
    return found


def polled_destination(args: list[Node]) -> Node | None:
    """The queue / destination argument of a polling receive (:data:`POLLING_RECEIVES`), given the
    call's arguments without comments: the first argument unless it is a number (``receive(5000)``: a
    timeout on the default queue), a callback, a ``new ParameterizedTypeReference<...>() {}`` or a
    class literal; ``None`` when there is none (``receive()`` reads the template's default queue)."""
    if not args or args[0].type in _NOT_DESTINATIONS:
        return None
    return args[0]


def compact(src: SourceText, node: Node | None) -> str:
    """The node's text without whitespace (``RequestMethod . GET`` -> ``RequestMethod.GET``)."""
    return _WS.sub("", src.text(node))


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text

    def one(m: re.Match[str]) -> str:
        esc = m.group(1)
        if esc[0] == "u":
            return chr(int(esc.lstrip("u"), 16))
        if esc[0] in "01234567":
            return chr(int(esc, 8))
        return _ESCAPES.get(esc, esc)

    return storable(_ESCAPE.sub(one, text))


def string_value(src: SourceText, node: Node) -> str:
    """The value of a ``string_literal`` node: escapes decoded; a text block (``\"\"\"``) starts after
    its first line break and loses its common indentation."""
    raw = src.text(node)
    if raw.startswith('"""'):
        body = raw[3:-3] if len(raw) >= 6 and raw.endswith('"""') else raw[3:]
        body = body.split("\n", 1)[1] if "\n" in body else body
        return _unescape(textwrap.dedent(body))
    body = raw[1:-1] if len(raw) >= 2 and raw.endswith('"') else raw[1:]
    return _unescape(body)


def elements(node: Node) -> list[Node]:
    """The elements of an annotation array value (``{"/a", "/b"}``), or ``[node]`` for one value."""
    if node.type in ("element_value_array_initializer", "array_initializer"):
        return [c for c in node.named_children if c.type not in _COMMENTS]
    return [node]


def http_method(src: SourceText, node: Node | None) -> str | None:
    """``RequestMethod.GET`` / ``HttpMethod.POST`` / a statically imported ``GET`` -> the upper-case
    method; ``None`` for anything else (``HttpMethod.valueOf(m)``)."""
    if node is None:
        return None
    last = compact(src, node).rsplit(".", 1)[-1].upper()
    return last if last in HTTP_METHODS and node.type in ("identifier", "field_access") else None


_merge = Template.merged


def concat(*templates: Template) -> Template:
    """The templates one after the other, adjacent literal pieces merged."""
    return _merge([p for t in templates for p in t.parts])


def _type_name(text: str | None) -> str | None:
    """``org.x.WebClient.Builder<T>`` -> ``WebClient.Builder``: generics and the package dropped."""
    t = base_type(text)
    if not t:
        return None
    segs = t.split(".")
    while len(segs) > 1 and segs[0][:1].islower():
        segs.pop(0)
    return ".".join(segs)


@dataclass(slots=True)
class Annotation:
    """One annotation: ``name`` is its last dotted segment (``GetMapping``), ``node`` the annotation,
    ``name_node`` its name, ``args`` the element values by element name (a lone argument is
    ``value``)."""

    name: str
    node: Node
    name_node: Node
    args: dict[str, Node]

    @staticmethod
    def parse(src: SourceText, node: Node) -> Annotation:
        """Read an ``annotation`` / ``marker_annotation`` node."""
        name_node = node.child_by_field_name("name") or node
        args: dict[str, Node] = {}
        arglist = node.child_by_field_name("arguments")
        if arglist is not None:
            for child in arglist.named_children:
                if child.type == "element_value_pair":
                    key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
                    if key is not None and value is not None:
                        args[src.text(key)] = value
                elif child.type not in _COMMENTS:
                    args["value"] = child
        return Annotation(compact(src, name_node).rsplit(".", 1)[-1], node, name_node, args)

    def values(self, *keys: str) -> list[Node] | None:
        """The elements of the first of ``keys`` present (an array's elements, else its one value);
        ``None`` when none of them is given."""
        for key in keys:
            v = self.args.get(key)
            if v is not None:
                return elements(v)
        return None


@dataclass(slots=True)
class _Locals:
    """The locals of one method: value node per name declared once with a value and never assigned
    again (``None`` for the others), plus the parameter names."""

    values: dict[str, Node | None]
    params: frozenset[str]


class JavaFile:
    """One Java file as the detectors read it; :meth:`of` returns the instance shared by the
    detectors of the current file."""

    _last: JavaFile | None = None

    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.root, self.src, self.out = root, src, out
        self._defs: dict[tuple[int, int, str], Definition] = {}
        self._fields: dict[tuple[int, int], Definition] = {}
        for d in out.definitions:
            if d.kind == "field":
                self._fields[(d.name_line, d.name_col)] = d
            else:
                self._defs[(d.start_line, d.start_col, d.kind)] = d
        self._calls: dict[tuple[int, int], CallSite] | None = None
        self._types: dict[tuple[str | None, str], str] | None = None
        self._call_names: frozenset[str] | None = None
        self._decorators: frozenset[str] | None = None
        self._annotations: dict[int, tuple[Node, list[Annotation]]] | None = None
        self._locals: dict[int, _Locals] = {}
        self._decls: tuple[list[int], list[Node], list[int]] | None = None

    @classmethod
    def of(cls, root: Node, src: SourceText, out: FileExtraction) -> JavaFile:
        """The view of this file, built by the first detector that asks (one file is cached)."""
        last = cls._last
        if last is not None and last.src is src and last.out is out:
            return last
        jf = cls(root, src, out)
        cls._last = jf
        return jf

    # -- definitions -------------------------------------------------------------------------------

    def definition(self, decl: Node) -> Definition | None:
        """The extractor's definition of a type / method / constructor declaration node."""
        kind = _DECL_KINDS.get(decl.type)
        if kind is None:
            return None
        return self._defs.get((decl.start_point[0] + 1, self.src.col(decl), kind))

    def qualname(self, decl: Node) -> str | None:
        """Qualname of a declaration node (``None``: not a definition, e.g. an anonymous class member)."""
        d = self.definition(decl)
        return d.qualname if d is not None else None

    def field(self, name_node: Node) -> Definition | None:
        """The field definition whose name is ``name_node``."""
        return self._fields.get((name_node.start_point[0] + 1, self.src.col(name_node)))

    def enclosing(self, node: Node) -> str | None:
        """Qualname of the innermost named method, constructor or type holding ``node`` (a lambda or
        anonymous class belongs to the named method around it, as a call's ``caller`` does)."""
        found = self._innermost(node, _DECL_KINDS)
        return self.qualname(found) if found is not None else None

    def enclosing_type(self, node: Node) -> Node | None:
        """The innermost named type declaration holding ``node``."""
        return self._innermost(node, _TYPE_DECLS)

    def _innermost(self, node: Node, types: Mapping[str, object] | frozenset[str]) -> Node | None:
        """The innermost declaration of the extractor's definitions (:meth:`definition`) of one of
        ``types`` that holds ``node`` (not ``node`` itself), found by byte range among the file's
        declarations: as many steps as declarations are nested there. Walking up ``Node.parent``
        cost the depth of the tree at each step (tree-sitter finds a parent from the root): a chain
        of 1,000 ``.onMessage(...)`` calls took 8 s, 3,000 minutes."""
        starts, decls, up = self._declarations()
        i = bisect.bisect_right(starts, node.start_byte) - 1
        while i >= 0:  # the last declaration starting at or before node, then the ones around it
            d = decls[i]
            if d.end_byte >= node.end_byte and d.id != node.id and d.type in types:
                return d
            i = up[i]
        return None

    def _declarations(self) -> tuple[list[int], list[Node], list[int]]:
        """The declaration nodes of the file's definitions by start byte: ``(starts, nodes, up)``,
        ``up[i]`` the index of the innermost one holding ``nodes[i]`` (``-1``: none). Read once."""
        if self._decls is None:
            nodes = sorted({n.id: n for _, caps in run_query(query(GRAMMAR, "java/queries", "definitions"), self.root)
                            for key, found in caps.items() if key.startswith("def.") for n in found
                            if n.type in _DECL_KINDS and self.definition(n) is not None}.values(),
                           key=lambda n: (n.start_byte, -n.end_byte))
            up: list[int] = []
            open_: list[int] = []
            for i, n in enumerate(nodes):
                while open_ and nodes[open_[-1]].end_byte < n.end_byte:
                    open_.pop()
                up.append(open_[-1] if open_ else -1)
                open_.append(i)
            self._decls = ([n.start_byte for n in nodes], nodes, up)
        return self._decls

    def methods(self, type_decl: Node) -> list[Node]:
        """The method declarations directly in a type's body."""
        body = type_decl.child_by_field_name("body")
        if body is None:
            return []
        return [c for c in body.named_children if c.type == "method_declaration"]

    # -- annotations -------------------------------------------------------------------------------

    def _annotation_table(self) -> dict[int, tuple[Node, list[Annotation]]]:
        if self._annotations is None:
            table: dict[int, tuple[Node, list[Annotation]]] = {}
            for _, m in run_query(query(GRAMMAR, "java/queries", "annotations"), self.root):
                decl, ann = m["decl"][0], m["annotation"][0]
                table.setdefault(decl.id, (decl, []))[1].append(Annotation.parse(self.src, ann))
            for _, anns in table.values():
                anns.sort(key=lambda a: a.node.start_byte)
            self._annotations = dict(sorted(table.items(), key=lambda kv: kv[1][0].start_byte))
        return self._annotations

    def annotated(self, *names: str) -> list[tuple[Node, list[Annotation]]]:
        """Declarations (types, methods, fields) carrying one of the annotations ``names``, in source
        order, each with *all* its annotations."""
        if self._decorators is None:
            self._decorators = frozenset(
                deco.split("(", 1)[0].strip().rsplit(".", 1)[-1] for d in self.out.definitions for deco in d.decorators
            )
        wanted = set(names)
        if self._decorators.isdisjoint(wanted):  # the extractor saw none of them: skip the query
            return []
        return [(d, anns) for d, anns in self._annotation_table().values() if any(a.name in wanted for a in anns)]

    def annotations(self, decl: Node) -> list[Annotation]:
        """Every annotation on ``decl``."""
        entry = self._annotation_table().get(decl.id)
        return entry[1] if entry else []

    # -- calls and names ---------------------------------------------------------------------------

    def call(self, name_node: Node) -> CallSite | None:
        """The extractor's call site whose callee name is ``name_node`` (caller and receiver text)."""
        if self._calls is None:
            self._calls = {(c.line, c.col): c for c in self.out.calls}
        return self._calls.get((name_node.start_point[0] + 1, self.src.col(name_node)))

    def invocations(self, names: Collection[str]) -> Iterator[tuple[Node, str, Node, list[Node], str | None]]:
        """Each method invocation with a receiver (``receiver.name(args)``) whose name is one of ``names``, in
        the order of a depth-first walk of the file: ``(name node, name, receiver node, the arguments without
        comments, the calling definition's qualname or None at top level)``. The caller is the extractor's call
        site's, else the enclosing definition's."""
        src, stack = self.src, [self.root]
        while stack:
            n = stack.pop()
            stack.extend(n.named_children)
            if n.type != "method_invocation":
                continue
            name_node, receiver = n.child_by_field_name("name"), n.child_by_field_name("object")
            name = src.text(name_node) if name_node is not None else ""
            if receiver is None or name not in names:
                continue
            args = [c for c in (n.child_by_field_name("arguments") or n).named_children
                    if c.type not in ("line_comment", "block_comment")]
            site = self.call(name_node)
            yield name_node, name, receiver, args, site.caller if site is not None else self.enclosing(name_node)

    def calls_any(self, names: frozenset[str]) -> bool:
        """Whether the file calls a method with one of ``names`` (lets a detector skip its query)."""
        if self._call_names is None:
            self._call_names = frozenset(c.name for c in self.out.calls)
        return not self._call_names.isdisjoint(names)

    def declared_type(self, name: str, scope: str | None) -> str | None:
        """Declared type (package and generics dropped: ``WebClient.Builder``) of a name bound in
        ``scope`` or an enclosing scope (parameters, locals, fields)."""
        if self._types is None:
            self._types = {}
            for b in self.out.bindings:
                if b.how != "alias":
                    self._types.setdefault((b.scope, b.name), b.type)
        s = scope
        while True:
            t = self._types.get((s, name))
            if t is not None:
                return _type_name(t)
            if not s:
                return None
            s = s.rpartition(".")[0] or None

    def client_kind(self, receiver: str | None, scope: str | None, types: Mapping[str, str]) -> str | None:
        """Which client a receiver text is: ``types`` maps a type name (``RestTemplate``,
        ``WebClient.Builder``) to a kind. The declared type of the receiver's first name decides when
        it is known; otherwise a kind whose type name, lower-cased, is in the lower-cased receiver text
        (``restTemplate``, ``this.webClientBuilder.build()``, ``WebClient.create()``)."""
        if not receiver:
            return None
        head = receiver.removeprefix("this.").split(".", 1)[0].split("(", 1)[0]
        declared = self.declared_type(head, scope) if head else None
        if declared is not None:
            return types.get(declared)
        low = receiver.lower()
        for tname, kind in types.items():
            if "." not in tname and tname.lower() in low:
                return kind
        return None

    def _method_locals(self, method: Node) -> _Locals:
        found = self._locals.get(method.id)
        if found is not None:
            return found
        decls: dict[str, list[Node | None]] = {}
        assigned: set[str] = set()
        for _, m in run_query(query(GRAMMAR, "java/queries", "locals"), method):
            if "assigned" in m:
                assigned.add(self.src.text(m["assigned"][0]))
            else:
                value = m.get("value")
                decls.setdefault(self.src.text(m["name"][0]), []).append(value[0] if value else None)
        values = {name: (vals[0] if len(vals) == 1 and name not in assigned else None) for name, vals in decls.items()}
        params: set[str] = set()
        plist = method.child_by_field_name("parameters")
        for p in plist.named_children if plist is not None else ():
            if p.type == "formal_parameter":
                params.add(self.src.text(p.child_by_field_name("name")))
            elif p.type == "spread_parameter":
                decl = next((c for c in p.named_children if c.type == "variable_declarator"), None)
                if decl is not None:
                    params.add(self.src.text(decl.child_by_field_name("name")))
        found = _Locals(values, frozenset(params))
        self._locals[method.id] = found
        return found

    def local(self, ident: Node) -> tuple[bool, Node | None]:
        """``(is_local, value)`` for an identifier: whether it names a parameter or local variable of
        the enclosing method, and the local's value node when it is declared once with a value and
        never assigned again."""
        p = ident.parent
        while p is not None and p.type not in _CALLABLE_DECLS and p.type not in _TYPE_DECLS:
            p = p.parent
        if p is None or p.type in _TYPE_DECLS:
            return False, None
        locs = self._method_locals(p)
        name = self.src.text(ident)
        if name in locs.values:
            return True, locs.values[name]
        return name in locs.params, None

    # -- templates ---------------------------------------------------------------------------------

    def template(self, node: Node | None, params: frozenset[str] = frozenset()) -> Template:
        """The :class:`~indexer.model.Template` of an expression (rules in the module docstring). A name among
        ``params`` (a URL builder's parameters, :mod:`indexer.languages.java.frameworks.url_builders`) is a ``ref``
        piece; ``String.format("%s/x/%s", a, b)`` with a literal format fills its ``%s`` / ``%d`` with the
        arguments; another call ``f(a)`` / ``x.f(a)`` is a ``call:`` piece
        (:func:`indexer.frameworks.url_builder_rule.call_piece`), which the linker folds when ``f`` is a builder."""
        if node is None:
            return Template()
        return _merge(self._parts(node, 0, params))

    def _parts(self, node: Node, depth: int, params: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
        src = self.src
        t = node.type
        if depth > _MAX_DEPTH:
            return [("hole", compact(src, node))]
        if t == "string_literal":
            return [("lit", string_value(src, node))]
        if t == "binary_expression" and src.text(node.child_by_field_name("operator")) == "+":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None:
                return self._parts(left, depth + 1, params) + self._parts(right, depth + 1, params)
        if t == "parenthesized_expression":
            inner = next((c for c in node.named_children if c.type not in _COMMENTS), None)
            if inner is not None:
                return self._parts(inner, depth + 1, params)
        if t in _NUMBERS:
            return [("lit", src.text(node).rstrip("lLfFdD"))]
        if t == "character_literal":
            return [("lit", _unescape(src.text(node)[1:-1]))]
        if t == "identifier":
            if src.text(node) in params:
                return [("ref", src.text(node))]
            is_local, value = self.local(node)
            if value is not None:
                return self._parts(value, depth + 1, params)
            return [("hole" if is_local else "ref", src.text(node))]
        if t == "field_access":
            text = compact(src, node).removeprefix("this.")
            if _DOTTED.fullmatch(text):
                return [("ref", text)]
        inner = self._uri_argument(node) or self._env_default(node)
        if inner is not None:
            return self._parts(inner, depth + 1, params)
        if t == "method_invocation":
            return self._call_parts(node, depth, params)
        return [("hole", compact(src, node))]

    def _call_parts(self, node: Node, depth: int, params: frozenset[str]) -> list[tuple[str, str]]:
        """``String.format`` with a literal format (each ``%s`` / ``%d`` the next argument, ``%%`` a ``%``, any other
        conversion a hole), or a ``call:`` piece (:meth:`template`)."""
        src = self.src
        obj, name = node.child_by_field_name("object"), src.text(node.child_by_field_name("name"))
        args = [c for c in (node.child_by_field_name("arguments") or node).named_children if c.type not in _COMMENTS]
        whole = [("hole", compact(src, node))]
        if name == "format" and obj is not None and compact(src, obj) in ("String", "java.lang.String") and args \
                and args[0].type == "string_literal":
            out: list[tuple[str, str]] = []
            rest = iter(args[1:])
            fmt = string_value(src, args[0])
            pos = 0
            for m in _FORMAT.finditer(fmt):
                out.append(("lit", fmt[pos:m.start()]))
                pos = m.end()
                if m.group(0) == "%%":
                    out.append(("lit", "%"))
                    continue
                arg = next(rest, None)
                if arg is None:
                    return whole
                out.extend(self._parts(arg, depth + 1, params) if m.group(1) in "sd" else [("hole", m.group(0))])
            out.append(("lit", fmt[pos:]))
            return out
        chain = self._uri_builder_parts(node, depth, params)
        if chain is not None:
            return chain
        if obj is not None and obj.type not in ("identifier", "this", "field_access"):
            return whole
        callee = name if obj is None else f"{compact(src, obj).removeprefix('this.')}.{name}".removeprefix("this.")
        built = [_merge(self._parts(a, depth + 1, params)) for a in args]
        return [call_piece(callee, built, compact(src, node))]

    def _uri_builder_parts(self, node: Node, depth: int, params: frozenset[str]) -> list[tuple[str, str]] | None:
        """Spring's ``UriComponentsBuilder.fromHttpUrl(base).path("/x").pathSegment(a, b)...toUriString()`` (also
        ``fromUriString`` / ``fromPath``, ending ``build()`` / ``buildAndExpand(...)`` / ``toUri()`` / ``encode()``
        / ``toString()``): the base, then each ``path`` and ``pathSegment`` (``/`` before each segment); query and
        fragment calls add nothing to the path. ``None`` for any other chain, or one setting the scheme, host or port
        or replacing the path (not read)."""
        calls: list[tuple[str, list[Node]]] = []
        n: Node | None = node
        while n is not None and n.type == "method_invocation" and len(calls) < _MAX_CHAIN:
            name = self.src.text(n.child_by_field_name("name"))
            args = [c for c in (n.child_by_field_name("arguments") or n).named_children if c.type not in _COMMENTS]
            calls.append((name, args))
            obj = n.child_by_field_name("object")
            if obj is not None and obj.type == "identifier" and self.src.text(obj) in URI_BUILDERS:
                break
            n = obj
        else:
            return None
        calls.reverse()
        first, first_args = calls[0]
        if first not in URI_BUILDER_ROOTS or len(first_args) != 1:
            return None
        out = self._parts(first_args[0], depth + 1, params)
        for name, args in calls[1:]:
            if name == "path" and len(args) == 1:
                out += self._parts(args[0], depth + 1, params)
            elif name == "pathSegment":
                for a in args:
                    out += [("lit", "/"), *self._parts(a, depth + 1, params)]
            elif name not in URI_BUILDER_KEEPS:
                return None
        return out

    def _env_default(self, node: Node) -> Node | None:
        """The default of an environment variable's read: ``d`` of ``System.getenv().getOrDefault("X", d)``
        and of ``Optional.ofNullable(System.getenv("X")).orElse(d)``; else ``None``."""
        if node.type != "method_invocation":
            return None
        name, obj = self.src.text(node.child_by_field_name("name")), node.child_by_field_name("object")
        args = [c for c in (node.child_by_field_name("arguments") or node).named_children if c.type not in _COMMENTS]
        if obj is None:
            return None
        if name == "getOrDefault" and len(args) == 2 and ENV_READ.match(compact(self.src, obj)):
            return args[1]
        if name == "orElse" and len(args) == 1 and obj.type == "method_invocation" \
                and self.src.text(obj.child_by_field_name("name")) == "ofNullable":
            inner = [c for c in (obj.child_by_field_name("arguments") or obj).named_children if c.type not in _COMMENTS]
            if len(inner) == 1 and ENV_READ.match(compact(self.src, inner[0])):
                return args[0]
        return None

    def _uri_argument(self, node: Node) -> Node | None:
        """``x`` of ``URI.create(x)`` / ``new URI(x)`` (one argument), else ``None``."""
        if node.type == "method_invocation":
            obj = node.child_by_field_name("object")
            if obj is None or compact(self.src, obj) not in ("URI", "java.net.URI"):
                return None
            if self.src.text(node.child_by_field_name("name")) != "create":
                return None
        elif node.type == "object_creation_expression":
            if compact(self.src, node.child_by_field_name("type")) not in ("URI", "java.net.URI"):
                return None
        else:
            return None
        args = node.child_by_field_name("arguments")
        items = [c for c in args.named_children if c.type not in _COMMENTS] if args is not None else []
        return items[0] if len(items) == 1 else None
