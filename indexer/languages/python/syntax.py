"""Lexical helpers the Python extractor's walks share: the grammar's name, the patterns a callee's or
receiver's normalised text matches, the node types of literal expressions, and the reading of
whitespace-collapsed and string-literal texts.
"""

from __future__ import annotations

import ast
import re
import warnings

from indexer.languages.base import storable

__all__ = ["CHAIN", "DOTTED", "GRAMMAR", "LITERAL_NODES", "STATEMENT_PARENTS", "WS", "collapse", "literal_string"]

GRAMMAR = "python"
"""The tree-sitter grammar (and query folder language) of Python files."""
WS = re.compile(r"\s+")
"""Runs of whitespace (dropped from callee, receiver and module texts)."""
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
"""A dotted name (``a.b.c``): a type, callee or module text the resolver can look up."""
CHAIN = re.compile(r"[A-Za-z_]\w*(?:\(\))?(?:\.[A-Za-z_]\w*(?:\(\))?)*")
"""A callee's normalised text that a binding may hold: names, attributes and calls (``a.b().c``)."""
LITERAL_NODES = frozenset({"string", "concatenated_string", "integer", "float", "true", "false", "list", "dictionary",
                           "set", "tuple", "list_comprehension", "dictionary_comprehension", "set_comprehension",
                           "generator_expression"})
"""Expressions whose value is a builtin object (``str``, ``int``, ``list``, ``dict``, ...): a receiver
or a binding of one is :data:`~indexer.model.LITERAL_RECEIVER`."""


def collapse(text: str) -> str:
    """Collapse runs of whitespace to one space and drop it just inside brackets."""
    text = WS.sub(" ", text).strip()
    return text.replace("( ", "(").replace(" )", ")").replace("[ ", "[").replace(" ]", "]")


def literal_string(text: str) -> str | None:
    """The value of a Python string literal text, or ``None`` (bytes, f-strings, bad escapes)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
    return storable(value) if isinstance(value, str) else None


STATEMENT_PARENTS = frozenset({"module", "block", "expression_statement"})
"""Parents of an assignment that is a statement of its own (a named lambda's)."""
