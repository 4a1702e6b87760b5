"""Hostile suite, session 57 (brk57): what the newcomer run on microblog found, and attacks on session 56's
changes. Every input is generated here (no committed blobs).

- :class:`TestEmptyFileIsNoIndex`: ``--db`` naming an existing 0-byte file someone else made: every
  read command (CLI, MCP, REST) refuses it and leaves it 0 bytes; ``ripple index`` makes an index there.
- :class:`TestNamespaceAliases` (lead56): folders without ``__init__.py`` named like a standard library
  module or a third-party package, two namespace roots holding the same module, scripts and tests
  folders, deep nesting, a file named like its folder.
- :class:`TestDjangoRelatedManagers` (ans56): ``related_name="+"``, ``%(app_label)s_%(class)s``
  placeholders in an abstract base, ``"self"``, a string to a model that does not exist, a
  GenericForeignKey, a proxy model, two models of one name in two apps.
- :class:`TestOneLineCallbacks` (brk56's LineWords / LineRanges): thousands of same-named callback
  parameters on one line (quadratic before: 8,000 took 27 s of CPU), a 100,000-character line, a
  minified one-line file; each bound right, in time near-linear in its size.
- :class:`TestAppConfigLabels` (lbl56): a computed label, two configs of one label, a label that is
  another app's default or another app's name.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from lsp_server.cli import main
from stores.embedded import EmbeddedStore
from tests.index_dump import calls, problems, unresolved
from stores.errors import NotAnIndex

CLEAN_ENV = {"RIPPLE_CONFIG": None, "RIPPLE_DB": None, "RIPPLE_GRAPH_BACKEND": None, "RIPPLE_SEARCH_BACKEND": None,
             "RIPPLE_EMBEDDING_MODEL": None, "RIPPLE_SERVICES": None}


def ripple(*args: str, cwd: Path | None = None, **env: str | None):
    """``ripple ARGS`` in process (click's runner), from ``cwd``, with a clean environment."""
    with contextlib.chdir(cwd or Path.cwd()):
        return CliRunner().invoke(main, list(args), env={**CLEAN_ENV, **env}, catch_exceptions=False)


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


# ------------------------------------------------------------------------ an empty file as --db

EMPTY_REASON = "is not a ripple index (an empty file of 0 bytes; `ripple index PATH --db FILE` makes an index there)"


class TestEmptyFileIsNoIndex:
    """brk56 found that ``ripple mcp --db F`` on an existing 0-byte file wrote an index schema into it
    (a text file was already refused)."""

    @pytest.mark.parametrize("args", [["stats"], ["callers", "f"], ["references", "f"], ["impact", "f"],
                                      ["endpoints"], ["search", "f"], ["embed"], ["repos", "list"]])
    def test_read_commands_refuse_it_and_leave_it_empty(self, tmp_path, monkeypatch, args):
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        db = tmp_path / "someone.db"
        db.write_bytes(b"")
        result = ripple(*args, "--db", str(db), cwd=tmp_path)
        assert result.exit_code == 1, result.output
        message = " ".join(result.stderr.split())
        assert message == (f"Error: {db} {EMPTY_REASON}; ripple did not create it and leaves it alone: pass another "
                           "--db (or RIPPLE_DB)")
        assert db.stat().st_size == 0
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("someone")) == ["someone.db"]

    def test_mcp_and_rest_refuse_it_too(self, tmp_path, monkeypatch):

        from mcp.server.mcpserver.exceptions import ToolError

        from lsp_server.api.app import ApiSettings, create_app
        from lsp_server.mcp_server import Backend
        from stores.config import load_config

        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        db = tmp_path / "someone.db"
        db.write_bytes(b"")
        with pytest.raises(ToolError, match=f"the index cannot answer: {db} is not a ripple index \\(an empty file"):
            Backend([db]).call(lambda q: q.repositories())
        with pytest.raises(NotAnIndex, match="an empty file of 0 bytes"):  # as a text file: refused at start
            create_app(ApiSettings(load_config(tmp_path), db, roots=[tmp_path]))
        result = ripple("api", "--db", str(db), "--port", "0", cwd=tmp_path)
        assert result.exit_code == 1 and EMPTY_REASON in " ".join(result.stderr.split())
        assert db.stat().st_size == 0

    def test_index_makes_an_index_there(self, tmp_path, monkeypatch):
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        src = write_tree(tmp_path / "src", {"a.py": "def f():\n    pass\n\n\ndef g():\n    f()\n"})
        db = tmp_path / "new.db"
        db.write_bytes(b"")
        assert ripple("index", str(src), "--db", str(db), "--no-embed").exit_code == 0
        assert db.stat().st_size > 0
        result = ripple("callers", "f", "--db", str(db))
        assert result.exit_code == 0 and "a.py:6:5  g  [exact]" in result.stdout, result.output


