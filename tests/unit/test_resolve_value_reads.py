"""Names and attributes read without a call (:mod:`indexer.resolve.reads`): an attribute read that
runs a getter (``@property``, ``@cached_property``, a TypeScript ``get x()``) is a CALLS edge to it;
a function or method handed on as a value (argument, assignment, container element, return) is a
REFERENCES edge to it, at the name. Both only through resolved values: an unknown receiver, a
local variable, a library function or a class links nothing of the kind."""

from pathlib import Path

from indexer.languages import extractor_for_path
from indexer.model import ValueRead
from tests.resolution_harness import check, resolve_fixture, short
from tests.unit.test_incremental import Workspace, dump

GETTERS = """
    # --- path: lib/__init__.py ---
    # --- path: lib/models.py ---
    import functools
    from functools import cached_property

    class Response:
        def __init__(self):
            self.status = 200           # a field: no getter

        @property
        def text(self):
            return self.content.decode()

        @text.setter
        def text(self, value):
            self._text = value

        @cached_property
        def json(self):
            return {}

        @functools.cached_property
        def content(self):
            return b""

        def close(self):
            pass

    class Streamed(Response):
        @property
        def text(self):                 # overrides the getter: dispatch reaches it
            return ""
    # --- path: app.py ---
    from lib.models import Response, Streamed

    def show(resp: Response, anything):
        print(resp.text, resp.json)     # two getters run
        resp.text = "x"                 # the setter runs, not the getter
        size = len(resp.content)
        resp.status                     # a field
        resp.close                      # a method read, not handed on: nothing
        anything.text                   # unknown receiver: never matched by name
        Response.text                   # the property object itself, read on the class

    def built():
        return Response().text          # built here: exactly this class's getter

    def stream(s: Streamed):
        return s.json.get("k")          # inherited getter
"""


def test_property_reads_are_calls_of_the_getter():
    check(GETTERS, [
        "app.built(0) -> lib/models.Response.__init__(0) [exact]",
        "app.built(0) -> lib/models.Response.text(0) [exact]",
        "app.show(2) -> lib/models.Response.content(0) [exact]",
        "app.show(2) -> lib/models.Response.json(0) [exact]",
        "app.show(2) -> lib/models.Response.text(0) [exact]",
        "app.show(2) -> lib/models.Streamed.text(0) [inferred]",
        "app.stream(1) -> lib/models.Response.json(0) [inferred]",
        "lib/models.Response.text(0) -> lib/models.Response.content(0) [exact]",
    ])


def test_a_property_read_is_what_its_getter_returns():
    # healthchecks (newcomer round 45): `profile = self.channel.project.owner_profile` then
    # `profile.authorize_sms()`, with `@property def owner_profile(self) -> Profile`
    check("""
        # --- path: m.py ---
        class Profile:
            def authorize_sms(self):
                pass

        class Other:
            def authorize_sms(self):
                pass

        class Project:
            @property
            def owner_profile(self) -> Profile:
                return Profile.load()

            @property
            def built(self):
                return Other()

            @property
            def count(self) -> int:
                return 1

            def plain(self) -> Profile:
                return Profile.load()

        def direct(p: Project):
            p.owner_profile.authorize_sms()

        def through_a_name(p: Project):
            profile = p.owner_profile
            profile.authorize_sms()

        def unannotated(p: Project):
            p.built.authorize_sms()

        def not_these(p: Project, q):
            p.count.authorize_sms()           # an int's
            Project.owner_profile.authorize_sms()  # the property object, read on the class
            p.plain.authorize_sms()           # a method read uncalled: a bound method
            q.owner_profile.authorize_sms()   # unknown receiver: never by name
        """, [
        "m.Project.built(0) -> m.Other [exact]",
        "m.direct(1) -> m.Project.owner_profile(0) [exact]",
        "m.direct(1) -> m.Profile.authorize_sms(0) [inferred]",
        "m.through_a_name(1) -> m.Project.owner_profile(0) [exact]",
        "m.through_a_name(1) -> m.Profile.authorize_sms(0) [inferred]",
        "m.unannotated(1) -> m.Project.built(0) [exact]",
        "m.unannotated(1) -> m.Other.authorize_sms(0) [inferred]",
        "m.not_these(2) -> m.Project.count(0) [exact]",
    ])


