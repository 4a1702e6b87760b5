"""Unit tests of the Python extractor: exact IR records for small inline sources."""

from __future__ import annotations

from indexer.languages.python import EXTRACTOR
from indexer.model import (
    LITERAL_RECEIVER,
    Binding,
    CallSite,
    Definition,
    FileExtraction,
    Import,
    NamedArgument,
    Param,
    TypeUse,
)


def extract(source: str | bytes, path: str = "pkg/mod.py") -> FileExtraction:
    data = source.encode("utf-8") if isinstance(source, str) else source
    return EXTRACTOR.extract(path, data)


def D(kind: str, qualname: str, parent: str | None, start: tuple[int, int], end: tuple[int, int],
      name_at: tuple[int, int], **fields) -> Definition:
    """A Definition with its name taken from the qualname."""
    return Definition(kind=kind, name=qualname.rsplit(".", 1)[-1], qualname=qualname, parent=parent,
                      start_line=start[0], start_col=start[1], end_line=end[0], end_col=end[1],
                      name_line=name_at[0], name_col=name_at[1], **fields)


DEFINITIONS_SRC = '''\
"""Module doc."""
import abc


@register("models")
@abc.abstract
class Repo(Base, mixins.Auditable, metaclass=abc.ABCMeta):
    """Stores owners."""

    table = "owners"
    limit: int = 10
    session: Session

    def __init__(self, db: Database, *, timeout=5):
        self.db = db
        self.table = "x"
        self.cache = {}

    def save(self, owner, force_insert=False):
        """Save the owner.

        Twice."""
        def flush(batch, /, *rest, **options):
            return batch
        return flush

    @staticmethod
    def build(config, *args):
        pass

    @classmethod
    def create(cls, name) -> "Repo":
        return cls()

    @property
    async def size(self) -> int:
        return 0

    class Meta:
        ordering = ["name"]


def main(
    argv: list[str] | None = None,
) -> int:
    return 0
'''


def test_extractor_identity():
    assert EXTRACTOR.language == "python"
    assert EXTRACTOR.extensions == (".py", ".pyi")


def test_definitions_exact():
    out = extract(DEFINITIONS_SRC)
    assert out.errors == []
    assert out.definitions == [
        D("class", "Repo", None, (5, 0), (40, 27), (7, 6),
          signature="class Repo(Base, mixins.Auditable, metaclass=abc.ABCMeta)",
          decorators=['register("models")', "abc.abstract"], bases=["Base", "mixins.Auditable"],
          docstring="Stores owners."),
        D("field", "Repo.table", "Repo", (10, 4), (10, 20), (10, 4)),
        D("field", "Repo.limit", "Repo", (11, 4), (11, 19), (11, 4), field_type="int"),
        D("field", "Repo.session", "Repo", (12, 4), (12, 20), (12, 4), field_type="Session"),
        D("constructor", "Repo.__init__", "Repo", (14, 4), (17, 23), (14, 8),
          signature="def __init__(self, db: Database, *, timeout=5)",
          params=[Param("db", "Database"), Param("timeout", None, has_default=True)]),
        # self.x fields: first occurrence only, none for `table` (declared in the class body).
        D("field", "Repo.db", "Repo", (15, 8), (15, 20), (15, 13)),
        D("field", "Repo.cache", "Repo", (17, 8), (17, 23), (17, 13)),
        D("method", "Repo.save", "Repo", (19, 4), (25, 20), (19, 8),
          signature="def save(self, owner, force_insert=False)",
          params=[Param("owner"), Param("force_insert", has_default=True)],
          docstring="Save the owner.\n\n        Twice.", returned_refs=["flush"]),
        D("function", "Repo.save.flush", "Repo.save", (23, 8), (24, 24), (23, 12),
          signature="def flush(batch, /, *rest, **options)",
          params=[Param("batch"), Param("rest", variadic="*"), Param("options", variadic="**")],
          returned_param="batch"),
        D("method", "Repo.build", "Repo", (27, 4), (29, 12), (28, 8),
          signature="def build(config, *args)",
          params=[Param("config"), Param("args", variadic="*")],
          modifiers=["staticmethod"], decorators=["staticmethod"]),
        D("method", "Repo.create", "Repo", (31, 4), (33, 20), (32, 8),
          signature='def create(cls, name) -> "Repo"', params=[Param("name")],
          return_type='"Repo"', modifiers=["classmethod"], decorators=["classmethod"]),
        D("method", "Repo.size", "Repo", (35, 4), (37, 16), (36, 14),
          signature="async def size(self) -> int", return_type="int",
          modifiers=["async", "property"], decorators=["property"]),
        D("class", "Repo.Meta", "Repo", (39, 4), (40, 27), (39, 10), signature="class Meta"),
        D("field", "Repo.Meta.ordering", "Repo.Meta", (40, 8), (40, 27), (40, 8)),
        D("function", "main", None, (43, 0), (46, 12), (43, 4),
          signature="def main(argv: list[str] | None = None) -> int",
          params=[Param("argv", "list[str] | None", has_default=True)], return_type="int"),
    ]


