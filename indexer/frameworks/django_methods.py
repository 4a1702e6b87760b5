"""The HTTP methods a Django function view accepts, from the decorators of
``django.views.decorators.http`` (https://docs.djangoproject.com/en/5.2/topics/http/decorators/):

* ``@require_GET`` -> ``GET``; ``@require_POST`` -> ``POST``; ``@require_safe`` -> ``GET``, ``HEAD``;
* ``@require_http_methods(["GET", "POST"])`` -> the methods of its literal list or tuple (upper-cased,
  in the order written); a list that is not literal says nothing;
* stacked decorators each restrict the view: their methods intersect (in the order of the first).

Only a decorator that is that module's function counts: the view's file imports it from
``django.views.decorators.http`` (``from django.views.decorators.http import require_POST [as p]``,
``from django.views.decorators import http`` then ``@http.require_POST``, ``import
django.views.decorators.http`` then the full dotted name). A function of the same name from elsewhere
(a project's own ``require_POST``) says nothing, nor does any other decorator. Without such a
decorator a function view accepts any method (the route keeps ``*``).

:func:`bound_view`: the class of a class-based view bound to a module-level name (``login =
LoginView.as_view()`` routed as ``views.login``), which the resolver cannot follow through Django's
``as_view``.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.resolve.multimap import entries
from indexer.resolve.values import ClassV, Def, ModuleV

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup

__all__ = ["DJANGO_HTTP", "bound_view", "required_methods"]

DJANGO_HTTP = "django.views.decorators.http"
"""The module whose decorators restrict a view's methods."""

_FIXED = {"require_GET": ("GET",), "require_POST": ("POST",), "require_safe": ("GET", "HEAD")}
_LISTED = "require_http_methods"


def required_methods(view: Def, use: Callable[[tuple[str, str, str]], None] | None = None) -> list[str] | None:
    """The methods Python function ``view`` accepts by its ``django.views.decorators.http`` decorators
    (module docstring), upper-cased; ``None`` when none of them restricts it, or they leave no
    method in common. ``use`` records that the result read ``view``'s file (its decorators and
    imports: :meth:`indexer.resolve.language.Lookup.use`). Never raises."""
    if use is not None:
        use(("file", view.file.path, ""))
    allowed: list[str] | None = None
    for text in view.heads.decorators:
        callee, _, args = text.partition("(")
        name = _qualified(view, callee.strip())
        if name is None or not name.startswith(DJANGO_HTTP + "."):
            continue
        short = name.removeprefix(DJANGO_HTTP + ".")
        if short in _FIXED and not args:
            methods: list[str] | None = list(_FIXED[short])
        elif short == _LISTED and args:
            methods = _literal_methods("(" + args)
        else:
            continue
        if methods is None:
            continue
        allowed = methods if allowed is None else [m for m in allowed if m in methods]
    return allowed or None


def _qualified(view: Def, dotted: str) -> str | None:
    """The absolute dotted name ``dotted`` (a decorator's callee as written in ``view``'s file) names
    through that file's imports; ``None`` when its first name is no absolute import."""
    head, _, rest = dotted.partition(".")
    for imp in entries(view.file.imports, head):
        if imp.level:
            continue
        base = imp.module if imp.name is None else f"{imp.module}.{imp.name}"  # `import django.views...`: "django"
        return f"{base}.{rest}" if rest else base
    return None


def _literal_methods(call_args: str) -> list[str] | None:
    """The methods of ``require_http_methods``'s first argument when it is a literal list or tuple
    of strings (``(["get", "POST"])`` -> ``["GET", "POST"]``); ``None`` otherwise."""
    try:
        node = ast.parse(call_args, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if isinstance(node, ast.Tuple) and len(node.elts) == 1 and isinstance(node.elts[0], (ast.List, ast.Tuple)):
        node = node.elts[0]  # ("GET",) parsed as a one-element tuple of the argument
    if not isinstance(node, (ast.List, ast.Tuple)) or not node.elts:
        return None
    if not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return None
    return list(dict.fromkeys(str(e.value).upper() for e in node.elts))  # type: ignore[attr-defined]


_AS_VIEW = ".as_view"


def bound_view(r: Lookup, fc: FileCtx, scope: str | None, expr: str) -> ClassV | None:
    """The view class of the module-level ``name = SomeView.as_view(...)`` a handler expression ``expr`` of ``fc``
    names (``views.login`` with ``login = LoginView.as_view()`` in the module ``views``, or ``login`` bound so in
    ``fc`` itself: django-allauth routes all its views so), its last such binding; ``None`` when ``expr`` names no
    such binding or the class does not resolve to one of the repository. Records the files read."""
    owner, _, name = expr.rpartition(".")
    files = [fc]
    if owner:
        module = r.resolve_expr(fc, scope, owner)
        if not isinstance(module, ModuleV):
            return None
        files = r.module_files(module.ns, module.key)
    for f in files:
        r.use(("file", f.path, ""))
        bound = next((b for b in reversed(f.ex.bindings) if b.scope is None and b.name == name), None)
        if bound is None or bound.how != "constructed" or not bound.type.endswith(_AS_VIEW):
            continue
        view = r.resolve_expr(f, None, bound.type[:-len(_AS_VIEW)])
        if isinstance(view, ClassV) and view.c.file.repo == r.repo:
            return view
    return None
