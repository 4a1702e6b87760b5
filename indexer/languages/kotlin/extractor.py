"""Kotlin extractor: turns one ``.kt`` / ``.kts`` file into a :class:`~indexer.model.FileExtraction`.

The rules are one walk over the tree (the *why*: Kotlin's nesting decides almost every record:
a companion object's members are the enclosing class's, a property's accessors are siblings of the
property in the class body, the tree-sitter grammar parses the annotations of a top-level class as a
separate ``prefix_expression`` before it, and a call's owner is the innermost named function; a
query per rule would still need this walk to place each capture). ``queries/imports.scm`` holds the
package and import rules.

What is reported:

* definitions: classes (``data``, ``sealed``, ``abstract``, ``open`` as modifiers), interfaces,
  enums, objects (kind ``class``, modifier ``object``), companion objects (their members are members
  of the enclosing class, modifier ``companion``: ``A.f()`` calls them), functions (``method`` in a
  class or object, ``function`` at top level or nested), extension functions (``receiver_type`` set:
  ``fun User.fullName()``), the primary constructor (kind ``constructor``, named like the class,
  when the class declares one), secondary constructors, properties (kind ``field``; primary
  constructor ``val`` / ``var`` parameters too) with their accessors: a written ``get()`` /
  ``set(v)`` is a method ``getName`` / ``setName`` (the JVM name, so Java callers bind to it) owning
  its calls; a property without written accessors gets generated ones (``generated = "kotlin"``,
  ``accessor_of`` the property), as the compiler does, so a Java ``user.getName()`` reaches it;
* call sites (receiver text normalised like Java's: ``a.b().c()``; a trailing lambda counts as one
  argument; ``?.`` is ``.``); ``this@Outer`` is ``this``;
* imports (``import a.B as C``: ``local="C"``), the package, bindings (parameters, typed or
  constructed locals, properties as ``this.x`` and ``x``), type uses, and Spring injections: a class
  annotated with a stereotype (``@Service``, ``@RestController``, ...) injects its primary
  constructor's parameter types (``via="constructor"``); ``@Autowired lateinit var`` a field.

Annotations are kept as written without ``@`` (``GetMapping("/users/{id}")``), use-site targets
dropped (``@field:Id`` -> ``Id``).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from indexer.frameworks import CTOR_INJECT, FIELD_INJECT, STEREOTYPES, annotation_name, run_detectors
from indexer.languages.base import SourceText, parse_errors, parser, query, run_query, unambiguous_elements, kept_on_failure
from indexer.languages.kotlin.containers import ELEMENT_LAMBDAS, kept_type
from indexer.languages.kotlin.frameworks import detectors_for
from indexer.languages.kotlin.frameworks.common import annotation_nodes, detached_arguments
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
    drop_generics,
)

__all__ = ["EXTRACTOR", "KotlinExtractor", "GENERATOR"]

GRAMMAR = "kotlin"
GENERATOR = "kotlin"
"""``Definition.generated`` of the accessors the Kotlin compiler writes for a property."""

MAX_WALK_DEPTH = 200
"""Nested walks (a class, function, lambda or call inside another) read at most; deeper code (no real
source comes near) is skipped so that Python's recursion stays bounded and the rest of the file is
still read. The pipeline's own depth probe marks such a file ``too_deep``."""

_WS = re.compile(r"\s+")
_CLASS_LIKE = frozenset({"class_declaration", "object_declaration"})
_MODIFIER_NODES = frozenset({
    "class_modifier", "member_modifier", "visibility_modifier", "function_modifier", "property_modifier",
    "inheritance_modifier", "parameter_modifier", "platform_modifier",
})


def _flat(text: str) -> str:
    return _WS.sub(" ", text).strip()


def _type_text(src: SourceText, node: Node | None) -> str | None:
    """A type node's text without generics, nullability or whitespace (``List<User>?`` -> ``List``)."""
    if node is None:
        return None
    t = drop_generics(_WS.sub("", src.text(node))).rstrip("?")
    return t.strip("()") or None


def _kept_type(src: SourceText, node: Node | None) -> str | None:
    """A type node's text as a binding or return type holds it: a library container or map of a
    named type keeps its arguments (``List<Owner>``, ``Map<String,Owner>``:
    :func:`indexer.languages.kotlin.containers.kept_type`), any other type is :func:`_type_text`'s."""
    if node is None:
        return None
    return kept_type(src.text(node)) or _type_text(src, node)


