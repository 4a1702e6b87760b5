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

Django REST framework's module-level ``REST_FRAMEWORK = {...}`` dictionary: each dotted string of its
``"DEFAULT_AUTHENTICATION_CLASSES"`` / ``"DEFAULT_PERMISSION_CLASSES"`` list or tuple -> a Wrapper of
framework :data:`~indexer.model.DRF_AUTHENTICATION` / :data:`~indexer.model.DRF_PERMISSION` (kind
``guard``, ``owner_ref`` the dotted path), at the string, in list order; the linker makes the class's
``authenticate`` / ``has_permission`` wrap the application's DRF views that set no classes of their
own (:mod:`indexer.frameworks.drf_defaults`).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.python.frameworks.common import scope_of, string_value
from indexer.languages.base import SourceText, query, run_query
from indexer.model import DRF_AUTHENTICATION, DRF_PERMISSION, FileExtraction, Wrapper

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_FRAMEWORK = "django"
_DRF_DEFAULTS = {"DEFAULT_AUTHENTICATION_CLASSES": DRF_AUTHENTICATION, "DEFAULT_PERMISSION_CLASSES": DRF_PERMISSION}


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a Wrapper per middleware path of the module-level ``MIDDLEWARE`` statements, and per
    default class of the ``REST_FRAMEWORK`` setting, to ``out``."""
    if b"REST_FRAMEWORK" in src.data:
        _rest_framework(root, src, out)
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


def _rest_framework(root: Node, src: SourceText, out: FileExtraction) -> None:
    """The default authentication and permission classes of the module-level ``REST_FRAMEWORK`` setting
    as the module leaves it: statements run in order, so a later ``REST_FRAMEWORK = ...`` replaces an
    earlier one (``{**REST_FRAMEWORK, ...}`` keeps the keys it does not set; a value that is not a
    dictionary literal, such as ``dict(...)`` or a call, leaves no class known), and a key's list or
    tuple replaces that key's classes (any other value: none known). A path listed twice is one
    Wrapper (its first place)."""
    current: dict[str, list[Node]] = {}
    for statement in root.named_children:
        assign = statement
        if statement.type == "expression_statement" and statement.named_child_count:  # grammars differ
            assign = statement.named_children[0]
        if assign.type != "assignment":
            continue
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is None or right is None or src.text(left) != "REST_FRAMEWORK":
            continue
        if right.type != "dictionary":
            current = {}
            continue
        kept = any(c.type == "dictionary_splat" and src.text(c).lstrip("*").strip() == "REST_FRAMEWORK"
                   for c in right.named_children)
        current = dict(current) if kept else {}
        for pair in right.named_children:
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            framework = _DRF_DEFAULTS.get(string_value(src, key) or "") if pair.type == "pair" and key else None
            if framework is not None:
                current[framework] = list(value.named_children) if value is not None and value.type in (
                    "list", "tuple") else []
    for framework, items in current.items():
        seen: set[str] = set()
        for item in items:
            path = string_value(src, item)
            if path is not None and _is_dotted(path) and path not in seen:
                seen.add(path)
                out.wrappers.append(Wrapper(framework, "guard", None, src.line(item), src.col(item), owner_ref=path))