def index(tmp_path: Path, files: dict[str, str], name: str = "r") -> Path:
    """Index ``files`` (a repository named ``name``) into a fresh embedded store; its path."""
    root = write_tree(tmp_path / name, files)
    db = tmp_path / f"{name}.db"
    store = EmbeddedStore(db)
    try:
        index_repository(root, store, store, IndexOptions(repo=name, jobs=1))
    finally:
        store.close()
    assert problems(db) == []
    return db


# ------------------------------------------------------------------ lead56: namespace aliases

NAMESPACES = {
    "json/encoder.py": "def dumps(x):\n    return 'mine'\n\n\nclass JSONEncoder:\n    def encode(self, o):\n        return 'mine'\n",
    "requests/api.py": "def get(url):\n    return 'mine'\n",
    "user_code.py": ("import json\nimport requests\nfrom json import encoder\nfrom json import dumps as jd\n\n\n"
                     "def run(x):\n    json.dumps(x)\n    requests.get('http://example.com/x')\n"
                     "    encoder.JSONEncoder().encode(x)\n    jd(x)\n    return requests.api.get('u')\n"),
    "svc_a/app/models.py": "class Post:\n    def publish(self):\n        return 'a'\n",
    "svc_b/app/models.py": "class Post:\n    def publish(self):\n        return 'b'\n",
    "svc_a/main.py": "from app.models import Post\n\n\ndef go():\n    Post().publish()\n",
    "scripts/util.py": "def helper():\n    return 1\n",
    "tests/test_util.py": ("from scripts.util import helper\nfrom scripts import util\n\n\n"
                           "def test_helper():\n    helper()\n    util.helper()\n"),
    "a/b/c/d/e.py": "def deep():\n    return 1\n",
    "deep_user.py": ("from a.b.c.d.e import deep\nimport a.b.c.d.e\nfrom a.b.c.d import e as ee\n\n\n"
                     "def use():\n    deep()\n    a.b.c.d.e.deep()\n    ee.deep()\n"),
    "app/app.py": "def create():\n    return 1\n",
    "app/run.py": "from app import app\nfrom app.app import create\n\n\ndef main():\n    app.create()\n    create()\n",
}


class TestNamespaceAliases:
    """Session 56 (lead56) made ``app/models.py`` of a folder without ``__init__.py`` also ``app.models``."""

    def test_namespace_folders(self, tmp_path):
        db = index(tmp_path, NAMESPACES)
        assert calls(db) == [
            "app/run.main(0) -> app/app.create(0) [exact]",  # a file named like its folder: app.app and `from app import app`
            "deep_user.use(0) -> a/b/c/d/e.deep(0) [exact]",  # deep nesting: all three spellings (one edge, 3 sites)
            "tests/test_util.test_helper(0) -> scripts/util.helper(0) [exact]",  # a tests folder importing scripts
            # LIMITATION: a folder named like a third-party package (requests/ without __init__.py) is taken
            # for it when the attribute chain names one of its files; with the library installed, Python
            # would import the library (its regular package wins). The index cannot know what is installed.
            "user_code.run(1) -> requests/api.get(1) [exact]",
        ]
        # json/ shadows the standard library's package: json.dumps, `from json import encoder` and
        # `from json import dumps` are the library's, never json/encoder.py's (before: 2 wrong links)
        # requests.get names no file of requests/: unbound, not linked to requests/api.get
        # (json.dumps: a library call, not kept; before, json/ made `json` a repository package and the
        # call an unresolved one of it)
        assert unresolved(db) == ["user_code.py:9 get"]
        # two namespace roots with the same module: svc_a's `from app.models import Post` binds neither
        # (only the repository root's reading is an alias), and never svc_b's
        assert not [c for c in calls(db) if "svc_b" in c or "svc_a" in c]


