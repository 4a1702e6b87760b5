"""The Python extractor: definitions, call sites, imports, bindings and type uses of one file.

The rules live in ``indexer/languages/python/queries/*.scm``; this module runs them and assembles the captures
into :mod:`indexer.model` records. Python code touches the tree only where a query cannot express the
rule, and says so where it does:

* nesting (qualname, parent, ``method`` vs ``function``, the caller of a call, the scope of a
  binding) comes from the *body ranges* of the definitions: sorted once, then looked up by bisection
  (:class:`~indexer.languages.python.scopes.Scopes`), never by walking parents per capture;
* a call's receiver text and arity and the type names inside an annotation are read from small
  subtrees (a chain of attributes / calls, an argument list, an annotation).

Scoping follows :mod:`indexer.model`: a definition's *body* is its scope, so decorators, default
values and annotations of a method belong to the class, those of a top-level function to the module.

This module assembles a file's extraction (the walks in order, then the framework detectors) and walks
definitions, returns, type uses and calls; the assignment walk is
:mod:`indexer.languages.python.assignments`, the import walk :mod:`indexer.languages.python.imports`,
nesting :mod:`indexer.languages.python.scopes`, shared lexical helpers :mod:`indexer.languages.python.syntax`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import attrgetter

from tree_sitter import Node

from indexer.frameworks import run_detectors
from indexer.languages.python.frameworks import detectors_for, shared_queries
from indexer.languages.python.reads import ValueReads
from indexer.languages.python.containers import ContainerCalls
from indexer.languages.python.frameworks.common import known_calls, known_self_reads
from indexer.languages.python.typenames import is_user_type
from indexer.languages.python.implied import ImpliedFacts
from indexer.languages.python.pytest_fixtures import is_fixture
from indexer.languages.python.indentation import cut_deep_blocks
from indexer.languages.python.assignments import Assignments
from indexer.languages.python.branches import branch_joins
from indexer.languages.python.getattr_calls import getattr_calls
from indexer.languages.python.name_values import string_constants
from indexer.languages.python.narrowing import isinstance_narrowings
from indexer.languages.python.imports import ImportStatements
from indexer.languages.python.returned_params import returned_parameter
from indexer.languages.python.scopes import Scope, Scopes
from indexer.languages.python.syntax import DOTTED, GRAMMAR, LITERAL_NODES, STATEMENT_PARENTS, WS, collapse, literal_string
from indexer.languages.base import SourceText, language, parse_errors, parser, query, run_query, shared_pass, kept_on_failure
from indexer.model import (LITERAL_RECEIVER, LONG_RECEIVER, MAX_RECEIVER_LINKS, Binding, CallSite, Definition,
                           FileExtraction, NamedArgument, Param, TypeUse)

__all__ = ["EXTRACTOR", "PythonExtractor", "SHARED_QUERIES"]

_AT = attrgetter("line", "col")
"""Sort key of records in source order: ``(line, col)``, read in C (no Python call per record)."""
_DEFINITION_ORDER = attrgetter("start_line", "start_col", "name_line", "name_col")
"""Sort key of a file's definitions: where each starts, then where its name is."""

_OBJECT, _ATTRIBUTE, _FUNCTION, _NAME, _VALUE = (language(GRAMMAR).field_id_for_name(f) for f in (
    "object", "attribute", "function", "name", "value"))
"""Field ids of the hottest look-ups (``child_by_field_id``: no search of the field's name per call)."""
_PLAIN_CHAIN = re.compile(rf"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){{1,{MAX_RECEIVER_LINKS}}}")
"""An attribute chain of names, no space, call or comment, within :data:`MAX_RECEIVER_LINKS`: the
receiver text of such an attribute node is its own text (the walk of :meth:`receiver_text` would
rebuild it link by link)."""
_LITERAL_HEADS = ("True", "False")
"""Heads of a plain chain that may be a literal (``True.real``: :data:`LITERAL_RECEIVER`): walked."""
_TRAILING_COMMA = re.compile(r",\s+\)")  # `def f(\n  a,\n)`: the comma before a closing line

_MODIFIER_DECORATORS = {  # decorators that become modifiers
    "staticmethod": "staticmethod",
    "classmethod": "classmethod",
    "property": "property",
    "cached_property": "property",
    "functools.cached_property": "property",
    "abc.abstractproperty": "property", "abstractproperty": "property",
}
_DESCRIPTORS = frozenset({"reify", "helpers.reify", "memoized_property", "util.memoized_property", "hybrid_property"})
"""Libraries' caching descriptors (pyramid's / aiohttp's reify, SQLAlchemy's): getters whose decoration is a call."""