def test_library_caching_descriptors_are_getters():
    # aiohttp (jedi comparison, session 47): `request.match_info.set_current_app(app)` with
    # `@reify def match_info(self) -> UrlMappingMatchInfo`; SQLAlchemy's `@util.memoized_property`
    check("""
        # --- path: helpers.py ---
        class reify:
            def __init__(self, wrapped):
                self.wrapped = wrapped
        # --- path: m.py ---
        from helpers import reify
        import util

        class Info:
            def set_app(self, app):
                pass

        class Request:
            @reify
            def match_info(self) -> Info:
                return Info()

            @util.memoized_property
            def cached(self) -> Info:
                return Info()

            @some.other_decorator
            def plain(self) -> Info:
                return Info()

        def handle(r: Request):
            r.match_info.set_app(1)
            r.cached.set_app(2)
            r.plain.set_app(3)                # an unknown decorator: a bound method, not a getter
        """, [
        "m.Request.cached(0) -> m.Info [exact]",
        "m.Request.match_info(0) -> helpers.reify.__init__(1) [exact]",  # the decoration is a call still
        "m.Request.match_info(0) -> m.Info [exact]",
        "m.Request.plain(0) -> m.Info [exact]",
        "m.handle(1) -> m.Request.match_info(0) [exact]",
        "m.handle(1) -> m.Info.set_app(1) [inferred]",  # lines 1 and 2, not 3
        "m.handle(1) -> m.Request.cached(0) [exact]",
    ])


def test_getter_read_edges_sit_at_the_attribute_name():
    result = resolve_fixture(GETTERS)
    sites = sorted((e.line, e.col, short(e.dst)) for f in result.files for e in f.edges
                   if e.kind == "CALLS" and e.file == "app.py" and "__init__" not in e.dst)
    assert sites == [
        (4, 15, "lib/models.Response.text(0)"), (4, 15, "lib/models.Streamed.text(0)"),
        (4, 26, "lib/models.Response.json(0)"),
        (6, 20, "lib/models.Response.content(0)"),
        (13, 22, "lib/models.Response.text(0)"),
        (16, 13, "lib/models.Response.json(0)"),
    ]


HANDED = """
    # --- path: views.py ---
    def index():
        return "hi"

    def by_name(x):
        return x.name

    def on_signal(sender):
        pass
    # --- path: lib.py ---
    def run(cb):
        cb()
    # --- path: app.py ---
    import views
    from views import index, by_name as key_of
    from lib import run
    import os

    class Component:
        def on_done(self):
            pass

        def wire(self, app, callbacks, signal, xs, handler, other):
            app.add_url_rule("/", view_func=index)
            callbacks.append(self.on_done)
            signal.connect(views.on_signal)
            ordered = sorted(xs, key=key_of)
            table = {"index": index, "sort": [key_of]}
            chosen = index
            run(index)                  # run calls it: a CALLS edge run -> index, listed once
            index()                     # a call: CALLS only
            callbacks.append(handler)   # a parameter: no function known
            callbacks.append(other.on_done)   # unknown receiver: never matched by name
            callbacks.append(os.path.join)    # a library function
            callbacks.append(Component)       # a class: not a function reference
            local = ordered
            callbacks.append(local)
            return self.on_done

    def make():
        return index
"""


def test_functions_handed_on_as_values_are_references():
    check(HANDED, [
        "app.Component.wire(6) -> app.Component.on_done(0)",
        "app.Component.wire(6) -> views.by_name(1)",
        "app.Component.wire(6) -> views.index(0)",
        "app.Component.wire(6) -> views.on_signal(1)",
        "app.make(0) -> views.index(0)",
    ], kind="REFERENCES")


