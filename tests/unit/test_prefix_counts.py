"""The per-package file counts a tracked update reads to tell which packages came or went
(``RepositoryResolver._prefixes``) are not kept by an untracked update (a one-shot run's, a watcher
loading its state): they are counted again from the files held when a tracked update next needs
them, and that update then gives the same package tokens as a resolver that counted all along
(session 62, mem62a: a key tuple and a dotted string per file for the whole one-shot run). The same
for the module tables' counts (made when a file first goes) and the paths per stem (made again when
the next update starts)."""

from __future__ import annotations

from collections import Counter

from indexer.resolve.repository import RepositoryResolver
from tests.resolution_harness import extract_fixture

BASE = """
# --- path: app/__init__.py ---
# --- path: app/sub/__init__.py ---
# --- path: app/sub/m.py ---
def f():
    return 1
# --- path: app/n.py ---
def g():
    return 2
"""

NEW_PACKAGE = """
# --- path: tools/__init__.py ---
# --- path: tools/t.py ---
def t():
    return 3
"""

SAME_PACKAGE = """
# --- path: app/sub/k.py ---
def k():
    return 4
"""


def _package_tokens(resolver: RepositoryResolver) -> set[tuple[str, str, str]]:
    return {t for t in resolver._changed_tokens if t[0] == "m"}


def _pair() -> tuple[RepositoryResolver, RepositoryResolver]:
    """The same files given untracked to one resolver, tracked to the other."""
    untracked, tracked = RepositoryResolver("r"), RepositoryResolver("r")
    untracked.update(extract_fixture(BASE), track=False)
    tracked.update(extract_fixture(BASE))
    return untracked, tracked


def test_an_untracked_update_keeps_no_counts() -> None:
    untracked, tracked = _pair()
    assert untracked._prefixes is None
    assert tracked._prefixes == Counter({("python", "app"): 4, ("python", "app.sub"): 2,
                                         ("python", "app.sub.m"): 1, ("python", "app.n"): 1})


def test_the_next_tracked_update_counts_again_and_tells_a_new_package() -> None:
    untracked, tracked = _pair()
    for resolver in (untracked, tracked):
        resolver.update(extract_fixture(NEW_PACKAGE))
    assert _package_tokens(untracked) == _package_tokens(tracked) == {
        ("m", "python", "tools"), ("m", "python", "tools.t")}
    assert untracked._prefixes == tracked._prefixes
    assert untracked._prefixes[("python", "tools")] == 2


def test_a_file_in_a_package_held_makes_only_its_own_module_token() -> None:
    untracked, tracked = _pair()
    for resolver in (untracked, tracked):
        resolver.update(extract_fixture(SAME_PACKAGE))
    # app and app.sub existed before: no token says they came
    assert _package_tokens(untracked) == _package_tokens(tracked) == {("m", "python", "app.sub.k")}
    assert untracked._prefixes == tracked._prefixes
    assert untracked._prefixes[("python", "app.sub")] == 3


def test_the_last_file_of_a_package_going_tells_it_went() -> None:
    untracked, tracked = _pair()
    for resolver in (untracked, tracked):
        resolver.update([], removed=["app/sub/m.py", "app/sub/__init__.py"])
    assert _package_tokens(untracked) == _package_tokens(tracked) == {
        ("m", "python", "app.sub"), ("m", "python", "app.sub.m")}
    assert ("python", "app.sub") not in untracked._prefixes
    assert untracked._prefixes == tracked._prefixes == Counter({("python", "app"): 2, ("python", "app.n"): 1})


def test_tables_built_add_only_count_their_packages_when_a_file_first_goes() -> None:
    """The resolver's module tables count the files under each package only when a removal needs it
    (ModuleTables.count_packages): the package goes with its last file, the others stay."""
    resolver = RepositoryResolver("r")
    resolver.update(extract_fixture(BASE), track=False)
    resolver.resolve(sorted(resolver.files))
    tables = resolver._current().tables
    assert tables._package_files is None
    resolver.update([], removed=["app/sub/m.py"])
    assert resolver._current().tables is tables  # patched in place (Resolver.apply), not rebuilt
    assert tables._package_files is not None and tables._package_files[("python", "app.sub")] == 1
    assert sorted(tables.packages["python"]) == ["app", "app.n", "app.sub"]
    resolver.update([], removed=["app/sub/__init__.py"])
    assert sorted(tables.packages["python"]) == ["app", "app.n"]  # app.sub went with its last file
    assert tables._package_files == Counter({("python", "app"): 2, ("python", "app.n"): 1})


SHARED_STEM = """
// --- path: lib/util.ts ---
export function a(): number { return 1; }
// --- path: lib/util.js ---
export function b() { return 2; }
// --- path: lib/main.ts ---
import { a } from "./util";
export function m() { return a(); }
"""


def test_stems_are_made_again_for_the_update_after_an_untracked_one() -> None:
    """The paths per stem (util.ts beside util.js: their ids keep the suffix) are emptied after an
    untracked update and made again from the files held when the next update starts: removing
    util.js then gives util.ts its suffix-less ids back, as in a resolver that kept them."""
    untracked, tracked = RepositoryResolver("r"), RepositoryResolver("r")
    untracked.update(extract_fixture(SHARED_STEM), track=False)
    tracked.update(extract_fixture(SHARED_STEM))
    assert untracked._stems == {} and tracked._stems == {
        "lib/util": ("lib/util.ts", "lib/util.js"), "lib/main": "lib/main.ts"}
    assert untracked.files["lib/util.ts"].ex.id_path == "lib/util.ts"  # shared while both are held
    moved = {}
    for name, resolver in (("untracked", untracked), ("tracked", tracked)):
        changes = resolver.update([], removed=["lib/util.js"])
        moved[name] = sorted(c.path for c in changes)
        assert resolver.files["lib/util.ts"].ex.id_path is None
        assert resolver.files["lib/main.ts"].ex.id_path is None
    assert moved["untracked"] == moved["tracked"] == ["lib/util.js", "lib/util.ts"]
    assert untracked._stems == tracked._stems == {"lib/util": "lib/util.ts", "lib/main": "lib/main.ts"}