def test_definitions_side_records():
    out = extract(DEFINITIONS_SRC)
    assert out.calls == [
        # decorators: calls of the decorated class (a bare one with it as its argument); a
        # decorator factory's result is called with it too
        CallSite("Repo", "register", None, 1, 5, 1, via="result"),
        CallSite("Repo", "register", None, 1, 5, 1),
        CallSite("Repo", "abstract", "abc", 1, 6, 5, via="decorator"),
        CallSite("Repo.create", "cls", None, 0, 33, 15),
    ]
    assert out.imports == [Import("abc", "abc", None, 0, 2)]
    assert out.bindings == [
        Binding("Repo.__init__", "db", "Database", "declared", 14),
        Binding("main", "argv", "list[str] | None", "declared", 44),
        Binding("Repo", "table", LITERAL_RECEIVER, "alias", 10),  # a literal: a builtin object
        Binding("Repo", "limit", "int", "declared", 11),
        Binding("Repo", "self.limit", "int", "declared", 11),
        Binding("Repo", "session", "Session", "declared", 12),
        Binding("Repo", "self.session", "Session", "declared", 12),
        Binding("Repo", "self.db", "Database", "declared", 15),
        Binding("Repo", "self.table", LITERAL_RECEIVER, "alias", 16),
        Binding("Repo", "self.cache", LITERAL_RECEIVER, "alias", 17),
        Binding("Repo.Meta", "ordering", LITERAL_RECEIVER, "alias", 40),
    ]
    assert out.type_uses == [
        TypeUse("Repo.__init__", "Database", 14, 27),
        TypeUse("Repo.create", "Repo", 32, 30),
        TypeUse("Repo.session", "Session", 12, 13),
    ]


def test_min_max_arity_from_params():
    out = extract(DEFINITIONS_SRC)
    by_name = {d.qualname: d for d in out.definitions}
    assert (by_name["Repo.save"].min_arity, by_name["Repo.save"].max_arity) == (1, 2)
    assert (by_name["Repo.build"].min_arity, by_name["Repo.build"].max_arity) == (1, None)


CALLS_SRC = '''\
import os


def helper(x):
    return x


@app.route("/owners", methods=["GET"])
def handler(request, *args, **kwargs):
    repo = OwnerRepository(db.session())
    repo.find(1, 2).save()
    super().save(force=True)
    super(Handler, self).delete(*args)
    os.path.join("a", "b")
    self.items[0].update(**kwargs)
    items = [helper(i) for i in range(3)]
    callback = lambda y: helper(y)
    "-".join(items)
    handlers[0]()
    return repo


class Handler:
    limit = compute_limit()

    @cached(timeout=get_timeout())
    def get(self, key=default_key()):
        return self.fetch(key)


helper(1)
'''


