"""Java extractor: turns one ``.java`` file into a :class:`~indexer.model.FileExtraction`.

The rules live in ``indexer/languages/java/queries/*.scm``:

* ``definitions.scm`` selects type declarations (anywhere) and the members of *named* types, plus
  what each type extends / implements;
* ``calls.scm`` selects method invocations, ``new`` expressions and ``this(...)`` / ``super(...)``;
* ``imports.scm`` the package and import declarations;
* ``bindings.scm`` typed names inside method bodies (parameters, locals, loop / catch / pattern /
  resource variables);
* ``types.scm`` the places where a type is named (the type subtrees are searched for class names);
* ``strip.scm`` annotations and comments, left out of signatures.

Python assembles the captures. Nesting (qualnames, the caller of a call, the owner of a type use,
the scope of a binding) is decided by one sorted sweep over the definitions' byte ranges rather than
by walking parents, so the work per file is ``O(n log n)`` in the number of captures.

Spring / JSR-330 injection: fields and setter-style methods annotated ``@Autowired`` / ``@Inject`` /
``@Resource`` inject their types (``via="field"``); constructor parameters are injected
(``via="constructor"``) when the constructor is annotated ``@Autowired`` / ``@Inject``, or when the
class is a stereotype bean (``@Component``, ``@Service``, ...) with exactly one constructor; a
stereotype bean without an explicit constructor but with Lombok ``@RequiredArgsConstructor`` (its
final, non-static, uninitialised fields) or ``@AllArgsConstructor`` (its non-static fields) injects
those fields' types through the generated constructor.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from tree_sitter import Node

from indexer.frameworks import CTOR_INJECT, FIELD_INJECT, STEREOTYPES, run_detectors
from indexer.languages.java.frameworks import detectors_for
from indexer.languages.java.arguments import argument_types, handed_arguments
from indexer.languages.java.containers import ELEMENT_METHODS, element_types
from indexer.languages.java.reflection import Found, reflected_calls
from indexer.languages.java.implicit import implicit_calls
from indexer.languages.java.narrowing import allocations, narrowings
from indexer.languages.java.lombok import LombokClass, LombokField, Span, generated_members
from indexer.languages.java.spring_data import inherited_members
from indexer.languages.base import (collapse_whitespace, innermost_scopes, text_outside, SourceText, parse_errors, parser, query,
                                    run_query, kept_on_failure, chain_receiver, code_scope, definition_captures, doc_comment)
from indexer.model import (
    LONG_RECEIVER,
    NARROWED,
    TYPE_KINDS,
    Binding,
    CallSite,
    Definition,
    FileExtraction,
    Import,
    Injection,
    Param,
    TypeUse,
    base_type,
    drop_generics,
)

__all__ = ["EXTRACTOR", "JavaExtractor"]

GRAMMAR = "java"

LOMBOK_REQUIRED = "RequiredArgsConstructor"
LOMBOK_ALL = "AllArgsConstructor"

# Definitions that other definitions nest in (fields do not: members of anonymous classes are not
# definitions, so nothing named sits inside a field).
_CONTAINER_KINDS = TYPE_KINDS | {"method", "constructor"}
_ANNOTATIONS = frozenset({"annotation", "marker_annotation"})
_COMMENTS = frozenset({"line_comment", "block_comment"})
# Node types whose text is a class name in a type position.
_TYPE_NAMES = frozenset({"type_identifier", "scoped_type_identifier"})

_WS = re.compile(r"\s+")


def _annotation_name(text: str) -> str:
    """``GetMapping("/x")`` -> ``GetMapping``; ``org.x.Autowired`` -> ``Autowired``."""
    return text.split("(", 1)[0].strip().rsplit(".", 1)[-1]


def _spread_type(param: Node) -> Node | None:
    """The element type of a varargs ``spread_parameter`` (the grammar gives it no field name)."""
    return next((c for c in param.named_children if c.type not in ("modifiers", "variable_declarator")), None)


@dataclass(slots=True)
class _Def:
    """A definition under construction: the IR record plus the nodes and ranges used to finish it."""

    rec: Definition
    node: Node
    # Bytes in which this definition is the owner of what is found (calls, type uses, bindings).
    scope_start: int
    scope_end: int
    index: int = 0
    annotations: tuple[str, ...] = ()
    parent_def: _Def | None = None
    type_node: Node | None = None
    has_initializer: bool = False


class JavaExtractor:
    """The Java :class:`~indexer.languages.base.Extractor` (``EXTRACTOR`` in this module)."""

    language = "java"
    extensions = (".java",)

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """Extract definitions, calls, imports, bindings, type uses and injections from ``source``.

        Never raises on bad input: syntax errors are listed in ``errors`` and the rest of the file is
        still extracted; an unexpected failure leaves an ``internal error`` entry and what was found.
        """
        out = FileExtraction(path=path, language=self.language)
        with kept_on_failure(out):
            fx = _FileExtractor(source, out)
            fx.run()
            run_detectors(detectors_for(self.language), fx.root, fx.src, out)
        return out


class _FileExtractor:
    """The per-file work of :class:`JavaExtractor`."""

    def __init__(self, source: bytes, out: FileExtraction) -> None:
        self.src = SourceText(source)
        self.out = out
        self.root = parser(GRAMMAR).parse(source).root_node
        self.defs: list[_Def] = []
        # Sorted (start, end) byte ranges of annotations and comments, for signatures.
        self.strip_starts: list[int] = []
        self.strip_ends: list[int] = []
        self.receiver_cache: dict[int, str] = {}
        self._scopes: list[_Def] | None = None

    # ------------------------------------------------------------------ driver

    def run(self) -> None:
        """Run every query and fill ``self.out``."""
        out, src = self.out, self.src
        out.errors.extend(parse_errors(self.root, src))
        self._collect_strips()
        self._imports()
        self._definitions()
        self._calls()
        self._bindings()
        self._type_uses()
        self._injections()
        self._lombok()
        self._spring_data()

    def _collect_strips(self) -> None:
        ranges = sorted(
            (n.start_byte, n.end_byte)
            for _, m in run_query(query(GRAMMAR, "java/queries", "strip"), self.root)
            for n in m["strip"]
        )
        self.strip_starts = [s for s, _ in ranges]
        self.strip_ends = [e for _, e in ranges]

    # ------------------------------------------------------------------ imports

    def _imports(self) -> None:
        text = self.src.text
        for _, m in run_query(query(GRAMMAR, "java/queries", "imports"), self.root):
            if "package" in m:
                self.out.package = _WS.sub("", text(m["package"][0]))
                continue
            node = m["import"][0]
            dotted = _WS.sub("", text(m["path"][0]))
            line = self.src.line(node)
            if "wildcard" in m:
                self.out.imports.append(Import(local="*", module=dotted, name=None, line=line))
            else:
                module, _, name = dotted.rpartition(".")
                self.out.imports.append(Import(local=name, module=module, name=name, line=line))
        self.out.imports.sort(key=lambda i: i.line)

    # ------------------------------------------------------------------ definitions

    def _definitions(self) -> None:
        matches = run_query(query(GRAMMAR, "java/queries", "definitions"), self.root)
        pending, heritage = definition_captures(matches, self._make_defs, _CONTAINER_KINDS)
        self.defs = pending
        types = {d.node.id: d for d in pending if d.rec.kind in TYPE_KINDS}
        for owner, key, tnode in sorted(heritage, key=lambda h: h[2].start_byte):
            d = types.get(owner.id)
            if d is not None:
                getattr(d.rec, "bases" if key == "base" else "implements").append(self._type_text(tnode))
        for d in pending:
            if d.rec.kind == "method" and d.parent_def is not None and d.parent_def.rec.kind == "interface":
                if d.node.child_by_field_name("body") is None and "abstract" not in d.rec.modifiers:
                    d.rec.modifiers.append("abstract")
        self.out.definitions = [d.rec for d in pending]

    def _make_defs(self, cap: str, node: Node) -> list[_Def]:
        """Build the record(s) for one captured definition node (a field declaration may declare several)."""
        if cap in ("class", "interface", "enum"):
            return [self._type_def(cap, node)]
        if cap in ("method", "constructor"):
            return [self._callable_def(cap, node)]
        if cap == "field":
            return self._field_defs(node)
        if cap == "component":
            return [self._component_def(node)]
        if cap == "constant":
            return [self._constant_def(node)]
        return []

    def _new_def(self, kind: str, node: Node, name_node: Node | None) -> Definition:
        src = self.src
        name_node = name_node or node
        end_row, end_byte_col = node.end_point
        return Definition(
            kind=kind,
            name=src.text(name_node),
            qualname="",
            parent=None,
            start_line=src.line(node),
            start_col=src.col(node),
            end_line=end_row + 1,
            end_col=src.point_col(end_row, end_byte_col),
            name_line=src.line(name_node),
            name_col=src.col(name_node),
            docstring=doc_comment(src, node),
        )

    def _modifiers(self, node: Node, rec: Definition) -> tuple[str, ...]:
        """Fill ``modifiers`` / ``decorators`` from the node's ``modifiers`` child; return annotation names."""
        mods = node.named_child(0) if node.named_child_count else None
        if mods is None or mods.type != "modifiers":
            return ()
        names: list[str] = []
        for child in mods.children:
            if child.type in _ANNOTATIONS:
                deco = collapse_whitespace(self.src.text(child)[1:])
                rec.decorators.append(deco)
                names.append(_annotation_name(deco))
            elif child.type not in _COMMENTS:
                rec.modifiers.append(self.src.text(child))
        return tuple(names)

    def _type_def(self, kind: str, node: Node) -> _Def:
        body = node.child_by_field_name("body")
        rec = self._new_def(kind, node, node.child_by_field_name("name"))
        anns = self._modifiers(node, rec)
        rec.signature = self._signature(node.start_byte, body.start_byte if body else node.end_byte)
        return _Def(rec, node, node.start_byte, node.end_byte, annotations=anns)

    def _callable_def(self, kind: str, node: Node) -> _Def:
        body = node.child_by_field_name("body")
        rec = self._new_def(kind, node, node.child_by_field_name("name"))
        anns = self._modifiers(node, rec)
        header_end = body.start_byte if body else node.end_byte
        rec.signature = self._signature(node.start_byte, header_end).rstrip(";").rstrip()
        if kind == "method":
            rtype = node.child_by_field_name("type")
            rec.return_type = self._type_text(rtype) if rtype else None
        params = node.child_by_field_name("parameters")
        if params is not None:
            rec.params = self._params(params)
        elif node.type == "compact_constructor_declaration":
            # The compact canonical constructor takes the record's components.
            rec_params = node.parent.parent.child_by_field_name("parameters") if node.parent else None
            if rec_params is not None:
                rec.params = self._params(rec_params)
        return _Def(rec, node, node.start_byte, node.end_byte, annotations=anns)

    def _params(self, params: Node) -> list[Param]:
        out: list[Param] = []
        for p in params.named_children:
            if p.type == "formal_parameter":
                ptype = p.child_by_field_name("type")
                out.append(Param(self.src.text(p.child_by_field_name("name")), self._type_text(ptype)))
            elif p.type == "spread_parameter":
                decl = next((c for c in p.named_children if c.type == "variable_declarator"), None)
                name = self.src.text(decl.child_by_field_name("name")) if decl else ""
                out.append(Param(name, self._type_text(_spread_type(p)), variadic="*"))
        return out

    def _field_defs(self, node: Node) -> list[_Def]:
        """One field per variable declarator; the first also owns the shared modifiers and type."""
        tnode = node.child_by_field_name("type")
        ftype = self._type_text(tnode)
        head = self._signature(node.start_byte, tnode.end_byte) if tnode else ""
        out: list[_Def] = []
        declarators = node.children_by_field_name("declarator")
        for i, decl in enumerate(declarators):
            name_node = decl.child_by_field_name("name")
            rec = self._new_def("field", node, name_node)
            anns = self._modifiers(node, rec)
            rec.field_type = ftype
            rec.signature = f"{head} {self.src.text(name_node)}".strip()
            scope_start = node.start_byte if i == 0 else decl.start_byte
            scope_end = node.end_byte if i == len(declarators) - 1 else decl.end_byte
            out.append(
                _Def(
                    rec,
                    node,
                    scope_start,
                    scope_end,
                    index=i,
                    annotations=anns,
                    type_node=tnode,
                    has_initializer=decl.child_by_field_name("value") is not None,
                )
            )
        return out

    def _component_def(self, node: Node) -> _Def:
        """A record component: a (final) field of the record."""
        tnode = node.child_by_field_name("type")
        rec = self._new_def("field", node, node.child_by_field_name("name"))
        rec.docstring = None
        anns = self._modifiers(node, rec)
        rec.field_type = self._type_text(tnode)
        rec.signature = self._signature(node.start_byte, node.end_byte)
        return _Def(rec, node, node.start_byte, node.end_byte, annotations=anns, type_node=tnode)

    def _constant_def(self, node: Node) -> _Def:
        """An enum constant: a field whose type is the enum (set in :meth:`_nest`)."""
        rec = self._new_def("field", node, node.child_by_field_name("name"))
        self._modifiers(node, rec)
        rec.signature = rec.name
        return _Def(rec, node, node.start_byte, node.end_byte, has_initializer=True)

    def _signature(self, start: int, end: int) -> str:
        """The source text in ``[start, end)`` without annotations and comments, whitespace collapsed."""
        return text_outside(self.src.data, self.strip_starts, self.strip_ends, start, end)

    def _type_text(self, node: Node | None) -> str | None:
        """A type as written (annotations dropped, whitespace collapsed)."""
        if node is None:
            return None
        return self._signature(node.start_byte, node.end_byte) or None

    # ------------------------------------------------------------------ ownership

    def _owners(self, positions: list[int]) -> list[_Def | None]:
        """The innermost definition whose scope range contains each byte position (one sorted sweep)."""
        if self._scopes is None:
            self._scopes = sorted(self.defs, key=lambda d: (d.scope_start, -d.scope_end))
        return innermost_scopes(self._scopes, positions)

    # ------------------------------------------------------------------ calls

    def _calls(self) -> None:
        src = self.src
        found: list[Found] = []  # (name node, name, receiver, args, is_new, via)
        for _, m in run_query(query(GRAMMAR, "java/queries", "calls"), self.root):
            if "ref" in m:
                ref = self._method_reference(m["ref"][0])
                if ref is not None:
                    found.append((*ref, None))
                continue
            args = m["args"][0]
            if "call" in m:
                name_node = m["name"][0]
                recv = m.get("receiver")
                receiver = self._receiver(recv[0]) if recv else None
                found.append((name_node, src.text(name_node), receiver, args, False, None))
                found += reflected_calls(src, m["call"][0])
            elif "new" in m:
                tnode = m["type"][0]
                while tnode.type in ("generic_type", "annotated_type"):
                    inner = next((c for c in tnode.named_children if c.type in _TYPE_NAMES), None)
                    if inner is None:
                        break
                    tnode = inner
                name_node = tnode
                receiver = None
                if tnode.type == "scoped_type_identifier":
                    name_node = tnode.named_children[-1]
                    prefix = src.data[tnode.start_byte : name_node.start_byte].decode("utf-8", "replace")
                    receiver = drop_generics(_WS.sub("", prefix)).rstrip(".") or None
                found.append((name_node, src.text(name_node), receiver, args, True, None))
            else:
                name_node = m["name"][0]
                found.append((name_node, src.text(name_node), None, args, False, None))
        found.sort(key=lambda f: f[0].start_byte)
        owners = self._owners([f[0].start_byte for f in found])
        self.out.calls = [
            CallSite(
                caller=code_scope(owner),
                name=name,
                receiver=receiver,
                arity=self._arity(args),
                line=src.line(name_node),
                col=src.col(name_node),
                is_new=is_new,
                via=via,
                handed=handed_arguments(src, args) if via is None else (),
                arg_types=argument_types(src, args, self._receiver) if via is None else (),
            )
            for (name_node, name, receiver, args, is_new, via), owner in zip(found, owners)
        ]
        self._implicit_calls()

    def _implicit_calls(self) -> None:
        """The calls the compiler writes (:mod:`indexer.languages.java.implicit`), ``via="dunder"``."""
        src = self.src
        implied = implicit_calls(self.root, src.text, lambda n: r if (r := self._receiver(n)) != LONG_RECEIVER else "")
        owners = self._owners([at.start_byte for at, _, _ in implied])
        self.out.calls += [CallSite(code_scope(owner), name, recv, 0, src.line(at), src.col(at), via="dunder")
                           for (at, name, recv), owner in zip(implied, owners)]

    def _method_reference(self, ref: Node) -> tuple[Node, str, str | None, Node | None, bool] | None:
        """``X::m`` / ``this::m`` / ``super::m`` / ``a.b::m`` -> a call of ``m`` on that receiver;
        ``X::new`` -> ``new X``; an array constructor (``int[]::new``) is nothing."""
        parts = [c for c in ref.children if c.type != "::"]
        if len(parts) != 2:
            return None
        target, member = parts
        if member.type == "new":
            if target.type not in _TYPE_NAMES and target.type not in ("identifier", "generic_type"):
                return None
            text = drop_generics(_WS.sub("", self.src.text(target)))
            prefix, _, name = text.rpartition(".")
            return (target, name, prefix or None, None, True)
        if member.type != "identifier":
            return None
        if target.type in ("this", "super"):
            receiver = target.type
        elif target.type in ("identifier", "field_access", "method_invocation", *_TYPE_NAMES):
            receiver = self._receiver(target) if target.type != "scoped_type_identifier" else \
                drop_generics(_WS.sub("", self.src.text(target)))
        else:
            receiver = drop_generics(_WS.sub("", self.src.text(target)))
        return (member, self.src.text(member), receiver, None, False)

    def _arity(self, args: Node | None) -> int:
        """Arguments in an ``argument_list``; comments count only when one lies inside it; ``-1``
        (unknown) without one (a method reference)."""
        if args is None:
            return -1
        i = bisect.bisect_left(self.strip_starts, args.start_byte)
        if i < len(self.strip_starts) and self.strip_starts[i] < args.end_byte:
            return sum(1 for a in args.named_children if a.type not in _COMMENTS)
        return args.named_child_count

    def _receiver(self, node: Node) -> str:
        """Normalised receiver text (:func:`indexer.languages.java_family.chain_receiver`), a cast
        ``((Owner) o).save()`` written ``(Owner)``: an instance of the cast type."""
        return chain_receiver(self.src, node, self.receiver_cache, self._cast_head)

    def _cast_head(self, cur: Node) -> str | None:
        """``(Owner)`` for a parenthesised cast ``((Owner) o)``, else ``None``."""
        if cur.type == "parenthesized_expression" and cur.named_child_count == 1 and \
                cur.named_children[0].type == "cast_expression" and cur.named_children[0].child_by_field_name("type"):
            cast_type = cur.named_children[0].child_by_field_name("type")
            return f"({drop_generics(_WS.sub('', self.src.text(cast_type)))})"
        return None

    # ------------------------------------------------------------------ bindings

    def _var_binding(self, name_node: Node, value: Node) -> list[tuple[Node, str, str]]:
        """What a ``var`` local holds, as a binding (name node, text, how): ``var o = new Owner()`` the
        class built (``constructed``); ``var o = owners.get(0)`` / ``repo.find(id)`` what the call
        returns (``constructed`` of the callee text ``owners.get``); ``var o = owners[i]`` an element
        of the array (``item`` of the receiver text); ``var o = (Owner) x`` the cast's type (``declared``,
        JLS 15.16; an intersection cast its first type); ``var o = c ? (Owner) x : null`` what both
        values of a ``?:`` hold, ``null`` holding anything; nothing for any other value."""
        while value.type == "parenthesized_expression" and value.named_child_count == 1:
            value = value.named_children[0]
        if value.type == "cast_expression":
            ttext = self._type_text(value.child_by_field_name("type"))
            return [(name_node, ttext, "declared")] if ttext else []
        if value.type == "ternary_expression":
            both = [v for v in (value.child_by_field_name("consequence"), value.child_by_field_name("alternative"))
                    if v is not None and v.type != "null_literal"]
            held = {(t, how) for v in both for _, t, how in self._var_binding(name_node, v)}
            if len(held) == 1 and all(self._var_binding(name_node, v) for v in both):
                ((ttext, how),) = held
                return [(name_node, ttext, how)]
            return []
        if value.type == "object_creation_expression":
            ctype = base_type(self._type_text(value.child_by_field_name("type")))
            return [(name_node, ctype, "constructed")] if ctype else []
        if value.type == "method_invocation":
            callee = self._receiver(value)
            return [(name_node, callee[:-2], "constructed")] if callee.endswith("()") and callee != LONG_RECEIVER else []
        if value.type == "array_access":
            item = self._receiver(value)
            return [(name_node, item, "item")] if item != LONG_RECEIVER and item.endswith("]") else []
        return []

    def _bindings(self) -> None:
        src = self.src
        found: list[tuple[Node, str, str]] = []  # (name node, type text, how)
        elements: list[tuple[Node, Node, Node]] = []  # (call, lambda parameters, receiver)
        for _, m in run_query(query(GRAMMAR, "java/queries", "bindings"), self.root):
            if "element" in m:
                if self.src.text(m["method"][0]) in ELEMENT_METHODS:
                    elements.append((m["element"][0], m["params"][0], m["receiver"][0]))
                continue
            name_node, tnode = m["name"][0], m["type"][0]
            if "local" in m and src.text(tnode) == "var":
                value = m.get("value")
                if value:
                    found.extend(self._var_binding(name_node, value[0]))
                continue
            ttext = self._type_text(tnode)
            if ttext:
                found.append((name_node, ttext, "declared"))
        found.sort(key=lambda f: f[0].start_byte)
        owners = self._owners([f[0].start_byte for f in found])
        bindings: list[tuple[int, Binding]] = []
        for (name_node, ttext, how), owner in zip(found, owners):
            if owner is not None and owner.node.type == "formal_parameter":
                continue  # a record component: bound below as a field
            bindings.append(
                (
                    name_node.start_byte,
                    Binding(code_scope(owner), src.text(name_node), ttext, how, src.line(name_node)),
                )
            )
        for d in self.defs:
            if d.rec.kind == "field" and d.rec.field_type and d.parent_def is not None:
                scope, ftype, line = d.rec.parent, d.rec.field_type, d.rec.name_line
                pos = d.scope_start
                bindings.append((pos, Binding(scope, f"this.{d.rec.name}", ftype, "declared", line)))
                bindings.append((pos, Binding(scope, d.rec.name, ftype, "declared", line)))
        bindings += self._element_bindings(elements, [b for _, b in bindings])
        bindings += self._narrowed_bindings()
        bindings.sort(key=lambda b: b[0])
        self.out.bindings = [b for _, b in bindings]

    def _element_bindings(self, elements: list[tuple[Node, Node, Node]],
                          known: list[Binding]) -> list[tuple[int, Binding]]:
        """Bindings of untyped lambda parameters to the element type of the collection, stream, map
        or ``Optional`` the lambda is handed (``owners.forEach(o -> ...)`` with ``List<Owner> owners``
        binds ``o`` to ``Owner``) when the receiver is a name (or ``this.name``) whose declared
        type, written in this file, names the element type, followed by element-preserving steps
        (``stream()``, ``filter(...)``, ``values()``, ...). A one-parameter lambda handed by a receiver
        holding a call (``repo.findAll().forEach(o -> ...)``, ``repo.findById(id).ifPresent(o -> ...)``)
        is an ``element`` binding of the receiver text: the resolver knows what the call returns. Only
        when the parameter's name is bound to nothing else in the method (a binding is per scope, not
        per lambda)."""
        src = self.src
        declared: dict[tuple[str | None, str], str] = {}
        for b in known:
            declared.setdefault((b.scope, b.name), b.type)
        candidates: list[tuple[int, Binding]] = []
        for call, params, receiver in elements:
            names = [src.text(p) for p in params.named_children] if params.type == "inferred_parameters" \
                else [src.text(params)]
            scope = code_scope(self._owners([call.start_byte])[0])
            recv = self._receiver(receiver)
            head, *steps = recv.split(".") if not recv.startswith("this.") else [recv.split(".", 2)[0] + "." +
                                                                                   recv.split(".", 2)[1],
                                                                                   *recv.split(".")[2:]]
            ttext = self._declared_type(declared, scope, head)
            elems = element_types(ttext, steps, len(names)) if ttext else None
            if not elems:
                if len(names) == 1 and recv != LONG_RECEIVER and "(" in recv:
                    # `repo.findAll().forEach(o -> ...)`: what the receiver's value hands out, known to
                    # the resolver only (a method's return type declared in another file)
                    candidates.append((call.start_byte, Binding(scope, names[0], recv, "element", src.line(params))))
                continue
            for name, etype in zip(names, elems):
                candidates.append((call.start_byte, Binding(scope, name, etype, "declared", src.line(params))))
        # a name a lambda receives with a type written in this file keeps that rule alone (as before
        # `element` bindings existed): lambdas of one name share their method's (and its overloads') scope
        typed = {(b.scope, b.name) for _, b in candidates if b.how == "declared"}
        candidates = [(pos, b) for pos, b in candidates if b.how == "declared" or (b.scope, b.name) not in typed]
        seen: dict[tuple[str | None, str], set[tuple[str, str]]] = {}
        for _, b in candidates:
            seen.setdefault((b.scope, b.name), set()).add((b.type, b.how))
        return [(pos, b) for pos, b in candidates
                if len(seen[(b.scope, b.name)]) == 1 and (b.scope, b.name) not in declared]

    def _narrowed_bindings(self) -> list[tuple[int, Binding]]:
        """``narrowed`` bindings (:data:`indexer.model.NARROWED`) of the names a type test guards
        (:mod:`indexer.languages.java.narrowing`), each over its guarded code's lines."""
        src = self.src
        found = [(n, self._type_text(n.type_node))
                 for n in (*narrowings(self.root, src.text, src.data), *allocations(self.root, src.text))]
        found = sorted(((n, t) for n, t in found if t), key=lambda f: f[0].region.start_byte)
        owners = self._owners([n.region.start_byte for n, _ in found])
        return [(n.region.start_byte, Binding(code_scope(owner), n.name, t, NARROWED, n.line, n.end))
                for (n, t), owner in zip(found, owners)]

    @staticmethod
    def _declared_type(declared: dict[tuple[str | None, str], str], scope: str | None, name: str) -> str | None:
        """The declared type text of ``name`` in ``scope`` or the scopes enclosing it."""
        s = scope
        while True:
            t = declared.get((s, name))
            if t is not None or s is None:
                return t
            s = s.rpartition(".")[0] or None

    # ------------------------------------------------------------------ type uses

    def _type_uses(self) -> None:
        src = self.src
        found: list[Node] = []
        seen: set[int] = set()
        type_vars: set[str] = set()
        for _, m in run_query(query(GRAMMAR, "java/queries", "types"), self.root):
            if "type_param" in m:
                type_vars.add(src.text(m["type_param"][0]))
                continue
            if "static" in m:  # a class named as the receiver of a static member
                n = m["static"][0]
                if n.id not in seen:
                    seen.add(n.id)
                    found.append(n)
                continue
            # A type subtree is small; descending it here finds `Owner` in `Map<String, List<Owner>>`.
            stack = [m["type"][0]]
            while stack:
                n = stack.pop()
                if n.type in _TYPE_NAMES:
                    if n.id not in seen:
                        seen.add(n.id)
                        found.append(n)
                elif n.type not in _ANNOTATIONS:
                    stack.extend(n.named_children)
        type_vars.add("var")
        found = [n for n in found if not (n.type == "type_identifier" and src.text(n) in type_vars)]
        found.sort(key=lambda n: n.start_byte)
        owners = self._owners([n.start_byte for n in found])
        self.out.type_uses = [
            TypeUse(
                owner.rec.qualname if owner else None,
                drop_generics(_WS.sub("", src.text(n))),
                src.line(n),
                src.col(n),
            )
            for n, owner in zip(found, owners)
        ]

    # ------------------------------------------------------------------ injections

    def _injections(self) -> None:
        src = self.src
        out = self.out.injections
        members: dict[int, list[_Def]] = {}
        for d in self.defs:
            if d.parent_def is not None:
                members.setdefault(id(d.parent_def), []).append(d)
        for cls in self.defs:
            if cls.rec.kind != "class":
                continue
            owner = cls.rec.qualname
            mine = members.get(id(cls), [])
            ctors = [d for d in mine if d.rec.kind == "constructor"]
            stereotype = any(a in STEREOTYPES for a in cls.annotations)
            for d in mine:
                if d.rec.kind == "field" and FIELD_INJECT.intersection(d.annotations) and d.rec.field_type:
                    at = d.type_node or d.node
                    out.append(Injection(owner, d.rec.field_type, "field", src.line(at), src.col(at)))
                elif d.rec.kind == "method" and FIELD_INJECT.intersection(d.annotations):
                    self._param_injections(owner, d, "field")
                elif d.rec.kind == "constructor" and (
                    CTOR_INJECT.intersection(d.annotations) or (stereotype and len(ctors) == 1)
                ):
                    self._param_injections(owner, d, "constructor")
            if stereotype and not ctors:
                lombok_all = LOMBOK_ALL in cls.annotations
                if lombok_all or LOMBOK_REQUIRED in cls.annotations:
                    for d in mine:
                        if d.rec.kind != "field" or not d.rec.field_type or d.node.type != "field_declaration":
                            continue
                        if "static" in d.rec.modifiers:
                            continue
                        if not lombok_all and ("final" not in d.rec.modifiers or d.has_initializer):
                            continue
                        at = d.type_node or d.node
                        out.append(Injection(owner, d.rec.field_type, "constructor", src.line(at), src.col(at)))
        out.sort(key=lambda i: (i.line, i.col))

    # ------------------------------------------------------------------ Lombok

    def _lombok(self) -> None:
        """Add the members Lombok annotations generate (:mod:`indexer.languages.java.lombok`), after
        every sweep: they own no calls, bindings or type uses."""
        members: dict[int, list[_Def]] = {}
        for d in self.defs:
            if d.parent_def is not None:
                members.setdefault(id(d.parent_def), []).append(d)
        added = []
        for cls in self.defs:
            if cls.rec.kind not in ("class", "enum"):
                continue
            mine = members.get(id(cls), [])
            fields = [LombokField(d.rec, d.rec.decorators, d.has_initializer) for d in mine
                      if d.rec.kind == "field" and d.node.type == "field_declaration"]
            spans = self._annotation_spans(cls.node)
            if not spans and not any(f.decorators for f in fields) and not any(
                    d.rec.decorators for d in mine if d.rec.kind in ("constructor", "method")):
                continue
            added += generated_members(LombokClass(cls.rec, spans, fields, [d.rec for d in mine]))
        self.out.definitions.extend(added)

    def _spring_data(self) -> None:
        """Add the members repository interfaces inherit from Spring Data's repository types
        (:mod:`indexer.languages.java.spring_data`), after every sweep, as Lombok's."""
        added = []
        for d in self.defs:
            if d.rec.kind == "interface" and d.rec.bases:
                mine = [m.rec for m in self.defs if m.parent_def is d]
                added += inherited_members(d.rec, mine)
        self.out.definitions.extend(added)

    def _annotation_spans(self, node: Node) -> dict[str, tuple[str, Span]]:
        """The annotations on a declaration by name: text (no ``@``) and span (name: after ``@``)."""
        mods = node.named_child(0) if node.named_child_count else None
        if mods is None or mods.type != "modifiers":
            return {}
        src, out = self.src, {}
        for child in mods.children:
            if child.type in _ANNOTATIONS:
                text = collapse_whitespace(src.text(child)[1:])
                name_node = child.child_by_field_name("name") or child
                end_row, end_byte_col = child.end_point
                out.setdefault(_annotation_name(text), (text, Span(
                    src.line(child), src.col(child), end_row + 1, src.point_col(end_row, end_byte_col),
                    src.line(name_node), src.col(name_node))))
        return out

    def _param_injections(self, owner: str, d: _Def, via: str) -> None:
        """One injection per typed parameter of ``d`` (positions of the parameter type nodes)."""
        params = d.node.child_by_field_name("parameters")
        if params is None:
            return
        for p in params.named_children:
            if p.type == "formal_parameter":
                tnode = p.child_by_field_name("type")
            elif p.type == "spread_parameter":
                tnode = _spread_type(p)
            else:
                continue
            ttext = self._type_text(tnode)
            if tnode is not None and ttext:
                self.out.injections.append(Injection(owner, ttext, via, self.src.line(tnode), self.src.col(tnode)))


EXTRACTOR = JavaExtractor()
