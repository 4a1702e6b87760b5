"""pytest fixtures that hand tests an HTTP test client, and the requests tests make with them.

pytest gives a test function (or a fixture) each parameter's value from the fixture of that name
(:mod:`indexer.languages.python.pytest_fixtures`). A web application's tests mostly get their client that
way::

    # conftest.py
    @pytest.fixture
    def client(app):
        return app.test_client()

    # test_blog.py
    def test_index(client):
        client.get("/")

One file cannot tell what ``client`` is: the fixture may be in a ``conftest.py`` of any folder above the
test, overridden by a nearer one or by the test module's own. This detector records both halves, each in
its own file, and the linker joins them (:mod:`indexer.frameworks.fixture_clients`):

* a :class:`~indexer.model.ClientFixture` for each fixture (``@pytest.fixture`` / ``@fixture`` with or
  without arguments, ``pytest_asyncio.fixture``) whose every returned or yielded value is a test client:
  ``app.test_client()`` (Flask, Quart), ``TestClient(app)`` (Starlette / FastAPI), Django's ``Client()`` /
  ``AsyncClient()``, DRF's ``APIClient()``, an ``httpx.Client`` / ``AsyncClient`` given the application
  (``app=`` or ``transport=``: it sends in process), a class of the same file whose bases (in the file) are
  one of those (``class AppClient(Client)``); the value written in the ``return`` / ``yield``, a local
  assigned once before it (``c = Client(); return c``) or bound by ``with ... as c``; or one of the
  fixture's own parameters handed on (``def auth_client(client): client.force_login(u); return client``);
* an :class:`~indexer.model.HttpCall` ``pytest-fixture`` for each ``p.get(url)`` / ``post`` / ``put`` /
  ``patch`` / ``delete`` / ``head`` / ``options`` whose receiver is an untyped parameter ``p`` without a
  default of the enclosing function, never re-bound in it, with :attr:`~indexer.model.HttpCall.fixture`
  ``p``; its URL as :mod:`indexer.languages.python.frameworks.python_http_clients` reads one (a local's
  value at its start, a route name: ``client.get(reverse("account_login"))``); a URL that is a parameter a
  ``@pytest.mark.parametrize`` gives string literals is one request per value.

Only files pytest reads fixtures and tests from are read (``conftest.py``, ``test_*.py``, ``*_test.py``:
:func:`~indexer.languages.python.pytest_fixtures.is_test_file`); a call already read as a client's by
another detector (an annotated or module-level client) is not recorded twice.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import (Args, Context, block_definitions, compact, library_kind, local_value, scope_of,
                                                        string_list, string_value, template)
from indexer.languages.python.frameworks.python_http_clients import helper_start, local_start
from indexer.languages.python.frameworks.url_names import fixture_route, returned_builder, route_name
from indexer.languages.python.pytest_fixtures import FIXTURE, is_test_file
from indexer.model import ClientFixture, FileExtraction, HttpCall, Template, UrlFixture

__all__ = ["CLIENTS", "FRAMEWORK", "LANGUAGES", "MAX_EXPANDED", "MAX_VALUES", "detect"]

LANGUAGES = ("python",)

FRAMEWORK = "pytest-fixture"
"""The ``framework`` of a call on a fixture parameter until the linker knows the fixture's client."""
CLIENTS = {
    ("fastapi", "TestClient"): "testclient",
    ("starlette", "TestClient"): "testclient",
    ("django", "Client"): "django-test",
    ("django", "AsyncClient"): "django-test",
    ("rest_framework", "APIClient"): "django-test",
    ("flask", "FlaskClient"): "flask-test",
    ("httpx", "Client"): "testclient",
    ("httpx", "AsyncClient"): "testclient",
}
"""Client classes a fixture may build, ``(top-level package, class name)`` -> the framework of its requests."""
_IN_PROCESS = ("app", "transport")
"""Arguments that make an httpx client send to the application in process (``AsyncClient(app=app)``,
``transport=ASGITransport(app)``); an httpx client without one talks to a server and is no test client here."""
_TEST_CLIENT = ".test_client"
_VERBS = frozenset({"get", "post", "put", "delete", "patch", "head", "options"})
_VERB_BYTES = tuple(f".{v}(".encode() for v in _VERBS)
_DEFINITIONS = ("function_definition", "class_definition", "lambda")
_MAX_BASES = 8
_MAX_NODES = 20_000
"""Nodes of one function walked at most (a hostile file's body is cut there)."""
MAX_VALUES = 256
"""The most ``@pytest.mark.parametrize`` values of one parameter read as URLs; a parameter given more is no known
URL (one request whose URL is unknown)."""
MAX_EXPANDED = 4_096
"""The most requests one function's parametrized URLs expand to; a call past it is one request whose URL is
unknown. (Values times calls: 20,000 values and 100 calls, a 171 KB file, made 2 million requests, 868 MiB.)"""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the client fixtures and the requests made on fixture parameters of one test file to ``out``."""
    if not is_test_file(out.path):
        return
    data = src.data
    fixtures = FIXTURE.encode() in data
    if not fixtures and not any(v in data for v in _VERB_BYTES):
        return
    ctx = Context(src, out)
    seen = {(c.line, c.col) for c in out.http_calls}
    classes = {src.text(c.child_by_field_name("name")): c for c in block_definitions(root, "class_definition")}
    for fn, decorators, qualname in _functions(src, root, ""):
        if fixtures and any(_is_fixture(src, d) for d in decorators):
            found = _fixture(ctx, fn, qualname, classes)
            if found is not None:
                out.client_fixtures.append(found)
            else:
                built = _url_fixture(ctx, fn, qualname, decorators)
                if built is not None:
                    out.url_fixtures.append(built)
        _calls(ctx, fn, seen, _parametrized(src, decorators))


def _functions(src: SourceText, block: Node, prefix: str) -> list[tuple[Node, list[Node], str]]:
    """``(function, its decorators, qualname)`` of the functions of a module or class body, and of the
    classes in it (nested functions are not tests or fixtures pytest collects)."""
    out: list[tuple[Node, list[Node], str]] = []
    stack = [(block, prefix, 0)]
    while stack:
        body, pre, depth = stack.pop()
        for child in body.named_children:
            decorators: list[Node] = []
            node = child
            if child.type == "decorated_definition":
                decorators = [d for d in child.named_children if d.type == "decorator"]
                node = child.child_by_field_name("definition")
            if node is None:
                continue
            name = node.child_by_field_name("name")
            if name is None:
                continue
            qualname = pre + src.text(name)
            if node.type == "function_definition":
                out.append((node, decorators, qualname))
            elif node.type == "class_definition" and depth < _MAX_BASES:
                inner = node.child_by_field_name("body")
                if inner is not None:
                    stack.append((inner, qualname + ".", depth + 1))
    return out


def _is_fixture(src: SourceText, decorator: Node) -> bool:
    """Whether a decorator is pytest's fixture (``@pytest.fixture``, ``@pytest.fixture(scope=...)``, ``@fixture``)."""
    return compact(src, decorator).lstrip("@").split("(", 1)[0].rpartition(".")[2] == FIXTURE


