"""URLs built from a route's name, as a request's URL argument: what route the request goes to when its path is
not written but reversed from the name the route was given (:attr:`indexer.model.HttpCall.route_name`; linked by
:mod:`indexer.frameworks.route_names`).

:func:`route_name` reads the expression a client passes as its URL:

* Django: ``reverse("shop:detail", args=(1,))`` / ``reverse_lazy`` (``django.urls``, the older
  ``django.core.urlresolvers``, DRF's ``rest_framework.reverse``), ``resolve_url("name")`` (``django.shortcuts``;
  only a name without ``/`` or ``.``, which Django would take as a URL): family ``django``;
* Flask: ``url_for("bp.view", id=1)`` (``flask``): family ``flask``;
* Starlette / FastAPI: ``X.url_for("name", ...)`` / ``X.url_path_for("name", ...)`` on any receiver (a request,
  the app, a test client's ``.app``): family ``starlette``;

the name a string literal (a name built at run time is no route name: the URL stays as it is). The call may be the
URL's start (``reverse("x") + "?q=1"``, ``f"{reverse('x')}?q=1"``, ``"%s?next=%s" % (reverse("x"), n)``,
``"{}?q=1".format(reverse("x"))``), or a local variable of the enclosing function
its last assignment before the request binds to one of these (``url = reverse("x"); self.client.get(url)``,
followed :data:`MAX_HOPS` times), or else a module-level one (``DETAIL = reverse_lazy("shop:detail")``), or a
call of a helper of the same file returning one (``self.client.get(self.get_url())`` with ``def get_url(self): return
reverse("x", args=(self.pk,))``, the name a literal or the helper's parameter given a literal: one level of return,
:func:`returned_route`). ``arguments``: how many path values the call gives (``args=`` / ``kwargs=``
of a literal display, the path parameters of ``url_for``; ``-1`` when they cannot be counted), which tells apart
two routes of one name (Django's ``path("a/", v, name="n")`` and ``path("a/<int:page>/", v, name="n")``). A Django
test's ``@override_settings(ROOT_URLCONF="x.urls")`` (or ``with``) says which root URLconf reverses the name
(:func:`root_urlconf`).

A redirect (``redirect(reverse("x"))``, ``HttpResponseRedirect``, Flask ``redirect(url_for(...))``) is no request
of the code: the browser's next one. Nothing here is read from it; only an HTTP client's URL is.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import (Args, ImportTable, compact, function_bindings, string_value,
                                                        template)
from indexer.model import Template

__all__ = ["MAX_HOPS", "built_name", "fixture_route", "returned_builder", "returned_route", "returned_url", "root_urlconf",
           "route_name", "url_start"]

MAX_HOPS = 3
"""Local variables followed from a request's URL argument to the call building it."""
_MAX_PARENTS = 256  # nodes walked up from a request to the test setting its ROOT_URLCONF
_MAX_BASES = 8  # base classes of the same module followed to the one setting it
_OVERRIDE = frozenset({"django.test.override_settings", "django.test.utils.override_settings"})

_DJANGO = frozenset({
    "django.urls.reverse", "django.urls.reverse_lazy", "django.urls.base.reverse", "django.urls.base.reverse_lazy",
    "django.core.urlresolvers.reverse", "django.core.urlresolvers.reverse_lazy",
    "rest_framework.reverse.reverse", "rest_framework.reverse.reverse_lazy",
})
_RESOLVE_URL = frozenset({"django.shortcuts.resolve_url"})
_FLASK = frozenset({"flask.url_for", "flask.helpers.url_for"})
_STARLETTE_METHODS = frozenset({"url_for", "url_path_for"})
_FLASK_OPTIONS = frozenset({"_external", "_anchor", "_method", "_scheme"})