def test_calls_exact():
    out = extract(CALLS_SRC)
    assert out.errors == []
    assert [c for c in out.calls if c.via is None] == [
        CallSite("handler", "route", "app", 2, 8, 5),  # a decorator: the decorated function's call
        CallSite("handler", "OwnerRepository", None, 1, 10, 11),
        CallSite("handler", "session", "db", 0, 10, 30),
        CallSite("handler", "find", "repo", 2, 11, 9),
        CallSite("handler", "save", "repo.find()", 0, 11, 20),
        CallSite("handler", "super", None, 0, 12, 4),
        CallSite("handler", "save", "super", 1, 12, 12),
        CallSite("handler", "super", None, 2, 13, 4),
        CallSite("handler", "delete", "super", -1, 13, 25),
        CallSite("handler", "join", "os.path", 2, 14, 12),
        CallSite("handler", "update", "self.items[0]", -1, 15, 18),
        CallSite("handler", "helper", None, 1, 16, 13),  # comprehension: the enclosing def
        CallSite("handler", "range", None, 1, 16, 32),
        CallSite("handler", "helper", None, 1, 17, 25),  # lambda: the enclosing def
        CallSite("handler", "join", LITERAL_RECEIVER, 1, 18, 8),  # '"-".join(items)': str's own
        # handlers[0]() has no callee name: not reported.
        CallSite("Handler", "compute_limit", None, 0, 24, 12),
        CallSite("Handler.get", "cached", None, 1, 26, 5),  # decorator of a method: the method
        CallSite("Handler.get", "get_timeout", None, 0, 26, 20),
        CallSite("Handler", "default_key", None, 0, 27, 22),  # default value: the class
        CallSite("Handler.get", "fetch", "self", 1, 28, 20),
        CallSite(None, "helper", None, 1, 31, 0),
    ]
    assert not any(c.is_new for c in out.calls)
    # Arguments written as names or calls of one (``self`` is none): what a callee calling its
    # parameter is handed; a decorator is handed the decorated definition (``@``).
    assert [(c.name, c.line, c.handed) for c in out.calls if c.handed] == [
        ("route", 8, (NamedArgument("0", "@", 8, 5),)),
        ("OwnerRepository", 10, (NamedArgument("0", "db.session()", 10, 27),)),
        ("super", 13, (NamedArgument("0", "Handler", 13, 10),)),
        ("helper", 16, (NamedArgument("0", "i", 16, 20),)),
        ("helper", 17, (NamedArgument("0", "y", 17, 32),)),
        ("join", 18, (NamedArgument("0", "items", 18, 13),)),
        ("cached", 26, (NamedArgument("0", "@", 26, 5),)),
        ("cached", 26, (NamedArgument("timeout", "get_timeout()", 26, 20),)),
        ("fetch", 28, (NamedArgument("0", "key", 28, 26),)),
    ]
    # The dunder calls Python makes (subscripts, iteration), after the written ones.
    assert [c for c in out.calls if c.via is not None] == [
        CallSite("handler", "route", "app", 1, 8, 5, via="result"),  # `@app.route(...)`: what it returns
        CallSite("Handler.get", "cached", None, 1, 26, 5, via="result"),
        CallSite("handler", "__getitem__", "self.items", 1, 15, 4, via="dunder"),
        CallSite("handler", "__iter__", "range()", 0, 16, 32, via="dunder"),
        CallSite("handler", "__next__", "range()", 0, 16, 32, via="dunder"),
        CallSite("handler", "__getitem__", "handlers", 1, 19, 4, via="dunder"),
    ]


def test_call_receivers_normalised():
    src = "a . b ( x ) . c ( y ) . d ()\nx = (\n    obj\n    .items()\n    .first()\n)\n"
    out = extract(src)
    assert [(c.name, c.receiver, c.line, c.col) for c in out.calls] == [
        ("b", "a", 1, 4),
        ("c", "a.b()", 1, 14),
        ("d", "a.b().c()", 1, 24),
        ("items", "obj", 4, 5),
        ("first", "obj.items()", 5, 5),
    ]