def _params(src: SourceText, fn: Node) -> list[str]:
    """The plain parameters of ``fn`` (no annotation, no default, no ``*``), but ``self`` / ``cls``."""
    params = fn.child_by_field_name("parameters")
    return [src.text(p) for p in (params.named_children if params is not None else ())
            if p.type == "identifier" and src.text(p) not in ("self", "cls")]


def _body_nodes(fn: Node) -> list[Node]:
    """The nodes of ``fn``'s body, nested functions, classes and lambdas left out (at most :data:`_MAX_NODES`)."""
    body = fn.child_by_field_name("body")
    out: list[Node] = []
    stack = [body] if body is not None else []
    while stack and len(out) < _MAX_NODES:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed([c for c in node.named_children if c.type not in _DEFINITIONS]))
    return out


def _rebound(src: SourceText, nodes: list[Node]) -> set[str]:
    """Names a function body assigns, binds in a ``for`` / ``with`` / walrus, deletes or declares global."""
    out: set[str] = set()
    for node in nodes:
        target = None
        if node.type in ("assignment", "augmented_assignment", "for_statement"):
            target = node.child_by_field_name("left")
        elif node.type == "named_expression":
            target = node.child_by_field_name("name")
        elif node.type == "as_pattern":
            target = node.child_by_field_name("alias")
        elif node.type in ("delete_statement", "global_statement", "nonlocal_statement"):
            target = node
        if target is not None:
            stack = [target]
            while stack:
                t = stack.pop()
                if t.type == "identifier":
                    out.add(src.text(t))
                elif t.type not in ("attribute", "subscript"):
                    stack.extend(t.named_children)
    return out


