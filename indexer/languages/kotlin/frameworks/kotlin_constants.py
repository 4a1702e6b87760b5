"""Kotlin string constants -> :class:`~indexer.model.StringConstant`, for the linker to resolve the
``ref`` pieces of paths, URLs and topics (as Java's ``static final`` fields are).

Taken: every property the extractor made a ``field`` definition of (a top-level property, a member of
an ``object``, a companion object or a class) declared with an initialiser, ``val`` or ``var`` (the
initial value is what production code uses, as for Java's non-final fields), whose declared type, if
any, is ``String``. ``qualname`` is that
definition's (``topic``, ``Topics.ORDERS``, a companion's ``Orders.TOPIC``), the value its initialiser
as :func:`~indexer.languages.kotlin.frameworks.common.template` reads it: literals, ``$name``
interpolations and names as ``ref``, ``a + b``, and an environment variable's literal default
(``System.getenv("KAFKA_TOPIC") ?: "orders"`` is ``orders``). An initialiser with no literal and no
``ref`` piece (``System.getenv("X")`` alone, a call) gives no constant. Local ``val`` s inside a function
are no definitions and give none; a property with a getter (``val x get() = ...``) has no initialiser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.kotlin.frameworks.common import template
from indexer.model import FileExtraction, StringConstant, is_call_ref

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("kotlin",)
_STRING = frozenset({"String", "String?", "kotlin.String", "kotlin.String?"})
"""Declared types of a string property (one without a declared type is taken by its initialiser)."""
_SKIPPED = frozenset({"function_body", "lambda_literal", "anonymous_function", "getter", "setter"})
"""Subtrees whose properties are locals or accessors, never fields."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's string-valued properties to ``out.constants``."""
    fields = {(d.name_line, d.name_col): d.qualname for d in out.definitions
              if d.kind == "field" and d.generated is None and (d.field_type or "String") in _STRING}
    if not fields:
        return
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "property_declaration":
            _property(n, src, fields, out)
            continue
        stack.extend(c for c in reversed(n.named_children) if c.type not in _SKIPPED)


def _property(decl: Node, src: SourceText, fields: dict[tuple[int, int], str], out: FileExtraction) -> None:
    var = next((c for c in decl.named_children if c.type == "variable_declaration"), None)
    name = next((c for c in var.named_children if c.type == "simple_identifier"), None) if var is not None else None
    if name is None:
        return
    qualname = fields.get((src.line(name), src.col(name)))
    value = next((c for c in decl.named_children if c.start_byte > var.end_byte  # type: ignore[union-attr]
                  and c.type not in ("getter", "setter", "property_delegate", "type_constraints", "modifiers")), None)
    if qualname is None or value is None:
        return
    t = template(src, value)
    if any(kind != "hole" and not is_call_ref(x) for kind, x in t.parts):
        out.constants.append(StringConstant(qualname, t))
