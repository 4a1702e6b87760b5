"""What an ORM lookup returns: an instance of its model class (Django, SQLAlchemy, Flask-SQLAlchemy,
SQLModel), so that calls on the result bind to the model's methods.

``u = User.query.filter_by(name=n).first_or_404()`` then ``u.follow(v)``: without this the receiver
``u`` has no type (the query API is a library's) and ``follow`` binds by name at best. Shapes read
(``M`` a class name, capitalised, possibly dotted: ``models.User``):

* a manager or query property: ``M.objects`` / ``M._default_manager`` (Django), ``M.query``
  (Flask-SQLAlchemy; also ``cls.query`` in a classmethod: its inferred return is ``cls``, which a
  call on a subclass reads as that subclass, :meth:`indexer.resolve.interpreter.Resolver.own_class`), followed by query-building calls (:data:`QUERY_STEPS`: ``filter``,
  ``filter_by``, ``order_by``, ``select_related``...) and ending in a call that returns one row
  (:data:`ONE_ROW`: ``get``, ``first``, ``first_or_404``, ``one``, ``latest``, ``create``...);
* a session lookup: ``<...>session.get(M, key)``, ``db.get_or_404(M, key)``, Django's
  ``get_object_or_404(M, ...)``; ``<...>session.query(M)`` + steps + a one-row call;
* a statement: ``session.scalar(select(M)...)``, ``session.scalars(select(M)...).first()``,
  ``session.execute(select(M)...).scalar_one()``, ``db.first_or_404(select(M)...)``
  (``select`` / ``sa.select`` / ``db.select`` / ``sqlalchemy.select``).

What it records:

* ``x = <lookup>`` -> a ``constructed`` :class:`~indexer.model.Binding` of ``x`` to ``M`` (it
  replaces the extractor's binding of ``x`` to the library method, which resolves to nothing);
  ``self.x = <one-row lookup>`` the same for the instance attribute;
* ``for x in <query>`` (a manager or query chain ending in a step or ``all()``, a ``scalars(select(M))``,
  ``get_list_or_404(M)``) -> the same for the loop variable;
* a function without a return annotation whose every ``return`` with a value is a lookup of the same
  ``M`` (``return None`` aside): its ``inferred_return`` is ``M``, so a call of it yields an ``M``
  (a Flask-Login ``user_loader``, a repository helper ``def get_user(id): return User.query.get(id)``).

The resolver decides whether ``M`` is a class of the repository; a name that is not stays unbound.
Only files whose text mentions one of the entry words are read (:data:`_TRIGGERS`), and in them only the
calls the extractor recorded under a callee name a lookup can end with.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.python.frameworks.common import Args, CallLocator, compact, outermost_call, scope_of
from indexer.model import Binding, CallSite, FileExtraction

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "QUERY_STEPS", "ONE_ROW", "detect", "lookup_model", "returns_of"]

LANGUAGES = ("python",)

QUERY_STEPS = frozenset({
    "filter", "filter_by", "exclude", "order_by", "select_related", "prefetch_related", "only", "defer",
    "annotate", "distinct", "using", "join", "outerjoin", "options", "where", "limit", "offset", "having",
    "group_by", "execution_options", "with_for_update", "select_for_update", "reverse", "none",
    "complex_filter", "alias", "enable_eagerloads", "populate_existing", "unique", "all",
})
"""Query-building calls: the result is still a query (or queryset) of the same model."""

ONE_ROW = frozenset({
    "get", "get_or_404", "first", "first_or_404", "last", "one", "one_or_none", "one_or_404",
    "earliest", "latest", "create", "scalar", "scalar_one", "scalar_one_or_none",
})
"""Calls ending a query that return one row (an instance of the model) or ``None``."""

_MANAGERS = ("objects", "_default_manager", "query")
_SELECTS = frozenset({"select", "sa.select", "sqlalchemy.select", "db.select", "sqlmodel.select"})
_MODEL = re.compile(r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*")
_TRIGGERS = (b".objects", b"_default_manager", b".query", b"session", b"_or_404", b"select(")


def _chain(src: SourceText, node: Node) -> tuple[Node, list[tuple[str, Node | None]]]:
    """Split a call / attribute chain into its root expression and its steps, root first:
    ``User.query.filter_by(x=1).first()`` -> (``User``, [("query", None), ("filter_by", args),
    ("first", args)]). A step's node is its ``argument_list`` (``None`` for an attribute read)."""
    steps: list[tuple[str, Node | None]] = []
    cur = node
    while True:
        args = None
        if cur.type == "call":
            args = cur.child_by_field_name("arguments")
            cur = cur.child_by_field_name("function")
            if cur is None:
                break
        if cur.type == "attribute":
            attr = cur.child_by_field_name("attribute")
            steps.append((src.text(attr) if attr is not None else "", args))
            cur = cur.child_by_field_name("object")
            if cur is None:
                break
            continue
        if args is not None:  # a plain function call at the root: ``get_object_or_404(M, ...)``
            steps.append(("()", args))
        break
    steps.reverse()
    return cur, steps