def _parametrized(src: SourceText, decorators: list[Node]) -> dict[str, list[str]]:
    """The string values a function's ``@pytest.mark.parametrize("path", ["/a", "/b"])`` marks give each parameter
    (``"name, other"`` / ``("name", "other")`` with a list of tuples too), when every value given that parameter is a
    string literal; a parameter given anything else (a name, an id, ``pytest.param(...)``) or more than
    :data:`MAX_VALUES` values is left out."""
    out: dict[str, list[str]] = {}
    for decorator in decorators:
        call = decorator.named_children[0] if decorator.named_child_count else None
        if call is None or call.type != "call" or not compact(src, call.child_by_field_name("function")).endswith(
                "mark.parametrize"):
            continue
        args = Args.of(src, call.child_by_field_name("arguments"))
        names_node, values = args.get(0, "argnames"), args.get(1, "argvalues")
        names = string_list(src, names_node)
        if names is not None and len(names) == 1 and names_node is not None and names_node.type != "list":
            names = [n.strip() for n in names[0].split(",")]
        if not names or values is None or values.type not in ("list", "tuple"):
            continue
        rows = [c for c in values.named_children if c.type != "comment"]
        for i, name in enumerate(names):
            if len(rows) > MAX_VALUES:
                continue
            found = [string_value(src, row if len(names) == 1 else _item(row, i)) for row in rows]
            if found and all(v is not None for v in found):
                out[name] = found  # type: ignore[assignment]
    return out


def _item(row: Node, i: int) -> Node | None:
    """The ``i``-th item of a parametrize row written as a tuple or list."""
    if row.type not in ("tuple", "list"):
        return None
    items = [c for c in row.named_children if c.type != "comment"]
    return items[i] if i < len(items) else None