def route_name(src: SourceText, imports: ImportTable, node: Node | None) -> tuple[str, str, int, str] | None:
    """``(family, name, arguments, URLconf)`` of the route whose name builds the URL expression ``node`` (see the
    module docstring), or ``None`` when the URL is not built from a route name; ``URLconf``: Django's, the module the
    test around ``node`` makes ``ROOT_URLCONF`` (:func:`root_urlconf`), else ``""``."""
    at = node
    for _ in range(MAX_HOPS + 1):
        node = _start(src, node)
        if node is None:
            return None
        if node.type == "call":
            found = _builder(src, imports, node) or returned_route(src, imports, node)
            return (*found, root_urlconf(src, imports, at) if found[0] == "django" else "") if found else None
        if node.type != "identifier":
            return None
        node = _assigned(src, node)
    return None


def root_urlconf(src: SourceText, imports: ImportTable, node: Node | None) -> str:
    """The ``ROOT_URLCONF`` in effect at ``node``, as a test sets it (the nearest wins): ``with
    override_settings(ROOT_URLCONF="x.urls")`` / ``with self.settings(ROOT_URLCONF=...)`` around it, an
    ``@override_settings(ROOT_URLCONF=...)`` of the function or class around it (``django.test``), or of a base class
    of that class written in the same module; ``""``: none set
    (the settings' own, several root URLconfs in a repository of many)."""
    for _ in range(_MAX_PARENTS):
        node = node.parent if node is not None else None
        if node is None:
            return ""
        if node.type == "with_statement":
            for item in (c for clause in node.named_children if clause.type == "with_clause"
                         for c in clause.named_children):
                found = _urlconf_set(src, imports, item.child_by_field_name("value") or item)
                if found:
                    return found
        elif node.type == "function_definition":
            found = _decorated(src, imports, node)
            if found:
                return found
        elif node.type == "class_definition":
            return _class_urlconf(src, imports, node, 0)
    return ""


def _decorated(src: SourceText, imports: ImportTable, definition: Node) -> str:
    """The ``ROOT_URLCONF`` an ``@override_settings`` decorator of ``definition`` sets, else ``""``."""
    parent = definition.parent
    for decorator in parent.named_children if parent is not None and parent.type == "decorated_definition" else ():
        found = _urlconf_set(src, imports, decorator.named_children[0]) \
            if decorator.type == "decorator" and decorator.named_child_count else ""
        if found:
            return found
    return ""


def _class_urlconf(src: SourceText, imports: ImportTable, cls: Node, depth: int) -> str:
    """The ``ROOT_URLCONF`` a test class's ``@override_settings`` sets, else the one a base class of the same module
    sets (Django's class decorator is inherited: ``class AdminViewBasicTest(AdminViewBasicTestCase)``), bases in
    order; ``""``: none."""
    found = _decorated(src, imports, cls)
    supers = cls.child_by_field_name("superclasses")
    if found or supers is None or depth >= _MAX_BASES:
        return found
    module = cls
    while module.parent is not None:
        module = module.parent
    for base in supers.named_children:
        if base.type != "identifier":
            continue
        name = src.text(base)
        for statement in module.named_children:
            definition = statement.child_by_field_name("definition") if statement.type == "decorated_definition" \
                else statement
            if definition is not None and definition.type == "class_definition" \
                    and src.text(definition.child_by_field_name("name")) == name and definition.id != cls.id:
                found = _class_urlconf(src, imports, definition, depth + 1)
                if found:
                    return found
    return ""


def _urlconf_set(src: SourceText, imports: ImportTable, call: Node) -> str:
    """The ``ROOT_URLCONF=`` string of an ``override_settings(...)`` / ``self.settings(...)`` call, else ``""``."""
    if call.type != "call":
        return ""
    callee = compact(src, call.child_by_field_name("function"))
    if imports.qualify(callee) not in _OVERRIDE and callee != "self.settings":
        return ""
    return string_value(src, Args.of(src, call.child_by_field_name("arguments")).keywords.get("ROOT_URLCONF")) or ""