def test_generator_argument_counts_one():
    out = extract("total = sum(x for x in xs)\n")
    assert [c for c in out.calls if c.via is None] == [CallSite(None, "sum", None, 1, 1, 8)]


IMPORTS_SRC = '''\
import os
import os.path
import xml.etree.ElementTree as ET, json
from collections import OrderedDict as OD, defaultdict
from . import sibling
from ..pkg.sub import (
    Thing,
    Other as O,
)
from .. import *
from x.y import *


def f():
    import json as j
    from .models import Owner
'''


def test_imports_exact():
    out = extract(IMPORTS_SRC)
    assert out.errors == []
    assert out.imports == [
        Import("os", "os", None, 0, 1),
        Import("os", "os", None, 0, 2),
        Import("ET", "xml.etree.ElementTree", None, 0, 3),
        Import("json", "json", None, 0, 3),
        Import("OD", "collections", "OrderedDict", 0, 4),
        Import("defaultdict", "collections", "defaultdict", 0, 4),
        Import("sibling", "", "sibling", 1, 5),
        Import("Thing", "pkg.sub", "Thing", 2, 7),
        Import("O", "pkg.sub", "Other", 2, 8),
        Import("*", "", None, 2, 10),
        Import("*", "x.y", None, 0, 11),
        Import("j", "json", None, 0, 15),
        Import("Owner", "models", "Owner", 1, 16),
    ]


BINDINGS_SRC = '''\
from models import Owner

registry = Registry()
default: Owner = None
handler = module.handler
a, b = Foo(), Bar()
x = y = pkg.Widget(1)


class Service:
    repo: OwnerRepository
    factory = make_factory

    def __init__(self, repo: OwnerRepository, clock, cache=None):
        self.repo = repo
        self.clock = clock
        self.cache = cache or {}
        self.log: Logger = get_logger()
        self.mapper = mappers.OwnerMapper()
        helper = self.build

    def run(self) -> None:
        result: Result = self.repo.find()
        def inner():
            self.hidden = Hidden()
        return result
'''


def test_bindings_exact():
    out = extract(BINDINGS_SRC)
    assert out.errors == []
    assert out.bindings == [
        Binding("Service.__init__", "repo", "OwnerRepository", "declared", 14),
        Binding(None, "registry", "Registry", "constructed", 3),
        Binding(None, "default", "Owner", "declared", 4),
        Binding(None, "handler", "module.handler", "alias", 5),
        Binding(None, "x", "pkg.Widget", "constructed", 7),
        Binding(None, "y", "pkg.Widget", "constructed", 7),
        Binding("Service", "repo", "OwnerRepository", "declared", 11),
        Binding("Service", "self.repo", "OwnerRepository", "declared", 11),
        Binding("Service", "factory", "make_factory", "alias", 12),
        Binding("Service", "self.repo", "OwnerRepository", "declared", 15),  # annotated parameter
        Binding("Service", "self.clock", "clock", "alias", 16),
        Binding("Service", "self.cache", "cache", "alias", 17),  # `cache or {}`: the operand naming a value
        Binding("Service", "self.log", "Logger", "declared", 18),
        Binding("Service", "self.mapper", "mappers.OwnerMapper", "constructed", 19),
        Binding("Service.__init__", "helper", "self.build", "alias", 20),
        Binding("Service.run", "result", "Result", "declared", 23),
        # a, b = Foo(), Bar(): each name paired with its element (bound after the plain assignments).
        Binding(None, "a", "Foo", "constructed", 6),
        Binding(None, "b", "Bar", "constructed", 6),
        # self.hidden in a function nested in a method: not a field, not bound.
    ]