# ------------------------------------------------------------ ans56: Django related managers

DJANGO_RELATIONS = """
# --- path: shop/__init__.py ---
# --- path: shop/managers.py ---
from django.db import models


class ItemQuerySet(models.QuerySet):
    def active(self):
        return self.filter(active=True)


class ItemManager(models.Manager.from_queryset(ItemQuerySet)):
    pass


class NoteManager(models.Manager):
    def pinned(self):
        return self.filter(pinned=True)
# --- path: shop/models.py ---
from django.contrib.contenttypes.fields import GenericForeignKey
from django.db import models

from shop.managers import ItemManager, NoteManager


class User(models.Model):
    name = models.CharField(max_length=10)


class Owned(models.Model):
    owner = models.ForeignKey(User, models.CASCADE, related_name="%(app_label)s_%(class)s_related")

    class Meta:
        abstract = True


class Item(Owned):
    objects = ItemManager()


class Note(Owned):
    objects = NoteManager()


class Hidden(models.Model):
    user = models.ForeignKey(User, models.CASCADE, related_name="+")
    objects = NoteManager()


class Tree(models.Model):
    parent = models.ForeignKey("self", models.CASCADE, related_name="children")
    objects = ItemManager()


class Ghost(models.Model):
    target = models.ForeignKey("nowhere.Missing", models.CASCADE, related_name="ghosts")
    objects = NoteManager()


class Tag(models.Model):
    content_object = GenericForeignKey("content_type", "object_id")
    objects = NoteManager()


class ProxyItem(Item):
    class Meta:
        proxy = True
# --- path: blog/__init__.py ---
# --- path: blog/models.py ---
from django.db import models

from shop.managers import NoteManager


class Item(models.Model):
    owner = models.ForeignKey("shop.User", models.CASCADE, related_name="blog_items")
    objects = NoteManager()
# --- path: shop/use.py ---
from shop.models import Tree, User


def run(user: User, tree: Tree, anything):
    user.shop_item_related.active()
    user.shop_note_related.pinned()
    user.blog_items.pinned()
    user.blog_items.active()
    tree.children.active()
    tree.parent.children.active()
    anything.children.pinned()
    anything.ghosts.pinned()
    anything.hidden_set.pinned()
    anything.tags.pinned()
"""


class TestDjangoRelatedManagers:
    """Session 56 (ans56) gave related managers the related model's default manager methods and kept a
    name match off another model's manager method when the receiver names a related manager."""

    def test_each_related_manager_binds_its_models_manager_or_nothing(self):
        from tests.resolution_harness import resolve_fixture

        result = resolve_fixture(DJANGO_RELATIONS)
        bound = sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in result.files for e in f.edges
                       if e.kind == "CALLS" and e.file == "shop/use.py")
        left = sorted((u.line, u.receiver) for f in result.files for u in f.unresolved if u.file == "shop/use.py")
        assert bound == [
            # blog.Item's FK to the string "shop.User": User's blog_items is blog.Item's manager (NoteManager),
            # not shop.Item's (ItemManager), though both models are named Item
            (7, "shop/managers.NoteManager.pinned(0)", "inferred"),
            (9, "shop/managers.ItemQuerySet.active(0)", "inferred"),  # ForeignKey("self"): Tree's own manager
            (10, "shop/managers.ItemQuerySet.active(0)", "inferred"),
            # an FK to "nowhere.Missing": its accessor `ghosts` still names Ghost's manager, which has pinned,
            # so the name match on an unknown receiver is kept
            (12, "shop/managers.NoteManager.pinned(0)", "name"),
            # related_name="+" records no accessor (`hidden_set` is no related manager), nor does a
            # GenericForeignKey (`tags`): plain name matches, as on any unknown receiver
            (13, "shop/managers.NoteManager.pinned(0)", "name"),
            (14, "shop/managers.NoteManager.pinned(0)", "name"),
        ]
        # NOT linked: blog_items.active (NoteManager has none); anything.children.pinned (Tree's manager has
        # no pinned: the only repository pinned is another model's) stays unresolved
        assert left == [(11, "anything.children")]
        # LIMITATION: related_name="%(app_label)s_%(class)s_related" in an abstract base is no identifier and
        # is not expanded per concrete model: user.shop_item_related / shop_note_related bind nothing
        # (lines 5 and 6: neither an edge nor a wrong link)
        assert not [b for b in bound if b[0] in (5, 6)]