# Decorators that only tell a type checker something: no call worth a site.
_TYPING_DECORATORS = frozenset({"overload", "typing.overload", "override", "typing.override", "typing_extensions.override",
                                "final", "typing.final", "abstractmethod", "abc.abstractmethod"})


_ABSTRACT = frozenset({"abstractmethod", "abc.abstractmethod"})


def _unimplemented(node: Node) -> bool:
    """Whether a ``def``'s body, past its docstring, is only ``raise NotImplementedError[(...)]`` or
    ``...`` (a protocol's or an informal abstract method's: its subclasses implement it); ``pass`` is a
    concrete no-op hook."""
    body = node.child_by_field_name("body")
    if body is None:
        return False
    # the grammar gives a lone expression statement as the expression itself (`string`, `ellipsis`)
    stmts = [c.named_children[0] if c.type == "expression_statement" and len(c.named_children) == 1 else c
             for c in body.named_children if c.type != "comment"]
    if len(stmts) > 1 and stmts[0].type in ("string", "concatenated_string"):
        stmts = stmts[1:]
    if len(stmts) != 1:
        return False
    only = stmts[0]
    if only.type == "raise_statement":
        raised = only.named_children[0] if only.named_children else None
        if raised is not None and raised.type == "call":
            raised = raised.child_by_field_name("function")
        return raised is not None and raised.type == "identifier" and raised.text == b"NotImplementedError"
    return only.type == "ellipsis"


SHARED_QUERIES = ("definitions", "returns", "calls", "implicit_calls", "assignments", "unpacking", "containers",
                  "imports", "orm_attributes", "class_uses", "value_reads", "narrowing", "branches", "getattr_calls")
"""The query files every Python file runs over its whole tree (the extractor's, ``implied``'s and the
``orm_attributes`` / ``class_uses`` detectors'): one walk for all (:func:`indexer.languages.base.shared_pass`);
the detectors that run only when a file names their library run their own queries."""


@dataclass(slots=True)
class _DefMatch:
    """Captures of one class / function definition, gathered from several query matches."""

    node: Node | None = None
    is_class: bool = False
    name: Node | None = None
    decorated: Node | None = None
    decorators: list[Node] = field(default_factory=list)
    is_async: bool = False
    is_overload: bool = False
    return_type: Node | None = None
    bases: list[Node] = field(default_factory=list)
    docstring: Node | None = None
    params: list[tuple[Node, dict[str, list[Node]]]] = field(default_factory=list)
    lambda_value: Node | None = None
    """The ``lambda`` of ``name = lambda ...: body`` (``node`` is the assignment), or ``None``."""