def _start(src: SourceText, node: Node | None) -> Node | None:
    """The expression a URL starts with: ``node`` itself, the left operand of a ``+`` chain, the first
    interpolation of an f-string that starts with one, the first value of a ``%``-format or ``str.format`` that
    starts with a placeholder (:func:`_formatted`); parentheses dropped."""
    for _ in range(64):
        if node is None:
            return None
        kind = node.type
        if kind == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        elif kind == "binary_operator":
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type == "%":
                node = _formatted(src, node.child_by_field_name("left"), node.child_by_field_name("right"))
                continue
            if operator is None or operator.type != "+":
                return None
            node = node.child_by_field_name("left")
        elif kind == "call" and _is_format(src, node):  # "{}?next={}".format(reverse("login"), nxt)
            text = string_value(src, node.child_by_field_name("function").child_by_field_name("object"))  # type: ignore[union-attr]
            args = Args.of(src, node.child_by_field_name("arguments")).positional
            if text is None or not text.startswith(("{}", "{0}")) or not args:
                return None
            node = args[0]
        elif kind == "string":
            pieces = [c for c in node.named_children if c.type not in ("string_start", "string_end")]
            if not pieces or pieces[0].type != "interpolation":
                return None
            node = pieces[0].child_by_field_name("expression")
        elif kind == "await":
            node = node.named_children[0] if node.named_child_count else None
        else:
            return node
    return None


def url_start(src: SourceText, node: Node | None) -> Node | None:
    """The expression the URL ``node`` starts with (a ``+`` chain's left operand, an f-string's or format's first
    value; parentheses and ``await`` dropped), ``None`` when it starts with a literal."""
    return _start(src, node)


def _is_format(src: SourceText, call: Node) -> bool:
    """Whether ``call`` is ``<string literal>.format(...)``."""
    callee = call.child_by_field_name("function")
    if callee is None or callee.type != "attribute":
        return False
    attr, obj = callee.child_by_field_name("attribute"), callee.child_by_field_name("object")
    return attr is not None and obj is not None and src.text(attr) == "format" and obj.type in ("string", "concatenated_string")


def _formatted(src: SourceText, text: Node | None, values: Node | None) -> Node | None:
    """The value a ``%``-formatted string starts with: ``"%s?next=%s" % (reverse("login"), nxt)`` -> the tuple's
    first item, ``"%s?id=1" % url`` -> ``url``, ``"%(url)s?x" % {"url": u}`` -> ``u``; ``None`` when the format does
    not start with a placeholder (``"/a/%s" % x``) or the value is not written there."""
    fmt = string_value(src, text)
    while values is not None and values.type == "parenthesized_expression" and values.named_child_count == 1:
        values = values.named_children[0]
    if fmt is None or values is None or not fmt.startswith("%"):
        return None
    if fmt.startswith("%s"):
        if values.type == "tuple":
            return values.named_children[0] if values.named_child_count else None
        return values if values.type not in ("dictionary", "list") else None
    key = fmt[2:fmt.find(")")] if fmt.startswith("%(") and ")s" in fmt else None
    if key is None or values.type != "dictionary":
        return None
    for pair in values.named_children:
        if pair.type == "pair" and string_value(src, pair.child_by_field_name("key")) == key:
            return pair.child_by_field_name("value")
    return None


def _assigned(src: SourceText, name: Node) -> Node | None:
    """The value the last plain assignment to the local ``name`` before it, in the enclosing function's own body
    (nested definitions left out), gives; else, when the function assigns it nowhere, the last module-level
    assignment of it (``DETAIL = reverse_lazy("shop:detail")``); ``None``: none (a parameter, a loop variable)."""
    fn = name.parent
    while fn is not None and fn.type not in ("function_definition", "lambda", "class_definition", "module"):
        fn = fn.parent
    if fn is None or fn.type == "lambda":
        return None
    text = src.text(name)
    if fn.type == "function_definition":
        found = _local(src, fn, text, name.start_byte)
        if found is not None or _binds(src, fn, text) or _local(src, fn, text, fn.end_byte + 1) is not None:
            return found  # (assigned only after the request: a local all the same, unknown there)
    while fn is not None and fn.type != "module":
        fn = fn.parent
    value: Node | None = None
    for statement in fn.named_children if fn is not None else ():
        node = statement.named_children[0] if statement.type == "expression_statement" and statement.named_child_count \
            else statement
        left = node.child_by_field_name("left") if node.type == "assignment" else None
        if left is not None and left.type == "identifier" and src.text(left) == text:
            value = node.child_by_field_name("right")
    return value


