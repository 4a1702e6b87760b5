"""C# extractor: one ``.cs`` file -> :class:`~indexer.model.FileExtraction`.

The file's imports come from ``queries/imports.scm``; definitions, calls and bindings from one walk
of the tree, because C#'s rules there depend on the enclosing declarations (a method's qualname on
its nested types, a call's caller on the member holding it, the receiver of an extension method on
its ``this`` parameter), which a flat query cannot say. Mapping onto the IR:

* ``package`` is the namespace (file-scoped ``namespace A.B;`` or the first block ``namespace A.B
  { }``; a nested block namespace is appended: ``A.B.Inner``). Types of a second, sibling namespace
  of the same file are given the first one (a limit);
* ``using A.B;`` -> ``Import("*", "A.B", None)``; ``using static A.B.C;`` -> ``Import("*", "A.B.C",
  None)`` (a class's members); ``using X = A.B.C;`` -> ``Import("X", "A.B", "C")``;
* classes, structs and records are ``class`` (``modifiers`` say ``struct`` / ``record``),
  interfaces ``interface``, enums ``enum``; a base list's names starting ``I`` + capital go to
  ``implements``, the others to ``bases``; attributes are ``decorators`` as written without brackets
  (``HttpGet("{id}")``, ``Route("api/[controller]")``); ``partial`` is a modifier: the parts of a
  partial class are one type for the resolver (its module system's ``open_types``);
* methods are ``method``, constructors ``constructor`` named after the class (``Foo.Foo``),
  properties and fields ``field`` (a property has the modifier ``property``); a record's primary
  constructor gives a constructor and one property per parameter; an extension method (``static T
  F(this Order o, ...)``) has ``receiver_type`` ``Order`` and its ``this`` parameter is not listed in
  ``params``, so ``order.F(...)`` is bound by the call's arity; ``async Task<T>`` / ``ValueTask<T>``
  return ``T``;
* calls: ``f(x)``, ``a.b.F(x)``, ``new Foo(x)`` (``is_new``), ``: base(x)`` / ``: this(x)``
  (``super`` / ``this`` as names), ``base.F()`` (receiver ``super``); generic arguments dropped;
  lambdas' calls belong to the enclosing member;
* bindings: parameters, typed locals, ``var x = new Foo()`` (``declared``: the type is written),
  ``var x = Make()`` (``constructed``), fields and properties (``this.x`` and ``x`` in the class),
  ``foreach (Foo x in xs)``; a constructor's parameters of a class with one constructor are
  ``Injection``s (``constructor``): ASP.NET Core's dependency injection.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from indexer.frameworks import run_detectors
from indexer.languages.base import SourceText, parse_errors, parser, query, run_query, unambiguous_elements, kept_on_failure
from indexer.languages.csharp.containers import kept_type, tuple_type
from indexer.languages.csharp.frameworks import detectors_for
from indexer.model import (
    LONG_RECEIVER,
    MAX_RECEIVER_LINKS,
    Binding,
    CallSite,
    Definition,
    FileExtraction,
    Import,
    Injection,
    Param,
    TypeUse,
)

__all__ = ["EXTRACTOR", "GLOBAL_USING", "CSharpExtractor", "type_text"]

GRAMMAR = "csharp"
FOLDER = "csharp/queries"
GLOBAL_USING = 1
"""``Import.level`` of a ``global using`` (every file of the project sees it; C# has no relative
imports, so ``level`` is free to say so): :mod:`indexer.languages.csharp.modules` reads it."""
_WS = re.compile(r"\s+")
_TYPES = {"class_declaration": "class", "struct_declaration": "class", "record_declaration": "class",
          "record_struct_declaration": "class", "interface_declaration": "interface", "enum_declaration": "enum"}
_TYPE_MODIFIER = {"struct_declaration": "struct", "record_declaration": "record", "record_struct_declaration": "record"}
_ASYNC_WRAPPERS = ("Task", "ValueTask", "IAsyncEnumerable", "ActionResult")
_INTERFACE_NAME = re.compile(r"^I[A-Z]")
_ELEMENT_LAMBDAS = frozenset({
    "Where", "Select", "SelectMany", "Any", "All", "Count", "LongCount", "First", "FirstOrDefault", "Single",
    "SingleOrDefault", "Last", "LastOrDefault", "OrderBy", "OrderByDescending", "ThenBy", "ThenByDescending",
    "GroupBy", "ToDictionary", "ToLookup", "Sum", "Min", "Max", "Average", "MinBy", "MaxBy", "DistinctBy",
    "TakeWhile", "SkipWhile", "ForEach", "Exists", "Find", "FindAll", "FindIndex", "FindLast", "RemoveAll",
    "TrueForAll", "Include", "AnyAsync", "AllAsync", "CountAsync", "FirstAsync", "FirstOrDefaultAsync",
    "SingleAsync", "SingleOrDefaultAsync", "SumAsync", "ForEachAsync", "ExecuteUpdateAsync",
})
"""LINQ and collection methods handing a one-parameter lambda the elements of their receiver."""


def type_text(text: str, keep_containers: bool = False) -> str:
    """A C# type as the resolver looks it up: generics, ``?``, ``[]`` and ``global::`` dropped;
    ``Task<Order>`` / ``ValueTask<Order>`` / ``ActionResult<Order>`` -> ``Order``. With
    ``keep_containers``, a library container of one named type keeps its element
    (``Task<List<Order>>`` -> ``List<Order>``: :func:`indexer.languages.csharp.containers.kept_type`)."""
    if keep_containers:  # `(Order o, Buyer b)` before whitespace goes: each element's name is kept
        raw = re.match(r"^\s*(?:[\w.]+\.)?(\w+)\s*<(.*)>\s*\??\s*$", text, re.S)
        if raw and raw.group(1) in _ASYNC_WRAPPERS and raw.group(2).lstrip().startswith("("):
            return type_text(raw.group(2), keep_containers)
        tup = tuple_type(text)
        if tup is not None:
            return tup
    t = _WS.sub("", text).removeprefix("global::")
    m = re.match(r"^(?:[\w.]+\.)?(\w+)<(.*)>\??$", t)
    if m and m.group(1) in _ASYNC_WRAPPERS and "," not in m.group(2):
        return type_text(m.group(2), keep_containers)
    kept = kept_type(t) if keep_containers else None
    if kept is not None:
        return kept
    depth, out = 0, []
    for ch in t:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out).rstrip("?").split("[", 1)[0]


class CSharpExtractor:
    """The C# :class:`~indexer.languages.base.Extractor` for ``.cs`` files."""

    language = "csharp"
    extensions = (".cs",)

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """Definitions, calls, imports, bindings and injections of one C# file; never raises on bad
        source (syntax errors go to ``errors``, an unexpected failure to an ``internal error`` entry)."""
        out = FileExtraction(path=path, language=self.language)
        with kept_on_failure(out):
            fx = _FileExtractor(source, out)
            fx.run()
            run_detectors(detectors_for(self.language), fx.root, fx.src, out)
        return out


