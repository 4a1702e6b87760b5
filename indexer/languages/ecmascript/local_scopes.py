"""One JavaScript / TypeScript file's local scopes as lookup tables, built once and read by every lookup.

Two questions are asked of the same declarations:

- what value a local name holds at a use (:meth:`~indexer.languages.ecmascript.frameworks.common.JsFile.template`:
  ``const url = base + "/x"; fetch(url)``): at each function, is the name one of its parameters; at each
  block, which declarator of that name comes before the use, and does an assignment in the block change it
  (:meth:`ScopeTables.parameter_word`, :meth:`ScopeTables.declarator_before`, :meth:`ScopeTables.reassigned`);
- whether a name written inside a function means a local of it rather than the module's or an import's
  function of that name (:meth:`ScopeTables.shadowed`): an object literal's property naming a function
  (``{ go }``, ``{ b: go }``: :mod:`indexer.languages.ecmascript.objects`,
  :mod:`indexer.languages.ecmascript.returned_objects`) holds that local instead::

    import { logout } from "./api"
    export function useAuth() {
      const logout = useCallback(() => { ... }, [])   // a call's result: no definition of the file
      return { logout }                               // not ./api's logout
    }

Both read one table per block (each statement's declarations by name, in order) and one word set per
binding construct (a function's parameters, a ``catch`` clause's parameter, a ``for`` head's declaration),
made the first time a lookup needs them (keys: tree-sitter node ids, valid while the tree lives). Scoping is
ECMAScript's lexical scoping (ECMA-262, 14.2 / 9.1: the nearest enclosing block, ``catch`` clause, ``for``
head or function declaring the name wins); ``var`` hoisting out of a nested block is not followed. Session
52's profile: 15,109 template lookups over 1,200 files of outline scanned the source again each (0.97 s);
an object literal of N properties in a body of N statements costs N lookups here, not N squared.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from tree_sitter import Node

__all__ = ["BLOCK_TYPES", "FUNCTION_TYPES", "HEAD_TYPES", "ScopeTables", "bound_words"]

FUNCTION_TYPES = frozenset({"function_declaration", "function_expression", "function", "arrow_function",
                            "method_definition", "generator_function_declaration", "generator_function"})
"""Node types of functions: each binds its parameters over its body."""
BLOCK_TYPES = frozenset({"statement_block", "switch_case", "switch_default", "class_static_block"})
"""Nodes whose statements declare names for the block: a table each (:meth:`ScopeTables.declarator_before`)."""
HEAD_TYPES = frozenset({"catch_clause", "for_in_statement", "for_statement"})
"""Nodes binding names over their body besides functions: a ``catch`` parameter, a ``for`` head's declaration."""
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_DEFINITIONS = frozenset({"function_declaration", "generator_function_declaration", "class_declaration",
                          "abstract_class_declaration"})
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function",
                              "class"})
_WORD = re.compile(r"[\w$]+")

_DEF, _VAR, _PATTERN = 0, 1, 2
"""Kinds of a block's declaration of a name: a function or class declaration, a declarator of the plain
name, a name of a destructuring pattern."""


def bound_words(text: Callable[[Node], str], node: Node) -> frozenset[str]:
    """The words of the text binding names at ``node`` (``text``: a node's source text): a function's
    parameter list, a ``catch`` clause's parameter, a ``for`` head's declaration (empty for ``for (x of
    xs)`` assigning an outer ``x``, and for any other node). A type or default naming a word counts too:
    then a name is taken for a local where it may not be one, and nothing is linked through it."""
    kind = node.type
    if kind in FUNCTION_TYPES:
        parts = [node.child_by_field_name("parameters") or node.child_by_field_name("parameter")]
    elif kind == "catch_clause":
        parts = [node.child_by_field_name("parameter")]
    elif kind == "for_in_statement":
        parts = [node.child_by_field_name("left")] if node.child_by_field_name("kind") is not None else []
    elif kind == "for_statement":
        init = node.child_by_field_name("initializer")
        parts = [init] if init is not None and init.type in _DECLARATIONS else []
    else:
        parts = []
    return frozenset(w for p in parts if p is not None for w in _WORD.findall(text(p)))


def _always(_node: Node) -> bool:
    return True