def _calls(ctx: Context, fn: Node, seen: set[tuple[int, int]], values: dict[str, list[str]]) -> None:
    """Record the requests ``fn`` makes on its plain parameters; a URL that is a parameter ``values`` gives string
    values is one request per value (``@pytest.mark.parametrize("path", ("/create", "/1/update"))``), at most
    :data:`MAX_EXPANDED` of them in the function (a call past it: one request, its URL unknown)."""
    src = ctx.src
    params = _params(src, fn)
    body = src.data[fn.start_byte:fn.end_byte]
    if not any(f"{p}.".encode() in body for p in params):  # (most tests make no call on a parameter)
        return
    nodes = _body_nodes(fn)
    receivers = set(params) - _rebound(src, nodes)
    room = MAX_EXPANDED
    for node in nodes:
        if node.type != "call":
            continue
        callee = node.child_by_field_name("function")
        if callee is None or callee.type != "attribute":
            continue
        obj, verb = callee.child_by_field_name("object"), callee.child_by_field_name("attribute")
        if obj is None or verb is None or obj.type != "identifier" or src.text(obj) not in receivers:
            continue
        method = src.text(verb)
        if method not in _VERBS or (src.line(verb), src.col(verb)) in seen:
            continue
        args = Args.of(src, node.child_by_field_name("arguments"))
        url = args.get(0, "url") or args.keywords.get("path")
        if url is None:
            continue
        builder = None
        given = values.get(src.text(url), []) if url.type == "identifier" and src.text(url) in params else []
        distinct = list(dict.fromkeys(given))
        if distinct and len(distinct) <= room:
            room -= len(distinct)
            urls = [Template.of(v) for v in distinct]
            named = None
        else:
            urls = [local_start(src, url, template(src, url))]
            named = route_name(src, ctx.imports, url) if urls[0].parts and urls[0].parts[0][0] != "lit" else None
            builder = fixture_route(src, ctx.imports, url, receivers) if named is None and urls[0].parts else None
            if builder is not None:
                named = builder[1]
            elif named is None:
                urls = [helper_start(src, url, urls[0])]
        for url_t in urls:
            ctx.out.http_calls.append(HttpCall(FRAMEWORK, method.upper(), url_t, scope_of(node, src), src.line(verb),
                                               src.col(verb), route_name=named, fixture=src.text(obj),
                                               url_fixture=builder[0] if builder is not None else None))


def _fixture(ctx: Context, fn: Node, qualname: str, classes: dict[str, Node]) -> ClientFixture | None:
    """The :class:`ClientFixture` of the fixture ``fn`` when every value it returns or yields is a test
    client or one of its parameters; ``None`` otherwise."""
    src = ctx.src
    params = _params(src, fn)
    nodes = _body_nodes(fn)
    kinds: list[str] = []
    handed: list[str] = []
    values = 0
    for node in nodes:
        if node.type == "return_statement":
            value = node.named_children[0] if node.named_children else None
        elif node.type == "yield":
            value = node.named_children[0] if node.named_children else None
        else:
            continue
        if value is None or value.type == "none":
            continue
        values += 1
        if value.type == "identifier" and src.text(value) in params:
            handed.append(src.text(value))
            continue
        kind = _client(ctx, _value_of(src, value, nodes), classes)
        if kind is None:
            return None
        kinds.append(kind)
    if not values or len(set(kinds)) > 1:
        return None
    return ClientFixture(qualname, kinds[0] if kinds else "", tuple(dict.fromkeys(handed)))


def _url_fixture(ctx: Context, fn: Node, qualname: str, decorators: list[Node]) -> UrlFixture | None:
    """The :class:`UrlFixture` of the fixture ``fn`` (either shape), else ``None``."""
    src = ctx.src
    returns = [n for n in _body_nodes(fn) if n.type in ("return_statement", "yield")]
    if len(returns) != 1 or not returns[0].named_children:
        return None
    value = returns[0].named_children[0]
    params = _params(src, fn)
    if src.text(value) == "request.param" and "request" in params:  # @pytest.fixture(params=[...])
        for decorator in decorators:
            call = decorator.named_children[0] if decorator.named_child_count else None
            listed = string_list(src, Args.of(src, call.child_by_field_name("arguments")).keywords.get("params")) \
                if call is not None and call.type == "call" else None
            if listed:
                return UrlFixture(qualname, "", values=tuple(listed))
        return None
    if value.type != "identifier":
        return None
    body = fn.child_by_field_name("body")
    inner = None
    for statement in body.named_children if body is not None else ():
        if statement.type == "function_definition" and src.text(statement.child_by_field_name("name")) == src.text(value):
            inner = statement
    built = returned_builder(src, ctx.imports, inner) if inner is not None else None
    if built is None:
        return None
    family, name, rebinding = built
    if rebinding is None:
        return UrlFixture(qualname, family)
    rewrite = _rewrite(src, rebinding, name, set(params))
    return UrlFixture(qualname, family, rewrite) if rewrite else None


