"""Name matches on values the resolver cannot name (session 47). A method of a class extending a builtin
type that has a member of that name (``class Marked(str): def split``) is no name-match target: an
unknown receiver calling ``split`` is as likely a ``str`` (Django's 196 calls ``x.split(a, b)``
name-matched a test's ``str`` subclass, among them ``self.translation._catalog[""].split()``). An
element of what a library method returns stays unknown and keeps its name match (Django's
``LogEntry.objects.all()[0].get_change_message()``, whose manager's ``all`` is its library base's),
while a library object's attribute subscripted stays the library's."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

FIXTURE = '''
# --- path: app/__init__.py ---
# --- path: app/text.py ---
class Marked(str):
    def split(self, sep): pass

    def shout(self): pass


class Table(dict):
    def get(self, key): pass
# --- path: app/catalog.py ---
from lib import BaseManager


class Entry:
    def describe(self): pass


class Catalog:
    def __init__(self):
        self._cats = [{}]

    def __getitem__(self, key):
        for cat in self._cats:
            return cat[key]


class Manager(BaseManager):
    pass


class Log:
    objects = Manager()


def run(catalog: Catalog, unknown):
    catalog[""].split("x")
    line = catalog[""]
    line.split("x")
    unknown.get("k")
    catalog[""].shout()
    catalog[""].describe()
    Log.objects.all()[0].describe()
    first = Log.objects.all()[0]
    first.describe()
    Log.objects.table["k"].describe()
'''


def _calls(fixture: str, src: str) -> list[tuple[int, str, str]]:
    resolved = resolve_fixture(fixture)
    return sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and src in e.src)


def test_builtin_namesakes_are_no_name_match_and_a_library_results_element_keeps_it() -> None:
    assert _calls(FIXTURE, "catalog.run") == [
        (26, "app/catalog.Catalog.__getitem__(1)", "exact"),  # catalog[""]: the subscript runs it
        # negative: catalog[""].split() is no Marked.split (str has split)
        (27, "app/catalog.Catalog.__getitem__(1)", "exact"),
        # negatives: line.split() (line 28) is no Marked.split, unknown.get() (29) no Table.get
        (30, "app/catalog.Catalog.__getitem__(1)", "exact"),
        (30, "app/text.Marked.shout(0)", "name"),  # str has no shout: the name match stands
        (31, "app/catalog.Catalog.__getitem__(1)", "exact"),
        (31, "app/catalog.Entry.describe(0)", "name"),  # an unknown element keeps its name match
        (32, "app/catalog.Entry.describe(0)", "name"),  # Log.objects.all()[0]: a library result's element
        (34, "app/catalog.Entry.describe(0)", "name"),  # first = Log.objects.all()[0]
        # negative: a library attribute subscripted stays the library's (line 35)
    ]