def test_fields_and_type_uses_of_assignments():
    out = extract(BINDINGS_SRC)
    assert [(d.qualname, d.parent, d.name_line, d.name_col, d.field_type)
            for d in out.definitions if d.kind == "field"] == [
        ("Service.repo", "Service", 11, 4, "OwnerRepository"),
        ("Service.factory", "Service", 12, 4, None),
        ("Service.clock", "Service", 16, 13, None),
        ("Service.cache", "Service", 17, 13, None),
        ("Service.log", "Service", 18, 13, "Logger"),
        ("Service.mapper", "Service", 19, 13, None),
    ]
    assert out.type_uses == [
        TypeUse("Service.__init__", "OwnerRepository", 14, 29),
        TypeUse(None, "Owner", 4, 9),
        TypeUse("Service.repo", "OwnerRepository", 11, 10),
        TypeUse("Service.log", "Logger", 18, 18),
        TypeUse("Service.run", "Result", 23, 16),
    ]


TYPES_SRC = '''\
def f(
    a: Optional[Owner],
    b: list[pets.Pet],
    c: "Visit",
    d: Owner | None = None,
    e: Literal["x"] = "x",
    g: Callable[[Req], Resp] = None,
    *h: typing.Any,
) -> dict[str, Vet]:
    pass
'''


def test_type_uses_inside_annotations():
    out = extract(TYPES_SRC)
    assert out.errors == []
    assert out.type_uses == [
        TypeUse("f", "Owner", 2, 16),
        TypeUse("f", "pets.Pet", 3, 12),
        TypeUse("f", "Visit", 4, 8),
        TypeUse("f", "Owner", 5, 7),
        TypeUse("f", "Req", 7, 17),
        TypeUse("f", "Resp", 7, 23),
        TypeUse("f", "Vet", 9, 15),
    ]
    assert out.definitions[0].params == [
        Param("a", "Optional[Owner]"),
        Param("b", "list[pets.Pet]"),
        Param("c", '"Visit"'),
        Param("d", "Owner | None", has_default=True),
        Param("e", 'Literal["x"]', has_default=True),
        Param("g", "Callable[[Req], Resp]", has_default=True),
        Param("h", "typing.Any", variadic="*"),
    ]
    assert out.definitions[0].return_type == "dict[str, Vet]"
    assert [(b.name, b.type) for b in out.bindings] == [
        ("a", "Optional[Owner]"), ("b", "list[pets.Pet]"), ("c", '"Visit"'), ("d", "Owner | None"),
        ("e", 'Literal["x"]'), ("g", "Callable[[Req], Resp]"),  # *h binds a tuple: skipped
    ]


def test_conditional_definitions_each_emitted():
    src = "if PY3:\n    def compat():\n        pass\nelse:\n    def compat(x):\n        pass\n"
    out = extract(src)
    assert [(d.kind, d.qualname, d.parent, d.name_line, len(d.params)) for d in out.definitions] == [
        ("function", "compat", None, 2, 0),
        ("function", "compat", None, 5, 1),
    ]


def test_columns_count_code_points():
    out = extract('s = "héllo"; run()\n')
    assert out.calls == [CallSite(None, "run", None, 0, 1, 13)]


def test_syntax_error_in_the_middle_keeps_the_rest():
    src = '''\
import os

def ok(a):
    return f(a)

def broken(a):
    x = (1 +
    return 2

class After(Base):
    def m(self):
        g()
'''
    out = extract(src)
    assert out.errors == ["7:4: syntax error"]
    assert [(d.kind, d.qualname, d.parent) for d in out.definitions] == [
        ("function", "ok", None),
        ("function", "broken", None),
        ("class", "After", None),
        ("method", "After.m", "After"),
    ]
    assert out.calls == [CallSite("ok", "f", None, 1, 4, 11), CallSite("After.m", "g", None, 0, 12, 8)]
    assert out.imports == [Import("os", "os", None, 0, 1)]


def test_latin1_source_does_not_raise():
    src = '# -*- coding: latin-1 -*-\ndef greet():\n    return "caf\xe9"\n\nclass K:\n    pass\n'
    out = extract(src.encode("latin-1"))
    assert [(d.kind, d.qualname) for d in out.definitions] == [("function", "greet"), ("class", "K")]
    assert not any(e.startswith("1:0: internal error") for e in out.errors)


def test_empty_file():
    assert extract(b"", "empty.py") == FileExtraction(path="empty.py", language="python")


