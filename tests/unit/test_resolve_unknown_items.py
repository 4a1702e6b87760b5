"""What a subscript gives when the resolver cannot name it (session 47): an element handed out by a
repository class's own ``__getitem__`` whose result is unknown binds nothing by name (Django's
``self.translation._catalog[""].split()`` had name-matched a test's ``str`` subclass), while an element
of what a library method returns stays unknown and keeps its name match (Django's
``LogEntry.objects.all()[0].get_change_message()``, whose manager's ``all`` is its library base's).
Each fixture has exactly one namesake method, so a call left to the name match binds it ``name``."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

FIXTURE = '''
# --- path: app/__init__.py ---
# --- path: app/text.py ---
class Marked(str):
    def split(self, sep): pass
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


class Typed:
    def __getitem__(self, key) -> Entry:
        return Entry()


class Manager(BaseManager):
    pass


class Log:
    objects = Manager()


def run(catalog: Catalog, typed: Typed):
    catalog[""].split("x")
    line = catalog[""]
    line.split("x")
    typed["a"].describe()
    Log.objects.all()[0].describe()
    first = Log.objects.all()[0]
    first.describe()
    Log.objects.table["k"].describe()
    words = "a b"
    words.split(" ")
'''


def _calls(fixture: str, src: str) -> list[tuple[int, str, str]]:
    resolved = resolve_fixture(fixture)
    return sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and src in e.src)


def test_unknown_items_of_a_repository_getitem_bind_nothing_a_library_results_keep_the_name_match() -> None:
    assert _calls(FIXTURE, "catalog.run") == [
        (31, "app/catalog.Catalog.__getitem__(1)", "exact"),  # catalog[""]: the subscript runs it
        # negative: catalog[""].split() is no Marked.split (the element is unknown, not a namesake's)
        (32, "app/catalog.Catalog.__getitem__(1)", "exact"),
        # negative: line = catalog[""]; line.split() (line 33) binds nothing either
        (34, "app/catalog.Entry.describe(0)", "inferred"),  # typed["a"]: __getitem__ -> Entry
        (34, "app/catalog.Typed.__getitem__(1)", "exact"),
        (35, "app/catalog.Entry.describe(0)", "name"),  # Log.objects.all()[0]: a library result's element
        (37, "app/catalog.Entry.describe(0)", "name"),  # first = Log.objects.all()[0]
        # negatives: a library attribute subscripted stays the library's (line 38); a literal's split
        # is the language's own (line 40)
    ]