def _binds(src: SourceText, fn: Node, text: str) -> bool:
    """Whether ``text`` is a parameter of the function ``fn`` (a local, not the module's name)."""
    params = fn.child_by_field_name("parameters")
    for p in params.named_children if params is not None else ():
        target = p if p.type == "identifier" else p.child_by_field_name("name") or (
            p.named_children[0] if p.named_child_count else None)
        if target is not None and target.type == "identifier" and src.text(target) == text:
            return True
    return False


def _local(src: SourceText, fn: Node, text: str, at: int) -> Node | None:
    """The value of the last assignment to ``text`` in ``fn``'s own body ending before byte ``at`` (the
    function's assignments read once, :func:`~indexer.languages.python.frameworks.common.function_bindings`:
    a test of 5,000 ``url = reverse(...)`` requests walked its body 5,000 times)."""
    found: Node | None = None
    for node in function_bindings(src, fn).plain.get(text, ()):
        if node.end_byte <= at and (found is None or node.start_byte > found.start_byte) \
                and node.child_by_field_name("right") is not None:
            found = node
    return found.child_by_field_name("right") if found is not None else None


def _builder(src: SourceText, imports: ImportTable, call: Node,
             given: dict[str, str] | None = None) -> tuple[str, str, int] | None:
    """``(family, name, arguments)`` of a call building a URL from a route name, else ``None``; ``given``: string
    values of names (a helper's parameters, :func:`returned_route`) a name argument may be written as."""
    built = built_name(src, imports, call)
    if built is None:
        return None
    family, node, arguments, strict = built
    name = string_value(src, node)
    if name is None and given and node is not None and node.type == "identifier":
        name = given.get(src.text(node))
    if not name or (strict and ("/" in name or "." in name)):
        return None
    return family, name, arguments


def built_name(src: SourceText, imports: ImportTable, call: Node) -> tuple[str, Node | None, int, bool] | None:
    """``(family, name argument, arguments, strict)`` of a call of a route-name URL builder (``reverse(n, ...)``,
    ``url_for(n, ...)``, ``request.url_for(n)``, ``resolve_url(n)``) whatever its name argument is, else ``None``;
    ``strict``: a name holding ``/`` or ``.`` is a URL, not a name (``resolve_url``)."""
    callee = call.child_by_field_name("function")
    if callee is None:
        return None
    args = Args.of(src, call.child_by_field_name("arguments"))
    if callee.type == "attribute":
        method = src.text(callee.child_by_field_name("attribute"))
        qualified = imports.qualify(compact(src, callee))
        if method in _STARLETTE_METHODS and qualified not in _FLASK and not qualified.startswith("flask."):
            return "starlette", args.get(0, "name"), _keyword_count(args, ("name",)), False
    elif callee.type != "identifier":
        return None
    qualified = imports.qualify(compact(src, callee))
    if qualified in _DJANGO:
        return "django", args.get(0, "viewname"), _django_arguments(src, args), False
    if qualified in _RESOLVE_URL:
        return "django", args.get(0, "to"), -1 if args.splat else len(args.positional) - 1 + len(args.keywords), True
    if qualified in _FLASK:
        return "flask", args.get(0, "endpoint"), _keyword_count(args, ("endpoint", *_FLASK_OPTIONS)), False
    return None


