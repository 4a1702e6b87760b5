"""Django REST framework routers: ``DefaultRouter`` / ``SimpleRouter`` objects and their
``register()`` calls (rules in ``indexer/languages/python/queries/drf_routers.scm``).

* a module-level ``router = DefaultRouter(...)`` (``SimpleRouter``, ``routers.DefaultRouter``, any
  callee named ``...SimpleRouter`` / ``...DefaultRouter``, as drf-extensions' and drf-nested-routers'
  are) -> a :class:`~indexer.model.Router` named ``router.urls`` (framework :data:`~indexer.model.DRF_ROUTE`): what
  ``include(router.urls)`` / ``urlpatterns += router.urls`` mount (:mod:`.django_urls`). A nested
  router, ``NestedSimpleRouter(parent, r"articles", lookup="article")``, has the prefix
  ``articles/{article_pk}`` (its routes are mounted where its own ``urls`` are included);
* ``router.register(r"articles", ArticleViewSet, basename=...)`` -> a :class:`~indexer.model.Route`
  (framework :data:`~indexer.model.DRF_ROUTE`, methods ``["*"]``, path the prefix, ``handler_ref`` the viewset
  expression, router ``router.urls``, ``name`` the ``basename`` given: the linker names the routes
  ``<basename>-list`` / ``-detail`` / ``-<action>``, :mod:`indexer.frameworks.route_names`). The linker
  (:mod:`indexer.frameworks.viewsets`) turns it
  into the routes the viewset's actions make: ``list`` / ``create`` on ``prefix/``, ``retrieve`` /
  ``update`` / ``partial_update`` / ``destroy`` on ``prefix/{pk}/``, ``@action`` methods below them,
  each only when the class has that action (its own method or a mixin it lists).

A module-level loop registering each entry of a literal list, ``for route in routes: router.register(route["regex"],
route["viewset"], basename=route["basename"])`` (or ``for prefix, viewset, name in [...]`` over tuples), is one
registration per entry (at most :data:`MAX_ENTRIES`): the list a display, a module-level name assigned one before the
loop, or a ``+`` of those.

A module-level name built by any other class (``router = NetBoxRouter()``) is reported as a router
too when this file calls its ``register(prefix, viewset)``: one file cannot tell whether that class
derives from DRF's router, so the linker keeps it only when it does
(:mod:`indexer.frameworks.router_classes`). A router assigned inside a function, and a ``register``
call on a name that is not a router of this file, are skipped (a Celery or admin ``register`` is no
route).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, ref_text, scope_of, string_value, template
from indexer.model import DRF_ROUTE, FileExtraction, Route, Router, Template

__all__ = ["LANGUAGES", "MAX_ENTRIES", "detect"]

LANGUAGES = ("python",)

_ROUTER_SUFFIXES = ("SimpleRouter", "DefaultRouter")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the DRF routers and viewset registrations of one parsed Python file to ``out``."""
    if b"Router" not in src.data or b".register" not in src.data:
        return
    routers: set[str] = set()
    candidates: dict[str, Node] = {}  # built by another class: a router if registered on (docstring)
    registrations: list[tuple[str, Node]] = []
    for _, caps in run_query(query("python", "python/queries", "drf_routers"), root):
        name = src.text(caps["name"][0])
        if "router" in caps:
            statement = caps["router"][0]
            callee = caps["callee"][0]
            last = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
            kind = src.text(last) if last is not None else ""
            if scope_of(statement, src) is not None:
                continue
            if not kind.endswith(_ROUTER_SUFFIXES):
                candidates.setdefault(name, statement)
                continue
            routers.add(name)
            prefix = Template()
            if kind.startswith("Nested"):
                args = Args.of(src, caps["args"][0])
                lookup = string_value(src, args.get(2, "lookup"))
                prefix = template(src, args.get(1, "parent_prefix"))
                if lookup:
                    prefix = Template.merged((*prefix.parts, ("lit", f"/{{{lookup}_pk}}")))
            out.routers.append(Router(DRF_ROUTE, f"{name}.urls", prefix, src.line(statement)))
        else:
            registrations.append((name, caps["register"][0]))
    for name, call in registrations:
        if (name not in routers and name not in candidates) or scope_of(call, src) is not None:
            continue
        args = Args.of(src, call.child_by_field_name("arguments"))
        prefix, viewset = args.get(0, "prefix"), args.get(1, "viewset")
        basename = args.get(2, "basename") or args.keywords.get("base_name")
        if prefix is None or viewset is None:
            continue
        entries = _looped(src, call, prefix, viewset, basename)  # `for route in routes: router.register(route[...])`
        if entries is None:
            entries = [(prefix, viewset, basename)] if viewset.type in ("identifier", "attribute") else []
        if not entries:
            continue
        if name not in routers:
            routers.add(name)
            out.routers.append(Router(DRF_ROUTE, f"{name}.urls", Template(), src.line(candidates[name])))
        at = call.child_by_field_name("function").child_by_field_name("attribute")
        for prefix, viewset, basename in entries:
            out.routes.append(Route(DRF_ROUTE, ["*"], template(src, prefix), None, src.line(at), src.col(at),
                                    ref_text(src, viewset), f"{name}.urls", name=string_value(src, basename)))