def _first_model(src: SourceText, args: Node | None) -> str | None:
    """The first positional argument when it is a class name (``User``, ``models.User``)."""
    a = Args.of(src, args)
    if not a.positional:
        return None
    text = compact(src, a.positional[0])
    return text if _MODEL.fullmatch(text) else None


def _selected(src: SourceText, args: Node | None) -> str | None:
    """``M`` when the first positional argument is ``select(M)`` followed by statement steps."""
    a = Args.of(src, args)
    if not a.positional or a.positional[0].type != "call":
        return None
    root, steps = _chain(src, a.positional[0])
    root_text = compact(src, root)
    if steps and steps[0][0] == "()":  # ``select(M)...``
        fn, first, after = root_text, steps[0][1], steps[1:]
    elif steps and steps[0][1] is not None:  # ``sa.select(M)...``
        fn, first, after = f"{root_text}.{steps[0][0]}", steps[0][1], steps[1:]
    else:
        return None
    if fn not in _SELECTS or any(name not in QUERY_STEPS for name, _ in after):
        return None
    return _first_model(src, first)


def lookup_model(src: SourceText, call: Node) -> tuple[str, str] | None:
    """``(M, "one")`` when ``call`` returns one instance of model ``M``, ``(M, "many")`` when it
    returns a query / rows of ``M`` (iterable), ``None`` when it is no ORM lookup read here (see the
    module docstring for the shapes)."""
    root, steps = _chain(src, call)
    if not steps:
        return None
    root_text = compact(src, root)
    names = [n for n, _ in steps]
    # M.objects / M.query + steps (+ one-row call)
    if names[0] in _MANAGERS and (_MODEL.fullmatch(root_text) or root_text == "cls") and len(steps) > 1:
        return _ending(root_text, names[1:])
    if names[0] == "()":
        fn = root_text
        if fn in ("get_object_or_404", "shortcuts.get_object_or_404") and len(steps) == 1:
            m = _first_model(src, steps[0][1])
            return (m, "one") if m else None
        if fn in ("get_list_or_404", "shortcuts.get_list_or_404") and len(steps) == 1:
            m = _first_model(src, steps[0][1])
            return (m, "many") if m else None
        return None
    head, args = steps[0]
    rest = names[1:]
    session_like = root_text.endswith("session") or root_text == "db" or root_text.endswith(".db")
    if not session_like and not (len(steps) > 1 and names[0] == "session"):
        return None
    if names[0] == "session":  # ``db.session.get(...)``: the root is ``db``
        if len(steps) < 2:
            return None
        head, args = steps[1]
        rest = names[2:]
    if head in ("get", "get_or_404") and not rest:
        m = _first_model(src, args)
        return (m, "one") if m else None
    if head == "query":
        a = Args.of(src, args)
        m = _first_model(src, args)
        return _ending(m, rest) if m and len(a.positional) == 1 else None
    if head in ("scalar", "first_or_404", "one_or_404") and not rest:
        m = _selected(src, args)
        return (m, "one") if m else None
    if head in ("scalars", "execute"):
        m = _selected(src, args)
        if m is None:
            return None
        if head == "scalars":
            return _ending(m, rest) if rest else (m, "many")
        if rest and rest[0] in ("scalar", "scalar_one", "scalar_one_or_none") and len(rest) == 1:
            return (m, "one")
        if rest and rest[0] == "scalars":
            return _ending(m, rest[1:]) if rest[1:] else (m, "many")
    return None


def _ending(model: str, names: list[str]) -> tuple[str, str] | None:
    """What a query of ``model`` followed by the calls ``names`` returns."""
    for i, name in enumerate(names):
        if name in QUERY_STEPS:
            continue
        if name in ONE_ROW and i == len(names) - 1:
            return model, "one"
        return None
    return model, "many"


_CANDIDATES = ONE_ROW | QUERY_STEPS | {"scalars", "execute", "get_object_or_404", "get_list_or_404"}
"""Callee names that can end (or be inside) a lookup: only the calls the extractor recorded under
one of them are looked at."""
_NESTED = ("function_definition", "class_definition", "lambda")
_ROOTS = frozenset({"objects", "_default_manager", "query", "session", "db"})
"""A part of the receiver text of every call in a lookup chain (``User.query.filter_by()``)."""


