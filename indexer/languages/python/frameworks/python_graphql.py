"""What the Python GraphQL detectors share (not a detector: not in the registry): GraphQL names
of Python names, decorator texts, the Route they build."""

from __future__ import annotations

import re

from indexer.model import Route, Template
from stores.contracts import graphql_operation

__all__ = ["camel_case", "decorator_name", "first_string", "keyword_string", "graphql_route"]

_KEYWORD = re.compile(r"""\b(\w+)\s*=\s*(?:[rRuU]?)(["'])(.*?)\2""")
_FIRST_STRING = re.compile(r"""^\w[\w.]*\(\s*[rRuU]?(["'])(.*?)\1""")


def camel_case(name: str) -> str:
    """The name Strawberry and Graphene give a Python name by default (``auto_camelcase``):
    ``owner_by_id`` -> ``ownerById``; leading underscores kept; a name without ``_`` unchanged."""
    stripped = name.lstrip("_")
    lead = name[: len(name) - len(stripped)]
    first, *rest = stripped.split("_")
    return lead + first + "".join(p[:1].upper() + p[1:] if p else "_" for p in rest)


def decorator_name(text: str) -> str:
    """A decorator text's callee without arguments: ``strawberry.field(name="x")`` -> ``strawberry.field``."""
    return "".join(text.lstrip("@").split("(", 1)[0].split())


def keyword_string(text: str, key: str) -> str | None:
    """The string literal passed as ``key=`` in a decorator text, or ``None``."""
    for m in _KEYWORD.finditer(text):
        if m.group(1) == key:
            return m.group(3)
    return None


def first_string(text: str) -> str | None:
    """The string literal passed as the first positional argument of a decorator text
    (``query.field("owner")`` -> ``owner``), or ``None``."""
    m = _FIRST_STRING.match("".join(text.lstrip("@").split("\n")).strip())
    return m.group(2) if m else None


def graphql_route(framework: str, type_name: str, field: str, handler: str | None, line: int, col: int,
                  handler_ref: str | None = None) -> Route:
    """The Route of a resolver of ``type_name.field`` (method: the type's operation)."""
    return Route(framework, [graphql_operation(type_name)], Template.of(f"{type_name}.{field}"), handler, line, col,
                 handler_ref)