def test_reference_edges_sit_at_each_name_and_skip_a_recorded_call():
    result = resolve_fixture(HANDED)
    sites = sorted((e.line, e.col, short(e.dst)) for f in result.files for e in f.edges if e.kind == "REFERENCES")
    assert sites == [
        (11, 40, "views.index(0)"),
        (12, 30, "app.Component.on_done(0)"),
        (13, 29, "views.on_signal(1)"),
        # line 14, `sorted(xs, key=key_of)`: sorted calls it, a CALLS edge (pycg48), listed once
        (15, 26, "views.index(0)"), (15, 42, "views.by_name(1)"),
        (16, 17, "views.index(0)"),
        (25, 20, "app.Component.on_done(0)"),
        (28, 11, "views.index(0)"),
    ]
    calls = sorted((e.line, short(e.src), short(e.dst)) for f in result.files for e in f.edges
                   if e.kind == "CALLS" and e.dst.endswith("index(0)"))
    assert calls == [(17, "lib.run(1)", "views.index(0)"), (18, "app.Component.wire(6)", "views.index(0)")]
    keyed = [(e.line, e.col, short(e.src), e.resolution) for f in result.files for e in f.edges
             if e.kind == "CALLS" and e.dst.endswith("by_name(1)")]
    assert keyed == [(14, 33, "app.Component.wire(6)", "inferred")]


def test_python_extractor_records_reads_not_calls_or_writes():
    source = b"""def f(a, b):
    a.x.y()
    a.z = b.w
    del a.v
    a.q += 1
    g(b.h, key=k)
    return a.r, k
from m import meta
class C(mod.Base, metaclass=meta):   # a base list: no value read
    pass
"""
    reads = extractor_for_path("m.py").extract("m.py", source).value_reads
    assert reads == [
        ValueRead("f", "x", "a", 2, 6),
        ValueRead("f", "w", "b", 3, 12, True),
        ValueRead("f", "h", "b", 6, 8, True),
        ValueRead("f", "r", "a", 7, 13, True),
    ]


def test_typescript_get_accessor_read_is_a_call_of_the_getter():
    check("""
        // --- path: src/resp.ts ---
        export class Resp {
          private _t = "";
          get text(): string { return this._t; }
          set text(v: string) { this._t = v; }
          size(): number { return this.text.length; }
        }
        // --- path: src/use.ts ---
        import { Resp } from "./resp";
        export function show(r: Resp, other: any) {
          const t = r.text;
          r.text = "x";
          return other.text;
        }
        """, [
        "src/resp.Resp.size(0) -> src/resp.Resp.text(0) [exact]",
        "src/use.show(2) -> src/resp.Resp.text(0) [exact]",
    ])


def test_a_property_added_later_links_the_reads_and_removing_it_unlinks_them(tmp_path: Path) -> None:
    model = "class Resp:\n    def __init__(self):\n        self.text = ''\n"
    getter = "class Resp:\n    @property\n    def text(self):\n        return ''\n"
    files = {"app/__init__.py": "", "app/model.py": model,
             "app/use.py": "from app.model import Resp\n\ndef show(r: Resp):\n    return r.text\n"}
    ws = Workspace(tmp_path, files)
    try:
        def calls() -> set[str]:
            return {f"{src} -> {dst}" for kind, src, dst, *_ in dump(ws.db)["edges"] if kind == "CALLS"}
        assert not any("Resp.text" in c for c in calls())
        ws.edit({"app/model.py": getter})  # checked against a full index by the Workspace
        assert "r:app/use.show(1) -> r:app/model.Resp.text(0)" in calls()
        ws.edit({"app/model.py": model})
        assert not any("Resp.text" in c for c in calls())
    finally:
        ws.close()