class _FileExtractor(Assignments, ImportStatements, ImpliedFacts, ContainerCalls, ValueReads):
    """Extraction state for one file: the source, the scopes found so far and the output."""

    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.root = root
        self.src = src
        self.out = out
        self.scopes = Scopes()
        self.decorated: list[tuple[int, int, str, int, Node]] = []
        """``(start, end, qualname, below, expression)`` of every decorator (``below``: how many
        decorators of the definition are written under it): calls inside it are the decorated
        definition's (issue 16: a decorator's edge is credited to what it decorates)."""
        self._decorator_starts: list[int] = []
        self._lambda_bodies: list[tuple[int, Node]] = []
        """``(scope index, body expression)`` of each named lambda: the value it returns."""
        self.returned_values: list[tuple[int, Node]] = []
        """``(scope index, value)`` of every ``return`` with a value (and named lambda body), from
        :meth:`returns`; ``generator_scopes`` the scopes holding a ``yield`` (both read by
        :class:`~indexer.languages.python.containers.ContainerCalls`: a function returning a container)."""
        self.generator_scopes: set[int] = set()
        self.located: dict[tuple[int, int], Node] = {}
        """The calls :meth:`calls` read by their callee name's position (for the detectors' look-ups)."""
        self.callees: set[int] = set()
        """Node ids of the attributes :meth:`calls` found called (``a.m`` of ``a.m(x)``): no value read."""
        self.self_reads: list[Node] = []
        """The ``self.<name>`` attribute nodes :meth:`value_reads` met (for the ``orm_attributes`` detector)."""
        self.bare_calls: list[tuple[Node, Node, Node]] = []
        """``(call, callee name, arguments)`` of each call of a plain name (``h(x)``) :meth:`calls` read,
        in match order (:class:`~indexer.languages.python.containers.ContainerCalls` reads them)."""

    def run(self) -> None:
        """Fill ``out``; definitions first, since every other record is scoped by them."""
        self.definitions()
        self.returns()
        self.calls()
        self.implicit_calls()
        self.assignments()
        self.unpacking()
        self.container_calls()
        self.out.calls.extend(getattr_calls(self))
        self.out.bindings.extend(string_constants(self.root, self.src.text))
        self.out.bindings.extend(branch_joins(self.root, self.out.bindings, self.scopes.qualname_at))
        self.out.bindings.extend(isinstance_narrowings(self.root, self.src.text, self.scopes.qualname_at))
        self.imports()
        self.value_reads()
        self.function_refs()
        self.out.definitions.sort(key=_DEFINITION_ORDER)
        self.out.errors.extend(parse_errors(self.root, self.src))

    # ------------------------------------------------------------------ definitions

    def definitions(self) -> None:
        """Classes, functions, methods and constructors, with their parameters and type uses."""
        by_node: dict[int, _DefMatch] = {}
        for _, caps in run_query(query(GRAMMAR, "python/queries", "definitions"), self.root):
            self._collect_def(caps, by_node)
        defs = [d for d in by_node.values() if d.node is not None and d.name is not None]
        defs.sort(key=lambda d: d.node.start_byte)
        defs = self._without_overload_stubs(defs)
        stack: list[int] = []  # scopes enclosing the current position, innermost last
        earlier: dict[str, list[tuple[int, Definition]]] = {}  # per qualname, those not replaced yet
        for d in defs:
            start = d.node.start_byte
            while stack and self.scopes.items[stack[-1]].end <= start:
                stack.pop()
            parent = stack[-1] if stack else -1
            index = self._add_definition(d, parent)
            if index >= 0:
                stack.append(index)
                self._replace_earlier(d, parent, self.scopes.items[index].definition, earlier)
        items = self.scopes.items
        for scope in items:  # what a replaced definition's body defines goes with it
            outer = items[scope.parent].definition if scope.parent >= 0 else None
            if outer is not None and outer.shadowed and scope.definition is not None:
                scope.definition.shadowed = True

    def _replace_earlier(self, d: _DefMatch, parent: int, definition: Definition | None,
                         earlier: dict[str, list[tuple[int, Definition]]]) -> None:
        """Python's redefinition rule (:attr:`indexer.model.Definition.shadowed`): an undecorated
        ``def`` / ``class`` written directly in a module or class body (under no ``if`` / ``try`` /
        ``for`` / ``while`` / ``with`` / ``match``) rebinds its name whenever the body runs, so the
        definitions of its qualname written before it in that body (conditional or decorated ones
        too) are replaced. A decorated one may hand the earlier ones on (``@x.setter``,
        ``@f.register``) and a conditional one may not run: neither replaces. Function bodies are
        left alone. Linear: each definition is replaced at most once."""
        if definition is None:
            return
        outer = d.decorated or d.node
        seen = earlier.setdefault(definition.qualname, [])
        block = outer.parent
        if d.decorated is None and block is not None:
            scope = self.scopes.items[parent] if parent >= 0 else None
            if scope is None:
                direct = block.id == self.root.id
            else:
                direct = scope.kind == "class" and (block.start_byte, block.end_byte) == (scope.start, scope.end)
            if direct:
                body_start = scope.start if scope is not None else 0
                while seen and seen[-1][0] >= body_start:
                    seen.pop()[1].shadowed = True
        seen.append((outer.start_byte, definition))

    @staticmethod
    def _collect_def(caps: dict[str, list[Node]], by_node: dict[int, _DefMatch]) -> None:
        """Merge one definitions.scm match into the record of the definition it describes."""
        if "class" in caps:
            d = by_node.setdefault(caps["class"][0].id, _DefMatch())
            d.node, d.name, d.is_class = caps["class"][0], caps["class.name"][0], True
            return
        if "function" in caps:
            d = by_node.setdefault(caps["function"][0].id, _DefMatch())
            d.node, d.name = caps["function"][0], caps["function.name"][0]
            return
        if "lambda" in caps:
            statement = caps["lambda"][0]
            if statement.parent is None or statement.parent.type not in STATEMENT_PARENTS:
                return  # `a = b = lambda: 0`, or inside an expression: no definition
            d = by_node.setdefault(statement.id, _DefMatch())
            d.node, d.name, d.lambda_value = statement, caps["lambda.name"][0], caps["lambda.value"][0]
            return
        d = by_node.setdefault(caps["def"][0].id, _DefMatch())
        if "decorated" in caps:
            d.decorated, d.decorators = caps["decorated"][0], caps["decorator"]
        elif "overload" in caps:
            d.is_overload = True
        elif "param" in caps:
            d.params.append((caps["param"][0], caps))
        elif "async" in caps:
            d.is_async = True
        elif "return_type" in caps:
            d.return_type = caps["return_type"][0]
        elif "base" in caps:
            d.bases.append(caps["base"][0])
        elif "docstring" in caps:
            d.docstring = caps["docstring"][0]

    def _without_overload_stubs(self, defs: list[_DefMatch]) -> list[_DefMatch]:
        """Drop ``@overload`` stubs (``defs`` in source order): where their block also defines the
        implementation only it stays; a block of stubs only (a ``.pyi`` file) keeps the first stub of
        each name. A stub's parameters, annotations and body are dropped with it."""

        def key(d: _DefMatch) -> tuple[int, str]:
            block = (d.decorated or d.node).parent  # the statement's own block: a local look
            return (block.id if block is not None else -1, self.src.text(d.name))

        implemented = {key(d) for d in defs if not d.is_overload}
        kept: list[_DefMatch] = []
        stubs_seen: set[tuple[int, str]] = set()
        for d in defs:
            if d.is_overload:
                k = key(d)
                if k in implemented or k in stubs_seen:
                    continue
                stubs_seen.add(k)
            kept.append(d)
        return kept

    def _add_definition(self, d: _DefMatch, parent: int) -> int:
        """Emit the Definition for ``d`` nested in scope ``parent``; return its scope index."""
        src = self.src
        name = src.text(d.name)
        if not name:  # a MISSING identifier in a broken header
            return -1
        parent_scope = self.scopes.items[parent] if parent >= 0 else None
        if d.lambda_value is not None and parent_scope is not None and parent_scope.kind != "class":
            return -1  # a lambda named in a function body stays part of it (its calls are the function's)
        parent_qual = parent_scope.qualname if parent_scope else None
        qualname = f"{parent_qual}.{name}" if parent_qual else name
        decorators = [collapse(src.text(n)) for n in d.decorators]
        modifiers = (["async"] if d.is_async else []) + [
            _MODIFIER_DECORATORS.get(t, "property") for t in decorators if t in _MODIFIER_DECORATORS or t in _DESCRIPTORS
        ] + (["lambda"] if d.lambda_value is not None else [])
        if d.is_class:
            kind = "class"
        elif parent_scope is not None and parent_scope.kind == "class":
            kind = "constructor" if name == "__init__" else "method"
        else:
            kind = "function"
        if kind == "method" and (any(t in _ABSTRACT for t in decorators) or _unimplemented(d.node)):
            modifiers.append("abstract")  # a declaration its subclasses implement (Java marks theirs so)
        drop_self = kind != "function" and "staticmethod" not in modifiers
        params = [] if d.is_class else self._params(d, drop_first=drop_self)
        outer = d.decorated or d.node
        definition = Definition(
            kind=kind,
            name=name,
            qualname=qualname,
            parent=parent_qual,
            start_line=src.line(outer),
            start_col=src.col(outer),
            end_line=outer.end_point[0] + 1,
            end_col=src.end_col(outer),
            name_line=src.line(d.name),
            name_col=src.col(d.name),
            signature=self._signature(d),
            params=params,
            return_type=collapse(src.text(d.return_type)) if d.return_type else None,
            modifiers=modifiers,
            decorators=decorators,
            bases=[collapse(src.text(b)) for b in d.bases],
            docstring=self._docstring(d.docstring) if d.docstring else None,
        )
        self.out.definitions.append(definition)
        for i, node in enumerate(d.decorators):
            self.decorated.append((node.start_byte, node.end_byte, qualname, len(d.decorators) - 1 - i, node))
        param_types = self._param_records(d, qualname)
        if d.return_type is not None:
            self._type_uses(d.return_type, qualname)
        body = (d.lambda_value or d.node).child_by_field_name("body") or d.node
        if d.lambda_value is not None:
            self._lambda_bodies.append((len(self.scopes.items), body))
        return self.scopes.add(Scope(body.start_byte, body.end_byte, qualname, kind, parent, param_types, definition))

    def _params(self, d: _DefMatch, drop_first: bool) -> list[Param]:
        """The formal parameters in order; a method's first (``self`` / ``cls``) is dropped."""
        d.params.sort(key=lambda p: p[0].start_byte)
        params: list[Param] = []
        for _, caps in d.params:
            variadic = "*" if "param.star" in caps else "**" if "param.starstar" in caps else None
            type_node = caps.get("param.type")
            params.append(
                Param(
                    name=self.src.text(caps["param.name"][0]),
                    type=collapse(self.src.text(type_node[0])) if type_node else None,
                    has_default="param.default" in caps,
                    variadic=variadic,
                )
            )
        if drop_first and params and params[0].variadic is None:
            del params[0]
        return params

    def _param_records(self, d: _DefMatch, qualname: str) -> dict[str, str]:
        """Bindings and type uses of annotated parameters; returns ``{name: annotation}``."""
        types: dict[str, str] = {}
        for _, caps in d.params:
            type_node = caps.get("param.type")
            if not type_node:
                continue
            self._type_uses(type_node[0], qualname)
            if "param.star" in caps or "param.starstar" in caps:
                continue  # `*args: T` binds a tuple of T, not a T
            name_node = caps["param.name"][0]
            name, type_text = self.src.text(name_node), collapse(self.src.text(type_node[0]))
            types[name] = type_text
            self.out.bindings.append(Binding(qualname, name, type_text, "declared", self.src.line(name_node)))
        return types

    def _signature(self, d: _DefMatch) -> str:
        """The header from ``def`` / ``class`` to the end of the parameters, return type or bases
        (a named lambda's: ``key = lambda x, y``)."""
        node = start = d.node
        end = d.name.end_byte
        if d.lambda_value is not None:
            node = d.lambda_value
            end = node.children[0].end_byte  # the `lambda` keyword, when it takes no parameters
        for field_name in ("type_parameters", "parameters", "return_type", "superclasses"):
            child = node.child_by_field_name(field_name)
            if child is not None and child.end_byte > end:
                end = child.end_byte
        header = self.src.data[start.start_byte : end].decode("utf-8", "replace")
        return collapse(_TRAILING_COMMA.sub(")", header))

    def _docstring(self, node: Node) -> str | None:
        """The decoded, stripped value of a docstring literal (``None`` for f-strings / bytes)."""
        text = self.src.text(node)
        if node.type == "string" and node.child_count >= 2:
            # Fast path without ast: read the string's first / last tokens (a local look, no walk).
            start, end = node.children[0], node.children[-1]
            prefix = self.src.text(start).lower()
            if "f" in prefix or "b" in prefix:
                return None
            body = self.src.data[start.end_byte : end.start_byte].decode("utf-8", "replace")
            if "\\" not in body or "r" in prefix:
                return body.strip()
        value = literal_string(text)
        return value.strip() if value is not None else None

    def returns(self) -> None:
        """``inferred_return`` of functions without a return annotation: the callee text when every
        ``return`` with a value in the function's own body returns a call of that same dotted name
        and the function is no generator; ``returned_refs`` and ``returns_other``; a generator's
        ``yielded_refs`` (the names its ``yield`` statements hand out uncalled, not ``yield from``);
        ``returned_param``, the parameter every ``return`` hands back (:mod:`.returned_params`)."""
        src, scopes = self.src, self.scopes
        callees: dict[int, str | None] = {}  # scope index -> common callee (None: not one name)
        refs: dict[int, list[str]] = defaultdict(list)  # scope index -> names returned uncalled
        yielded: dict[int, list[str]] = defaultdict(list)  # scope index -> names yielded uncalled
        generators: set[int] = set()
        other: dict[int, list[str | None]] = defaultdict(list)  # scope index -> what returns no plain name call
        returned: list[tuple[int, Node]] = list(self._lambda_bodies)  # a named lambda returns its body
        for _, caps in run_query(query(GRAMMAR, "python/queries", "returns"), self.root):
            if "yield" in caps:
                node = caps["yield"][0]
                index = scopes.at(node.start_byte)
                generators.add(index)
                value = node.named_children[-1] if node.named_child_count else None
                if value is not None and not any(c.type == "from" for c in node.children):  # `yield X(...)`: "X()"
                    called = WS.sub("", src.text(value.child_by_field_name("function"))) if value.type == "call" else ""
                    yielded[index].extend(self._returned_names(value) or ([called + "()"] if DOTTED.fullmatch(called) else []))
            elif caps["return.value"][0].type != "comment":
                returned.append((scopes.at(caps["return"][0].start_byte), caps["return.value"][0]))
        self.returned_values, self.generator_scopes = returned, generators
        for index, value in returned:
            callee = None
            if value.type == "call":
                text = WS.sub("", src.text(value.child_by_field_name("function")))
                callee = text if DOTTED.fullmatch(text) else None
            callees[index] = callee if callees.get(index, callee) == callee else None
            names = self._returned_names(value)
            refs[index].extend(names)
            if not names or not self._names_only(value):
                other[index].append(callee if value.type == "call" else None)
        for index, names in refs.items():
            definition = scopes.items[index].definition if index >= 0 else None
            if names and definition is not None and definition.kind != "class":
                definition.returned_refs = list(dict.fromkeys(names))
                definition.returns_other = index in other
                definition.applies_refs = index in other and all(c in definition.returned_refs for c in other[index])
                if index not in other and index not in generators:  # `return f` on every path, f a parameter
                    scope = scopes.items[index]
                    body = self.root.descendant_for_byte_range(scope.start, scope.end) or self.root
                    definition.returned_param = returned_parameter(definition, names, body)
        for index, names in yielded.items():
            definition = scopes.items[index].definition if index >= 0 else None
            if names and definition is not None and definition.kind != "class":
                definition.yielded_refs = list(dict.fromkeys(names))
        for index, callee in callees.items():
            if callee is None or index < 0 or index in generators:
                continue
            definition = scopes.items[index].definition
            if definition is not None and definition.kind != "class" and definition.return_type is None:
                definition.inferred_return = callee

    def function_refs(self) -> None:
        """Keep in ``returned_refs`` (and ``yielded_refs``) only names that can be functions: the first segment names a
        function or class defined in this file or an imported name, and no parameter of the
        function; or, in a method or a function nested in one, ``self`` / ``cls`` (``return
        self.on_done``: the bound method, called later as ``cb = obj.handler(); cb()``); or a local
        the function binds to such a name (``a = handler; return a``: an ``alias`` binding, which the
        resolver reads in the function's scope); any local a pytest fixture yields. Any other local
        variable returned (``return n``) is dropped, so editing it changes nothing other files read."""
        known = {d.name for d in self.out.definitions if d.kind != "field"} | {i.local for i in self.out.imports}
        receivers = ("self", "cls") if any(d.kind in ("method", "constructor") for d in self.out.definitions) else ()
        aliases: dict[str | None, set[str]] = defaultdict(set)  # per scope: locals bound to a known function
        for b in self.out.bindings:
            if b.how == "alias" and b.type and b.type.split(".", 1)[0] in known:
                aliases[b.scope].add(b.name)
        for d in self.out.definitions:
            if d.returned_refs or d.yielded_refs:
                params, local = {p.name for p in d.params}, aliases.get(d.qualname, ())
                fixture = bool(d.yielded_refs) and is_fixture(d)  # what a pytest fixture yields tests get, `X()` too
                local = {b.name for b in self.out.bindings if b.scope == d.qualname} if fixture else local
                kept, d.yielded_refs = ([r for r in refs if (head := r.split(".", 1)[0].removesuffix("()")) not in params and (
                    head in known or (head in receivers and head != r) or r in local)]
                    for refs in (d.returned_refs, [r for r in d.yielded_refs if fixture or not r.endswith("()")]))
                d.returns_other = bool(kept) and (d.returns_other or len(kept) < len(d.returned_refs))
                d.applies_refs = d.returns_other and d.applies_refs and len(kept) == len(d.returned_refs)
                d.returned_refs = kept

    def _names_only(self, value: Node, depth: int = 0) -> bool:
        """Whether a ``return`` value is only names :meth:`_returned_names` reads (no call, literal
        or operator on any branch)."""
        if depth > 8:
            return False
        if value.type in ("identifier", "attribute"):
            return bool(self._returned_names(value))
        if value.type == "parenthesized_expression" and value.named_child_count == 1:
            return self._names_only(value.named_children[0], depth + 1)
        if value.type == "conditional_expression" and value.named_child_count == 3:
            yes, _, no = value.named_children
            return self._names_only(yes, depth + 1) and self._names_only(no, depth + 1)
        return False

    def _returned_names(self, value: Node, depth: int = 0) -> list[str]:
        """Dotted names a ``return`` value is, uncalled: ``inner`` -> ``["inner"]``; ``a if c else
        b`` -> both branches (nested conditionals and parentheses at most 8 deep); anything else
        (a call, a literal, an operator) -> ``[]``."""
        if depth > 8:
            return []
        if value.type in ("identifier", "attribute"):
            text = WS.sub("", self.src.text(value))
            return [text] if DOTTED.fullmatch(text) and text not in ("None", "True", "False") else []
        if value.type == "parenthesized_expression" and value.named_child_count == 1:
            return self._returned_names(value.named_children[0], depth + 1)
        if value.type == "conditional_expression" and value.named_child_count == 3:
            yes, _, no = value.named_children
            return self._returned_names(yes, depth + 1) + self._returned_names(no, depth + 1)
        return []

    # ------------------------------------------------------------------ type uses

    def _type_uses(self, annotation: Node, owner: str | None) -> None:
        """One TypeUse per user type name inside an annotation (``Optional[Foo]`` -> ``Foo``)."""
        src = self.src
        for node in self._type_names(annotation):
            text = WS.sub("", src.text(node))
            if is_user_type(text):
                self.out.type_uses.append(TypeUse(owner, text, *src.line_col(node)))

    @staticmethod
    def _type_names(annotation: Node) -> Iterator[Node]:
        """Name nodes inside an annotation, in source order.

        A tree walk: queries cannot select "any identifier at any depth under this annotation, but
        not inside an attribute or a ``Literal[...]``". Annotations are small subtrees.
        """
        stack = [annotation]
        while stack:
            node = stack.pop()
            kind = node.type
            if kind in ("identifier", "attribute"):
                yield node
            elif kind == "string":
                # A forward reference "Foo": the text between the quotes, if it is a dotted name.
                content = node.named_children[1] if node.named_child_count == 3 else None
                if content is not None and content.type == "string_content":
                    if DOTTED.fullmatch(content.text.decode("utf-8", "replace")):
                        yield content
            elif kind == "generic_type" and node.named_child_count and node.named_children[0].text in (
                b"Literal",
                b"typing.Literal",
            ):
                continue
            else:
                stack.extend(reversed(node.named_children))

    # ------------------------------------------------------------------ calls

    def calls(self) -> None:
        """Every call whose callee is a name or an attribute, every call of what such a call returns
        (``f()(x)``: ``via="result"``) and every ``raise`` of one (``raise E`` builds ``E``: a call
        of it with no argument). A call inside a decorator (``@route(...)``,
        ``@cached(timeout=f())``) is the decorated definition's; a bare decorator (``@login_required``,
        ``@app.task``) is a call of it with one argument from the decorated definition, ``via``
        ``"decorator"`` (counted only when it binds: most are builtins or library functions), and a
        decorator factory (``@route("/x")``) a call of what it returns (``via="result"``); both hand
        over the decorated definition (:attr:`~indexer.model.NamedArgument.DECORATED`)."""
        src, out = self.src, self.out.calls
        start = len(out)
        self.decorated.sort()
        self._decorator_starts = [d[0] for d in self.decorated]
        caller_of = self.caller_of
        for _, _, qualname, below, expr in self.decorated:
            via = "decorator"
            if expr.type == "call":  # `@factory(x)`: what the call returns is the decorator
                via, expr = "result", expr.child_by_field_name("function")
            if expr is not None and expr.type in ("identifier", "attribute"):
                text = WS.sub("", src.text(expr))
                if DOTTED.fullmatch(text) and text not in _MODIFIER_DECORATORS and text not in _TYPING_DECORATORS:
                    receiver, _, name = text.rpartition(".")
                    at = expr.child_by_field_name("attribute") if expr.type == "attribute" else expr
                    line, col = src.line(at), src.col(at)
                    handed = NamedArgument("0", f"{NamedArgument.DECORATED}{below or ''}", line, col)
                    out.append(CallSite(qualname, name, receiver or None, 1, line, col, via=via, handed=(handed,)))
        located, bare = self.located, self.bare_calls
        for _, caps in run_query(query(GRAMMAR, "python/queries", "calls"), self.root):
            node = caps["name"][0]
            name, (line, col) = src.text(node), src.line_col(node)
            receiver = self.receiver_text(caps["receiver"][0]) if "receiver" in caps else None
            if "raise" in caps:  # `raise E`: E built with no argument
                out.append(CallSite(caller_of(caps["raise"][0]), name, receiver, 0, line, col))
            elif "result" in caps:  # `f()(x)`: what f returns, called; `f()()(x)`: what f() returns
                if node.type == "call":
                    receiver, _, name = self.receiver_text(node).rpartition(".")
                    receiver = receiver or None
                arity, handed = self.arguments(caps["args"][0])
                out.append(CallSite(caller_of(caps["result"][0]), name, receiver, arity, line, col,
                                    via="result", handed=handed))
            else:
                call = caps["call"][0]
                if "callee" in caps:
                    self.callees.add(caps["callee"][0].id)
                elif "receiver" not in caps:  # `h(x)`: calls.scm's first pattern
                    bare.append((call, node, caps["args"][0]))
                arity, handed = self.arguments(caps["args"][0])
                out.append(CallSite(caller_of(call), name, receiver, arity, line, col, handed=handed))
                if node.end_byte > node.start_byte:  # a missing (empty) name is no node of its position
                    located[line, col] = call
        out[start:] = sorted(out[start:], key=_AT)

    def caller_of(self, node: Node) -> str | None:
        """The qualname ``node``'s code belongs to: the decorated definition for code inside a
        decorator, else the innermost enclosing scope (:meth:`calls` sorts the decorators first)."""
        start = node.start_byte
        if self._decorator_starts:
            i = bisect_right(self._decorator_starts, start) - 1
            if i >= 0 and node.end_byte <= self.decorated[i][1]:
                return self.decorated[i][2]
        return self.scopes.qualname_at(start)

    def receiver_text(self, node: Node) -> str:
        """Normalised receiver text: ``a.b``, ``self``, ``super``, ``a.b()`` (arguments dropped).

        Reads down the receiver's chain of attributes and calls (a local walk: the normalisation
        rewrites every call in the chain, which a query capture cannot do); anything else is
        written as its text without whitespace.
        """
        if node.type == "attribute":  # `a.b.c` written plainly (most receivers): its text is the answer
            text = self.src.text(node)
            if _PLAIN_CHAIN.fullmatch(text) and not text.startswith(_LITERAL_HEADS):
                return text
        parts: list[str] = []
        for _ in range(MAX_RECEIVER_LINKS + 1):
            kind = node.type
            if kind == "identifier":
                parts.append(self.src.text(node))
                break
            if kind == "attribute":
                parts.append("." + self.src.text(node.child_by_field_id(_ATTRIBUTE)))
                node = node.child_by_field_id(_OBJECT)
                continue
            if kind == "call":
                callee = node.child_by_field_id(_FUNCTION)
                if callee.type == "identifier" and callee.text == b"super":
                    parts.append("super")
                    break
                parts.append("()")
                node = callee
                continue
            if kind == "parenthesized_expression" and node.named_child_count == 1:
                inner = node.named_children[0]
                if inner.type in LITERAL_NODES or inner.type in ("identifier", "attribute", "call"):
                    node = inner  # `("a" "b").join(x)`, `(self.repo).save()`: what is inside
                    continue
            parts.append(LITERAL_RECEIVER if kind in LITERAL_NODES else WS.sub("", self.src.text(node)))
            break
        else:
            return LONG_RECEIVER
        return "".join(reversed(parts))

    @staticmethod
    def arity(args: Node) -> int:
        """Arguments written (positional + keyword); -1 with ``*x`` / ``**x``. Reads the argument
        list's children (one level, no walk)."""
        if args.type != "argument_list":  # f(x for x in y)
            return 1
        count = 0
        for child in args.named_children:
            kind = child.type
            if kind in ("list_splat", "dictionary_splat"):
                return -1
            if kind != "comment":
                count += 1
        return count

    def arguments(self, args: Node) -> tuple[int, tuple[NamedArgument, ...]]:
        """``(arity, handed)`` of a call's argument list, from one read of its children (one level,
        no walk). ``arity`` as :meth:`arity` counts it; ``handed``: the arguments written as a name
        or dotted name (``run(handler, cb=self.on_done)``) or as a call of one
        (``run(make_handler(x))``: text ``make_handler()``, what the call returns), by position or
        keyword (:class:`~indexer.model.NamedArgument`); ``self`` / ``cls`` are no function handed."""
        if args.type != "argument_list":  # f(x for x in y)
            return 1, ()
        if not args.named_child_count:  # `f()`
            return 0, ()
        out: list[NamedArgument] = []
        count, spread = 0, False
        text, line_col = self.src.text, self.src.line_col
        for child in args.named_children:
            kind = child.type
            if kind == "comment":
                continue
            key = str(count)
            count += 1
            if kind == "identifier" or kind == "attribute":
                name = text(child)
                if name not in ("self", "cls") and DOTTED.fullmatch(name):
                    out.append(NamedArgument(key, name, *line_col(child)))
                continue
            if kind == "list_splat" or kind == "dictionary_splat":
                spread = True
                continue
            if kind == "keyword_argument":
                name, child = child.child_by_field_id(_NAME), child.child_by_field_id(_VALUE)
                if name is None or child is None:
                    continue
                key = text(name)
                kind = child.type
            called = ""
            if kind == "call":  # what the call returns is handed
                called, child = "()", child.child_by_field_id(_FUNCTION)
                if child is None:
                    continue
                kind = child.type
            if kind == "identifier" or kind == "attribute":
                name = text(child)
                if name not in ("self", "cls") and DOTTED.fullmatch(name):
                    out.append(NamedArgument(key, name + called, *line_col(child)))
        return (-1 if spread else count), tuple(out)

class PythonExtractor:
    """Extracts :class:`~indexer.model.FileExtraction` records from Python source (``.py``, ``.pyi``)."""

    language = "python"
    extensions = (".py", ".pyi")

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """Extract one file. Never raises: syntax errors (and, defensively, any internal failure)
        are reported in ``errors`` and whatever was extracted is kept."""
        out = FileExtraction(path=path, language=self.language)
        with kept_on_failure(out):
            tree = parser(GRAMMAR).parse(source)
            if tree.root_node.has_error and (cut := cut_deep_blocks(source)) is not None:  # nested past Python's limit
                source, tree, out.partial = cut, parser(GRAMMAR).parse(cut), "too_deep"
            src = SourceText(source)
            shared = SHARED_QUERIES + shared_queries(self.language, source)
            with shared_pass(GRAMMAR, "python/queries", shared, tree.root_node):
                extractor = _FileExtractor(tree.root_node, src, out)
                extractor.run()
                with known_calls(src, extractor.located), known_self_reads(src, extractor.self_reads):
                    run_detectors(detectors_for(self.language), tree.root_node, src, out)
        return out


EXTRACTOR = PythonExtractor()