def returns_of(fn: Node) -> list[Node]:
    """The ``return`` statements of function ``fn``'s own body (not of functions nested in it), in
    source order. One query over ``fn``'s node (``queries/orm_returns.scm``: its returns and nested
    definitions, matched in source order by the tree-sitter walk) instead of a Python walk of the
    body (Django 5.2.8: 1,816 functions, 1.1 s of a 98 s profiled extraction); a return inside a
    nested definition, which starts before it and ends after, is that definition's."""
    out: list[Node] = []
    nested_end = -1
    for _, caps in run_query(query("python", "python/queries", "orm_returns"), fn):
        if "nested" in caps:
            node = caps["nested"][0]
            if node.id != fn.id:
                nested_end = max(nested_end, node.end_byte)
        elif caps["return"][0].start_byte >= nested_end:
            out.append(caps["return"][0])
    return out


_BINDING_PARENTS = frozenset({
    "pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "as_pattern_target", "aliased_import",
    "global_statement", "nonlocal_statement", "delete_statement", "keyword_pattern", "case_pattern", "dotted_name",
    "parameters", "lambda_parameters", "default_parameter", "typed_parameter", "typed_default_parameter",
    "list_splat", "dictionary_splat_pattern", "import_from_statement", "import_statement",
})
"""Parents of an identifier that (re)bind it: unpacking, ``as`` targets, imports, ``global``,
``del``, parameters, match patterns."""
_TARGET_FIELDS = {"assignment": "left", "augmented_assignment": "left", "for_statement": "left",
                  "for_in_clause": "left", "named_expression": "name"}


def _rebound_names(src: SourceText, fn: Node, names: set[str], lookup_lines: set[int]) -> set[str]:
    """Which of ``names`` the function ``fn`` binds anywhere else than in a lookup assignment of
    ``lookup_lines`` (a loop target, ``except ... as``, a walrus, a parameter, unpacking, an import,
    another assignment): their value at a ``return`` is not known to be the lookup's."""
    out: set[str] = set()
    if not names:
        return out
    stack = [fn]
    while stack:
        node = stack.pop()
        for child in node.children:
            if child.type in _NESTED and child is not fn:
                if child.type == "function_definition" or child.type == "class_definition":
                    name = child.child_by_field_name("name")  # `def user(): ...` rebinds `user`
                    if name is not None and src.text(name) in names:
                        out.add(src.text(name))
                continue
            if child.type == "identifier" and src.text(child) in names:
                parent = child.parent
                field = _TARGET_FIELDS.get(parent.type) if parent is not None else None
                target = parent.child_by_field_name(field) if field else None
                alias = parent is not None and parent.type == "as_pattern" and parent.named_children[-1].id == child.id
                if parent is not None and (parent.type in _BINDING_PARENTS or alias
                                           or target is not None and target.id == child.id):
                    if not (parent.type == "assignment" and child.start_point[0] + 1 in lookup_lines):
                        out.add(src.text(child))
            stack.append(child)
    return out


def _bind_chained(src: SourceText, top: Node, calls_at: dict[tuple[int, int], CallSite],
                  added: dict[tuple[str | None, str, int], Binding]) -> None:
    """``db.get_or_404(User, id).to_dict()`` (``top``: the chain's last call): find the last call of
    the chain that is a one-row lookup, and bind the receiver text the extractor recorded for the
    method called on its result (``db.get_or_404()``) to the model, on that call's line."""
    links: list[Node] = []  # the chain's calls, outermost first
    cur: Node | None = top
    while cur is not None and cur.type == "call" and len(links) < 64:
        links.append(cur)
        fn = cur.child_by_field_name("function")
        cur = fn.child_by_field_name("object") if fn is not None and fn.type == "attribute" else None
    for outer, inner in zip(links, links[1:]):
        found = lookup_model(src, inner)
        if found is None:
            continue
        name = outer.child_by_field_name("function").child_by_field_name("attribute")
        site = calls_at.get((src.line(name), src.col(name))) if name is not None else None
        if found[1] == "one" and site is not None and site.receiver is not None:
            scope = scope_of(top, src)
            added[(scope, site.receiver, site.line)] = Binding(scope, site.receiver, found[0], "constructed", site.line)
        return


def _enclosing_function(node: Node) -> Node | None:
    """The function definition whose own body holds ``node`` (``None``: module, class or lambda)."""
    fn = node.parent
    while fn is not None and fn.type not in _NESTED:
        fn = fn.parent
    return fn if fn is not None and fn.type == "function_definition" else None


