"""Records read by item (session 47): a ``TypedDict``'s field by a string key (``cfg["db"].connect()``
where ``class Cfg(TypedDict): db: Database``) and a ``NamedTuple``'s field by position (``pair()[1]``,
``a, b = pair()``), through the module system's optional ``record_item``. Two classes have a
``connect``, so nothing binds by name: an edge is the record's field or nothing."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

FIXTURE = '''
# --- path: app/__init__.py ---
# --- path: app/m.py ---
from typing import NamedTuple, TypedDict
from dataclasses import dataclass


class Database:
    def connect(self): pass


class Cache:
    def connect(self): pass


class Cfg(TypedDict):
    db: Database
    name: str


class Pair(NamedTuple):
    db: Database
    cache: Cache


@dataclass
class Conf:
    db: Database


class Plain:
    db: Database


def load() -> Cfg:
    return {}


def pair() -> Pair:
    return Pair(Database(), Cache())


def run(cfg: Cfg, key: str, conf: Conf, plain: Plain):
    cfg["db"].connect()
    load()["db"].connect()
    d = cfg["db"]
    d.connect()
    cfg[key].connect()
    cfg["name"].connect()
    p = pair()
    p.db.connect()
    a, b = pair()
    b.connect()
    pair()[1].connect()
    conf.db.connect()
    plain["db"].connect()
'''


def test_typed_dict_keys_and_named_tuple_positions_read_their_fields() -> None:
    resolved = resolve_fixture(FIXTURE)
    assert sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.dst.endswith(".connect(0)")) == [
        (41, "app/m.Database.connect(0)", "exact"),  # cfg["db"]
        (42, "app/m.Database.connect(0)", "exact"),  # load()["db"]: a TypedDict return
        (44, "app/m.Database.connect(0)", "exact"),  # d = cfg["db"]
        # negatives: cfg[key] (45, no literal) and cfg["name"] (46, a str) bind nothing
        (48, "app/m.Database.connect(0)", "exact"),  # p.db: an attribute, as before
        (50, "app/m.Cache.connect(0)", "exact"),  # a, b = pair(): b is the second field, no Database
        (51, "app/m.Cache.connect(0)", "exact"),  # pair()[1]
        (52, "app/m.Database.connect(0)", "exact"),  # a dataclass's field by attribute, as before
        # negative: plain["db"] (53) of a class that is no TypedDict binds nothing
    ]


CLASS_ATTRIBUTES = '''
# --- path: app/m.py ---
from typing import ClassVar, NamedTuple


class Database:
    def connect(self): pass


class Cache:
    def connect(self): pass


class Pair(NamedTuple):
    KIND = "pair"
    db: Database
    count: ClassVar[int] = 0
    cache: Cache

    def swap(self):
        return 1


class Sub(Pair):
    extra: Cache


def f(p: Pair, s: Sub):
    p[0].connect()
    p[1].connect()
    p[2].connect()
    p[-1].connect()
    s[0].connect()
    s[1].connect()
'''


def test_a_named_tuples_items_are_its_annotated_fields_only() -> None:
    """A class attribute without annotation (``KIND = "pair"``) or a ``ClassVar`` is no item, nor is
    what a subclass annotates: they shifted the positions, so ``p[1]`` was the Database and ``s[0]``
    the subclass's Cache (brk48)."""
    resolved = resolve_fixture(CLASS_ATTRIBUTES)
    assert sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.dst.endswith(".connect(0)")) == [
        (27, "app/m.Database.connect(0)", "exact"),  # p[0]
        (28, "app/m.Cache.connect(0)", "exact"),  # p[1]
        # negative: p[2] (29): two fields only
        (30, "app/m.Cache.connect(0)", "exact"),  # p[-1]
        (31, "app/m.Database.connect(0)", "exact"),  # s[0]: the NamedTuple's fields
        (32, "app/m.Cache.connect(0)", "exact"),  # s[1]
    ]