class _FileExtractor:
    """The per-file work of :class:`CSharpExtractor`."""

    def __init__(self, source: bytes, out: FileExtraction) -> None:
        self.src = SourceText(source)
        self.out = out
        self.root = parser(GRAMMAR).parse(source).root_node
        self.elements: list[Binding] = []
        """``element`` bindings of the lambda parameters LINQ hands a container's elements, kept
        when their name is bound to nothing else in the member (:meth:`_element_bindings`)."""
        self._ctors: dict[str | None, list[Definition]] = {}  # constructors by parent (:meth:`_constructors`)
        self._ctors_read = 0  # how many of out.definitions _ctors has read

    def run(self) -> None:
        """Imports by query, the rest by one walk; fill ``self.out``."""
        self.out.errors.extend(parse_errors(self.root, self.src))
        self._imports()
        self._walk(self.root, None, None, 0)
        self._element_bindings()
        self.out.calls.sort(key=lambda c: (c.line, c.col))
        self.out.bindings.sort(key=lambda b: b.line)

    # -- helpers ------------------------------------------------------------------------------------

    def text(self, node: Node | None) -> str:
        return self.src.text(node) if node is not None else ""

    def flat(self, node: Node | None) -> str:
        return _WS.sub("", self.text(node))

    def _imports(self) -> None:
        src = self.src
        for _, m in run_query(query(GRAMMAR, FOLDER, "imports"), self.root):
            node = m["using"][0]
            name = m.get("name")
            target = self.flat(m["target"][0])
            static = any(c.type == "static" for c in node.children)
            scope = GLOBAL_USING if any(c.type == "global" for c in node.children) else 0
            line = src.line(node)
            if name:
                module, _, member = target.rpartition(".")
                self.out.imports.append(Import(self.text(name[0]), module, member or None, scope, line=line))
            else:
                self.out.imports.append(Import("*", target, None, scope, line=line))
            if static and name is None:
                pass  # a class's members: resolved as a wildcard import of the class
        self.out.imports.sort(key=lambda i: i.line)

    # -- the walk -----------------------------------------------------------------------------------

    def _walk(self, node: Node, cls: str | None, member: str | None, depth: int) -> None:
        """Visit ``node``'s children: ``cls`` is the enclosing type's qualname, ``member`` the
        qualname of the enclosing method / constructor / property (the caller of calls)."""
        if depth > 400:
            return
        for child in node.named_children:
            t = child.type
            if t == "file_scoped_namespace_declaration" or t == "namespace_declaration":
                name = self.flat(child.child_by_field_name("name"))
                if self.out.package is None:
                    self.out.package = name
                elif t == "namespace_declaration" and depth > 0:
                    self.out.package = f"{self.out.package}.{name}"
                self._walk(child, cls, member, depth + 1)
            elif t == "declaration_list" and node.type in ("namespace_declaration",):
                self._walk(child, cls, member, depth + 1)
            elif t in _TYPES:
                self._type(child, cls, depth)
            elif t in ("method_declaration", "constructor_declaration", "local_function_statement",
                       "operator_declaration") and cls is not None or t == "local_function_statement":
                self._method(child, cls, member, depth)
            elif t in ("property_declaration", "field_declaration", "event_field_declaration") and cls is not None:
                self._field(child, cls, depth)
            elif t in ("invocation_expression", "object_creation_expression", "implicit_object_creation_expression",
                       "constructor_initializer"):
                callee = self._call(child, cls, member)
                if callee is not None:
                    self._lambda_elements(child, callee, member)
                    self._out_value(child, callee, member)
                self._walk(child, cls, member, depth + 1)
            elif t == "assignment_expression":
                self._deconstruct_assignment(child, member)
                self._walk(child, cls, member, depth + 1)
            elif t in ("local_declaration_statement", "using_statement"):
                self._locals(child, member)
                self._walk(child, cls, member, depth + 1)
            elif t == "foreach_statement":
                tnode, left = child.child_by_field_name("type"), child.child_by_field_name("left")
                if tnode is not None and tnode.type != "implicit_type" and left is not None and left.type == "identifier":
                    self._bind(member, self.text(left), self.text(tnode), "declared", left)
                elif left is not None and left.type == "identifier" and child.child_by_field_name("right") is not None:
                    # `foreach (var o in orders)`: an element of what the loop iterates
                    self.elements.append(Binding(member, self.text(left), self._receiver(child.child_by_field_name("right")),
                                                 "element", self.src.line(left)))
                elif left is not None and left.type == "tuple_pattern" and child.child_by_field_name("right") is not None:
                    # `foreach (var (k, v) in byId)`: each name an item of one element (a KeyValuePair's Value)
                    each = self._receiver(child.child_by_field_name("right")) + "[*]"
                    for i, part in enumerate(left.named_children):
                        if part.type == "identifier" and self.text(part) != "_":
                            self.elements.append(Binding(member, self.text(part), f"{each}[{i}]", "item",
                                                         self.src.line(part)))
                self._walk(child, cls, member, depth + 1)
            else:
                self._walk(child, cls, member, depth + 1)

    def _new_def(self, kind: str, name: str, parent: str | None, node: Node, name_node: Node, head_end: int | None = None
                 ) -> Definition:
        src = self.src
        end_row, end_byte_col = node.end_point
        start = node.start_byte
        signature = _WS.sub(" ", src.data[start:head_end if head_end is not None else node.end_byte]
                            .decode("utf-8", "replace")).strip()
        return Definition(kind=kind, name=name, qualname=f"{parent}.{name}" if parent else name, parent=parent,
                          start_line=src.line(node), start_col=src.col(node), end_line=end_row + 1,
                          end_col=src.point_col(end_row, end_byte_col), name_line=src.line(name_node),
                          name_col=src.col(name_node), signature=signature)

    def _attributes(self, node: Node) -> list[str]:
        return [_WS.sub(" ", self.text(a)).strip() for al in node.named_children if al.type == "attribute_list"
                for a in al.named_children if a.type == "attribute"]

    def _modifiers(self, node: Node) -> list[str]:
        return [self.text(c) for c in node.named_children if c.type == "modifier"]

    def _signature_end(self, node: Node) -> int:
        """Where a declaration's header ends: its body, or its end."""
        for c in node.named_children:
            if c.type in ("declaration_list", "block", "arrow_expression_clause", "accessor_list",
                          "enum_member_declaration_list"):
                return c.start_byte
        return node.end_byte

    def _constructors(self, qualname: str) -> list[Definition]:
        """The constructors of the type ``qualname`` among the definitions so far, in order. The definitions
        are read once, as they are appended (a scan of all of them per type made a file of 8,000 classes
        take 12.6 s: generated DTO files hold thousands)."""
        defs = self.out.definitions
        for x in defs[self._ctors_read:]:
            if x.kind == "constructor":
                self._ctors.setdefault(x.parent, []).append(x)
        self._ctors_read = len(defs)
        return self._ctors.get(qualname, [])

    def _type(self, node: Node, parent: str | None, depth: int) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        kind = _TYPES[node.type]
        d = self._new_def(kind, self.text(name_node), parent, node, name_node, self._signature_end(node))
        d.modifiers = self._modifiers(node)
        if node.type in _TYPE_MODIFIER:
            d.modifiers.append(_TYPE_MODIFIER[node.type])
        d.decorators = self._attributes(node)
        d.exported = "public" in d.modifiers
        for c in node.named_children:
            if c.type == "base_list":
                for b in c.named_children:
                    if b.type in ("argument_list",):
                        continue
                    if b.type == "primary_constructor_base_type":
                        b = b.named_children[0] if b.named_children else b
                    text = type_text(self.flat(b))
                    if not text:
                        continue
                    last = text.rsplit(".", 1)[-1]
                    if kind == "interface" or not _INTERFACE_NAME.match(last):
                        d.bases.append(text)
                    else:
                        d.implements.append(text)
        self.out.definitions.append(d)
        params = node.child_by_field_name("parameters") or next(
            (c for c in node.named_children if c.type == "parameter_list"), None)
        if params is not None:  # a record's / class's primary constructor
            ctor = self._new_def("constructor", d.name, d.qualname, params, name_node)
            ctor.params = self._params(params)[0]
            self.out.definitions.append(ctor)
            for p in params.named_children:
                pname, ptype = p.child_by_field_name("name"), p.child_by_field_name("type")
                if pname is None:
                    continue
                if node.type in ("record_declaration", "record_struct_declaration"):
                    prop = self._new_def("field", self.text(pname), d.qualname, p, pname)
                    prop.field_type = type_text(self.flat(ptype)) or None
                    prop.modifiers = ["public", "property"]
                    self.out.definitions.append(prop)
                if ptype is not None:
                    self._bind(d.qualname, self.text(pname), self.text(ptype), "declared", pname)
                    self._bind(d.qualname, "this." + self.text(pname), self.text(ptype), "declared", pname)
                if ptype is not None and node.type == "class_declaration":  # C# 12 primary constructor
                    self.out.injections.append(Injection(d.qualname, type_text(self.flat(ptype)), "constructor",
                                                         self.src.line(ptype), self.src.col(ptype)))
        body = node.child_by_field_name("body") or next(
            (c for c in node.named_children if c.type in ("declaration_list", "enum_member_declaration_list")), None)
        if body is not None:
            self._walk(body, d.qualname, None, depth + 1)
        ctors = self._constructors(d.qualname)
        if len(ctors) == 1 and params is None:
            for p in ctors[0].params:
                if p.type:
                    self.out.injections.append(Injection(d.qualname, type_text(p.type), "constructor",
                                                         ctors[0].name_line, ctors[0].name_col))

    def _params(self, plist: Node | None) -> tuple[list[Param], str | None]:
        """Parameters, and the receiver type of an extension method (its ``this`` parameter)."""
        out: list[Param] = []
        receiver = None
        loose: Node | None = None  # `params int[] more`: the grammar lists its type and name loose
        for p in plist.named_children if plist is not None else ():
            if p.type == "identifier" and loose is not None:
                out.append(Param(self.text(p), self.flat(loose), variadic="*"))
                loose = None
                continue
            if p.type != "parameter":
                loose = p if p.type.endswith("_type") or p.type in ("identifier", "generic_name") else None
                continue
            name, tnode = p.child_by_field_name("name"), p.child_by_field_name("type")
            mods = {self.text(c) for c in p.children if c.type in ("modifier", "parameter_modifier", "this")}
            mods |= {self.text(c) for c in p.children if not c.is_named}
            ttext = self.flat(tnode) or None
            if "this" in mods and not out and receiver is None:
                receiver = type_text(ttext or "") or None
                continue
            out.append(Param(self.text(name), ttext,
                             has_default=any(c.type == "equals_value_clause" for c in p.named_children)
                             or "=" in {self.text(c) for c in p.children},
                             variadic="*" if "params" in mods else None))
        return out, receiver

    def _method(self, node: Node, cls: str | None, member: str | None, depth: int) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        kind = "constructor" if node.type == "constructor_declaration" else (
            "function" if node.type == "local_function_statement" else "method")
        parent = member if kind == "function" else cls
        d = self._new_def(kind, self.text(name_node), parent, node, name_node, self._signature_end(node))
        d.modifiers = self._modifiers(node)
        if kind == "method" and not any(c.type in ("block", "arrow_expression_clause") for c in node.named_children) \
                and not {"abstract", "extern", "partial"} & set(d.modifiers):
            d.modifiers.append("abstract")  # an interface method without a body (as Java marks them)
        d.decorators = self._attributes(node)
        d.exported = "public" in d.modifiers
        plist = node.child_by_field_name("parameters")
        d.params, receiver = self._params(plist)
        if receiver is not None and "static" in d.modifiers:
            d.receiver_type = receiver
        rnode = node.child_by_field_name("returns") or node.child_by_field_name("type")
        if rnode is not None and kind != "constructor":
            rt = type_text(self.text(rnode), keep_containers=True)
            d.return_type = rt if rt and rt != "void" else None
        self.out.definitions.append(d)
        for p in plist.named_children if plist is not None else ():
            pname, ptype = p.child_by_field_name("name"), p.child_by_field_name("type")
            if pname is not None and ptype is not None:
                self._bind(d.qualname, self.text(pname), self.text(ptype), "declared", pname)
                self.out.type_uses.append(TypeUse(d.qualname, type_text(self.flat(ptype)), self.src.line(ptype),
                                                  self.src.col(ptype)))
        if d.return_type and rnode is not None:
            self.out.type_uses.append(TypeUse(d.qualname, d.return_type, self.src.line(rnode), self.src.col(rnode)))
        for c in node.named_children:
            if c.type in ("block", "arrow_expression_clause", "constructor_initializer"):
                if c.type == "constructor_initializer":
                    self._call(c, cls, d.qualname)
                self._walk(c, cls, d.qualname, depth + 1)

    def _field(self, node: Node, cls: str, depth: int) -> None:
        mods = self._modifiers(node)
        attrs = self._attributes(node)
        if node.type == "property_declaration":
            name_node, tnode = node.child_by_field_name("name"), node.child_by_field_name("type")
            if name_node is None:
                return
            pairs = [(name_node, tnode)]
        else:
            decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
            if decl is None:
                return
            tnode = decl.child_by_field_name("type")
            pairs = [(v.child_by_field_name("name") or v.named_children[0], tnode)
                     for v in decl.named_children if v.type == "variable_declarator" and v.named_children]
        for name_node, tn in pairs:
            d = self._new_def("field", self.text(name_node), cls, node, name_node, self._signature_end(node))
            d.modifiers = mods + (["property"] if node.type == "property_declaration" else [])
            d.decorators = attrs
            d.exported = "public" in mods
            d.field_type = type_text(self.text(tn), keep_containers=True) or None if tn is not None else None
            self.out.definitions.append(d)
            if d.field_type:
                self._bind(cls, d.name, self.text(tn), "declared", name_node)
                self._bind(cls, "this." + d.name, self.text(tn), "declared", name_node)
                self.out.type_uses.append(TypeUse(d.qualname, d.field_type, self.src.line(tn), self.src.col(tn)))
        for c in node.named_children:  # initialisers and accessor bodies: their calls belong to the class / property
            if c.type in ("accessor_list", "arrow_expression_clause"):
                self._walk(c, cls, f"{cls}.{self.text(pairs[0][0])}" if pairs else cls, depth + 1)
            elif c.type == "variable_declaration" or c.named_children and c.type.endswith("_expression"):
                self._walk(c, cls, cls, depth + 1)

    def _bind(self, scope: str | None, name: str, type_: str, how: str, node: Node) -> None:
        t = type_ if how != "declared" else type_text(type_, keep_containers=True)
        if t and t != "var":
            self.out.bindings.append(Binding(scope, name, t, how, self.src.line(node)))

    def _locals(self, node: Node, member: str | None) -> None:
        decl = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        if decl is None:
            return
        tnode = decl.child_by_field_name("type")
        for v in decl.named_children:
            if v.type != "variable_declarator":
                continue
            name = v.child_by_field_name("name") or (v.named_children[0] if v.named_children else None)
            value = next((c for c in v.named_children[1:] if c.type != "bracketed_argument_list"), None)
            if value is not None and value.type == "equals_value_clause":
                value = value.named_children[0] if value.named_children else None
            if name is not None and name.type == "tuple_pattern" and value is not None:  # `var (a, b) = F()`
                self._deconstruct([c if c.type == "identifier" else None for c in name.named_children], value, member)
            if name is None or name.type != "identifier":
                continue
            if tnode is not None and tnode.type != "implicit_type":
                self._bind(member, self.text(name), self.text(tnode), "declared", name)
            elif value is not None:
                while value.type == "await_expression" and value.named_children:
                    value = value.named_children[0]
                if value.type == "object_creation_expression":
                    self._bind(member, self.text(name), self.flat(value.child_by_field_name("type")), "declared", name)
                elif value.type == "invocation_expression":
                    callee = self._callee(value)
                    if callee is not None:
                        recv, fname = callee
                        self._bind(member, self.text(name), f"{recv}.{fname}" if recv else fname, "constructed", name)
                elif value.type == "element_access_expression":  # `var o = orders[0]`, `var o = byId[k]`
                    self._bind(member, self.text(name), self._receiver(value), "item", name)

    def _deconstruct(self, names: list[Node | None], value: Node, member: str | None) -> None:
        """``var (a, b) = F()`` / ``(var a, var b) = F()``: each name (``None``: a position not bound
        to a plain name, ``_`` discards) is an ``item`` of the value's receiver text (``F()[0]``,
        ``F()[1]``), which a tuple type ``(Order, Buyer)`` returned by ``F`` makes an ``Order``."""
        while value.type == "await_expression" and value.named_children:
            value = value.named_children[0]
        if value.type not in ("invocation_expression", "identifier", "member_access_expression",
                              "element_access_expression"):
            return
        receiver = self._receiver(value)
        for i, name in enumerate(names):
            if name is not None and self.text(name) != "_":
                self._bind(member, self.text(name), f"{receiver}[{i}]", "item", name)

    def _deconstruct_assignment(self, node: Node, member: str | None) -> None:
        """``(var a, var b) = F()``, ``(Order a, var b) = F()``: the declared names of a tuple on the
        left of an assignment (a written type binds as declared; ``var`` as :meth:`_deconstruct`)."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "tuple_expression":
            return
        names: list[Node | None] = []
        for arg in left.named_children:
            decl = arg.named_children[0] if arg.type == "argument" and arg.named_children else None
            tnode = decl.child_by_field_name("type") if decl is not None and decl.type == "declaration_expression" \
                else None
            name = decl.child_by_field_name("name") if tnode is not None else None
            if tnode is not None and name is not None and tnode.type != "implicit_type":
                self._bind(member, self.text(name), self.text(tnode), "declared", name)
                name = None
            names.append(name if name is not None and name.type == "identifier" else None)
        self._deconstruct(names, right, member)

    def _lambda_elements(self, call: Node, callee: tuple[str | None, str], member: str | None) -> None:
        """``orders.Where(o => ...)``, ``items.ForEach(i => ...)``, ``q.Sum(i => i.GetTotal())``: a
        one-parameter lambda handed to a LINQ / collection method (:data:`_ELEMENT_LAMBDAS`) receives
        the elements of the receiver: an ``element`` binding of the receiver text (``callee``: the
        invocation's ``(receiver, name)``, as :meth:`_call` read it)."""
        if callee[0] is None or callee[1] not in _ELEMENT_LAMBDAS:
            return
        args = call.child_by_field_name("arguments")
        for arg in args.named_children if args is not None else ():
            lam = arg.named_children[0] if arg.type == "argument" and arg.named_children else arg
            if lam.type != "lambda_expression":
                continue
            params = lam.child_by_field_name("parameters")
            names = [params] if params is not None and params.type in ("identifier", "implicit_parameter") else \
                [p.child_by_field_name("name") or p for p in params.named_children] if params is not None else []
            if len(names) == 1 and names[0] is not None and names[0].type in ("identifier", "implicit_parameter"):
                self.elements.append(Binding(member, self.text(names[0]), callee[0], "element", self.src.line(names[0])))

    def _out_value(self, call: Node, callee: tuple[str | None, str], member: str | None) -> None:
        """``byId.TryGetValue(k, out var o)``: ``o`` is a value of the map, an ``item`` binding of
        ``byId[_]`` (a declared ``out Order o`` is bound by its type elsewhere)."""
        if callee[0] is None or callee[1] != "TryGetValue":
            return
        args = call.child_by_field_name("arguments")
        last = args.named_children[-1] if args is not None and args.named_children else None
        decl = last.named_children[-1] if last is not None and last.type == "argument" and last.named_children else None
        if decl is None or decl.type != "declaration_expression":
            return
        tnode, name = decl.child_by_field_name("type"), decl.child_by_field_name("name")
        if tnode is not None and tnode.type == "implicit_type" and name is not None and name.type == "identifier":
            self.elements.append(Binding(member, self.text(name), f"{callee[0]}[_]", "item", self.src.line(name)))

    def _element_bindings(self) -> None:
        """Keep the ``element`` bindings whose name the member binds to nothing else (a binding is per
        member, not per loop or lambda: ``o`` over two different containers is left unknown)."""
        self.out.bindings.extend(unambiguous_elements(self.elements, self.out.bindings))

    def _callee(self, node: Node) -> tuple[str | None, str] | None:
        """``(receiver text, name)`` of an invocation, ``None`` when the callee has no name."""
        parts = self._callee_parts(node)
        if parts is None:
            return None
        has_receiver, receiver, name = parts
        return (self._receiver(receiver) if has_receiver else None), name

    def _callee_parts(self, node: Node) -> tuple[bool, Node | None, str] | None:
        """``(has a receiver, receiver node, name)`` of an invocation, ``None`` when the callee has
        no name; the receiver's text is not read (a chain's links each take their name from here:
        reading every link's whole receiver again doubled the work per link, brk46)."""
        fn = node.child_by_field_name("function")
        if fn is None:
            return None
        if fn.type == "generic_name":
            return False, None, self.text(fn.named_children[0]) if fn.named_children else self.text(fn)
        if fn.type == "identifier":
            return False, None, self.text(fn)
        if fn.type == "member_access_expression":
            nm = fn.child_by_field_name("name")
            if nm is not None and nm.type == "generic_name" and nm.named_children:
                nm = nm.named_children[0]
            return True, fn.child_by_field_name("expression"), self.text(nm)
        if fn.type == "conditional_access_expression":
            inner = fn.named_children[-1] if fn.named_children else None
            if inner is not None and inner.type == "member_binding_expression":
                nm = inner.child_by_field_name("name") or inner.named_children[-1]
                if nm.type == "generic_name" and nm.named_children:
                    nm = nm.named_children[0]
                return True, fn.named_children[0], self.text(nm)
        return None

    def _receiver(self, node: Node | None) -> str:
        """``a.b().c`` for a member / invocation chain, ``this``, ``super`` for ``base``, ``new
        Foo()``; other expressions as written without whitespace."""
        links: list[str] = []
        cur = node
        while cur is not None and len(links) <= MAX_RECEIVER_LINKS:
            t = cur.type
            if t == "member_access_expression":
                nm = cur.child_by_field_name("name")
                if nm is not None and nm.type == "generic_name" and nm.named_children:
                    nm = nm.named_children[0]
                links.append(self.text(nm))
                cur = cur.child_by_field_name("expression")
            elif t == "invocation_expression":
                parts = self._callee_parts(cur)
                if parts is None:
                    links.append(self.flat(cur))
                    break
                links.append(parts[2] + "()")
                if not parts[0]:
                    break
                fn = cur.child_by_field_name("function")
                cur = fn.child_by_field_name("expression") if fn.type == "member_access_expression" else None
                if cur is None:
                    break
            elif t in ("parenthesized_expression", "await_expression") and cur.named_children:
                cur = cur.named_children[0]
            elif t == "object_creation_expression":
                links.append(f"new {type_text(self.flat(cur.child_by_field_name('type')))}()")
                break
            elif t == "base_expression" or self.text(cur) == "base":
                links.append("super")
                break
            elif t == "generic_name" and cur.named_children:
                links.append(self.text(cur.named_children[0]))
                break
            elif t == "alias_qualified_name":  # `grpc::Marshallers` (a using alias), `global::A.B`: dotted
                links.append(self.flat(cur).removeprefix("global::").replace("::", "."))
                break
            else:
                links.append(self.flat(cur))
                break
        else:
            return LONG_RECEIVER
        if len(links) > MAX_RECEIVER_LINKS:
            return LONG_RECEIVER
        return ".".join(reversed(links))

    def _call(self, node: Node, cls: str | None, member: str | None) -> tuple[str | None, str] | None:
        """Append the call site of ``node`` (an invocation, ``new``, ``this(...)`` / ``base(...)``);
        return an invocation's ``(receiver, name)``, ``None`` for anything else."""
        src = self.src
        args = node.child_by_field_name("arguments") or next(
            (c for c in node.named_children if c.type == "argument_list"), None)
        arity = len([a for a in args.named_children if a.type == "argument"]) if args is not None else 0
        caller = member if member is not None else cls
        if node.type == "object_creation_expression":
            tnode = node.child_by_field_name("type")
            name = type_text(self.flat(tnode))
            if name:
                short = name.rsplit(".", 1)[-1]
                recv = name.rsplit(".", 1)[0] if "." in name else None
                self.out.calls.append(CallSite(caller, short, recv, arity, src.line(tnode), src.col(tnode), is_new=True))
            return None
        if node.type == "implicit_object_creation_expression":
            return None
        if node.type == "constructor_initializer":
            word = next((self.text(c) for c in node.children if not c.is_named and self.text(c) in ("base", "this")), None)
            if word is not None:
                self.out.calls.append(CallSite(member, "super" if word == "base" else "this", None, arity,
                                               src.line(node), src.col(node)))
            return None
        callee = self._callee(node)
        if callee is None:
            return None
        recv, name = callee
        fn = node.child_by_field_name("function")
        name_node = fn
        if fn.type == "member_access_expression":
            name_node = fn.child_by_field_name("name") or fn
        self.out.calls.append(CallSite(caller, name, recv, arity, src.line(name_node), src.col(name_node)))
        return callee


EXTRACTOR = CSharpExtractor()