class ScopeTables:
    """Lazily built lookup tables of one file's tree. ``text`` gives a node's source text; ``names`` are
    the matches of ``queries/local_names.scm`` over the file (``{"assigned": [identifier]}`` or
    ``{"declared": [identifier]}`` each; only :meth:`declared` and :meth:`reassigned` read them);
    ``defines(node)``: whether the extractor made a definition of a function value node (an arrow or
    function expression a declarator initialises; only :meth:`shadowed` asks, default: always)."""

    def __init__(self, text: Callable[[Node], str], names: Sequence[dict[str, list[Node]]] = (),
                 defines: Callable[[Node], bool] = _always) -> None:
        self.text = text
        self.names = names
        self.defines = defines
        self._declared: frozenset[str] | None = None  # every name a declarator of the file declares
        self._words: dict[int, frozenset[str]] = {}  # function / catch / for id -> words of its bound names' text
        self._blocks: dict[int, dict[str, list[tuple[int, int, Node, int]]]] = {}  # block id -> name -> decls
        self._assigned: dict[str, list[int]] | None = None  # name -> start bytes where it is assigned, sorted

    def declared(self, name: str) -> bool:
        """Whether any ``variable_declarator`` of the file declares the plain name ``name`` (anywhere: a
        cheap test before the walk up the blocks around a use)."""
        if self._declared is None:
            self._declared = frozenset(self.text(n) for caps in self.names for n in caps.get("declared", ()))
        return name in self._declared

    def bound_words(self, node: Node) -> frozenset[str]:
        """:func:`bound_words` of ``node``, computed once per node."""
        words = self._words.get(node.id)
        if words is None:
            words = self._words[node.id] = bound_words(self.text, node)
        return words

    def parameter_word(self, params: Node, fn: Node, name: str) -> bool:
        """Whether ``name`` is a whole word of the text of ``fn``'s parameter list ``params`` (a parameter,
        but also a type or default naming it, as the regular expression ``(?<![\\w$])name(?![\\w$])``
        over that text)."""
        if not _WORD.fullmatch(name):
            return re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", self.text(params)) is not None
        return name in self.bound_words(fn)

    def declarator_before(self, block: Node, name: str, pos: int) -> Node | None:
        """The last ``variable_declarator`` of ``name`` (a plain identifier target) among the declarations
        that are statements of ``block``, the statement starting before byte ``pos`` and the declarator
        ending at or before it; ``None`` when there is none."""
        for start, end, d, kind in reversed(self._block(block).get(name, ())):
            if kind == _VAR and start < pos and end <= pos:
                return d
        return None

    def shadowed(self, use: Node, name: str) -> bool:
        """Whether ``name`` written at ``use`` means a local of an enclosing function, ``catch`` clause or
        ``for`` head, below the module, that the resolver knows no definition of: the nearest declaration
        of it around ``use`` is a ``const`` / ``let`` / ``var`` of a block (its value not a function the
        file defines), a destructured name, a ``catch`` parameter, a ``for (const x of ...)`` variable or
        a parameter. A nested ``function go() {}``, a ``class go`` or a ``const go = () => ...`` the
        extractor defines is a definition the resolver finds in the function's scope itself: not a
        shadow. ``False`` outside functions and blocks."""
        node = use
        while node.parent is not None:
            parent = node.parent
            kind = parent.type
            if kind == "program":
                return False
            if kind in BLOCK_TYPES:
                found = self._block(parent).get(name)
                if found:
                    _, _, d, how = found[0]
                    if how != _VAR:
                        return how == _PATTERN
                    value = d.child_by_field_name("value")
                    return value is None or value.type not in _FUNCTION_VALUES or not self.defines(value)
            elif (kind in FUNCTION_TYPES or kind in HEAD_TYPES) and name in self.bound_words(parent):
                return True
            node = parent
        return False

    def _block(self, block: Node) -> dict[str, list[tuple[int, int, Node, int]]]:
        """name -> ``(statement start, declaration end, node, kind)`` of each declaration of the name among
        ``block``'s statements, in order: a function or class declaration (``_DEF``, the statement), a
        declarator of the plain name (``_VAR``, the declarator), a name of a destructuring pattern
        (``_PATTERN``, the declarator: every word of the pattern's text)."""
        table = self._blocks.get(block.id)
        if table is not None:
            return table
        table = {}
        for stmt in block.named_children:
            if stmt.type in _DEFINITIONS:
                name = stmt.child_by_field_name("name")
                if name is not None:
                    table.setdefault(self.text(name), []).append((stmt.start_byte, stmt.end_byte, stmt, _DEF))
            elif stmt.type in _DECLARATIONS:
                for d in stmt.named_children:
                    target = d.child_by_field_name("name") if d.type == "variable_declarator" else None
                    if target is None:
                        continue
                    if target.type == "identifier":
                        table.setdefault(self.text(target), []).append((stmt.start_byte, d.end_byte, d, _VAR))
                    else:
                        for w in dict.fromkeys(_WORD.findall(self.text(target))):
                            table.setdefault(w, []).append((stmt.start_byte, d.end_byte, d, _PATTERN))
        self._blocks[block.id] = table
        return table

    def reassigned(self, block: Node, name: str) -> bool:
        """Whether an assignment, ``+=`` or ``++`` inside ``block`` writes the plain name ``name`` (the file's
        assignments indexed by name the first time any block asks)."""
        if self._assigned is None:
            self._assigned = {}
            for caps in self.names:
                for n in caps.get("assigned", ()):
                    self._assigned.setdefault(self.text(n), []).append(n.start_byte)
            for starts in self._assigned.values():
                starts.sort()
        starts = self._assigned.get(name)
        if not starts:
            return False
        i = bisect.bisect_left(starts, block.start_byte)
        return i < len(starts) and starts[i] < block.end_byte