def _returned_model(src: SourceText, ret: Node, names: dict[str, str | None]) -> str | None:
    """The model a ``return`` statement returns one row of; ``""`` for a bare ``return`` / ``return
    None``; ``None`` for anything else. ``names``: the function's local names bound only to a lookup
    of one row of a model (``user = User.query.get(id)``; ``return user``), to that model."""
    value = ret.named_children[0] if ret.named_children else None
    if value is None or value.type == "none":
        return ""
    if value.type == "identifier":
        return names.get(src.text(value))
    found = lookup_model(src, value) if value.type == "call" else None
    return found[0] if found and found[1] == "one" else None


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Bind names assigned or looped over ORM lookups to their model, and set ``inferred_return`` of
    functions returning one (see the module docstring). Visits only the calls the extractor recorded
    under a name of :data:`_CANDIDATES`, located by position."""
    if not out.calls or not any(t in src.data for t in _TRIGGERS):
        return
    locate = CallLocator(root, src)
    seen: set[int] = set()
    added: dict[tuple[str | None, str, int], Binding] = {}
    functions: dict[int, Node] = {}
    loops: set[tuple[str | None, str]] = set()
    calls_at: dict[tuple[int, int], CallSite] | None = None  # built for the first chain that needs it
    for c in out.calls:
        if c.name not in _CANDIDATES or not (
                c.receiver is None and c.name.endswith("_or_404")
                or c.receiver is not None and not _ROOTS.isdisjoint(c.receiver.replace("()", "").split("."))):
            continue
        call = locate.call_at(c.line, c.col)
        if call is None:
            continue
        top = outermost_call(call)
        if top.id in seen:
            continue
        seen.add(top.id)
        parent = top.parent
        if parent is None:
            continue
        found = lookup_model(src, top)
        if found is None:  # the lookup may end before the chain: `get_or_404(U, i).to_dict()`
            if calls_at is None:
                calls_at = {(c.line, c.col): c for c in out.calls if c.receiver is not None and c.receiver.endswith("()")}
            _bind_chained(src, top, calls_at, added)
            continue
        if parent.type == "return_statement":
            fn = _enclosing_function(parent)
            if fn is not None:
                functions[fn.id] = fn
            continue
        loop = parent.type == "for_statement"
        if not (loop or parent.type == "assignment") or parent.child_by_field_name("right") != top:
            continue
        target = parent.child_by_field_name("left")
        if target is not None and target.type == "attribute" and not loop and found[1] == "one" \
                and src.text(target.child_by_field_name("object")) == "self":  # `self.role = Role.query...first()`
            line, text = target.start_point[0] + 1, src.text(target)
            for b in out.bindings:  # the extractor's binding of the attribute, in the class's scope
                if b.name == text and b.line == line and b.how == "constructed":
                    added[(b.scope, text, line)] = Binding(b.scope, text, found[0], "constructed", line)
            continue
        if target is None or target.type != "identifier" or loop != (found[1] == "many"):
            continue
        scope = scope_of(target, src)
        line = target.start_point[0] + 1
        added[(scope, src.text(target), line)] = Binding(scope, src.text(target), found[0], "constructed", line)
        if loop:
            loops.add((scope, src.text(target)))
        elif found[1] == "one":
            fn = _enclosing_function(parent)
            if fn is not None:
                functions[fn.id] = fn
    if added:
        out.bindings[:] = [b for b in out.bindings if (b.scope, b.name, b.line) not in added]
        out.bindings.extend(added.values())
    by_scope: dict[str | None, list[Binding]] = {}
    if functions:
        for b in out.bindings:
            by_scope.setdefault(b.scope, []).append(b)
    for fn in functions.values():
        name = fn.child_by_field_name("name")
        body = fn.child_by_field_name("body")
        scope = scope_of(body.named_children[0], src) if body is not None and body.named_children else None
        local: dict[str, str | None] = {}
        for b in by_scope.get(scope, ()):
            one = b.how == "constructed" and (b.scope, b.name, b.line) in added and (b.scope, b.name) not in loops
            local[b.name] = b.type if one and local.get(b.name, b.type) == b.type else None
        returns = returns_of(fn)
        models = {_returned_model(src, r, local) for r in returns} - {""}
        if len(models) != 1 or None in models:
            continue  # rebinding a name only makes more returns unknown (None): no model either way
        rebound = _rebound_names(src, fn, {n for n, t in local.items() if t}, {k[2] for k in added if k[0] == scope})
        if rebound:
            local = {n: (None if n in rebound else t) for n, t in local.items()}
            models = {_returned_model(src, r, local) for r in returns} - {""}
            if len(models) != 1 or None in models:
                continue
        for d in out.definitions:
            if d.qualname == scope and name is not None and d.name_line == name.start_point[0] + 1 \
                    and d.kind in ("function", "method") and not d.return_type:
                d.inferred_return = models.pop()
                break
