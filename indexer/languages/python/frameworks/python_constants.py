"""String constants of Python modules and classes, for URL and topic templates elsewhere to name.

``NAME = "literal"`` directly at module level -> :class:`~indexer.model.StringConstant` ``NAME``;
directly in a class body -> ``Class.NAME`` (``Outer.Inner.NAME`` for a nested class). The value may
be a literal, an implicit concatenation, a ``+`` of literals and names (``BASE + "/owners"`` ->
``ref BASE`` + ``lit /owners``), an f-string interpolating names, or any of these in parentheses;
rules in ``indexer/languages/python/queries/constants.scm``. Kept only when the template has a literal piece
and no hole (``"a" * 3``, ``"%s" % x`` are not constants); an empty string literal counts (healthchecks'
``prefix = ""``, a URL prefix that is empty unless a setting changes it); dunder names (``__version__``)
are skipped.
A name assigned several times keeps its last value. Assignments nested in ``if`` / ``try`` blocks
and ``A = B`` aliases are not read, nor classes deeper than :data:`MAX_CLASS_DEPTH` in the tree.

This detector runs on every file, so its query starts matching only near the top of the tree
(``QueryCursor.set_max_start_depth``): a full traversal costs about as much as one of the
extractor's own queries (measured on Django 5.2.8: 0.75 s for all files, 0.17 s at depth 4).
"""

from __future__ import annotations

from tree_sitter import Node, QueryCursor

from indexer.languages.python.frameworks.common import has_hole, scope_of, string_value, template
from indexer.languages.base import SourceText, query
from indexer.model import FileExtraction, StringConstant

__all__ = ["LANGUAGES", "MAX_CLASS_DEPTH", "detect"]

LANGUAGES = ("python",)

MAX_CLASS_DEPTH = 4
"""Deepest tree depth of a ``class_definition`` whose constants are read: top-level classes (1),
decorated ones (2), classes nested in a top-level class or function (3, decorated 4)."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the module- and class-level string constants of one parsed Python file to ``out``."""
    found: dict[str, StringConstant] = {}
    cursor = QueryCursor(query("python", "python/queries", "constants"))
    cursor.set_max_start_depth(MAX_CLASS_DEPTH)
    for _, caps in cursor.matches(root):
        name_node = caps["name"][0]
        name = src.text(name_node)
        if name.startswith("__") and name.endswith("__"):
            continue
        value = template(src, caps["value"][0])
        literal = any(kind == "lit" for kind, _ in value.parts) or string_value(src, caps["value"][0]) == ""
        if has_hole(value) or not literal:
            continue
        scope = scope_of(name_node, src)
        qualname = f"{scope}.{name}" if scope else name
        found.pop(qualname, None)  # re-insert: the last assignment's value, in its source position
        found[qualname] = StringConstant(qualname, value)
    out.constants.extend(found.values())