MAX_ENTRIES = 256
"""The most entries of one literal list a registration loop is expanded over; a longer list registers nothing here."""


def _looped(src: SourceText, call: Node, prefix: Node, viewset: Node,
            basename: Node | None) -> list[tuple[Node, Node, Node | None]] | None:
    """``(prefix, viewset, basename)`` nodes of each entry a module-level ``for`` loop around ``call`` registers, when
    its arguments read the loop variable: ``route["regex"]`` of a dict entry or, for ``for prefix, viewset, name in
    ...``, the unpacked names of a tuple entry. The loop runs over a list or tuple display, a module-level name
    assigned one (its last assignment before the loop), or a ``+`` of those (``common_routes + users_routes``); an
    entry whose prefix is no string or whose viewset is no (dotted) name is skipped. ``[]`` for a loop over anything
    else (a name imported from another module: its list is not in this file); ``None`` when the arguments read no
    loop variable (a plain registration)."""
    loop = call.parent
    while loop is not None and loop.type != "for_statement":
        if loop.type in ("function_definition", "class_definition", "lambda"):
            return None
        loop = loop.parent
    if loop is None or (left := loop.child_by_field_name("left")) is None:
        return None
    names = [src.text(n) for n in left.named_children] if left.type in ("pattern_list", "tuple_pattern") else \
        [src.text(left)] if left.type == "identifier" else []
    picks = [_pick(src, node, names) for node in (prefix, viewset, basename)] if names else [None, None, None]
    if all(p is None for p in picks):
        return None
    if picks[0] is None or picks[1] is None or (basename is not None and picks[2] is None):
        return []
    entries = _displayed(src, loop.child_by_field_name("right"), loop.start_byte, 0)
    if entries is None or len(entries) > MAX_ENTRIES:
        return []
    out: list[tuple[Node, Node, Node | None]] = []
    for entry in entries:
        got = [_field(src, entry, pick, len(names)) if pick is not None else None for pick in picks]
        if got[0] is None or string_value(src, got[0]) is None or got[1] is None \
                or got[1].type not in ("identifier", "attribute"):
            continue
        out.append((got[0], got[1], got[2]))
    return out


def _pick(src: SourceText, node: Node | None, names: list[str]) -> str | int | None:
    """What an argument reads of the loop variable(s) ``names``: a string key (``route["regex"]``, one variable) or a
    position (the unpacked variable ``names[i]``); ``None`` when it reads anything else."""
    if node is None:
        return None
    if node.type == "identifier" and len(names) > 1 and src.text(node) in names:
        return names.index(src.text(node))
    if node.type == "subscript" and len(names) == 1:
        value, key = node.child_by_field_name("value"), node.child_by_field_name("subscript")
        if value is not None and value.type == "identifier" and src.text(value) == names[0]:
            return string_value(src, key)
    return None


def _field(src: SourceText, entry: Node, pick: str | int, width: int) -> Node | None:
    """The value of one entry of the loop's list for ``pick``: a dict display's value under that string key, or a
    tuple display's (of ``width`` items) item at that position."""
    if isinstance(pick, int):
        items = entry.named_children if entry.type in ("tuple", "list") else []
        return items[pick] if len(items) == width else None
    if entry.type != "dictionary":
        return None
    for pair in entry.named_children:
        if pair.type == "pair" and string_value(src, pair.child_by_field_name("key")) == pick:
            return pair.child_by_field_name("value")
    return None


def _displayed(src: SourceText, node: Node | None, before: int, depth: int) -> list[Node] | None:
    """The entries of the list the loop runs over (see :func:`_looped`), ``None`` when it is not known here."""
    if node is None or depth > 8:
        return None
    if node.type in ("list", "tuple"):
        return [n for n in node.named_children if n.type != "comment"]
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return _displayed(src, node.named_children[0], before, depth + 1)
    if node.type == "binary_operator" and (op := node.child_by_field_name("operator")) is not None and op.type == "+":
        left = _displayed(src, node.child_by_field_name("left"), before, depth + 1)
        right = _displayed(src, node.child_by_field_name("right"), before, depth + 1)
        return left + right if left is not None and right is not None else None
    if node.type != "identifier":
        return None
    name, value = src.text(node), None
    root = node
    while root.parent is not None:
        root = root.parent
    for stmt in root.named_children:
        if stmt.start_byte >= before:
            break
        inner = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
        if inner.type == "assignment" and (target := inner.child_by_field_name("left")) is not None \
                and target.type == "identifier" and src.text(target) == name:
            value = inner.child_by_field_name("right")
    return _displayed(src, value, before, depth + 1) if value is not None else None

