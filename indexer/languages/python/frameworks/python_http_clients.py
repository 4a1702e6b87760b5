"""Outgoing HTTP calls made with requests and httpx.

Found (rules in ``indexer/languages/python/queries/http_clients.scm``), only in a file importing from
``requests`` or ``httpx``:

* module functions: ``requests.get(url)`` / ``.post`` / ``.put`` / ``.delete`` / ``.patch`` /
  ``.head`` / ``.options``, ``requests.request("GET", url)``, ``httpx.stream("GET", url)``, the module
  imported under any alias or the function imported by name (``from requests import get``);
* calls on a session or client: ``requests.Session()`` / ``requests.session()``, ``httpx.Client()``,
  ``httpx.AsyncClient()``, whether built in the call's receiver (``httpx.Client().get(url)``) or bound
  to the receiver as the extractor's bindings record it: a local or enclosing-function variable, a
  module variable, ``with ... as c``, an annotated parameter, ``self.x = ...`` in a method or a class
  attribute (``self.x`` seen from the class's methods).

A Flask application's test client (a file importing ``flask``): a receiver bound to ``app.test_client()`` (or
``with app.test_client() as c``, or annotated ``FlaskClient``), framework ``flask-test``; a test's untyped parameter
(pytest's ``client`` fixture) is read by :mod:`indexer.languages.python.frameworks.pytest_clients`.

A URL built from a route's name (``reverse("shop:detail")``, ``url_for("bp.view")``, ``request.url_for("name")``,
directly, as the URL's start or through a local) is recorded as the call's ``route_name``
(:mod:`indexer.languages.python.frameworks.url_names`).

Locust load tests (a file importing ``locust``): ``self.client.get("/cart")`` in a user or task set
and ``l.client.post("/cart", ...)`` in a task function given the user (``def index(l):``), any
``<name>.client.<verb>(url)``: the client is an ``HttpSession`` (a ``requests.Session``) or
``FastHttpSession`` of the host under load, so the URL is relative to it (framework ``locust``).

Each yields an :class:`~indexer.model.HttpCall`: framework ``requests`` / ``httpx``, the HTTP method
upper-case (``"*"`` when ``request()``'s method is not a literal), the URL as a template (see
:func:`indexer.languages.python.frameworks.common.template`), ``caller`` the enclosing function's qualname. A client
built with ``base_url=`` (visible in the construction the receiver is bound to) has it prepended to
a URL that does not start with a literal scheme (``http://``, ``https://``, ``//``), as httpx does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from indexer.languages.python.frameworks.common import (Args, Context, block_definitions, compact, join, library_kind, local_value, scope_of,
                                                        string_value, template)
from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.url_names import returned_url, route_name
from indexer.model import ClientFixture, FileExtraction, HttpCall, Template

__all__ = ["LANGUAGES", "PENDING", "SHARED_QUERY", "TEST_CLIENT_KINDS", "detect", "helper_start", "local_start", "shares"]

LANGUAGES = ("python",)

_LIBRARIES = ("requests", "httpx")
_TEST_LIBRARIES = ("fastapi", "starlette", "django", "rest_framework", "flask", "locust")
"""Libraries whose test clients send a request to the application in process, or (locust) to the
host under load (no library call of the module itself is a request)."""
_VERBS = frozenset({"get", "post", "put", "delete", "patch", "head", "options"})
_CLIENTS = {
    ("requests", "Session"): "requests",
    ("requests", "session"): "requests",
    ("httpx", "Client"): "httpx",
    ("httpx", "AsyncClient"): "httpx",
    # test clients: a test's request reaches the application's own endpoint (its path, no host)
    ("fastapi", "TestClient"): "testclient",
    ("starlette", "TestClient"): "testclient",
    ("django", "Client"): "django-test",
    ("django", "AsyncClient"): "django-test",
    ("rest_framework", "APIClient"): "django-test",
    ("flask", "FlaskClient"): "flask-test",
}
_FLASK_TEST_CLIENT = ".test_client"
"""What a Flask application's test client is made by: ``c = app.test_client()``, ``with app.test_client() as c``,
``app.test_client().get(url)`` (in a file importing flask)."""
_ABSOLUTE = ("http://", "https://", "//")


_NEEDED = tuple(sorted(set(_LIBRARIES) | {last for (head, last) in _CLIENTS if head not in _LIBRARIES}
                      | {"TestCase", "locust", "test_client"}))
"""Words one of which every call found here is named with: a name qualified into a library of
:data:`_LIBRARIES` starts with it, any other client of :data:`_CLIENTS` ends with its class name, a
test case's ``self.client`` is in a class of a ``...TestCase`` lineage, a locust client's file imports ``locust``."""
_ASCII_WS = bytes([9, 10, 11, 12, 13, 28, 29, 30, 31, 32])
"""The ASCII characters ``\\s`` matches (:func:`~indexer.languages.python.frameworks.common.compact`
drops them; ``translate`` drops them from an ASCII file faster than the expression does)."""
_WS = re.compile(r"\s+")
_NEEDED_ANY = re.compile("|".join(re.escape(word) for word in _NEEDED))
"""A word of :data:`_NEEDED` anywhere in a string (one search, not one ``in`` per word)."""


def _may_call(src: SourceText, out: FileExtraction) -> bool:
    """Whether the file can hold a call this detector reports; ``False`` only when none can be
    found, so the tree is not walked for nothing (most files importing django make no request).

    A call is reported only when a name qualified through the imports (:meth:`ImportTable.qualify`)
    has a word of :data:`_NEEDED` (a library's head or a client's class name). Such a name is a
    node's text without whitespace, a binding's type reduced by ``base_type``, or an import's
    module and name, so the word is in the file's text once whitespace is dropped as ``compact``
    drops it, in the type of a binding that is no alias (or that type has ``<...>`` or ``...``,
    which ``base_type`` drops, joining what was around), or in an import."""
    data = src.data
    if any(word in data for word in _NEEDED_WORDS):
        return True  # a word written whole is in the squeezed text too: no need to squeeze
    if data.isascii():
        squeezed = data.translate(None, _ASCII_WS).decode("ascii")
    else:  # decoded as node texts are: a word of a node's text is one of the whole file's
        squeezed = _WS.sub("", data.decode("utf-8", "replace"))
    needed = _NEEDED_ANY.search
    if needed(squeezed):
        return True
    for imp in out.imports:
        if needed(imp.module) or (imp.name is not None and needed(imp.name)):
            return True
    for b in out.bindings:
        if b.how == "alias":
            continue  # never read as a client (BindingTable.types)
        t = b.type or ""
        if "<" in t or "..." in t or needed(t):
            return True
    return False


SHARED_QUERY = "http_clients"
_GATE_WORDS = tuple(w.encode() for w in (*_LIBRARIES, *_TEST_LIBRARIES))
_NEEDED_WORDS = tuple(w.encode() for w in _NEEDED)


_SELF_VERB = re.compile(rb"self\.\w+\.(?:get|post|put|patch|delete|head|options)\(")
"""A request on an attribute of ``self`` (``self.auth_client.get(``): a test case's client, maybe a base class's."""


def _test_case_bytes(data: bytes) -> bool:
    """Whether the file may hold a test case's ``self.client`` call, or a request on another attribute of ``self``
    a base class's ``setUp`` may bind to a test client (the gate of :func:`detect`)."""
    return b"TestCase" in data and (b"self.client." in data or b"self.async_client." in data
                                    or _SELF_VERB.search(data) is not None)


def shares(data: bytes) -> bool:
    """Whether the extractor's shared pass should match :data:`SHARED_QUERY` for a file of ``data``
    (:func:`indexer.languages.python.frameworks.shared_queries`): its bytes name a library or a
    test case, as the imports :func:`detect` asks for are written, and a word of :data:`_NEEDED`
    (:func:`_may_call`'s test, without its whitespace squeezing: a miss runs the query alone)."""
    return (any(w in data for w in _GATE_WORDS) or _test_case_bytes(data)) and any(w in data for w in _NEEDED_WORDS)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the requests / httpx calls of one parsed Python file to ``out``."""
    ctx = Context(src, out)
    test_case = _test_case_bytes(src.data)
    if not (ctx.imports.uses(*_LIBRARIES, *_TEST_LIBRARIES) or test_case) or not _may_call(src, out):
        return  # a test case of a project's own base class (`hc.test.BaseTestCase`) may import no django
    bases: dict[tuple[int, str], Template] = {}
    calls: list[dict[str, list[Node]]] = []
    for _, caps in run_query(query("python", "python/queries", "http_clients"), root):
        if "ctor" in caps:
            key = _bound_name(src, caps["ctor"][0])
            if key is not None:
                bases[key] = template(src, caps["base"][0])
        else:
            calls.append(caps)
    lineages = _Lineages(src)
    for caps in calls:
        _call(ctx, caps, bases, lineages)
    if b"setUp" in src.data and b"self." in src.data:
        _set_up_clients(ctx, root)


def _bound_name(src: SourceText, ctor: Node) -> tuple[int, str] | None:
    """``(line, name)`` of the binding a construction is assigned to, as the extractor's
    :class:`~indexer.model.Binding` records it (``x`` / ``self.x`` at its attribute's line; the
    target of ``with ... as x``); ``None`` when it is not bound to a name."""
    parent = ctor.parent
    if parent is None:
        return None
    if parent.type == "assignment":
        left = parent.child_by_field_name("left")
        if left is None:
            return None
        if left.type == "identifier":
            return src.line(left), src.text(left)
        if left.type == "attribute":
            obj, attr = left.child_by_field_name("object"), left.child_by_field_name("attribute")
            if obj is not None and attr is not None and src.text(obj) == "self":
                return src.line(attr), "self." + src.text(attr)
        return None
    if parent.type == "as_pattern":
        alias = parent.child_by_field_name("alias")
        target = alias.named_children[0] if alias is not None and alias.named_child_count else None
        if target is not None and target.type == "identifier":
            return src.line(target), src.text(target)
    return None


def _client(ctx: Context, receiver: Node, call: Node, bases: dict[tuple[int, str], Template],
            lineages: _Lineages) -> tuple[str, Template] | None:
    """``(library, base URL)`` when ``receiver`` (of ``call``) is the requests / httpx module or a
    session / client; ``None`` otherwise. The call's scope is named only when its bindings are looked at."""
    src, imports = ctx.src, ctx.imports
    text = compact(src, receiver)
    qualified = imports.qualify(text)
    if qualified in _LIBRARIES or qualified == "requests.api":
        return qualified.split(".", 1)[0], Template()
    if receiver.type == "call":  # httpx.Client(base_url=...).get(url)
        callee = receiver.child_by_field_name("function")
        made = compact(src, callee)
        if made.endswith(_FLASK_TEST_CLIENT) and imports.uses("flask"):
            return "flask-test", Template()
        library = library_kind(imports.qualify(made), _CLIENTS)
        if library is None:
            return None
        base = Args.of(src, receiver.child_by_field_name("arguments")).keywords.get("base_url")
        return library, template(src, base)
    for bound_type, binding in ctx.bindings.types(imports, scope_of(call, src), text):
        library = library_kind(bound_type, _CLIENTS)
        if library is None and bound_type.endswith(_FLASK_TEST_CLIENT) and imports.uses("flask"):
            library = "flask-test"
        if library is not None:
            return library, bases.get((binding.line, binding.name), Template())
    if text in _TEST_CASE_CLIENTS and lineages.test_case(_enclosing_class(call)):
        return "django-test", Template()
    if _SELF_ATTR.fullmatch(text) and lineages.test_case(_enclosing_class(call)):
        return PENDING, Template()  # `self.auth_client`: a base class's `setUp` may bind it (fixture_clients)
    if _LOCUST_CLIENT.fullmatch(text) and ctx.imports.uses("locust"):
        return "locust", Template()
    return None


_LOCUST_CLIENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\.client")
"""A locust user's client: ``self.client``, or ``l.client`` of the user a task function is given."""


_SELF_ATTR = re.compile(r"self\.[A-Za-z_][A-Za-z0-9_]*")
PENDING = "pytest-fixture"
"""The framework of a request on another attribute of a test case's ``self`` until the linker finds the class (its
own or an ancestor, in any file) whose ``setUp`` binds it to a test client (:class:`~indexer.model.ClientFixture`
``<class>.self.<attr>``, :mod:`indexer.frameworks.fixture_clients`)."""
TEST_CLIENT_KINDS = frozenset({"django-test", "testclient", "flask-test"})
_TEST_CASE_CLIENTS = frozenset({"self.client", "self.async_client"})
"""The clients Django's ``SimpleTestCase`` (and DRF's ``APITestCase``) gives every test."""
_SETUPS = ("setUp", "asyncSetUp", "setUpTestData", "setUpClass")
_MAX_BASES = 8


def _enclosing_class(node: Node) -> Node | None:
    """The class whose method holds ``node`` (``None``: none)."""
    n = node.parent
    while n is not None and n.type != "class_definition":
        n = n.parent
    return n


def _bases(src: SourceText, cls: Node) -> list[str]:
    """The base class names of ``cls`` as written, last dotted part (``django.test.TestCase`` -> ``TestCase``)."""
    args = cls.child_by_field_name("superclasses")
    return [compact(src, a).rpartition(".")[2] for a in args.named_children] if args is not None else []


class _Lineages:
    """One file's class lineages, each worked out once: a file of tests asks for the same class at
    every ``self.client`` call of it (Django's own tests: 1,852 asks, each walking the module's
    classes up to :data:`_MAX_BASES` times, were 1.4 s of a 98 s profiled extraction)."""

    def __init__(self, src: SourceText) -> None:
        self.src = src
        self._module: tuple[list[tuple[str, Node]], list[tuple[str, Node]]] | None = None
        self._bases: dict[int, list[str]] = {}
        self._lineage: dict[int | None, list[Node]] = {}
        self._test_case: dict[int | None, bool] = {}

    def bases(self, cls: Node) -> list[str]:
        """:func:`_bases` of ``cls``, once per class."""
        found = self._bases.get(cls.id)
        if found is None:
            found = self._bases[cls.id] = _bases(self.src, cls)
        return found

    def _module_classes(self, cls: Node) -> tuple[list[tuple[str, Node]], list[tuple[str, Node]]]:
        """``(name, class)`` of the module's undecorated classes and ``(name, definition)`` of its
        decorated definitions, each in source order (the module: the root above ``cls``)."""
        if self._module is None:
            root = cls
            while root.parent is not None:
                root = root.parent
            src = self.src
            plain = [(src.text(c.child_by_field_name("name")), c) for c in root.named_children
                     if c.type == "class_definition"]
            decorated = [(src.text(d.child_by_field_name("name")), d) for d in
                         (c.child_by_field_name("definition") for c in root.named_children
                          if c.type == "decorated_definition")]
            self._module = (plain, decorated)
        return self._module

    def lineage(self, cls: Node | None) -> list[Node]:
        """``cls`` and its ancestors defined at module level of this file, nearest first (at most
        :data:`_MAX_BASES`): a base is the first undecorated module-level class of that name, else
        the first decorated definition of it."""
        key = cls.id if cls is not None else None
        found = self._lineage.get(key)
        if found is not None:
            return found
        out: list[Node] = []
        while cls is not None and len(out) < _MAX_BASES and cls not in out:
            out.append(cls)
            names = self.bases(cls)
            plain, decorated = self._module_classes(cls)
            cls = next((c for name, c in plain if name in names), None)
            if cls is None:
                cls = next((d for name, d in decorated if name in names), None)
        self._lineage[key] = out
        return out

    def test_case(self, cls: Node | None) -> bool:
        """Whether ``cls`` is a test case: a base of it, or of an ancestor of this file, is named
        ``...TestCase`` (``TestCase``, ``SimpleTestCase``, ``APITestCase``, a project's ``BaseTestCase``)."""
        key = cls.id if cls is not None else None
        found = self._test_case.get(key)
        if found is None:
            found = self._test_case[key] = any(b.endswith("TestCase") for c in self.lineage(cls) for b in self.bases(c))
        return found


def _set_up_assignments(src: SourceText, body: Node | None) -> Iterator[tuple[str, Node]]:
    """``(target, assignment)`` of each assignment among the own statements of the set-up methods
    (:data:`_SETUPS`: ``setUp``, ``setUpTestData``, ...) of a class whose ``body`` is given, in source
    order; ``target`` is the left side as written, compacted (``self.client``)."""
    for fn in block_definitions(body, "function_definition"):
        if src.text(fn.child_by_field_name("name")) not in _SETUPS:
            continue
        block = fn.child_by_field_name("body")
        for stmt in block.named_children if block is not None else ():
            node = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
            left = node.child_by_field_name("left") if node is not None and node.type == "assignment" else None
            if left is not None:
                yield compact(src, left), node


def _set_up_url(src: SourceText, call: Node, attr: str, lineages: _Lineages) -> Node | None:
    """The value a test's ``setUp`` (``setUpTestData``, ...) assigns ``self.<attr>`` (``cls.<attr>``)
    in the class of ``call`` or its nearest ancestor of this file that assigns it, its last assignment
    among the method's own statements; ``None`` when none does."""
    for cls in lineages.lineage(_enclosing_class(call)):
        found: Node | None = None
        for target, node in _set_up_assignments(src, cls.child_by_field_name("body")):
            if target in (f"self.{attr}", f"cls.{attr}"):
                found = node.child_by_field_name("right")
        if found is not None:
            return found
    return None


def local_start(src: SourceText, url: Node, url_t: Template) -> Template:
    """``url_t`` with its start, when it is a local its function assigns once (``url = '{}/{}'.format(
    app.config["CONTACTS_URI"], user); requests.post(url=url)``, ``metadata_url + 'instance/zone'``), replaced
    by that value (:func:`~indexer.languages.python.frameworks.common.local_value`; one level)."""
    first = url
    while first.type == "binary_operator" and (op := first.child_by_field_name("operator")) is not None \
            and op.type == "+" and first.child_by_field_name("left") is not None:
        first = first.child_by_field_name("left")  # type: ignore[assignment]
    if first.type != "identifier" or not url_t.parts or url_t.parts[0] != ("ref", src.text(first)):
        return url_t
    held = local_value(src, first)
    return join(template(src, held), Template(url_t.parts[1:])) if held is not None else url_t


def helper_start(src: SourceText, url: Node, url_t: Template) -> Template:
    """``url_t`` with its first piece, a call of a helper of the same file returning a literal URL
    (``self.client.post(self._url())``, ``self._url() + "?next=/"``), replaced by the template the helper returns
    (:func:`~indexer.languages.python.frameworks.url_names.returned_url`); else ``url_t``."""
    if not url_t.parts or url_t.parts[0][0] != "hole":
        return url_t
    found = returned_url(src, url)
    if found is None or src.text(found[0]) != url_t.parts[0][1]:
        return url_t
    return join(found[1], Template(url_t.parts[1:]))


def _call(ctx: Context, caps: dict[str, list[Node]], bases: dict[tuple[int, str], Template], lineages: _Lineages) -> None:
    src = ctx.src
    call, verb_node = caps["call"][0], caps["verb"][0]
    # The scope is named once the call is known to be a request: most calls matched are not
    # (every bare call is), and naming a scope walks up the tree.
    if "receiver" in caps:
        found = _client(ctx, caps["receiver"][0], call, bases, lineages)
        if found is None:
            return
        library, base = found
        verb = src.text(verb_node)
    else:  # a bare call: a function imported from the library
        qualified = ctx.imports.qualify(src.text(verb_node))
        library, _, verb = qualified.rpartition(".")
        if library.split(".", 1)[0] not in _LIBRARIES or "." not in qualified:
            return
        library, base = library.split(".", 1)[0], Template()
    args = Args.of(src, caps["args"][0])
    if verb in _VERBS:
        method, url = verb.upper(), args.get(0, "url")
    elif verb == "request" or (verb == "stream" and library == "httpx"):
        literal = string_value(src, args.get(0, "method"))
        method, url = (literal.upper() if literal else "*"), args.get(1, "url")
    else:
        return
    if url is None:
        return
    url_t = template(src, url)
    url_t = local_start(src, url, url_t)
    if library in ("django-test", PENDING) and len(url_t.parts) == 1 and url_t.parts[0][1].startswith("self."):
        value = _set_up_url(src, call, url_t.parts[0][1][len("self."):], lineages)  # `self.client.get(self.url)`
        url_t, url = (template(src, value), value) if value is not None else (url_t, url)
    named = route_name(src, ctx.imports, url) if url_t.parts and url_t.parts[0][0] != "lit" else None
    url_t = helper_start(src, url, url_t) if named is None else url_t
    first = url_t.parts[0] if url_t.parts else ("lit", "")
    if base.parts and not (first[0] == "lit" and first[1].lower().startswith(_ABSOLUTE)):
        url_t = join(base, url_t)
    ctx.out.http_calls.append(HttpCall(library, method, url_t, scope_of(call, src), src.line(verb_node), src.col(verb_node),
                                       route_name=named,
                                       fixture=compact(src, caps["receiver"][0]) if library == PENDING else None))


def _set_up_clients(ctx: Context, root: Node) -> None:
    """Record a :class:`~indexer.model.ClientFixture` ``<class>.self.<attr>`` for each ``self.<attr> = <test client>``
    statement of a module-level class's ``setUp`` (``asyncSetUp``, ``setUpTestData``, ``setUpClass``): Django's or
    DRF's ``Client()`` / ``APIClient()``, ``TestClient(app)``, a Flask ``app.test_client()``. Subclasses in any file
    send their ``self.<attr>.get(url)`` with it (:mod:`indexer.frameworks.fixture_clients`); an attribute those methods
    also bind to anything else (or to clients of two kinds) is not recorded."""
    src, imports = ctx.src, ctx.imports
    for cls in block_definitions(root, "class_definition"):
        if (body := cls.child_by_field_name("body")) is None:
            continue
        found: dict[str, str | None] = {}
        for target, node in _set_up_assignments(src, body):
            if not _SELF_ATTR.fullmatch(target):
                continue
            right = node.child_by_field_name("right")
            kind = None
            if right is not None and right.type == "call":
                made = compact(src, right.child_by_field_name("function"))
                kind = library_kind(imports.qualify(made), _CLIENTS)
                if kind is None and made.endswith(_FLASK_TEST_CLIENT) and imports.uses("flask"):
                    kind = "flask-test"
            found[target] = kind if kind in TEST_CLIENT_KINDS and found.get(target, kind) == kind else None
        qualname = src.text(cls.child_by_field_name("name"))
        ctx.out.client_fixtures.extend(ClientFixture(f"{qualname}.{target}", kind)
                                       for target, kind in found.items() if kind is not None)