# ------------------------------------------------------------ brk56: one-line JavaScript callbacks


def _callbacks(n: int) -> str:
    body = "".join(f"xs.forEach(function (a) {{ a.go{i % 7}(); reset(a); }});" for i in range(n))
    return f'import {{ reset }} from "./lib";\nexport function run(xs) {{ {body} }}\n'


def _index_js(tmp_path: Path, name: str, app: str) -> tuple[Path, float]:
    """Index ``src/app.js`` = ``app`` beside ``src/lib.js`` (``reset``); the index and the CPU seconds."""
    root = write_tree(tmp_path / name, {"lib.js": "export function reset(a) { return a; }\n", "app.js": app})
    db = tmp_path / f"{name}.db"
    store = EmbeddedStore(db)
    start = time.process_time()
    try:
        index_repository(root, store, store, IndexOptions(repo="r", jobs=1, max_file_bytes=50_000_000))
    finally:
        store.close()
    return db, time.process_time() - start


class TestOneLineCallbacks:
    def test_thousands_of_same_named_parameters_on_one_line_bind_in_near_linear_time(self, tmp_path, monkeypatch):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        small_db, small = _index_js(tmp_path, "small", _callbacks(2000))
        big_db, big = _index_js(tmp_path, "big", _callbacks(8000))
        # every reset(a) inside a callback is the import's, a.goN() (a parameter of unknown type) nothing
        assert calls(big_db) == ["app.run(1) -> lib.reset(1) [exact]"]
        left = unresolved(big_db)  # each xs.forEach and a.goN() kept unresolved, none bound by name
        assert (len(left), left.count("app.js:2 forEach"), sum(x.startswith("app.js:2 go") for x in left)) == (16000, 8000, 8000)
        # 4x the input: measured 2.8x the CPU here (the binding lists held 8,000 identical bindings of
        # `a` scanned at every lookup before: 12.9x, 27 s); a quadratic cost would give 16x
        assert big < 6 * max(small, 0.2), (small, big)

    def test_a_100k_character_line_and_a_minified_file(self, tmp_path, monkeypatch):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        long = 'import { reset } from "./lib";\nexport const s = "' + "x" * 100_000 + \
            '"; export function g(a) { return reset(a); }\n'
        db, _ = _index_js(tmp_path, "long", long)
        assert calls(db) == ["app.g(1) -> lib.reset(1) [exact]"]
        minified = 'import { reset } from "./lib";' + "".join(
            f"function f{i}(a,b){{return f{max(i - 1, 0)}(b,a)+reset(a)}}var v{i}=f{i}(1,2);" for i in range(3000)) + "\n"
        db, _ = _index_js(tmp_path, "min", minified)
        found = calls(db)
        # each f_i -> reset and f_i -> f_(i-1) (f0 -> itself), and the file's `var v_i = f_i(1,2)` -> f_i
        assert len(found) == 3 * 3000
        assert {"app.f2999(2) -> app.f2998(2) [exact]", "app.f0(2) -> lib.reset(1) [exact]",
                "app.js -> app.f2999(2) [exact]"} <= set(found)


# ------------------------------------------------------------------- lbl56: AppConfig labels


def _label_calls(old: str, new: str) -> list[str]:
    from tests.resolution_harness import edges, resolve_fixture
    from tests.unit.test_django_app_labels import APPS

    assert old in APPS
    return [e for e in edges(resolve_fixture(APPS.replace(old, new))) if e.startswith("blog/views.")]


