"""Apex extractor: turns one ``.cls`` or ``.trigger`` file into a :class:`~indexer.model.FileExtraction`.

The rules live in ``indexer/languages/apex/queries/*.scm``:

* ``definitions.scm``: classes, interfaces and enums (inner ones too), their methods, constructors,
  fields and properties, enum values, and triggers; what each type extends / implements;
* ``calls.scm``: method invocations, ``new`` expressions and ``this(...)`` / ``super(...)``;
* ``bindings.scm``: typed names inside method and trigger bodies (parameters, locals, loop and catch
  variables);
* ``types.scm``: the places where a type is named;
* ``strip.scm``: annotations and comments, left out of signatures;
* each call's argument types as written (:mod:`indexer.languages.apex.arguments`), from which the
  resolver chooses among overloads;
* ``data.scm``: SOQL queries and DML statements (:mod:`indexer.languages.apex.data`).

Apex is Java-shaped, with differences the records carry:

* A **trigger** (``trigger AccountTrigger on Account (before insert, after update) { ... }``) is a
  ``function`` definition named after the trigger, whose body's calls it owns; its modifiers are
  ``trigger`` plus the events (``before insert``), its ``field_type`` the sObject it fires on.
  :mod:`indexer.languages.apex.frameworks.platform` makes it an entry point.
* Sharing modes (``with sharing``, ``without sharing``, ``inherited sharing``) are modifiers of the
  class as written, so they reach the node's properties and its chunk's signature.
* Properties (``public Integer count { get; set; }``) are fields.
* The platform runs some methods itself when code hands it an object: ``System.enqueueJob(new
  Job())`` runs ``Job.execute``, ``Database.executeBatch(new Batch())`` runs ``start``, ``execute``
  and ``finish``, ``System.schedule(name, cron, new Job())`` runs ``execute``. Each is a call site
  of those methods on a receiver written ``new Job()``, or on the name handed over
  (``System.enqueueJob(job)``: receiver ``job``, bound through its declared type), so it binds only
  when the object's class is known and declares them; arity unknown, at the argument's position,
  from the enclosing method.

Identifiers are case-insensitive in Apex; the records keep them as written and the module system
(:mod:`indexer.languages.apex.modules`) looks type names up case-insensitively, and member names too
when none is spelled exactly as the call writes it (``members_fold_case``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from indexer.frameworks import run_detectors
from indexer.languages.apex.arguments import argument_types
from indexer.languages.apex.frameworks import detectors_for
from indexer.languages.base import (collapse_whitespace, innermost_scopes, text_outside, SourceText, parse_errors, parser, query,
                                    run_query, kept_on_failure, chain_receiver, code_scope, definition_captures, doc_comment)
from indexer.model import LONG_RECEIVER, TYPE_KINDS, Binding, CallSite, Definition, FileExtraction, Param, TypeUse, drop_generics

__all__ = ["ANNOTATIONS", "EXTRACTOR", "ApexExtractor", "GRAMMAR", "PLATFORM_DISPATCH"]

GRAMMAR = "apex"
QUERIES = "apex/queries"

PLATFORM_DISPATCH: dict[tuple[str, str], tuple[int, tuple[str, ...]]] = {
    ("system", "enqueuejob"): (0, ("execute",)),
    ("database", "executebatch"): (0, ("start", "execute", "finish")),
    ("system", "schedule"): (2, ("execute",)),
    ("system", "schedulebatch"): (0, ("start", "execute", "finish")),
}
"""Platform calls that run methods of an object they are handed: (receiver, method) lowercased ->
(index of the argument holding the object, the methods run)."""

ANNOTATIONS = {name.lower(): name for name in (
    "AuraEnabled", "Deprecated", "future", "HttpDelete", "HttpGet", "HttpPatch", "HttpPost", "HttpPut",
    "InvocableMethod", "InvocableVariable", "IsTest", "JsonAccess", "NamespaceAccessible", "ReadOnly",
    "RemoteAction", "RestResource", "SuppressWarnings", "TestSetup", "TestVisible",
)}
"""The platform's annotations by lowercased name: Apex is case-insensitive, so ``@auraenabled`` is
recorded as ``AuraEnabled`` (detectors and the analysis compare names exactly)."""

_CONTAINER_KINDS = TYPE_KINDS | {"method", "constructor", "function"}
_COMMENTS = frozenset({"line_comment", "block_comment"})
_TYPE_NAMES = frozenset({"type_identifier", "scoped_type_identifier"})
_WS = re.compile(r"\s+")
_EVENT = re.compile(r"^(before|after)_(\w+)$")
_HANDED_NAMES = frozenset({"identifier", "field_access", "this"})
"""Arguments of a platform dispatch call that name the object handed over (``job``, ``this.job``,
``this``): the methods run are called on that name, bound by its declared type."""




@dataclass(slots=True)
class _Def:
    """A definition under construction: the IR record, its node and the bytes it owns."""

    rec: Definition
    node: Node
    scope_start: int
    scope_end: int
    index: int = 0
    parent_def: _Def | None = None


class ApexExtractor:
    """The Apex :class:`~indexer.languages.base.Extractor` (``EXTRACTOR`` in this module)."""

    language = "apex"
    extensions = (".cls", ".trigger")

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """Extract definitions, calls, bindings, type uses and framework facts from ``source``.

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
    """The per-file work of :class:`ApexExtractor`."""

    def __init__(self, source: bytes, out: FileExtraction) -> None:
        self.src = SourceText(source)
        self.out = out
        self.root = parser(GRAMMAR).parse(source).root_node
        self.defs: list[_Def] = []
        self.strip_starts: list[int] = []
        self.strip_ends: list[int] = []
        self.receiver_cache: dict[int, str] = {}
        self._scopes: list[_Def] | None = None

    def run(self) -> None:
        """Run every query and fill ``self.out``."""
        self.out.errors.extend(parse_errors(self.root, self.src))
        ranges = sorted((n.start_byte, n.end_byte)
                        for _, m in run_query(query(GRAMMAR, QUERIES, "strip"), self.root) for n in m["strip"])
        self.strip_starts = [s for s, _ in ranges]
        self.strip_ends = [e for _, e in ranges]
        self._definitions()
        self._calls()
        self._bindings()
        self._type_uses()

    # ------------------------------------------------------------------ definitions

    def _definitions(self) -> None:
        matches = run_query(query(GRAMMAR, QUERIES, "definitions"), self.root)
        pending, heritage = definition_captures(matches, self._make_defs, _CONTAINER_KINDS)
        self.defs = pending
        types = {d.node.id: d for d in pending if d.rec.kind in TYPE_KINDS}
        for owner, key, tnode in sorted(heritage, key=lambda h: h[2].start_byte):
            d = types.get(owner.id)
            text = self._type_text(tnode)
            if d is not None and text:
                getattr(d.rec, "bases" if key == "base" else "implements").append(text)
        for d in pending:
            parent = d.parent_def
            if d.rec.kind == "method" and parent is not None and parent.rec.kind == "interface" \
                    and "abstract" not in d.rec.modifiers:
                d.rec.modifiers.append("abstract")
        self.out.definitions = [d.rec for d in pending]

    def _make_defs(self, cap: str, node: Node) -> list[_Def]:
        if cap in ("class", "interface", "enum"):
            return [self._type_def(cap, node)]
        if cap in ("method", "constructor"):
            return [self._callable_def(cap, node)]
        if cap == "field":
            return self._field_defs(node)
        if cap == "constant":
            rec = self._new_def("field", node, node.child_by_field_name("name"))
            rec.signature = rec.name
            return [_Def(rec, node, node.start_byte, node.end_byte)]
        if cap == "trigger":
            return [self._trigger_def(node)]
        return []

    def _new_def(self, kind: str, node: Node, name_node: Node | None) -> Definition:
        src = self.src
        name_node = name_node or node
        end_row, end_byte_col = node.end_point
        return Definition(
            kind=kind, name=src.text(name_node), qualname="", parent=None,
            start_line=src.line(node), start_col=src.col(node),
            end_line=end_row + 1, end_col=src.point_col(end_row, end_byte_col),
            name_line=src.line(name_node), name_col=src.col(name_node),
            docstring=doc_comment(src, node),
        )

    def _modifiers(self, node: Node, rec: Definition) -> None:
        """Fill ``modifiers`` (``public``, ``static``, ``with sharing``, ...) and ``decorators``
        (annotation texts without ``@``: ``AuraEnabled(cacheable=true)``) from the ``modifiers`` child."""
        mods = next((c for c in node.named_children if c.type == "modifiers"), None)
        if mods is None:
            return
        for child in mods.named_children:
            if child.type == "annotation":
                text = collapse_whitespace(self.src.text(child)[1:])
                name, paren, rest = text.partition("(")
                rec.decorators.append(ANNOTATIONS.get(name.strip().lower(), name.strip()) + paren + rest)
            elif child.type == "modifier":
                rec.modifiers.append(collapse_whitespace(self.src.text(child)).lower())

    def _type_def(self, kind: str, node: Node) -> _Def:
        body = node.child_by_field_name("body")
        rec = self._new_def(kind, node, node.child_by_field_name("name"))
        self._modifiers(node, rec)
        rec.signature = self._signature(node.start_byte, body.start_byte if body else node.end_byte)
        return _Def(rec, node, node.start_byte, node.end_byte)

    def _callable_def(self, kind: str, node: Node) -> _Def:
        body = node.child_by_field_name("body")
        rec = self._new_def(kind, node, node.child_by_field_name("name"))
        self._modifiers(node, rec)
        rec.signature = self._signature(node.start_byte, body.start_byte if body else node.end_byte).rstrip(";").rstrip()
        if kind == "method":
            rtype = node.child_by_field_name("type")
            rec.return_type = self._type_text(rtype) if rtype is not None and rtype.type != "void_type" else None
        params = node.child_by_field_name("parameters")
        if params is not None:
            rec.params = [Param(self.src.text(p.child_by_field_name("name")), self._type_text(p.child_by_field_name("type")))
                          for p in params.named_children
                          if p.type == "formal_parameter" and p.child_by_field_name("name") is not None]
        return _Def(rec, node, node.start_byte, node.end_byte)

    def _field_defs(self, node: Node) -> list[_Def]:
        """One field per variable declarator (a property is a field with an accessor list)."""
        tnode = node.child_by_field_name("type")
        ftype = self._type_text(tnode)
        head = self._signature(node.start_byte, tnode.end_byte) if tnode is not None else ""
        declarators = node.children_by_field_name("declarator")
        out: list[_Def] = []
        for i, decl in enumerate(declarators):
            name_node = decl.child_by_field_name("name")
            rec = self._new_def("field", node, name_node)
            self._modifiers(node, rec)
            rec.field_type = ftype
            rec.signature = f"{head} {self.src.text(name_node)}".strip()
            if any(c.type == "accessor_list" for c in node.named_children):
                rec.modifiers.append("property")
            start = node.start_byte if i == 0 else decl.start_byte
            end = node.end_byte if i == len(declarators) - 1 else decl.end_byte
            out.append(_Def(rec, node, start, end, index=i))
        return out

    def _trigger_def(self, node: Node) -> _Def:
        """A trigger: a ``function`` named after it; modifiers ``trigger`` and its events
        (``before insert``), ``field_type`` the sObject."""
        rec = self._new_def("function", node, node.child_by_field_name("name"))
        obj = node.child_by_field_name("object")
        rec.field_type = self.src.text(obj) if obj is not None else None
        rec.modifiers.append("trigger")
        for ev in node.children_by_field_name("events"):
            kind = ev.named_children[0].type if ev.named_children else ""
            m = _EVENT.match(kind)
            if m:
                rec.modifiers.append(f"{m.group(1)} {m.group(2)}")
        body = node.child_by_field_name("body")
        rec.signature = self._signature(node.start_byte, body.start_byte if body else node.end_byte)
        return _Def(rec, node, node.start_byte, node.end_byte)

    def _signature(self, start: int, end: int) -> str:
        """The source in ``[start, end)`` without annotations and comments, whitespace collapsed."""
        return text_outside(self.src.data, self.strip_starts, self.strip_ends, start, end)

    def _type_text(self, node: Node | None) -> str | None:
        return self._signature(node.start_byte, node.end_byte) or None if node is not None else None

    # ------------------------------------------------------------------ ownership

    def owners(self, positions: list[int]) -> list[_Def | None]:
        """The innermost definition whose scope contains each byte position (one sorted sweep)."""
        if self._scopes is None:
            self._scopes = sorted(self.defs, key=lambda d: (d.scope_start, -d.scope_end))
        return innermost_scopes(self._scopes, positions)

    # ------------------------------------------------------------------ calls

    def _calls(self) -> None:
        src = self.src
        # (position node, name, receiver, arity, is_new, argument list: its types for overloads)
        found: list[tuple[Node, str, str | None, int, bool, Node | None]] = []
        for _, m in run_query(query(GRAMMAR, QUERIES, "calls"), self.root):
            args = m["args"][0]
            arity = sum(1 for a in args.named_children if a.type not in _COMMENTS)
            if "call" in m:
                name_node = m["name"][0]
                recv = m.get("receiver")
                receiver = self.receiver(recv[0]) if recv else None
                name = src.text(name_node)
                found.append((name_node, name, receiver, arity, False, args))
                found.extend(self._dispatched(receiver, name, args))
            elif "new" in m:
                tnode = m["type"][0]
                if tnode.type == "generic_type":
                    tnode = next((c for c in tnode.named_children if c.type in _TYPE_NAMES), tnode)
                name_node, receiver = tnode, None
                if tnode.type == "scoped_type_identifier" and tnode.named_children:
                    name_node = tnode.named_children[-1]
                    prefix = src.data[tnode.start_byte : name_node.start_byte].decode("utf-8", "replace")
                    receiver = drop_generics(_WS.sub("", prefix)).rstrip(".") or None
                found.append((name_node, src.text(name_node), receiver, arity, True, args))
            else:
                name_node = m["name"][0]
                found.append((name_node, src.text(name_node), None, arity, False, args))
        found.sort(key=lambda f: f[0].start_byte)
        owners = self.owners([f[0].start_byte for f in found])
        self.out.calls = [
            CallSite(caller=code_scope(owner), name=name, receiver=receiver, arity=arity,
                     line=src.line(node), col=src.col(node), is_new=is_new,
                     arg_types=argument_types(src, args, self.receiver) if args is not None else ())
            for (node, name, receiver, arity, is_new, args), owner in zip(found, owners)
        ]

    def _dispatched(self, receiver: str | None, name: str, args: Node
                    ) -> list[tuple[Node, str, str | None, int, bool, Node | None]]:
        """The methods a platform call (:data:`PLATFORM_DISPATCH`) runs on the object it is handed,
        when that argument is a ``new X(...)`` expression (calls of them on ``new X()``) or names the object
        (``System.enqueueJob(job)``, ``this.job``, ``this``: calls of them on that receiver, so they bind
        through its declared type; a name typed by the platform's interface, ``Queueable job``, stays
        external)."""
        spec = PLATFORM_DISPATCH.get(((receiver or "").lower(), name.lower()))
        if spec is None:
            return []
        index, methods = spec
        values = [a for a in args.named_children if a.type not in _COMMENTS]
        if index >= len(values):
            return []
        arg = values[index]
        if arg.type == "object_creation_expression":
            tnode = arg.child_by_field_name("type")
            text = drop_generics(_WS.sub("", self.src.text(tnode))) if tnode is not None else ""
            receiver = f"new {text}()" if text else ""
        elif arg.type in _HANDED_NAMES:
            receiver = self.receiver(arg)
        else:
            return []
        if not receiver or receiver == LONG_RECEIVER:
            return []
        return [(arg, method, receiver, -1, False, None) for method in methods]

    def receiver(self, node: Node) -> str:
        """Normalised receiver text (``this.repo``, ``a.b()`` for a call, ``new Foo()``; whitespace
        and generics dropped): :func:`indexer.languages.java_family.chain_receiver`."""
        return chain_receiver(self.src, node, self.receiver_cache)

    # ------------------------------------------------------------------ bindings and type uses

    def _bindings(self) -> None:
        src = self.src
        found: list[tuple[Node, str]] = []
        for _, m in run_query(query(GRAMMAR, QUERIES, "bindings"), self.root):
            ttext = self._type_text(m["type"][0])
            if ttext:
                found.append((m["name"][0], ttext))
        found.sort(key=lambda f: f[0].start_byte)
        owners = self.owners([f[0].start_byte for f in found])
        bindings: list[tuple[int, Binding]] = [
            (n.start_byte, Binding(code_scope(owner), src.text(n), ttext, "declared", src.line(n)))
            for (n, ttext), owner in zip(found, owners)
        ]
        for d in self.defs:
            if d.rec.kind == "field" and d.rec.field_type and d.parent_def is not None:
                scope, ftype, line = d.rec.parent, d.rec.field_type, d.rec.name_line
                bindings.append((d.scope_start, Binding(scope, f"this.{d.rec.name}", ftype, "declared", line)))
                bindings.append((d.scope_start, Binding(scope, d.rec.name, ftype, "declared", line)))
        bindings.sort(key=lambda b: b[0])
        self.out.bindings = [b for _, b in bindings]

    def _type_uses(self) -> None:
        src = self.src
        found: list[Node] = []
        seen: set[int] = set()
        for _, m in run_query(query(GRAMMAR, QUERIES, "types"), self.root):
            stack = [m["type"][0]]
            while stack:
                n = stack.pop()
                if n.type in _TYPE_NAMES:
                    if n.id not in seen:
                        seen.add(n.id)
                        found.append(n)
                elif n.type != "annotation":
                    stack.extend(n.named_children)
        found.sort(key=lambda n: n.start_byte)
        owners = self.owners([n.start_byte for n in found])
        self.out.type_uses = [
            TypeUse(owner.rec.qualname if owner else None, drop_generics(_WS.sub("", src.text(n))), src.line(n), src.col(n))
            for n, owner in zip(found, owners)
        ]


EXTRACTOR = ApexExtractor()