def test_docstring_variants():
    src = (
        'def a():\n    r"""Raw \\d."""\n'
        'def b():\n    "Esc\\tape."\n'
        'def c():\n    f"no {doc}"\n'
        'def d():\n    x = "not first"\n'
        "class E:\n    'Implicit' ' concat.'\n"
        'def g():\n    "Bad \\d escape."\n'  # invalid escape: no SyntaxWarning may escape
    )
    out = extract(src)
    assert [(d.qualname, d.docstring) for d in out.definitions] == [
        ("a", "Raw \\d."),
        ("b", "Esc\tape."),
        ("c", None),
        ("d", None),
        ("E", "Implicit concat."),
        ("g", "Bad \\d escape."),
    ]


WITH_SRC = '''\
import sessions


def request(method, url):
    with sessions.Session() as session:
        return session.request(method, url)


async def copy(p, lock):
    with open(p) as f, lock, Pool(2) as (a, b), make()() as g:
        pass
    async with (Client(p) as client, x.y.Tx() as tx):
        pass
'''


def test_with_as_binds_the_called_name():
    out = extract(WITH_SRC)
    assert out.errors == []
    assert out.bindings == [  # each: what __enter__ returns when the repository says, else the instance
        Binding("request", "session", "sessions.Session", "entered", 5),
        Binding("request", "session", "sessions.Session", "constructed", 5),
        Binding("copy", "f", "open", "entered", 10),
        Binding("copy", "f", "open", "constructed", 10),
        # `lock` binds nothing; a tuple target and a callee that is a call are skipped.
        Binding("copy", "client", "Client", "constructed", 12),  # `async with`: __aenter__'s, not followed
        Binding("copy", "tx", "x.y.Tx", "constructed", 12),
    ]


OVERLOAD_SRC = '''\
import typing
import typing as t
from typing import overload


class Api:
    @overload
    def get(self, key: int) -> Row: ...
    @typing.overload
    def get(self, key: str) -> Row: ...
    @t.overload
    def get(self, key: Key, default: Row) -> Row: ...
    def get(self, key, default=None):
        return lookup(key)


@overload
def only_stubs(x: Foo) -> Foo: ...
@overload
def only_stubs(x: Bar) -> Bar: ...
'''


def test_overload_stubs_are_not_definitions():
    out = extract(OVERLOAD_SRC)
    assert out.errors == []
    assert out.definitions == [
        D("class", "Api", None, (6, 0), (14, 26), (6, 6), signature="class Api"),
        D("method", "Api.get", "Api", (13, 4), (14, 26), (13, 8),
          signature="def get(self, key, default=None)",
          params=[Param("key"), Param("default", has_default=True)], inferred_return="lookup"),
        # No implementation in the block (a .pyi-style stub): the first stub stands for it.
        D("function", "only_stubs", None, (17, 0), (18, 34), (18, 4),
          signature="def only_stubs(x: Foo) -> Foo", params=[Param("x", "Foo")], return_type="Foo",
          decorators=["overload"]),
    ]
    assert out.bindings == [Binding("only_stubs", "x", "Foo", "declared", 18)]
    assert out.type_uses == [
        TypeUse("only_stubs", "Foo", 18, 18),
        TypeUse("only_stubs", "Foo", 18, 26),
    ]
    assert out.calls == [CallSite("Api.get", "lookup", None, 1, 14, 15)]


INFERRED_RETURN_SRC = '''\
def get_resolver(urlconf=None):
    if urlconf is None:
        urlconf = settings.ROOT_URLCONF
    return _get_cached_resolver(urlconf)


@functools.cache
def _get_cached_resolver(urlconf=None):
    return URLResolver(RegexPattern(r"^/"), urlconf)


def annotated() -> Resolver:
    return URLResolver()


def same_dotted_name(flag):
    if flag:
        return resolvers.URLResolver(1)
    return resolvers.URLResolver(2)


def two_names(flag):
    if flag:
        return Foo()
    return Bar()


def not_only_calls(flag):
    if flag:
        return Foo()
    return None


def nested_returns_do_not_count(flag):
    if flag:
        return
    def inner():
        return 1
    key = lambda x: Other(x)
    return Foo()


def generator():
    yield 1
    return Foo()


def call_of_a_call():
    return make()()


class Repo:
    def get(self):
        return self.build()

    @classmethod
    def create(cls):
        return cls()

    def build(self):
        pass
'''


