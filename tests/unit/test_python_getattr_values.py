"""The variable part of a ``getattr`` name pattern narrowed by what the code says it takes
(indexer/languages/python/name_values.py, indexer/resolve/name_patterns.py): a loop over a literal
collection or a class-level tuple, an ``in`` / ``==`` guard, the strings classes set an attribute to, ``.lower()`` of such a value, a module
constant of another file (imported from a package whose ``__init__`` re-exports it: ``from . import
hdrs as hdrs``, aiohttp's), ``http.HTTPMethod``; and the arguments a kept lookup is called with. Exact
callees; negatives: the same class's methods sharing the literal part whose variable part is none of
those values (``add_route``, ``as_sql``-style), a method needing more arguments than given."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import resolve_fixture

SRC = '''
# --- path: web/__init__.py ---
from . import hdrs as hdrs
# --- path: web/hdrs.py ---
METH_GET = "GET"
METH_POST = "POST"
METH_ANY = "*"
METH_ALL = {METH_GET, METH_POST}
# --- path: web/router.py ---
class Router:
    def add_route(self, method, path, handler, **kwargs):
        return 1

    def add_routes(self, routes):
        return 2

    def add_static(self, prefix, path, **kwargs):
        return 3

    def add_get(self, path, handler, **kwargs):
        return 4

    def add_post(self, path, handler, **kwargs):
        return 5

    def add_put(self, path, handler, **kwargs):
        return 6
# --- path: web/defs.py ---
from . import hdrs
from web.router import Router


class RouteDef:
    def __init__(self, method, path, handler, kwargs):
        self.method = method
        self.path = path
        self.handler = handler
        self.kwargs = kwargs

    def register(self, router: Router):
        if self.method in hdrs.METH_ALL:
            reg = getattr(router, "add_" + self.method.lower())
            return [reg(self.path, self.handler, **self.kwargs)]
        return [router.add_route(self.method, self.path, self.handler, **self.kwargs)]

    def guarded(self, router: Router, verb):
        if verb == "put" or verb == "get":
            getattr(router, "add_" + verb)(1, 2)

    def unguarded(self, router: Router, verb):
        getattr(router, "add_" + verb)(1, 2)
# --- path: web/expr.py ---
class Expr:
    VENDORS = ("sqlite", "oracle")

    def as_sql(self, compiler, connection):
        return 1

    def as_sqlite(self, compiler, connection):
        return 2

    def as_oracle(self, compiler, connection):
        return 3

    def as_mysql(self, compiler, connection):
        return 4

    def compile_all(self):
        for vendor in self.VENDORS:
            getattr(self, "as_" + vendor)(None, None)
        for vendor in ["mysql", "*"]:
            getattr(self, f"as_{vendor}")(None, None)
# --- path: web/backends.py ---
from web.expr import Expr


class BaseWrapper:
    vendor = "unknown"
    display = "x"


class SqliteWrapper(BaseWrapper):
    vendor = "sqlite"


class OracleWrapper(BaseWrapper):
    vendor = "oracle"


def compile_for(connection, node: Expr):
    getattr(node, "as_" + connection.vendor)(None, None)
    getattr(node, "as_" + connection.display)(None, None)
'''


def _targets(resolved) -> list[tuple[str, int, str]]:
    return sorted((e.src.split(".", 1)[1].split("(")[0], e.line, e.dst.split(".", 1)[1].split("(")[0])
                  for f in resolved.files for e in f.edges if e.kind == "CALLS" and e.resolution == "inferred")


def test_only_the_values_the_code_states_are_called() -> None:
    assert _targets(resolve_fixture(SRC)) == sorted([
        # `self.method in hdrs.METH_ALL`, lowered: add_get / add_post, never add_route / add_routes /
        # add_static / add_put
        ("RouteDef.register", 14, "Router.add_get"), ("RouteDef.register", 14, "Router.add_post"),
        # `verb == "put" or verb == "get"`
        ("RouteDef.guarded", 20, "Router.add_put"), ("RouteDef.guarded", 20, "Router.add_get"),
        # no guard: every add_* taking two arguments (add_route needs three, add_routes one)
        ("RouteDef.unguarded", 23, "Router.add_static"), ("RouteDef.unguarded", 23, "Router.add_get"),
        ("RouteDef.unguarded", 23, "Router.add_post"), ("RouteDef.unguarded", 23, "Router.add_put"),
        # a class-level tuple, then a literal list: never as_sql
        ("Expr.compile_all", 18, "Expr.as_sqlite"), ("Expr.compile_all", 18, "Expr.as_oracle"),
        ("Expr.compile_all", 20, "Expr.as_mysql"),
        # the strings classes set `vendor` to: never as_sql / as_mysql
        ("compile_for", 18, "Expr.as_sqlite"), ("compile_for", 18, "Expr.as_oracle"),
        # `display`'s one string names no method: every as_* taking two arguments
        ("compile_for", 19, "Expr.as_sql"), ("compile_for", 19, "Expr.as_sqlite"),
        ("compile_for", 19, "Expr.as_oracle"), ("compile_for", 19, "Expr.as_mysql"),
    ])


def test_the_patterns_written() -> None:
    src = (b"import http\nfrom http import HTTPMethod\nKINDS = ('css', 'js')\n"
           b"class A:\n    NAMES = frozenset(['a', 'b'])\n"
           b"    def f(self, k):\n"
           b"        for k in KINDS:\n            getattr(self, 'render_' + k)()\n"
           b"        for k in self.NAMES:\n            getattr(self, 'on_%s' % k.upper())()\n"
           b"        for m in HTTPMethod:\n            h = getattr(self, 'do_' + m.lower())\n            h(1, **k)\n"
           b"        if k in mod.CHOICES:\n            getattr(self, 'x_' + k)()\n"
           b"        if k in ('*', '-'):\n            getattr(self, 'y_' + k)()\n"
           b"        getattr(self, 'z_' + self.kind)(*k)\n        getattr(self, 'w_' + k)()\n")
    out = extractor_for_path("m.py").extract("m.py", src)
    assert sorted((c.name, c.arity, c.line) for c in out.calls if c.via == "pattern") == [
        ("do_<connect|delete|get|head|options|patch|post|put|trace>", -3, 12),
        ("on_<A|B>", 0, 10), ("render_<css|js>", 0, 8), ("w_*", 0, 19), ("x_<=mod.CHOICES>", 0, 15), ("z_<.kind>", -1, 18)]
    strings = [(b.scope, b.name, b.type, b.how, b.line) for b in out.bindings if b.how == "strings"]
    assert strings == [(None, "KINDS", "css|js", "strings", 3)]
