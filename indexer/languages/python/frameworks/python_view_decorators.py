"""Python view decorators: the decorators that wrap a route's handler -> ``Route.wrappers``.

Runs after the route detectors (FastAPI, Flask, Django URL configurations) and reads, for each route
of this file whose handler is defined in this file, the decorators of that definition (rules in
``indexer/languages/python/queries/view_decorators.scm``):

* only the decorators *below* the route's own decorator wrap what the route registers (Python
  applies decorators bottom-up, so ``@login_required`` written above ``@app.route("/x")`` wraps the
  function after Flask registered it and never runs for the route); a handler registered by a call
  (``add_url_rule(view_func=f)``, ``add_api_route``, a Django ``path("x/", f)`` in the same file)
  has all its decorators;
* each one is a :class:`~indexer.model.WrapperRef` of kind ``decorator``, top to bottom (the order
  they run), after the route's other wrappers; ``expr`` is the decorator as a callee:
  ``login_required``, ``permission_required`` for ``@permission_required("x")``, ``auth.check``;
  ``method_decorator(d)`` / ``method_decorator([d1, d2], name="dispatch")`` -> the decorators it
  applies;
* skipped: another route's decorator (stacked ``@app.route`` lines), and decorators that do not
  wrap a call: ``staticmethod``, ``classmethod``, ``property``, ``abstractmethod``, ``overload``,
  ``override``;
* a class-based view of this file (Django ``X.as_view()``): the class's ``method_decorator(...)``
  decorators and those of its ``dispatch`` method (which runs for every HTTP method).

A handler defined in another file (Django's usual ``views.py`` next to ``urls.py``) is left to the
linker, which has the definition's ``decorators`` texts.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.python.frameworks.common import Args, Context, compact, ref_text, scope_of
from indexer.languages.base import query, run_query, SourceText
from indexer.model import FileExtraction, Route, WrapperRef

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_NOT_WRAPPING = frozenset({"staticmethod", "classmethod", "property", "abstractmethod", "overload", "override"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the decorator wrappers of this file's route handlers to their routes in ``out``."""
    if not out.routes:
        return
    ctx = Context(src, out)
    decorated: dict[str, Node] = {}
    for _, caps in run_query(query("python", "python/queries", "view_decorators"), root):
        node = caps["decorated"][0]
        scope = scope_of(node, src)
        name = src.text(caps["name"][0])
        decorated.setdefault(f"{scope}.{name}" if scope else name, node)
    if not decorated:
        return
    positions = [(r.line, r.col) for r in out.routes]
    for route in out.routes:
        handler, view_class = _handler(ctx, route)
        if handler is not None and handler in decorated:
            _add(ctx, route, _decorators(decorated[handler]), positions, own=(route.line, route.col))
        elif view_class is not None:
            if view_class in decorated:
                _add(ctx, route, _decorators(decorated[view_class]), positions, own=None, class_level=True)
            dispatch = f"{view_class}.dispatch"
            if dispatch in decorated:
                _add(ctx, route, _decorators(decorated[dispatch]), positions, own=None)


def _handler(ctx: Context, route: Route) -> tuple[str | None, str | None]:
    """``(function qualname, None)`` or ``(None, class qualname)`` of this file that handles the
    route; ``(None, None)`` when it is defined elsewhere."""
    if route.handler is not None:
        return route.handler, None
    ref = route.handler_ref
    if not ref:
        return None, None
    if ref.endswith(".as_view()"):
        cls = ref.removesuffix(".as_view()")
        return None, cls if ctx.kinds.get(cls) == "class" else None
    return (ref, None) if ctx.kinds.get(ref) in ("function",) else (None, None)


def _decorators(node: Node) -> list[Node]:
    """The decorator nodes of a decorated definition, top to bottom."""
    return [c for c in node.named_children if c.type == "decorator"]


def _contains(node: Node, src: SourceText, position: tuple[int, int]) -> bool:
    """Whether the 1-based ``(line, col)`` lies inside ``node``."""
    start = (src.line(node), src.col(node))
    end = (node.end_point[0] + 1, src.end_col(node))
    return start <= position < end


def _add(
    ctx: Context,
    route: Route,
    decorators: list[Node],
    positions: list[tuple[int, int]],
    own: tuple[int, int] | None,
    class_level: bool = False,
) -> None:
    """Append the wrapping decorators among ``decorators`` to ``route`` (module docstring): those
    below the one holding ``own`` (all when none does), without other routes' decorators."""
    src = ctx.src
    if own is not None:
        for i, d in enumerate(decorators):
            if _contains(d, src, own):
                decorators = decorators[i + 1 :]
                break
    for d in decorators:
        if any(_contains(d, src, p) for p in positions):
            continue
        expr = d.named_children[0] if d.named_child_count else None
        if expr is None:
            continue
        for ref in _refs(ctx, expr, class_level):
            route.wrappers.append(WrapperRef("decorator", ref))


def _refs(ctx: Context, expr: Node, class_level: bool) -> list[str]:
    """The callee names one decorator expression stands for (module docstring); on a class only
    ``method_decorator`` counts."""
    src = ctx.src
    callee = expr.child_by_field_name("function") if expr.type == "call" else expr
    if callee is None or callee.type not in ("identifier", "attribute"):
        return []
    text = compact(src, callee)
    last = text.rsplit(".", 1)[-1]
    if last == "method_decorator" and expr.type == "call":
        inner = Args.of(src, expr.child_by_field_name("arguments")).get(0, "decorator")
        if inner is None:
            return []
        items = inner.named_children if inner.type in ("list", "tuple") else [inner]
        out = []
        for item in items:
            f = item.child_by_field_name("function") if item.type == "call" else item
            if f is not None and f.type in ("identifier", "attribute"):
                out.append(ref_text(src, f))
        return out
    if class_level or last in _NOT_WRAPPING:
        return []
    return [ref_text(src, callee)]