def returned_route(src: SourceText, imports: ImportTable, call: Node) -> tuple[str, str, int] | None:
    """``(family, name, arguments)`` of the route whose URL a helper of the same file returns, when ``call`` calls
    one: ``self.get_url()`` / ``cls.url()`` (a method of the enclosing class, or of a base class of the same
    module, :data:`_MAX_BASES` deep) or ``detail_url(1)`` (a module-level function), whose every ``return`` is a
    route-name builder (:func:`built_name`) or a local assigned one once (``url = reverse(...); return url``) with
    the same name. The name is a string literal, or a parameter of the helper the helper never re-binds: then the
    literal ``call`` passes there (by position or keyword), else the parameter's literal default. One level of
    return only (a helper calling a helper is not followed); ``None`` otherwise."""
    helper, is_method = _helper(src, call)
    if helper is None:
        return None
    params = _helper_params(src, helper, is_method)
    args = Args.of(src, call.child_by_field_name("arguments"))
    given: dict[str, str] = {}
    for i, (param, default) in enumerate(params):
        value = string_value(src, args.get(i, param) if not args.splat else args.keywords.get(param))
        if value is None and default is not None and param not in args.keywords and i >= len(args.positional):
            value = default
        if value is not None:
            given[param] = value
    found: set[tuple[str, str, int]] = set()
    for value in _returns(src, helper):
        node = _start(src, value)
        if node is not None and node.type == "identifier" and src.text(node) not in given:
            node = _start(src, _assigned_once(src, helper, src.text(node)))
        if node is None or node.type != "call":
            return None
        built = _builder(src, imports, node, given)
        if built is None or _rebinds(src, helper, built_name(src, imports, node), given):
            return None
        found.add(built)
    return found.pop() if len(found) == 1 else None


def fixture_route(src: SourceText, imports: ImportTable, node: Node | None,
                  params: set[str]) -> tuple[str, tuple[str, str, int, str]] | None:
    """``(parameter, ("", name, arguments, URLconf))`` when the URL ``node`` starts with a call of one of ``params``
    (a test's fixture parameters) given a route name literal first (``headless_reverse("headless:account:login",
    kwargs={...})``): the fixture decides what builds the URL (:class:`~indexer.model.UrlFixture`); ``arguments``
    counted as ``reverse``'s ``args=`` / ``kwargs=`` are (``-1``: unknown); ``None`` otherwise."""
    node = _start(src, node)
    callee = node.child_by_field_name("function") if node is not None and node.type == "call" else None
    if callee is None or callee.type != "identifier" or src.text(callee) not in params:
        return None
    args = Args.of(src, node.child_by_field_name("arguments"))  # type: ignore[union-attr]
    name = string_value(src, args.positional[0] if args.positional else None)
    if not name:
        return None
    return src.text(callee), ("", name, _django_arguments(src, args), root_urlconf(src, imports, node))


def returned_builder(src: SourceText, imports: ImportTable, fn: Node) -> tuple[str, str, Node | None] | None:
    """``(family, parameter, re-binding)`` when every ``return`` of the function ``fn`` is a route-name builder
    (:func:`built_name`) whose name argument is ``fn``'s first parameter (``def rev(viewname, **kw): return
    reverse(viewname, **kw)``); ``re-binding`` the value of the one plain assignment to that parameter in ``fn``
    (``viewname = viewname.replace(...)``), ``None`` when there is none; ``None`` for anything else (two
    assignments, another binding, a return of something else)."""
    params = _helper_params(src, fn, False)
    if not params:
        return None
    first = params[0][0]
    families: set[str] = set()
    for value in _returns(src, fn):
        node = _start(src, value)
        built = built_name(src, imports, node) if node is not None and node.type == "call" else None
        if built is None or built[1] is None or built[1].type != "identifier" or src.text(built[1]) != first:
            return None
        families.add(built[0])
    if len(families) != 1:
        return None
    rebinding = _assigned_once(src, fn, first)
    if rebinding is None and _rebinds(src, fn, ("", _first_name(fn), 0, False), {first: ""}):
        return None
    return families.pop(), first, rebinding


def _first_name(fn: Node) -> Node | None:
    params = fn.child_by_field_name("parameters")
    first = params.named_children[0] if params is not None and params.named_child_count else None
    return first if first is not None and first.type == "identifier" else None


