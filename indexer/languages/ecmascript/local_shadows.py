"""Whether a name written inside a JavaScript / TypeScript function means a local of that function.

An object literal's property naming a function (``{ go }``, ``{ b: go }``) is linked to the function
the file defines or imports under that name (:mod:`indexer.languages.ecmascript.objects`,
:mod:`indexer.languages.ecmascript.returned_objects`). Inside a function the name may be a local that
shadows it, and the literal then holds that local, not the function::

    import { logout } from "./api"
    export function useAuth() {
      const logout = useCallback(() => { ... }, [])   // a call's result: no definition of the file
      return { logout }                               // not ./api's logout
    }

:class:`LocalShadows` answers, by ECMAScript's lexical scoping (ECMA-262, 14.2 / 9.1: the nearest
enclosing block, ``catch`` clause, ``for`` head or function declaring the name wins), whether the
nearest declaration of a name around a use, below the module, is a local the resolver knows no
definition of: a ``const`` / ``let`` / ``var`` of a block (its value not a function the file
defines), a destructured name, a ``catch`` parameter, a ``for (const x of ...)`` variable or a
parameter. A nested ``function go() {}``, a ``class go`` or a ``const go = () => ...`` is a definition
the resolver finds in the function's scope itself: not a shadow. A ``var`` of a block that does not
enclose the use is not seen (hoisting is not followed). Tables are built once per block and function
(keys: tree-sitter node ids, valid while the tree lives), so a literal of N properties in a body of N
statements costs N, not N squared.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

__all__ = ["LocalShadows"]

_FUNCTIONS = frozenset({"function_declaration", "function_expression", "function", "arrow_function",
                        "method_definition", "generator_function_declaration", "generator_function"})
_BLOCKS = frozenset({"statement_block", "switch_case", "switch_default", "class_static_block"})
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_DEFINITIONS = frozenset({"function_declaration", "generator_function_declaration", "class_declaration",
                          "abstract_class_declaration"})
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function",
                              "class"})
_WORD = re.compile(r"[\w$]+")


class LocalShadows:
    """Lazily built tables of one file's local declarations: ``text`` gives a node's source text,
    ``defines(node)`` whether the extractor made a definition of a function value node (an arrow or
    function expression a declarator initialises)."""

    def __init__(self, text: Callable[[Node], str], defines: Callable[[Node], bool]) -> None:
        self.text = text
        self.defines = defines
        self._blocks: dict[int, dict[str, bool]] = {}  # block id -> name -> True: a local, False: a definition
        self._words: dict[int, frozenset[str]] = {}  # function / catch / for id -> words of its bound names' text

    def shadowed(self, use: Node, name: str) -> bool:
        """Whether ``name`` written at ``use`` means a local of an enclosing function (see the module
        docstring) rather than a definition or import of the module; ``False`` outside functions."""
        node = use
        while node.parent is not None:
            parent = node.parent
            if parent.type == "program":
                return False
            if parent.type in _BLOCKS:
                verdict = self._block(parent).get(name)
                if verdict is not None:
                    return verdict
            elif parent.type in _FUNCTIONS or parent.type in ("catch_clause", "for_in_statement", "for_statement"):
                if name in self._bound_words(parent):
                    return True
            node = parent
        return False

    def _bound_words(self, node: Node) -> frozenset[str]:
        """The words of the text binding names at ``node``: a function's parameters, a catch clause's
        parameter, a ``for`` head's declaration (a type or default naming the word counts too: then the
        name is taken for a local, and nothing is linked)."""
        words = self._words.get(node.id)
        if words is None:
            if node.type in _FUNCTIONS:
                parts = [node.child_by_field_name("parameters") or node.child_by_field_name("parameter")]
            elif node.type == "catch_clause":
                parts = [node.child_by_field_name("parameter")]
            elif node.type == "for_in_statement":
                parts = [node.child_by_field_name("left")] if node.child_by_field_name("kind") is not None else []
            else:
                init = node.child_by_field_name("initializer")
                parts = [init] if init is not None and init.type in _DECLARATIONS else []
            words = frozenset(w for p in parts if p is not None for w in _WORD.findall(self.text(p)))
            self._words[node.id] = words
        return words

    def _block(self, block: Node) -> dict[str, bool]:
        """name -> whether the first declaration of ``name`` among ``block``'s statements is a local
        (``True``) or a definition (``False``)."""
        table = self._blocks.get(block.id)
        if table is not None:
            return table
        table = {}
        for stmt in block.named_children:
            if stmt.type in _DEFINITIONS:
                name = stmt.child_by_field_name("name")
                if name is not None:
                    table.setdefault(self.text(name), False)
            elif stmt.type in _DECLARATIONS:
                for d in stmt.named_children:
                    if d.type != "variable_declarator":
                        continue
                    target, value = d.child_by_field_name("name"), d.child_by_field_name("value")
                    if target is None:
                        continue
                    if target.type == "identifier":
                        local = value is None or value.type not in _FUNCTION_VALUES or not self.defines(value)
                        table.setdefault(self.text(target), local)
                    else:  # a destructuring pattern: each name it binds is a local
                        for w in _WORD.findall(self.text(target)):
                            table.setdefault(w, True)
        self._blocks[block.id] = table
        return table