def _child(node: Node, *types: str) -> Node | None:
    return next((c for c in node.named_children if c.type in types), None)


class KotlinExtractor:
    """The Kotlin :class:`~indexer.languages.base.Extractor` (``EXTRACTOR`` in this module)."""

    language = "kotlin"
    extensions = (".kt", ".kts")

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """Extract definitions, calls, imports, bindings, type uses and injections from ``source``.

        Never raises on bad input: syntax errors are listed in ``errors`` and the rest of the file is
        still extracted; an unexpected failure leaves an ``internal error`` entry and what was found.
        """
        out = FileExtraction(path=path, language=self.language)
        src = SourceText(source)
        with kept_on_failure(out):
            root = parser(GRAMMAR).parse(source).root_node
            out.errors.extend(parse_errors(root, src))
            run = _FileRun(src, out)
            run.imports(root)
            run.walk(root, None, None, None)
            out.bindings.extend(unambiguous_elements(run.elements, out.bindings))
            run_detectors(detectors_for(self.language), root, src, out)
        return out


class _FileRun:
    """One file's walk: ``walk(node, container, caller, cls)`` where ``container`` is the qualname
    definitions nest in, ``caller`` the qualname owning calls and ``cls`` the enclosing class's."""

    def __init__(self, src: SourceText, out: FileExtraction) -> None:
        self.src = src
        self.out = out
        self.depth = 0
        self.elements: list[Binding] = []
        """Names a loop or a lambda receives from a container (``element`` / ``item`` bindings), kept
        when unambiguous (:func:`~indexer.languages.base.unambiguous_elements`)."""
        self._fields: dict[str | None, set[str]] = {}  # field names by parent (:meth:`_field_names`)
        self._fields_read = 0  # how many of out.definitions _fields has read

    # -- imports ------------------------------------------------------------------------------------

    def imports(self, root: Node) -> None:
        """The package and the imports (``queries/imports.scm``)."""
        src, out = self.src, self.out
        for _, caps in run_query(query(GRAMMAR, "kotlin/queries", "imports"), root):
            if "package" in caps:
                out.package = _WS.sub("", src.text(caps["package"][0]))
                continue
            dotted = _WS.sub("", src.text(caps["path"][0]))
            line = src.line(caps["import"][0])
            if "wildcard" in caps:
                out.imports.append(Import("*", dotted, None, line=line))
                continue
            module, _, name = dotted.rpartition(".")
            alias = src.text(caps["alias"][0]) if "alias" in caps else name
            out.imports.append(Import(alias, module, name, line=line))

    # -- the walk -----------------------------------------------------------------------------------

    def walk(self, node: Node, container: str | None, caller: str | None, cls: str | None) -> None:
        """Visit ``node``'s children (iteratively over siblings, recursively into definitions).
        Nesting deeper than :data:`MAX_WALK_DEPTH` is not read (the rest of the file is)."""
        if self.depth >= MAX_WALK_DEPTH:
            return
        self.depth += 1
        try:
            self._walk(node, container, caller, cls)
        finally:
            self.depth -= 1

    def _walk(self, node: Node, container: str | None, caller: str | None, cls: str | None) -> None:
        children = node.named_children
        for i, child in enumerate(children):
            t = child.type
            if t in _CLASS_LIKE:
                self.type_decl(child, container, cls, self._leading(children, i))
            elif t == "companion_object":
                if cls is not None:
                    self.companion(child, cls)
            elif t == "function_declaration":
                self.function(child, container, cls, self._leading(children, i))
            elif t == "property_declaration":
                self.property(child, container, caller, cls, children[i + 1 :])
            elif t in ("getter", "setter"):
                continue  # read with their property
            elif t == "call_expression":
                self.call(child, caller)
                self._lambda_elements(child, caller)
                self.walk(child, container, caller, cls)
            elif t == "for_statement":
                self._loop_elements(child, caller)
                self.walk(child, container, caller, cls)
            elif t == "user_type":
                self.type_use(child, caller or container)
            else:
                self.walk(child, container, caller, cls)

    def _leading(self, siblings: list[Node], i: int) -> list[Node]:
        """Annotations the grammar parsed as a ``prefix_expression`` / ``annotation`` just before the
        declaration at ``i`` (a top-level ``@RestController class A``)."""
        if i == 0:
            return []
        prev = siblings[i - 1]
        if prev.type not in ("prefix_expression", "annotation") or prev.end_point[0] + 1 < siblings[i].start_point[0]:
            return []
        found = annotation_nodes(prev)
        if prev.type == "prefix_expression" and len(found) == 0:
            return []
        return found

    def _annotations(self, node: Node, extra: list[Node]) -> list[str]:
        mods = _child(node, "modifiers")
        anns = list(extra)
        if mods is not None:
            anns += [c for c in mods.named_children if c.type == "annotation"]
        return [self._annotation_text(a) for a in anns]

    def _annotation_text(self, ann: Node) -> str:
        loose = detached_arguments(ann)
        text = _flat(self.src.text(ann) + (self.src.text(loose) if loose is not None else "")).lstrip("@")
        head, sep, rest = text.partition(":")
        if sep and head.isidentifier() and "(" not in head and not rest.startswith(":"):
            text = rest  # use-site target: @field:Id
        return text

    def _modifiers(self, node: Node) -> list[str]:
        mods = _child(node, "modifiers")
        if mods is None:
            return []
        return [self.src.text(c) for c in mods.named_children if c.type in _MODIFIER_NODES]

    def _span(self, node: Node, extra: list[Node]) -> tuple[int, int, int, int]:
        start = extra[0] if extra else node
        return (start.start_point[0] + 1, self.src.col(start), node.end_point[0] + 1, self.src.end_col(node))

    def _qual(self, container: str | None, name: str) -> str:
        return f"{container}.{name}" if container else name

    def type_decl(self, node: Node, container: str | None, cls: str | None, extra: list[Node]) -> None:
        """A class, interface, enum or object declaration and its body."""
        src = self.src
        name_node = _child(node, "type_identifier")
        if name_node is None:
            return
        name = src.text(name_node)
        keywords = {c.type for c in node.children if not c.is_named}
        modifiers = self._modifiers(node)
        kind = "interface" if "interface" in keywords else "enum" if "enum" in modifiers or "enum" in keywords \
            else "class"
        if node.type == "object_declaration":
            modifiers.append("object")
        qual = self._qual(container, name)
        decorators = self._annotations(node, extra)
        bases: list[str] = []
        implements: list[str] = []
        for spec in (c for c in node.named_children if c.type == "delegation_specifier"):
            inv = _child(spec, "constructor_invocation")
            t = _type_text(src, _child(inv if inv is not None else spec, "user_type"))
            if t is None:
                continue
            (bases if inv is not None or kind == "interface" else implements).append(t)
        d = Definition(kind, name, qual, container, *self._span(node, extra), src.line(name_node),
                       src.col(name_node), signature=self._header(node, extra), modifiers=modifiers,
                       decorators=decorators, bases=bases, implements=implements,
                       docstring=self._doc(node, extra))
        self.out.definitions.append(d)
        ctor = _child(node, "primary_constructor")
        stereotype = any(annotation_name(a) in STEREOTYPES for a in decorators)
        if ctor is not None:
            self.primary_constructor(ctor, d, stereotype)
        body = _child(node, "class_body", "enum_class_body")
        if body is not None:
            self.class_body(body, qual)
        for spec in (c for c in node.named_children if c.type == "delegation_specifier"):
            self.walk(spec, qual, qual, qual)

    def class_body(self, body: Node, qual: str, companion: bool = False) -> None:
        """Members of a class body (a companion object's: of the class, modifier ``companion``)."""
        before = len(self.out.definitions)
        for child in body.named_children:
            if child.type == "anonymous_initializer":
                self.walk(child, qual, qual, qual)
            elif child.type == "secondary_constructor":
                self.constructor(child, qual)
        self.walk(_Body(body), qual, qual, qual)
        if companion:
            for d in self.out.definitions[before:]:
                if d.parent == qual and "companion" not in d.modifiers:
                    d.modifiers.append("companion")

    def companion(self, node: Node, cls: str) -> None:
        """A companion object: its members become the class's (modifier ``companion``), and the
        object itself a field ``Companion`` (or its name) typed as the class, so Java's
        ``Orders.Companion.create()`` reaches the same members as Kotlin's ``Orders.create()``."""
        src = self.src
        name_node = _child(node, "type_identifier")
        name = src.text(name_node) if name_node is not None else "Companion"
        at = name_node or node
        self.out.definitions.append(Definition(
            "field", name, f"{cls}.{name}", cls, *self._span(node, []), src.line(at), src.col(at),
            signature=f"companion object {name}", modifiers=["companion", "static"],
            field_type=cls))
        body = _child(node, "class_body")
        if body is not None:
            self.class_body(body, cls, companion=True)

    def _field_names(self, qualname: str) -> set[str]:
        """The names of the fields of ``qualname`` among the definitions so far. The definitions are read once, as
        they are appended (a scan of all of them per class made 16,000 data classes take 15 s to extract)."""
        defs = self.out.definitions
        for d in defs[self._fields_read:]:
            if d.kind == "field":
                self._fields.setdefault(d.parent, set()).add(d.name)
        self._fields_read = len(defs)
        return self._fields.get(qualname, set())

    def primary_constructor(self, ctor: Node, cls: Definition, stereotype: bool) -> None:
        """The primary constructor, its ``val`` / ``var`` parameters as properties, injections."""
        src, out = self.src, self.out
        params: list[Param] = []
        for p in (c for c in ctor.named_children if c.type == "class_parameter"):
            pname = _child(p, "simple_identifier")
            ptype_node = _child(p, "user_type", "nullable_type", "function_type")
            ptype = _type_text(src, ptype_node)
            if pname is None:
                continue
            name = src.text(pname)
            has_default = any(c.is_named and c.type not in ("modifiers", "binding_pattern_kind", "simple_identifier",
                                                            "user_type", "nullable_type", "function_type")
                              for c in p.children)
            params.append(Param(name, ptype, has_default))
            if ptype_node is not None:
                self.type_use(ptype_node, cls.qualname)
            if stereotype and ptype:
                out.injections.append(Injection(cls.qualname, ptype, "constructor", src.line(pname), src.col(pname)))
            kind = _child(p, "binding_pattern_kind")
            if kind is not None:
                field = Definition("field", name, f"{cls.qualname}.{name}", cls.qualname, src.line(p), src.col(p),
                                   p.end_point[0] + 1, src.end_col(p), src.line(pname), src.col(pname),
                                   signature=_flat(src.text(p)), modifiers=self._modifiers(p),
                                   field_type=_kept_type(src, ptype_node), decorators=self._annotations(p, []))
                out.definitions.append(field)
                self._member_bindings(cls.qualname, name, field.field_type, src.line(p))
                self._accessors(field, src.text(kind) == "var", {})
        ann_ctor = any(annotation_name(a) in CTOR_INJECT for a in self._annotations(ctor, []))
        if ann_ctor and not stereotype:
            for p in params:
                if p.type:
                    out.injections.append(Injection(cls.qualname, p.type, "constructor", src.line(ctor),
                                                    src.col(ctor)))
        props = self._field_names(cls.qualname)
        for p in params:
            if p.type and p.name not in props:  # a plain parameter, seen by initialisers
                out.bindings.append(Binding(cls.qualname, p.name, p.type, "declared", src.line(ctor)))
        out.definitions.append(Definition(
            "constructor", cls.name, f"{cls.qualname}.{cls.name}", cls.qualname, src.line(ctor), src.col(ctor),
            ctor.end_point[0] + 1, src.end_col(ctor), src.line(ctor), src.col(ctor),
            signature=f"{cls.name}{_flat(src.text(_child(ctor, 'class_parameters') or ctor))}"
            if _child(ctor, "class_parameters") else _flat(f"{cls.name}{src.text(ctor)}"),
            params=params))

    def constructor(self, node: Node, cls: str) -> None:
        """A secondary constructor ``constructor(x: Int) : this(x, 0) { ... }``."""
        src = self.src
        name = cls.rsplit(".", 1)[-1]
        qual = f"{cls}.{name}"
        params = self.params(_child(node, "function_value_parameters"), qual)
        self.out.definitions.append(Definition(
            "constructor", name, qual, cls, *self._span(node, []), src.line(node), src.col(node),
            signature=self._header(node, []), params=params, modifiers=self._modifiers(node),
            decorators=self._annotations(node, [])))
        deleg = _child(node, "constructor_delegation_call")
        if deleg is not None:
            target = "this" if src.text(deleg).startswith("this") else "super"
            args = _child(deleg, "value_arguments")
            self.out.calls.append(CallSite(qual, target, None, self._arity(args, None), src.line(deleg),
                                           src.col(deleg)))
        body = _child(node, "block", "statements")
        if body is not None:
            self.walk(body, qual, qual, cls)

    def function(self, node: Node, container: str | None, cls: str | None, extra: list[Node]) -> None:
        """A function: a method in a class, a top-level or local function, an extension function."""
        src = self.src
        name_node = _child(node, "simple_identifier")
        if name_node is None:
            return
        name = src.text(name_node)
        qual = self._qual(container, name)
        recv = node.child_by_field_name("receiver")
        params = self.params(_child(node, "function_value_parameters"), qual)
        ret = None
        seen_params = False
        for c in node.named_children:
            if c.type == "function_value_parameters":
                seen_params = True
            elif seen_params and c.type in ("user_type", "nullable_type", "function_type"):
                ret = _kept_type(src, c)
                self.type_use(c, qual)
                break
        kind = "method" if cls is not None and container == cls else "function"
        decorators = self._annotations(node, extra)
        d = Definition(kind, name, qual, container, *self._span(node, extra), src.line(name_node),
                       src.col(name_node), signature=self._header(node, extra), params=params, return_type=ret,
                       modifiers=self._modifiers(node), decorators=decorators, docstring=self._doc(node, extra),
                       receiver_type=_type_text(src, _child(recv, "user_type", "nullable_type") if recv else None))
        body = _child(node, "function_body")
        if kind == "method" and body is None and not {"abstract", "external", "expect"} & set(d.modifiers):
            d.modifiers.append("abstract")  # an interface method without a body (as Java marks them)
        self.out.definitions.append(d)
        if d.receiver_type:
            self.out.bindings.append(Binding(qual, "this", d.receiver_type, "declared", src.line(node)))
        if body is not None:
            self.walk(body, qual, qual, cls)

    def params(self, node: Node | None, owner: str) -> list[Param]:
        """Parameters of ``function_value_parameters`` (``vararg`` -> ``*``), each bound in ``owner``."""
        if node is None:
            return []
        src, out = self.src, self.out
        params: list[Param] = []
        vararg = False
        for c in node.named_children:
            if c.type == "parameter_modifiers":
                vararg = "vararg" in src.text(c)
                continue
            if c.type != "parameter":
                if c.type not in ("parameter_modifiers",):
                    vararg = False
                continue
            pname = _child(c, "simple_identifier")
            tnode = _child(c, "user_type", "nullable_type", "function_type")
            ptype = _type_text(src, tnode)
            nxt = c.next_named_sibling
            has_default = nxt is not None and nxt.type not in ("parameter", "parameter_modifiers") \
                and src.data[c.end_byte:nxt.start_byte].strip().startswith(b"=")
            params.append(Param(src.text(pname), ptype, has_default, "*" if vararg else None))
            vararg = False
            if ptype:
                out.bindings.append(Binding(owner, src.text(pname), _kept_type(src, tnode) or ptype, "declared",
                                            src.line(c)))
            if tnode is not None:
                self.type_use(tnode, owner)
        return params

    def property(self, node: Node, container: str | None, caller: str | None, cls: str | None,
                 following: list[Node]) -> None:
        """A property: a member or top-level ``val`` / ``var`` (a definition, with accessors) or a
        local one (a binding)."""
        src, out = self.src, self.out
        var = _child(node, "variable_declaration")
        name_node = _child(var, "simple_identifier") if var is not None else None
        tnode = _child(var, "user_type", "nullable_type", "function_type") if var is not None else None
        ptype = _kept_type(src, tnode)
        value = next((c for c in node.named_children if c.type not in (
            "modifiers", "binding_pattern_kind", "variable_declaration", "property_delegate", "type_constraints")),
            None)
        is_member = caller is None or caller == cls and container == cls
        if name_node is None:
            if value is not None:
                self.walk(node, container, caller, cls)
            return
        name = src.text(name_node)
        constructed = self._constructed(value)
        if not is_member:  # a local variable
            if ptype:
                out.bindings.append(Binding(caller, name, ptype, "declared", src.line(node)))
            elif constructed:
                out.bindings.append(Binding(caller, name, constructed, "constructed", src.line(node)))
            elif value is not None and value.type == "indexing_expression":  # `val o = owners[0]`
                item = self.receiver(value, 0)
                if item != LONG_RECEIVER:
                    self.elements.append(Binding(caller, name, item, "item", src.line(node)))
            elif value is not None and value.type == "call_expression":  # `val o = owners.first()`
                callee = self.receiver(value, 0)
                if callee.endswith("()"):
                    out.bindings.append(Binding(caller, name, callee[:-2], "constructed", src.line(node)))
            self.walk(node, container, caller, cls)
            return
        qual = self._qual(container, name)
        decorators = self._annotations(node, [])
        d = Definition("field", name, qual, container, *self._span(node, []), src.line(name_node),
                       src.col(name_node), signature=_flat(src.text(node).split("=", 1)[0]),
                       modifiers=self._modifiers(node), decorators=decorators, field_type=ptype or constructed,
                       docstring=self._doc(node, []))
        out.definitions.append(d)
        if container is not None:
            self._member_bindings(container, name, ptype or constructed, src.line(node),
                                  "declared" if ptype else "constructed")
            if ptype and any(annotation_name(a) in FIELD_INJECT for a in decorators):
                out.injections.append(Injection(container, _type_text(src, tnode) or ptype, "field", src.line(name_node),
                                                src.col(name_node)))
        elif ptype or constructed:
            out.bindings.append(Binding(None, name, ptype or constructed, "declared" if ptype else "constructed",
                                        src.line(node)))
        accessors: dict[str, Node] = {}
        for nxt in following:
            if nxt.type in ("getter", "setter"):
                accessors[nxt.type] = nxt
            else:
                break
        mutable = any(src.text(c) == "var" for c in node.named_children if c.type == "binding_pattern_kind")
        self.walk(node, qual, qual, cls)  # initialiser or delegate calls belong to the property
        self._accessors(d, mutable, accessors, cls)

    def _loop_elements(self, node: Node, caller: str | None) -> None:
        """``for (o in owners)``: ``o`` an element of what the loop iterates; ``for ((k, v) in m)``:
        each name an item of one element (``m[*][0]``, ``m[*][1]``: a map's entry, key and value)."""
        if caller is None:
            return
        named = node.named_children
        i = next((j for j, c in enumerate(named) if c.type in ("variable_declaration", "multi_variable_declaration")),
                 None)
        if i is None or i + 1 >= len(named) or named[i + 1].type == "control_structure_body":
            return
        iterated = self.receiver(named[i + 1], 0)
        if iterated == LONG_RECEIVER:
            return
        var, line = named[i], self.src.line(named[i])
        if var.type == "variable_declaration":
            name = _child(var, "simple_identifier")
            if name is not None and _child(var, "user_type", "nullable_type") is None:
                self.elements.append(Binding(caller, self.src.text(name), iterated, "element", line))
            return
        for k, part in enumerate(c for c in var.named_children if c.type == "variable_declaration"):
            name = _child(part, "simple_identifier")
            if name is not None and self.src.text(name) != "_":
                self.elements.append(Binding(caller, self.src.text(name), f"{iterated}[*][{k}]", "item", line))

    def _lambda_elements(self, node: Node, caller: str | None) -> None:
        """``owners.forEach { it.m() }``, ``owners.filter { o -> ... }``: the one parameter (``it``
        when none is written) of a trailing lambda handed to a collection function
        (:data:`~indexer.languages.kotlin.containers.ELEMENT_LAMBDAS`) is an element of the receiver."""
        named = node.named_children
        if caller is None or len(named) < 2 or named[0].type != "navigation_expression":
            return
        nav = _child(named[0], "navigation_suffix")
        fname = _child(nav, "simple_identifier") if nav is not None else None
        annotated = _child(named[-1], "annotated_lambda") if named[-1].type == "call_suffix" else None
        lam = _child(annotated, "lambda_literal") if annotated is not None else None
        if fname is None or lam is None or self.src.text(fname) not in ELEMENT_LAMBDAS:
            return
        params = _child(lam, "lambda_parameters")
        decls = [c for c in params.named_children] if params is not None else []
        if len(decls) > 1 or decls and (decls[0].type != "variable_declaration" or
                                        _child(decls[0], "user_type", "nullable_type") is not None):
            return
        name = _child(decls[0], "simple_identifier") if decls else None
        receiver = self.receiver(named[0].named_children[0], 0)
        if receiver != LONG_RECEIVER and (name is not None or not decls):
            self.elements.append(Binding(caller, self.src.text(name) if name is not None else "it", receiver,
                                         "element", self.src.line(lam)))

    def _constructed(self, value: Node | None) -> str | None:
        """``Foo(...)`` / ``a.Foo(...)`` with an upper-case callee -> ``Foo`` / ``a.Foo``."""
        if value is None or value.type != "call_expression":
            return None
        callee = value.named_children[0] if value.named_children else None
        if callee is None or callee.type not in ("simple_identifier", "navigation_expression"):
            return None
        text = _WS.sub("", self.src.text(callee))
        last = text.rsplit(".", 1)[-1]
        return text if last[:1].isupper() and all(p.isidentifier() for p in text.split(".")) else None

    def _member_bindings(self, cls: str, name: str, ptype: str | None, line: int, how: str = "declared") -> None:
        if ptype:
            self.out.bindings.append(Binding(cls, f"this.{name}", ptype, how, line))
            self.out.bindings.append(Binding(cls, name, ptype, how, line))

    def _accessors(self, prop: Definition, mutable: bool, written: dict[str, Node], cls: str | None = None) -> None:
        """The getter (and a ``var``'s setter) of a member property: written ones own their calls;
        the others are generated (``generated = "kotlin"``, spanning the property)."""
        if (prop.parent is None and not written) or "const" in prop.modifiers:
            return
        src, out = self.src, self.out
        cap = prop.name[:1].upper() + prop.name[1:]
        getter = prop.name if prop.name.startswith("is") and prop.name[2:3].isupper() else f"get{cap}"
        wanted = [("getter", getter, [])]
        if mutable or "setter" in written:
            wanted.append(("setter", f"set{cap}", [Param("value", prop.field_type)]))
        for kind, jvm, params in wanted:
            qual = self._qual(prop.parent, jvm)
            node = written.get(kind)
            ret = prop.field_type if kind == "getter" else "Unit"
            if node is None:
                out.definitions.append(Definition(
                    "method" if prop.parent else "function", jvm, qual, prop.parent, prop.start_line,
                    prop.start_col, prop.end_line, prop.end_col, prop.name_line, prop.name_col,
                    signature=f"{jvm}({', '.join(p.name for p in params)})", params=params, return_type=ret,
                    generated=GENERATOR, accessor_of=prop.qualname))
                continue
            out.definitions.append(Definition(
                "method" if prop.parent else "function", jvm, qual, prop.parent, src.line(node), src.col(node),
                node.end_point[0] + 1, src.end_col(node), src.line(node), src.col(node),
                signature=_flat(src.text(node).split("=", 1)[0].split("{", 1)[0]), params=params, return_type=ret,
                accessor_of=prop.qualname))
            body = _child(node, "function_body")
            if body is not None:
                self.walk(body, qual, qual, cls)

    # -- calls --------------------------------------------------------------------------------------

    def call(self, node: Node, caller: str | None) -> None:
        """One ``call_expression``: ``f(x)``, ``a.b.f(x) { }``, ``Foo()``."""
        src = self.src
        named = node.named_children
        if len(named) < 2:
            return
        callee, suffix = named[0], named[-1]
        if suffix.type != "call_suffix":
            return
        args = _child(suffix, "value_arguments")
        lam = _child(suffix, "annotated_lambda")
        arity = self._arity(args, lam)
        if callee.type == "simple_identifier":
            self.out.calls.append(CallSite(caller, src.text(callee), None, arity, src.line(callee), src.col(callee)))
        elif callee.type == "navigation_expression":
            nav = _child(callee, "navigation_suffix")
            name = _child(nav, "simple_identifier") if nav is not None else None
            if name is None:
                return
            recv = self.receiver(callee.named_children[0], 0)
            self.out.calls.append(CallSite(caller, src.text(name), recv, arity, src.line(name), src.col(name)))

    @staticmethod
    def _arity(args: Node | None, lam: Node | None) -> int:
        n = 0
        if args is not None:
            for a in args.named_children:
                if a.type != "value_argument":
                    continue
                if any(not c.is_named and c.type == "*" for c in a.children):
                    return -1  # spread
                n += 1
        return n + (1 if lam is not None else 0)

    def receiver(self, node: Node, depth: int) -> str:
        """Normalised receiver text: ``a.b()``, ``this``, ``super``; :data:`LONG_RECEIVER` when too long."""
        if depth > MAX_RECEIVER_LINKS:
            return LONG_RECEIVER
        src = self.src
        t = node.type
        if t == "simple_identifier":
            return src.text(node)
        if t == "this_expression":
            return "this"
        if t == "super_expression":
            return "super"
        if t == "parenthesized_expression" and node.named_children:
            return self.receiver(node.named_children[0], depth + 1)
        if t == "navigation_expression" and len(node.named_children) == 2:
            nav = node.named_children[1]
            name = _child(nav, "simple_identifier")
            if name is not None:
                left = self.receiver(node.named_children[0], depth + 1)
                return LONG_RECEIVER if left == LONG_RECEIVER else f"{left}.{src.text(name)}"
        if t == "call_expression" and node.named_children:
            left = self.receiver(node.named_children[0], depth + 1)
            return LONG_RECEIVER if left == LONG_RECEIVER else f"{left}()"
        if t == "postfix_expression" and node.named_children:  # a!!.f()
            return self.receiver(node.named_children[0], depth + 1)
        text = _WS.sub("", drop_generics(src.text(node)))
        return text if len(text) <= 200 else LONG_RECEIVER

    def type_use(self, node: Node, owner: str | None) -> None:
        """The class names in a type (``Map<String, User>``: ``Map``, ``String``, ``User``)."""
        src = self.src
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type == "user_type":
                ids = [c for c in n.named_children if c.type == "type_identifier"]
                if ids:
                    self.out.type_uses.append(TypeUse(owner, ".".join(src.text(i) for i in ids), src.line(ids[0]),
                                                      src.col(ids[0])))
            stack.extend(reversed(n.named_children))

    # -- text helpers -------------------------------------------------------------------------------

    def _header(self, node: Node, extra: list[Node]) -> str:
        """The declaration up to its body, annotations and comments left out."""
        src = self.src
        end = node.end_byte
        for c in node.named_children:
            if c.type in ("class_body", "enum_class_body", "function_body", "block", "statements"):
                end = c.start_byte
                break
        start = node.start_byte
        mods = _child(node, "modifiers")
        if mods is not None:
            kept = [src.text(c) for c in mods.named_children if c.type != "annotation"]
            start = mods.end_byte
            head = " ".join(kept)
            rest = src.data[start:end].decode("utf-8", "replace")
            return _flat(f"{head} {rest}").rstrip(" =")
        return _flat(src.data[start:end].decode("utf-8", "replace")).rstrip(" =")

    def _doc(self, node: Node, extra: list[Node]) -> str | None:
        """The KDoc comment right before the declaration (``/** ... */``), without its markers."""
        prev = node.prev_sibling
        if extra and prev is not None and prev.type in ("prefix_expression", "annotation"):
            prev = prev.prev_sibling  # the annotations the grammar read before the declaration
        while prev is not None and prev.type in ("import_list", "import_header", "package_header") and prev.child_count:
            prev = prev.children[-1]  # a comment after the imports is parsed inside their list
        if prev is None or prev.type not in ("multiline_comment", "block_comment"):
            return None
        text = self.src.text(prev)
        if not text.startswith("/**"):
            return None
        lines = [ln.strip().lstrip("*").strip() for ln in text[3:-2].splitlines()]
        return "\n".join(ln for ln in lines if ln) or None


class _Body:
    """A class body seen by :meth:`_FileRun.walk` without its secondary constructors and
    initialisers (read by :meth:`_FileRun.class_body` itself)."""

    __slots__ = ("named_children",)

    def __init__(self, body: Node) -> None:
        self.named_children = [c for c in body.named_children
                               if c.type not in ("secondary_constructor", "anonymous_initializer")]


EXTRACTOR = KotlinExtractor()