def returned_url(src: SourceText, node: Node | None) -> tuple[Node, Template] | None:
    """``(call, template)`` when the URL ``node`` starts with a call of a helper of the same file (as
    :func:`returned_route` finds one: ``self._url()``, ``detail_url(1)``) whose every ``return`` gives one template
    starting with a literal ``/`` (``return f"/accounts/change_email/{signed}/"``); the helper's names in it (its
    parameters, locals, attributes) are holes; ``None`` otherwise. One level of return only."""
    call = _start(src, node)
    if call is None or call.type != "call":
        return None
    helper, _ = _helper(src, call)
    if helper is None:
        return None
    found: set[Template] = set()
    for value in _returns(src, helper):
        t = template(src, value)
        if not t.parts or t.parts[0][0] != "lit" or not t.parts[0][1].startswith("/"):
            return None
        found.add(Template(tuple(("hole", text) if kind == "ref" else (kind, text) for kind, text in t.parts)))
    return (call, found.pop()) if len(found) == 1 else None


_MAX_HELPER_NODES = 2_000
"""Nodes of a helper's body read at most (a helper longer than that is not followed)."""


def _helper(src: SourceText, call: Node) -> tuple[Node | None, bool]:
    """The ``function_definition`` of this file ``call`` calls (see :func:`returned_route`) and whether it is a
    method; ``(None, False)``: none found."""
    callee = call.child_by_field_name("function")
    if callee is None:
        return None, False
    module = call
    while module.parent is not None:
        module = module.parent
    if callee.type == "identifier":
        return _member(src, module, src.text(callee)), False
    obj, attr = callee.child_by_field_name("object"), callee.child_by_field_name("attribute")
    if callee.type != "attribute" or obj is None or attr is None or src.text(obj) not in ("self", "cls"):
        return None, False
    cls = call.parent
    while cls is not None and cls.type != "class_definition":
        cls = cls.parent
    name, seen = src.text(attr), 0
    todo = [cls] if cls is not None else []
    while todo and seen < _MAX_BASES:
        c = todo.pop(0)
        seen += 1
        body = c.child_by_field_name("body")
        found = _member(src, body, name) if body is not None else None
        if found is not None:
            return found, True
        supers = c.child_by_field_name("superclasses")
        for base in supers.named_children if supers is not None else ():
            base_def = _member(src, module, src.text(base), "class_definition") if base.type == "identifier" else None
            if base_def is not None:
                todo.append(base_def)
    return None, False


_memo: list[object] = [None, {}]
"""``[source, {key: value}]``: what this module read of one file's tree (a block's definitions by name, a helper's
nodes), kept while requests of the same file are read: 3,000 requests calling one helper walked it 3,000 times."""


def _memoised(src: SourceText, key: tuple, make: Callable[[], object]) -> object:
    if _memo[0] is not src:
        _memo[0], _memo[1] = src, {}
    table: dict = _memo[1]  # type: ignore[assignment]
    if key not in table:
        table[key] = make()
    return table[key]


def _member(src: SourceText, block: Node, name: str, kind: str = "function_definition") -> Node | None:
    """The last definition of ``kind`` named ``name`` directly in ``block`` (a module or class body)."""
    def make() -> dict[tuple[str, str], Node]:
        out: dict[tuple[str, str], Node] = {}
        for statement in block.named_children:
            node = statement.child_by_field_name("definition") if statement.type == "decorated_definition" \
                else statement
            named = node.child_by_field_name("name") if node is not None else None
            if named is not None:
                out[(node.type, src.text(named))] = node  # type: ignore[union-attr]
        return out
    table = _memoised(src, ("defs", block.id, block.start_byte), make)
    return table.get((kind, name))  # type: ignore[attr-defined]


def _helper_params(src: SourceText, fn: Node, is_method: bool) -> list[tuple[str, str | None]]:
    """``(name, literal default or None)`` of ``fn``'s positional-or-keyword parameters in order (``self`` /
    ``cls`` of a method dropped)."""
    params = fn.child_by_field_name("parameters")
    out: list[tuple[str, str | None]] = []
    for p in params.named_children if params is not None else ():
        if p.type in ("list_splat_pattern", "dictionary_splat_pattern", "keyword_separator"):
            break
        name = p if p.type == "identifier" else p.child_by_field_name("name")
        if name is None or name.type != "identifier":
            continue
        out.append((src.text(name), string_value(src, p.child_by_field_name("value"))))
    return out[1:] if is_method and out else out


