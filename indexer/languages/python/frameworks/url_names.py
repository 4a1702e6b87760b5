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
followed :data:`MAX_HOPS` times), or else a module-level one (``DETAIL = reverse_lazy("shop:detail")``). ``arguments``: how many path values the call gives (``args=`` / ``kwargs=``
of a literal display, the path parameters of ``url_for``; ``-1`` when they cannot be counted), which tells apart
two routes of one name (Django's ``path("a/", v, name="n")`` and ``path("a/<int:page>/", v, name="n")``). A Django
test's ``@override_settings(ROOT_URLCONF="x.urls")`` (or ``with``) says which root URLconf reverses the name
(:func:`root_urlconf`).

A redirect (``redirect(reverse("x"))``, ``HttpResponseRedirect``, Flask ``redirect(url_for(...))``) is no request
of the code: the browser's next one. Nothing here is read from it; only an HTTP client's URL is.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import Args, ImportTable, compact, function_bindings, string_value

__all__ = ["MAX_HOPS", "root_urlconf", "route_name"]

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
            found = _builder(src, imports, node)
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


def _builder(src: SourceText, imports: ImportTable, call: Node) -> tuple[str, str, int] | None:
    """``(family, name, arguments)`` of a call building a URL from a route name, else ``None``."""
    callee = call.child_by_field_name("function")
    if callee is None:
        return None
    args = Args.of(src, call.child_by_field_name("arguments"))
    if callee.type == "attribute":
        method = src.text(callee.child_by_field_name("attribute"))
        qualified = imports.qualify(compact(src, callee))
        if method in _STARLETTE_METHODS and qualified not in _FLASK and not qualified.startswith("flask."):
            name = string_value(src, args.get(0, "name"))
            return ("starlette", name, _keyword_count(args, ("name",))) if name else None
    elif callee.type != "identifier":
        return None
    qualified = imports.qualify(compact(src, callee))
    if qualified in _DJANGO:
        name = string_value(src, args.get(0, "viewname"))
        return ("django", name, _django_arguments(src, args)) if name else None
    if qualified in _RESOLVE_URL:
        name = string_value(src, args.get(0, "to"))
        if not name or "/" in name or "." in name:
            return None
        return "django", name, -1 if args.splat else len(args.positional) - 1 + len(args.keywords)
    if qualified in _FLASK:
        name = string_value(src, args.get(0, "endpoint"))
        return ("flask", name, _keyword_count(args, ("endpoint", *_FLASK_OPTIONS))) if name else None
    return None


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