def _rewrite(src: SourceText, value: Node, name: str, params: set[str]) -> tuple[str, ...]:
    """``(old, before, param, after)`` of ``name.replace("old", f"{before}{param}{after}")`` with ``param`` one of
    ``params``; ``()`` for any other value."""
    callee = value.child_by_field_name("function") if value.type == "call" else None
    if callee is None or callee.type != "attribute" or src.text(callee) != f"{name}.replace":
        return ()
    args = Args.of(src, value.child_by_field_name("arguments"))
    old = string_value(src, args.positional[0]) if len(args.positional) == 2 and not args.keywords else None
    new = args.positional[1] if old else None
    if new is None or new.type != "string":
        return ()
    pieces = [c for c in new.named_children if c.type not in ("string_start", "string_end")]
    holes = [i for i, c in enumerate(pieces) if c.type == "interpolation"]
    if len(holes) != 1 or any(c.type not in ("string_content", "interpolation") for c in pieces):
        return ()
    hole = pieces[holes[0]]
    expression = hole.child_by_field_name("expression")
    if expression is None or expression.type != "identifier" or src.text(expression) not in params \
            or hole.named_child_count != 1:
        return ()
    before = "".join(src.text(c) for c in pieces[:holes[0]])
    after = "".join(src.text(c) for c in pieces[holes[0] + 1:])
    return (old, before, src.text(expression), after) if "\\" not in before + after else ()  # type: ignore[return-value]


def _value_of(src: SourceText, value: Node, nodes: list[Node]) -> Node:
    """``value``, or when it is a local the expression bound to it: ``c = Client(); return c`` (assigned once
    before, :func:`~indexer.languages.python.frameworks.common.local_value`) or ``with X() as c: yield c``."""
    if value.type != "identifier":
        return value
    held = local_value(src, value)
    if held is not None:
        return held
    name = src.text(value)
    for node in nodes:
        if node.type != "as_pattern":
            continue
        alias = node.child_by_field_name("alias")
        target = alias.named_children[0] if alias is not None and alias.named_child_count else None
        if target is not None and target.type == "identifier" and src.text(target) == name and node.named_children:
            return node.named_children[0]
    return value


def _client(ctx: Context, value: Node, classes: dict[str, Node]) -> str | None:
    """The framework of the test client ``value`` builds, or ``None`` (see the module docstring)."""
    while value.type in ("await", "parenthesized_expression") and value.named_child_count == 1:
        value = value.named_children[0]
    if value.type != "call":
        return None
    src = ctx.src
    made = compact(src, value.child_by_field_name("function"))
    if made.endswith(_TEST_CLIENT):
        return "flask-test"
    kind = library_kind(ctx.imports.qualify(made), CLIENTS)
    if kind is None and made in classes:
        kind = _subclass(ctx, classes[made], classes)
    if kind is not None and made.rpartition(".")[2] in ("Client", "AsyncClient") and \
            (ctx.imports.qualify(made) or "").startswith("httpx"):
        keywords = Args.of(src, value.child_by_field_name("arguments")).keywords
        return kind if any(k in keywords for k in _IN_PROCESS) else None
    return kind


def _subclass(ctx: Context, cls: Node, classes: dict[str, Node]) -> str | None:
    """The client framework of a class of this file whose bases (through classes of this file) include a client."""
    src = ctx.src
    seen: set[int] = set()
    todo = [cls]
    while todo and len(seen) < _MAX_BASES:
        c = todo.pop()
        if c.id in seen:
            continue
        seen.add(c.id)
        bases = c.child_by_field_name("superclasses")
        for base in bases.named_children if bases is not None else ():
            text = compact(src, base)
            kind = library_kind(ctx.imports.qualify(text), CLIENTS)
            if kind is not None:
                return kind
            if text in classes:
                todo.append(classes[text])
    return None
