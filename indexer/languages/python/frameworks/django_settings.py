"""Django settings: the ``MIDDLEWARE`` list, middleware that runs for every request.

A module-level ``MIDDLEWARE = [...]`` (or the pre-1.10 ``MIDDLEWARE_CLASSES``), ``MIDDLEWARE +=
[...]``, ``MIDDLEWARE.append("x")`` / ``.insert(0, "x")`` / ``.extend([...])`` (rules in
``indexer/languages/python/queries/django_settings.scm``): each element that is a dotted string
literal (``"shop.middleware.AuditMiddleware"``) -> a :class:`~indexer.model.Wrapper` (framework
``django``, kind ``middleware``, ``owner_ref`` the dotted path, ``router`` ``None``: every route of
the application), at the string, in list order. The linker resolves the path to a class (its
``__call__`` / ``process_request`` / ``process_view`` / ``process_response`` /
``process_exception``) or to a function-style middleware factory. Anything else in the list (a
name, a call, an f-string) is not a static middleware path and is skipped; so is a list assigned
inside a function or class (``override_settings`` and test helpers).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.python.frameworks.common import scope_of, string_value
from indexer.languages.base import SourceText, query, run_query
from indexer.model import FileExtraction, Wrapper

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_FRAMEWORK = "django"


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a Wrapper per middleware path of the module-level ``MIDDLEWARE`` statements to ``out``."""
    if b"MIDDLEWARE" not in src.data:
        return
    for _, caps in run_query(query("python", "python/queries", "django_settings"), root):
        if scope_of(caps["statement"][0], src) is not None:
            continue
        value = caps["value"][0]
        items = value.named_children if value.type in ("list", "tuple") else [value]
        for item in items:
            path = string_value(src, item)
            if path is None or not _is_dotted(path):
                continue
            out.wrappers.append(Wrapper(_FRAMEWORK, "middleware", None, src.line(item), src.col(item), owner_ref=path))


def _is_dotted(text: str) -> bool:
    """``a.b.C``: identifiers joined by dots, at least two of them."""
    parts = text.split(".")
    return len(parts) >= 2 and all(p.isidentifier() for p in parts)
