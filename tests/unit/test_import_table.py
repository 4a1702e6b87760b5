"""A file's imports packed for the resolver (indexer.resolve.import_table): the lookups give what the
per-name dict of Import objects gave, the extraction's list is a view of the same table, and the
binding through imports and re-exports is unchanged."""

from __future__ import annotations

import copy
import pickle

from indexer.model import Import
from indexer.resolve.import_table import EMPTY_IMPORTS, ImportList, ImportTable, import_table
from indexer.resolve.multimap import entries, every
from tests.resolution_harness import check

IMPORTS = [
    Import("os", "os", None, 0, 1),
    Import("*", "helpers", None, 0, 2),
    Import("path", "os", "path", 0, 3),
    Import("b", "pkg.b", "b", 1, 4),
    Import("path", "pathlib", "Path", 0, 5),  # re-binds `path`: both kept, in source order
    Import("*", "more", None, 0, 6),
    Import("a", "pkg.a", "a", 1, 7),
]


def test_lookups_by_local_name_give_the_imports_in_source_order() -> None:
    t = ImportTable(IMPORTS)
    assert entries(t, "os") == (Import("os", "os", None, 0, 1),)
    assert entries(t, "path") == (Import("path", "os", "path", 0, 3), Import("path", "pathlib", "Path", 0, 5))
    assert t.get("a") == Import("a", "pkg.a", "a", 1, 7)  # one import: the object itself, no tuple
    assert entries(t, "b")[-1].level == 1
    assert "os" in t and "a" in t and "path" in t
    # what must not be found: star imports, names no import binds, non-strings
    assert "*" not in t and entries(t, "*") == () and t.get("*") is None
    assert "pat" not in t and "paths" not in t and "" not in t and "z" not in t and entries(t, "helpers") == ()
    assert 3 not in t and t.get(None, "none") == "none"  # type: ignore[call-overload]
    assert list(t) == ["a", "b", "os", "path"] and len(t) == 4
    assert dict(t.items())["path"] == entries(t, "path")


def test_star_imports_keep_their_objects_in_source_order() -> None:
    t = ImportTable(IMPORTS)
    assert t.stars == (IMPORTS[1], IMPORTS[5]) and t.stars[0] is IMPORTS[1]
    assert ImportTable([IMPORTS[0]]).stars == ()


def test_every_gives_each_import_once_stars_first_then_by_local_name() -> None:
    t = ImportTable(IMPORTS)
    assert list(t.every()) == [IMPORTS[1], IMPORTS[5], IMPORTS[6], IMPORTS[3], IMPORTS[0], IMPORTS[2], IMPORTS[4]]
    assert sorted(every(t), key=lambda i: i.line) == [i for i in IMPORTS if i.local != "*"]
    assert t.count() == 7
    empty = ImportTable([])
    assert list(empty) == [] and len(empty) == 0 and not ImportList(empty) and empty.get("os") is None


def test_the_extraction_list_is_a_view_that_pickles_and_copies_as_a_list() -> None:
    t = ImportTable(IMPORTS)
    view = ImportList(t)
    assert len(view) == 7 and bool(view)
    assert view == list(t.every()) and view != IMPORTS  # another order than the source's
    assert sorted(view, key=lambda i: i.line) == IMPORTS
    assert view[0] == IMPORTS[1] and view[-1] == IMPORTS[4]
    back = pickle.loads(pickle.dumps(view))
    assert type(back) is list and back == list(view)
    assert type(copy.deepcopy(view)) is list
    assert import_table(view) is t  # a context built again from the same extraction packs nothing anew
    assert import_table(IMPORTS) is not t and import_table(IMPORTS).locals_ == t.locals_
    assert import_table([]) is EMPTY_IMPORTS and "os" not in EMPTY_IMPORTS and EMPTY_IMPORTS.stars == ()


def test_python_names_bind_through_packed_imports_and_re_exports() -> None:
    check(
        """
        # --- path: pkg/__init__.py ---
        from pkg.models import Model, helper
        from pkg.models import *
        # --- path: pkg/models.py ---
        class Model:
            def save(self):
                pass

        def helper():
            pass

        def hidden():
            pass
        # --- path: app.py ---
        from pkg import Model, helper as h
        from pkg import *

        def run():
            Model().save()
            h()
            helper()
            hidden()
            missing()
        """,
        [
            "app.run(0) -> pkg/models.Model [exact]",  # through pkg/__init__'s import of it
            "app.run(0) -> pkg/models.Model.save(0) [exact]",
            "app.run(0) -> pkg/models.helper(0) [exact]",  # `h`: an alias bound by the import; `helper()`: the star
            "app.run(0) -> pkg/models.hidden(0) [exact]",  # the star import of pkg, which star-imports models
            # and nothing for `missing()`: no import binds it
        ],
    )


def test_javascript_names_bind_through_a_barrel_and_not_past_what_it_exports() -> None:
    check(
        """
        // --- path: lib/util.js ---
        export function format() {}
        export function parse() {}
        // --- path: lib/index.js ---
        import { format } from "./util";
        export { format };
        // --- path: app.js ---
        import { format, parse } from "./lib";
        export function run() {
            format();
            parse();
        }
        """,
        [
            "app.run(0) -> lib/util.format(0) [exact]",
            # not `parse`: the barrel does not export it
        ],
    )