class TestAppConfigLabels:
    """lbl56's fixture (tests/unit/test_django_app_labels.py): cms labelled cmscore, cms.images labelled
    cmsimages, gallery.images on its default label; blog.EventPage's references to each."""

    def test_a_label_joined_from_literals_is_read(self):
        assert _label_calls('label = "cmsimages"', 'label = "cms" + "images"') == [
            "blog/views.core(1) -> cms/models.Image.get_rendition(1) [inferred]",
            "blog/views.feed(1) -> cms/images/models.Image.get_rendition(1) [inferred]",
            "blog/views.parent(1) -> cms/models.Page.render(0) [inferred]",
            "blog/views.plain(1) -> gallery/images/models.Image.get_rendition(1) [inferred]",
        ]

    def test_a_computed_label_keeps_the_app_apart_and_names_nothing(self):
        # before: the config was ignored, so cms.images fell back into cms ("cmscore.Image" -> cms/images'
        # Image) and answered to its default label ("images.Image" -> cms/images' Image): two wrong links
        assert _label_calls('label = "cmsimages"', 'label = f"cms{SUFFIX}"') == [
            "blog/views.core(1) -> cms/models.Image.get_rendition(1) [inferred]",
            "blog/views.parent(1) -> cms/models.Page.render(0) [inferred]",
            "blog/views.plain(1) -> gallery/images/models.Image.get_rendition(1) [inferred]",
        ]  # feed ("cmsimages.Image"): the label is unknown, nothing linked

    def test_two_configs_of_one_label_answer_nothing(self):
        # cms and cms.images both labelled cmsimages: Django refuses to start; neither Image is linked
        # (before: cms/images' was), and cmscore names no app any more
        assert _label_calls('label = "cmscore"', 'label = "cmsimages"') == [
            "blog/views.plain(1) -> gallery/images/models.Image.get_rendition(1) [inferred]",
        ]

    def test_a_label_that_is_another_apps_default_or_name(self):
        # LIMITATION: cms.images labelled "images", gallery.images's default label: Django refuses the pair
        # when both are installed (the index does not read INSTALLED_APPS); the explicit label is taken
        assert _label_calls('label = "cmsimages"', 'label = "images"') == [
            "blog/views.core(1) -> cms/models.Image.get_rendition(1) [inferred]",
            "blog/views.parent(1) -> cms/models.Page.render(0) [inferred]",
            "blog/views.plain(1) -> cms/images/models.Image.get_rendition(1) [inferred]",
        ]
        # labelled "blog", the name of the app holding EventPage: "cmsimages" names nothing, nothing else moves
        assert _label_calls('label = "cmsimages"', 'label = "blog"') == [
            "blog/views.core(1) -> cms/models.Image.get_rendition(1) [inferred]",
            "blog/views.parent(1) -> cms/models.Page.render(0) [inferred]",
            "blog/views.plain(1) -> gallery/images/models.Image.get_rendition(1) [inferred]",
        ]


def test_chunks_of_one_minified_line_round_trip_in_any_order():
    # encode_chunk_text looks for a chunk's text after the previous chunk of its line first: a text
    # repeated on the line, a chunk looked for again, one before the last found, and multi-byte
    # characters all come back byte for byte
    from stores.embedded_schema import FileText, encode_chunk_text

    fns = ["function a(x){return x+'é'}", "function b(y){return y*2}", "function a(x){return x+'é'}",
           "function c(z){return 'ünï'+z}"]
    line = ";".join(fns) + ";"
    file = FileText("// head\n" + line + "\n")
    for text in (fns[1], fns[3], fns[0], fns[2], fns[1], "function zz(){return 1}"):
        head, boff, blen, tail = encode_chunk_text(file, 2, 2, text)
        if boff is None:
            assert (head, blen, tail, text) == (None, None, text, "function zz(){return 1}")  # not there: kept whole
            continue
        assert ((head or "") + file.data[boff:boff + blen].decode() + tail) == text