def test_inferred_return_of_functions_returning_calls():
    out = extract(INFERRED_RETURN_SRC)
    assert out.errors == []
    assert [(d.qualname, d.inferred_return) for d in out.definitions] == [
        ("get_resolver", "_get_cached_resolver"),
        ("_get_cached_resolver", "URLResolver"),
        ("annotated", None),  # the annotation says what it returns
        ("same_dotted_name", "resolvers.URLResolver"),
        ("two_names", None),
        ("not_only_calls", None),
        ("nested_returns_do_not_count", "Foo"),  # bare `return`, inner's and the lambda's ignored
        ("nested_returns_do_not_count.inner", None),
        ("generator", None),
        ("call_of_a_call", None),  # callee `make()` is not a dotted name
        ("Repo", None),
        ("Repo.get", "self.build"),
        ("Repo.create", "cls"),
        ("Repo.build", None),
    ]
    assert out.definitions[1] == D(
        "function", "_get_cached_resolver", None, (7, 0), (9, 52), (8, 4),
        signature="def _get_cached_resolver(urlconf=None)", params=[Param("urlconf", has_default=True)],
        decorators=["functools.cache"], inferred_return="URLResolver",
    )


OR_CONDITIONAL_SRC = '''\
class MigrationAutodetector:
    def __init__(self, from_state, questioner=None, loader=None):
        self.questioner = questioner or MigrationQuestioner()
        self.loader = loader if loader else loaders.Loader(1)
        self.cache = Cache() if big else SmallCache()
        self.both = a and Foo()
        self.left = Foo() or a
        self.plain = a or b


x = a or b or Foo()
y = y if c else Foo()
z = a or make()()
w = (a or Foo())
'''


def test_bindings_of_or_and_conditional_calls():
    out = extract(OR_CONDITIONAL_SRC)
    assert out.errors == []
    assert out.bindings == [  # the call operand first (as before), then the others (python/operands.py)
        Binding("MigrationAutodetector", "self.questioner", "MigrationQuestioner", "constructed", 3),
        Binding("MigrationAutodetector", "self.questioner", "questioner", "alias", 3),
        Binding("MigrationAutodetector", "self.loader", "loaders.Loader", "constructed", 4),
        Binding("MigrationAutodetector", "self.loader", "loader", "alias", 4),
        Binding("MigrationAutodetector", "self.cache", "Cache", "constructed", 5),  # first branch
        Binding("MigrationAutodetector", "self.cache", "SmallCache", "constructed", 5),  # and the other
        # a call on the left of `or` when the right is none: either operand is the value (gen48)
        Binding("MigrationAutodetector", "self.left", "Foo", "constructed", 7),
        Binding("MigrationAutodetector", "self.left", "a", "alias", 7),
        # `and`: nothing bound; names only: each
        Binding("MigrationAutodetector", "self.plain", "a", "alias", 8),
        Binding("MigrationAutodetector", "self.plain", "b", "alias", 8),
        Binding(None, "x", "Foo", "constructed", 11),
        Binding(None, "x", "a", "alias", 11),
        Binding(None, "x", "b", "alias", 11),
        Binding(None, "y", "Foo", "constructed", 12),  # `y if c else Foo()`: y's own value is no binding
        # `make()()`: what calling make's result returns (a chain's last call)
        Binding(None, "z", "make()", "constructed", 13),
        Binding(None, "z", "a", "alias", 13),
        # `(a or Foo())`: parentheses change nothing, each operand (brk49b; before, nothing was bound)
        Binding(None, "w", "a", "alias", 14),
        Binding(None, "w", "Foo", "constructed", 14),
    ]