def _helper_nodes(src: SourceText, fn: Node) -> list[Node]:
    """The nodes of ``fn``'s own body (nested definitions left out), at most :data:`_MAX_HELPER_NODES`; an empty list
    when the body is longer."""
    return _memoised(src, ("nodes", fn.id, fn.start_byte), lambda: _walk_helper(fn))  # type: ignore[return-value]


def _walk_helper(fn: Node) -> list[Node]:
    body = fn.child_by_field_name("body")
    out: list[Node] = []
    stack = [body] if body is not None else []
    while stack:
        node = stack.pop()
        out.append(node)
        if len(out) > _MAX_HELPER_NODES:
            return []
        stack.extend(c for c in node.named_children
                     if c.type not in ("function_definition", "class_definition", "lambda"))
    return out


def _returns(src: SourceText, fn: Node) -> list[Node]:
    """The values of ``fn``'s ``return`` statements, or ``[]`` when one returns nothing, the function yields or its
    body is too long."""
    out: list[Node] = []
    for node in _helper_nodes(src, fn):
        if node.type == "yield":
            return []
        if node.type == "return_statement":
            if not node.named_children:
                return []
            out.append(node.named_children[0])
    return out


def _assigned_once(src: SourceText, fn: Node, name: str) -> Node | None:
    """The value of the one plain assignment ``name = value`` in ``fn``'s own body, else ``None``."""
    found = []
    for node in _helper_nodes(src, fn):
        if node.type in ("assignment", "augmented_assignment", "for_statement", "named_expression", "as_pattern"):
            target = node.child_by_field_name("left") or node.child_by_field_name("name") \
                or node.child_by_field_name("alias")
            if target is not None and name in src.text(target).replace(",", " ").split():
                found.append(node)
    one = found[0] if len(found) == 1 else None
    return one.child_by_field_name("right") if one is not None and one.type == "assignment" else None


def _rebinds(src: SourceText, fn: Node, built: tuple[str, Node | None, int, bool] | None,
             given: dict[str, str]) -> bool:
    """Whether the name argument of ``built`` is a parameter of ``fn`` that ``fn`` binds again before returning
    (``viewname = viewname.replace(...)``): its value is then not the one passed."""
    node = built[1] if built is not None else None
    if node is None or node.type != "identifier" or src.text(node) not in given:
        return False
    name = src.text(node)
    for n in _helper_nodes(src, fn):
        if n.type in ("assignment", "augmented_assignment", "for_statement", "named_expression", "as_pattern"):
            target = n.child_by_field_name("left") or n.child_by_field_name("name") or n.child_by_field_name("alias")
            if target is not None and name in src.text(target).replace(",", " ").split():
                return True
    return False


def _keyword_count(args: Args, ignored: tuple[str, ...]) -> int:
    """How many path values keyword arguments give (``-1``: a ``**values`` splat, unknown)."""
    if args.splat:
        return -1
    return sum(1 for k in args.keywords if k not in ignored)


def _django_arguments(src: SourceText, args: Args) -> int:
    """How many values ``reverse``'s ``args`` / ``kwargs`` give: the length of a literal list, tuple or dict
    (``-1`` when one is no literal display; ``0`` when neither is given)."""
    given = [a for a in (args.get(2, "args"), args.get(3, "kwargs")) if a is not None]
    if args.splat:
        return -1
    total = 0
    for a in given:
        if a.type in ("list", "tuple", "dictionary", "set"):
            if any(c.type in ("list_splat", "dictionary_splat") for c in a.named_children):
                return -1
            total += sum(1 for c in a.named_children if c.type != "comment")
        elif a.type == "none":
            continue
        else:
            return -1
    return total
