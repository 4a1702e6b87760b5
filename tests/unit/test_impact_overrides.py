"""Impact through overridden methods (session 64): which other implementations are targets, and which
callers of an inherited template method a selected override is reached from.

The template-method pattern (``abstract class Handler { run() { afterInsert(); } }``, apex-recipes'
``TriggerHandler``) made ``ripple impact LogHandler.afterInsert`` reach every trigger running any
handler. Two rules (the lead's decision, session 64):

* a selected method's other implementations are targets only when the declaration it overrides has no
  body (an interface or abstract method: :func:`analysis.impact.bodiless`); a concrete base method stays
  a target, its other overrides do not;
* the walk keeps "``this`` is a ``LogHandler``" when it climbs from ``LogHandler.afterInsert`` into
  ``Handler.run`` through the dispatch on ``this``, and follows only the callers of ``run`` whose
  receiver is a ``LogHandler``, one of its bases or subclasses, or unknown (a ``Handler``-typed value
  built from metadata may be any handler).

Every fixture is indexed with the real pipeline (extractors, resolver, writer) into an embedded store.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from indexer.languages import extractor_for_path
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.contracts import Edge, edge_receiver, id_owner, receiver_value
from stores.embedded import EmbeddedStore
from tests.resolution_harness import resolve_fixture, short, write_tree

JAVA = {
    "src/app/Handler.java": """package app;

public abstract class Handler {
    public void run() {
        beforeInsert();
        afterInsert();
    }
    protected void afterInsert() { }
    protected void beforeInsert() { }
    protected abstract String name();
}
""",
    "src/app/LogHandler.java": """package app;

public class LogHandler extends Handler {
    @Override
    protected void afterInsert() { }
    @Override
    protected String name() { return "log"; }
}
""",
    "src/app/AuditLogHandler.java": """package app;

public class AuditLogHandler extends LogHandler {
}
""",
    "src/app/AccountHandler.java": """package app;

public class AccountHandler extends Handler {
    @Override
    protected void afterInsert() { }
    @Override
    protected String name() { return "account"; }
    public void again() {
        this.run();
    }
}
""",
    "src/app/Triggers.java": """package app;

public class Triggers {
    public void log() {
        new LogHandler().run();
    }
    public void audit() {
        AuditLogHandler h = new AuditLogHandler();
        h.run();
    }
    public void account() {
        AccountHandler h = new AccountHandler();
        h.run();
    }
    public void any(Handler configured) {
        configured.run();
    }
}
""",
}

PYTHON = {
    "app/__init__.py": "",
    "app/views.py": """import abc


class View:
    def dispatch(self, request):
        handler = getattr(self, request.method.lower(), None)
        return self.respond(request)

    def respond(self, request):
        return None

    @abc.abstractmethod
    def title(self):
        ...


class ListView(View):
    def respond(self, request):
        return []

    def title(self):
        return "list"


class DetailView(View):
    def respond(self, request):
        return {}

    def title(self):
        return "detail"
""",
    "app/urls.py": """from app.views import DetailView, ListView, View


def list_page(request):
    return ListView().dispatch(request)


def detail_page(request):
    view = DetailView()
    return view.dispatch(request)


def any_page(view: View, request):
    return view.dispatch(request)
""",
}


def _report(tmp_path: Path, files: dict[str, str], target: str):
    root = write_tree(tmp_path / "svc", files)
    store = EmbeddedStore(tmp_path / "svc.db")
    try:
        index_repository(root, store, store, IndexOptions(repo="svc", jobs=1))
        return blast_radius(store, SymbolQuery(target))
    finally:
        store.close()


def _targets(report) -> list[tuple[str, str]]:
    return [(t.node.qualname, t.role) for t in report.targets]


def _reached(report) -> list[tuple[str, int]]:
    return sorted((r.node.qualname, r.hops) for hop in report.hops for r in hop)


def test_a_concrete_base_method_is_a_target_its_other_overrides_are_not(tmp_path: Path) -> None:
    report = _report(tmp_path, JAVA, "LogHandler.afterInsert")
    assert _targets(report) == [("LogHandler.afterInsert", "selected"), ("Handler.afterInsert", "declaration")]


def test_an_abstract_declaration_brings_every_implementation(tmp_path: Path) -> None:
    report = _report(tmp_path, JAVA, "LogHandler.name")
    assert _targets(report) == [("LogHandler.name", "selected"), ("Handler.name", "declaration"),
                                ("AccountHandler.name", "implementation")]


def test_selecting_a_concrete_declaration_still_brings_its_overrides(tmp_path: Path) -> None:
    report = _report(tmp_path, JAVA, "Handler.afterInsert")
    assert _targets(report) == [("Handler.afterInsert", "selected"), ("AccountHandler.afterInsert", "implementation"),
                                ("LogHandler.afterInsert", "implementation")]


def test_python_abstractmethod_brings_siblings_a_concrete_base_method_does_not(tmp_path: Path) -> None:
    assert _targets(_report(tmp_path / "a", PYTHON, "ListView.title")) == [
        ("ListView.title", "selected"), ("View.title", "declaration"), ("DetailView.title", "implementation")]
    assert _targets(_report(tmp_path / "b", PYTHON, "ListView.respond")) == [
        ("ListView.respond", "selected"), ("View.respond", "declaration")]


@pytest.mark.parametrize(("path", "source"), [
    ("Api.cs", "interface IApi { void Run(); int Size() => 1; }\n"
               "abstract class Base { public abstract void Step(); public virtual void Hook() { } }\n"),
    ("Api.kt", "interface IApi { fun Run()\n fun Size(): Int = 1 }\n"
               "abstract class Base { abstract fun Step()\n open fun Hook() { } }\n"),
    ("api.py", "import abc\nfrom typing import Protocol\n\n\nclass IApi(Protocol):\n    def Run(self) -> None: ...\n\n"
               "    def Size(self) -> int:\n        return 1\n\n\nclass Base:\n    def Step(self):\n"
               "        \"\"\"Subclasses send it.\"\"\"\n        raise NotImplementedError()\n\n    def Hook(self):\n        pass\n\n"
               "    def Other(self):\n        raise ValueError()\n\n    @abc.abstractmethod\n    def Kind(self):\n        return 0\n"),
])
def test_csharp_kotlin_python_mark_bodiless_methods_abstract_as_java_does(path: str, source: str) -> None:
    ex = extractor_for_path(path)
    assert ex is not None
    out = ex.extract(path, source.encode())
    abstract = sorted(d.qualname for d in out.definitions if d.kind == "method" and "abstract" in d.modifiers)
    assert abstract == (["Base.Kind", "Base.Step", "IApi.Run"] if path.endswith(".py") else ["Base.Step", "IApi.Run"])


# --------------------------------------------------------------- receiver-constrained walk


_CUT = "the inherited method is called there on an instance of an unrelated class"


def test_java_template_method_reaches_only_the_callers_running_the_selected_override(tmp_path: Path) -> None:
    # LogHandler.afterInsert <- Handler.run (dispatch on this) <- new LogHandler().run(), an
    # AuditLogHandler (a subclass: it inherits LogHandler's afterInsert) and a Handler-typed parameter
    # (any handler may run there); not new AccountHandler().run() nor AccountHandler.again's this.run().
    report = _report(tmp_path, JAVA, "LogHandler.afterInsert")
    assert _reached(report) == [("Handler.run", 1), ("Triggers.any", 2), ("Triggers.audit", 2), ("Triggers.log", 2)]
    assert [c.node.qualname for c in report.callers] == ["Handler.run"]
    assert report.truncated == (f"2 callers not followed: {_CUT}",)


def test_java_the_other_override_reaches_its_own_callers_and_the_base_typed_one(tmp_path: Path) -> None:
    report = _report(tmp_path, JAVA, "AccountHandler.afterInsert")
    assert _reached(report) == [
        ("AccountHandler.again", 2), ("Handler.run", 1), ("Triggers.account", 2), ("Triggers.any", 2)]


def test_a_base_typed_receiver_still_reaches_every_override(tmp_path: Path) -> None:
    # The metadata dispatcher: `configured.run()` on a Handler may run any handler's afterInsert.
    for target in ("LogHandler.afterInsert", "AccountHandler.afterInsert", "Handler.afterInsert"):
        assert ("Triggers.any", 2) in _reached(_report(tmp_path / target, JAVA, target))


def test_selecting_the_base_method_reaches_every_caller(tmp_path: Path) -> None:
    report = _report(tmp_path, JAVA, "Handler.afterInsert")
    assert _reached(report) == [("AccountHandler.again", 2), ("Handler.run", 1), ("Triggers.account", 2),
                                ("Triggers.any", 2), ("Triggers.audit", 2), ("Triggers.log", 2)]
    assert report.truncated == ()


def test_python_class_based_view_dispatch_reaches_the_views_own_callers(tmp_path: Path) -> None:
    # View.dispatch -> self.respond() dispatches to ListView.respond; detail_page runs a DetailView.
    report = _report(tmp_path, PYTHON, "ListView.respond")
    assert _reached(report) == [("View.dispatch", 1), ("any_page", 2), ("list_page", 2)]
    assert report.truncated == (f"1 caller not followed: {_CUT}",)
    assert _reached(_report(tmp_path / "d", PYTHON, "DetailView.respond")) == [
        ("View.dispatch", 1), ("any_page", 2), ("detail_page", 2)]


_LANGUAGES = {
    "csharp": ("""
// --- path: App/Handler.cs ---
namespace App;
public abstract class Handler {
    public void Run() { AfterInsert(); }
    protected virtual void AfterInsert() { }
}
public class LogHandler : Handler { protected override void AfterInsert() { } }
public class Triggers {
    public void Log() { new LogHandler().Run(); }
    public void Any(Handler h) { h.Run(); }
}
""", "App/Handler.", "Run(0)", "AfterInsert(0)", "Log(0)", "Any(1)"),
    "typescript": ("""
// --- path: src/handler.ts ---
export abstract class Handler {
    run(): void { this.afterInsert(); }
    protected afterInsert(): void { }
}
export class LogHandler extends Handler { protected afterInsert(): void { } }
export class Triggers {
    log() { new LogHandler().run(); }
    any(h: Handler) { h.run(); }
}
""", "src/handler.", "run(0)", "afterInsert(0)", "log(0)", "any(1)"),
    "kotlin": ("""
// --- path: src/app/Handler.kt ---
package app
abstract class Handler {
    fun run() { afterInsert() }
    open fun afterInsert() { }
}
class LogHandler : Handler() { override fun afterInsert() { } }
class Triggers {
    fun log() { LogHandler().run() }
    fun any(h: Handler) { h.run() }
}
""", "src/app/Handler.", "run()", "afterInsert()", "log()", "any(Handler)"),
    "apex": ("""
// --- path: classes/Handler.cls ---
public virtual class Handler {
    public void run() { this.afterInsert(); }
    protected virtual void afterInsert() { }
}
// --- path: classes/LogHandler.cls ---
public class LogHandler extends Handler { protected override void afterInsert() { } }
// --- path: classes/Triggers.cls ---
public class Triggers {
    public void log() { new LogHandler().run(); }
    public void any(Handler h) { h.run(); }
}
""", "", "run(0)", "afterInsert(0)", "log(0)", "any(1)"),
}


@pytest.mark.parametrize("language", sorted(_LANGUAGES))
def test_calls_record_this_and_the_receiver_class_where_it_is_not_the_callees(language: str) -> None:
    fixture, prefix, run, step, log, any_ = _LANGUAGES[language]
    result = resolve_fixture(fixture)
    got = sorted((short(e.src), short(e.dst), tuple(sorted(e.props.items())))
                 for f in result.files for e in f.edges if e.kind == "CALLS" and ".Triggers." in e.src + e.dst
                 or e.kind == "CALLS" and e.src.endswith(f".Handler.{run}"))

    def q(path: str, qual: str) -> str:
        return f"{prefix or f'classes/{path}.'}{qual}"

    handler, log_handler = q("Handler", "Handler"), q("LogHandler", "LogHandler")
    assert got == sorted([
        (f"{handler}.{run}", f"{handler}.{step}", (("this", 1),)),
        # the override's class: the callee's own ("^"); LogHandler's id without the repository's prefix
        (f"{handler}.{run}", f"{log_handler}.{step}", (("recv", "^"), ("this", 1))),
        (f"{q('Triggers', 'Triggers')}.{log}", log_handler, ()),
        (f"{q('Triggers', 'Triggers')}.{log}", f"{handler}.{run}", (("recv", log_handler),)),
        (f"{q('Triggers', 'Triggers')}.{any_}", f"{handler}.{run}", ()),  # the declared class's own: nothing
    ])


DJANGO = {
    "app/__init__.py": "",
    "app/views.py": """from django.http import HttpResponse
from django.views import View


class EditView(View):
    def get(self, request, pk):
        obj = self.alter(pk, request)
        return HttpResponse(obj)

    def alter(self, obj, request):
        return obj


class SiteEdit(EditView):
    def alter(self, obj, request):
        return obj + 1


class RackEdit(EditView):
    pass


class CabinetEdit(SiteEdit):
    pass
""",
    "app/urls.py": """from django.urls import path

from app import views

urlpatterns = [
    path("sites/<int:pk>/edit/", views.SiteEdit.as_view()),
    path("racks/<int:pk>/edit/", views.RackEdit.as_view()),
    path("cabinets/<int:pk>/edit/", views.CabinetEdit.as_view()),
]
""",
}


def test_an_inherited_view_handler_serves_only_the_routes_of_related_view_classes(tmp_path: Path) -> None:
    # EditView.get exposes all three routes; SiteEdit.alter runs under SiteEdit's and its subclass
    # CabinetEdit's, not RackEdit's.
    report = _report(tmp_path, DJANGO, "SiteEdit.alter")
    assert [(h.http_method, h.path, h.handler.qualname) for h in report.endpoints] == [
        ("GET", "/cabinets/{}/edit", "EditView.get"), ("GET", "/sites/{}/edit", "EditView.get")]
    assert report.truncated == ("1 endpoint not reached: served by an inherited handler for an unrelated view class",)
    base = _report(tmp_path / "base", DJANGO, "EditView.alter")
    assert [h.path for h in base.endpoints] == ["/cabinets/{}/edit", "/racks/{}/edit", "/sites/{}/edit"]


MIXINS = {
    "app/__init__.py": "",
    "app/forms.py": """class FormMixin:
    def form_valid(self, form):
        return form


class ModelFormMixin(FormMixin):
    def form_valid(self, form):
        self.saved = form
        return super().form_valid(form)


class ProcessFormView:
    def post(self, request):
        return self.form_valid(request)


class BaseCreateView(ModelFormMixin, ProcessFormView):
    def post(self, request):
        self.saved = None
        return super().post(request)


class ResetView(FormMixin, ProcessFormView):
    def form_valid(self, form):
        return super().form_valid(form)
""",
    "app/api.py": """from app.forms import BaseCreateView, ResetView


def create(request):
    return BaseCreateView().post(request)


def reset(request):
    return ResetView().post(request)
""",
}


def test_a_super_call_runs_on_the_callers_class_not_on_the_class_it_names(tmp_path: Path) -> None:
    # Django's CreateView shape: BaseCreateView.post's super().post() runs ProcessFormView.post on a
    # BaseCreateView, a ModelFormMixin, so its form_valid is ModelFormMixin's: create is reached (the
    # edge records ProcessFormView, where post was found; read as that class, the caller was cut). ResetView's
    # super().form_valid() runs on a ResetView, no ModelFormMixin: neither it nor reset is reached.
    report = _report(tmp_path, MIXINS, "ModelFormMixin.form_valid")
    assert _targets(report) == [("ModelFormMixin.form_valid", "selected"), ("FormMixin.form_valid", "declaration")]
    assert _reached(report) == [("BaseCreateView.post", 2), ("ProcessFormView.post", 1), ("create", 3)]
    assert report.truncated == ("2 callers not followed: the inherited method is called there on an instance of an "
                                "unrelated class",)


def test_a_method_reached_again_without_the_constraint_is_walked_again(tmp_path: Path) -> None:
    # Handler.run reaches LogHandler.afterInsert twice: through the dispatch on this (only a LogHandler's
    # run) and through Audit.note (any handler's run): every trigger is reached (here run is widened
    # before its own callers are read, in the same level; walked again otherwise).
    files = {**JAVA, "src/app/Audit.java": """package app;

public class Audit {
    public static void note() {
        new LogHandler().afterInsert();
    }
}
""", "src/app/Handler.java": JAVA["src/app/Handler.java"].replace("afterInsert();\n    }", "afterInsert();\n        Audit.note();\n    }")}
    report = _report(tmp_path, files, "LogHandler.afterInsert")
    assert _reached(report) == [("AccountHandler.again", 2), ("Audit.note", 1), ("Handler.run", 1), ("Triggers.account", 2),
                                ("Triggers.any", 2), ("Triggers.audit", 2), ("Triggers.log", 2)]
    assert report.truncated == ()


def test_a_method_widened_after_its_walk_is_walked_again(tmp_path: Path) -> None:
    # Handler.run (hop 1, a LogHandler's) is reached again at hop 3 through Audit.note <- Audit.mid:
    # walked again, the callers the first walk cut are reached at hop 4, the length of that path.
    files = {**JAVA, "src/app/Audit.java": """package app;

public class Audit {
    public static void note() {
        mid();
    }
    static void mid() {
        new LogHandler().afterInsert();
    }
}
""", "src/app/Handler.java": JAVA["src/app/Handler.java"].replace("afterInsert();\n    }", "afterInsert();\n        Audit.note();\n    }")}
    report = _report(tmp_path, files, "LogHandler.afterInsert")
    assert _reached(report) == [("AccountHandler.again", 4), ("Audit.mid", 1), ("Audit.note", 2), ("Handler.run", 1),
                                ("Triggers.account", 4), ("Triggers.any", 2), ("Triggers.audit", 2), ("Triggers.log", 2)]
    assert report.truncated == ()


TRANSPORTS = {
    "hc/__init__.py": "",
    "hc/transports.py": """class HttpTransport:
    @classmethod
    def raise_for_response(cls, response):
        raise ValueError(response)

    @classmethod
    def post(cls, url):
        if url:
            cls.raise_for_response(url)


class Slack(HttpTransport):
    @classmethod
    def raise_for_response(cls, response):
        raise KeyError(response)

    def notify(self):
        self.post("x")


class Webhook(HttpTransport):
    def notify(self):
        self.post("y")
""",
}


def test_a_classmethod_template_on_cls_keeps_the_callers_class(tmp_path: Path) -> None:
    # healthchecks' HttpTransport: `cls.raise_for_response(r)` in a classmethod is on the caller's class;
    # Slack's override runs under Slack.notify's self.post(), not Webhook's.
    report = _report(tmp_path, TRANSPORTS, "Slack.raise_for_response")
    assert _targets(report) == [("Slack.raise_for_response", "selected"),
                                ("HttpTransport.raise_for_response", "declaration")]
    assert _reached(report) == [("HttpTransport.post", 1), ("Slack.notify", 2)]
    assert report.truncated == (f"1 caller not followed: {_CUT}",)


def test_receiver_values_are_written_compactly_and_read_back() -> None:
    repo, base, sub = "r", "r:src/a.Handler", "r:src/b.LogHandler"
    dispatch = Edge("CALLS", f"{base}.run(0)", f"{sub}.afterInsert(0)", repo, "src/a.java", 3, 8, "inferred",
                    {"recv": receiver_value(sub, f"{base}.run(0)", f"{sub}.afterInsert(0)", repo), "this": 1})
    inherited = Edge("CALLS", f"{sub}.again(0)", f"{base}.run(0)", repo, "src/b.java", 9, 8, "inferred",
                     {"recv": receiver_value(sub, f"{sub}.again(0)", f"{base}.run(0)", repo), "this": 1})
    typed = Edge("CALLS", "r:src/c.Triggers.log(0)", f"{base}.run(0)", repo, "src/c.java", 5, 8, "inferred",
                 {"recv": receiver_value(sub, "r:src/c.Triggers.log(0)", f"{base}.run(0)", repo)})
    assert [e.props["recv"] for e in (dispatch, inherited, typed)] == ["^", "<", "src/b.LogHandler"]
    assert [edge_receiver(e) for e in (dispatch, inherited, typed)] == [sub, sub, sub]
    assert edge_receiver(dataclasses.replace(typed, props={})) is None
    assert id_owner("r:pkg/m.Outer.Inner.run(Map.Entry)") == "r:pkg/m.Outer.Inner"


DIAMOND = {
    "app/__init__.py": "",
    "app/render.py": """class Renderer:
    def run(self):
        return self.context()

    def context(self):
        return {}


class TitleMixin(Renderer):
    def context(self):
        return {"title": 1}


class JsonRenderer(Renderer):
    def kind(self):
        return "json"


class PlainRenderer(Renderer):
    def kind(self):
        return "plain"


class TitledJson(TitleMixin, JsonRenderer):
    pass
""",
    "app/api.py": """from app.render import JsonRenderer, PlainRenderer, TitledJson


def show_json(r: JsonRenderer):
    return r.run()


def show_plain(r: PlainRenderer):
    return r.run()


def show_titled():
    return TitledJson().run()


def make_json():
    return JsonRenderer().run()
""",
}


def test_a_receiver_typed_by_a_sibling_of_the_mixin_may_hold_their_common_subclass(tmp_path: Path) -> None:
    # The diamond (acc64a's known limit): show_json's `r: JsonRenderer` may hold a TitledJson, which is a
    # TitleMixin (Renderer is reached through two paths), so TitleMixin.context runs under show_json's
    # r.run(). PlainRenderer has no subclass that is a TitleMixin: show_plain is not reached.
    # make_json's JsonRenderer() is an exact JsonRenderer, but the edge records only the class, and a
    # declared JsonRenderer may be a TitledJson: it is followed too (sound).
    report = _report(tmp_path, DIAMOND, "TitleMixin.context")
    assert _targets(report) == [("TitleMixin.context", "selected"), ("Renderer.context", "declaration")]
    assert _reached(report) == [("Renderer.run", 1), ("make_json", 2), ("show_json", 2), ("show_titled", 2)]
    assert report.truncated == (f"1 caller not followed: {_CUT}",)


SIBLINGS = {
    "app/__init__.py": "",
    "app/views.py": """class ProcessForm:
    def post(self):
        return self.form_valid()


class ValidMixin:
    def form_valid(self):
        return 1


class OtherValid:
    def form_valid(self):
        return 2


class ProcessChild(ProcessForm):
    def extra(self):
        return 0


class CreateView(ValidMixin, ProcessForm):
    pass


class ResetView(OtherValid, ProcessForm):
    pass


class CreateChild(ValidMixin, ProcessChild):
    pass


class ResetChild(OtherValid, ProcessChild):
    pass
""",
    "app/api.py": """from app.views import CreateView, ProcessChild, ProcessForm, ResetView


def create():
    return CreateView().post()


def reset():
    return ResetView().post()


def any_form(v: ProcessForm):
    return v.post()


def child(v: ProcessChild):
    return v.post()
""",
}


def test_a_mixins_self_call_dispatches_to_a_sibling_mixin_under_a_receiver_sharing_a_subclass(tmp_path: Path) -> None:
    # ProcessForm.post's self.form_valid() runs ValidMixin's on a CreateView or a CreateChild (siblings'
    # common subclasses). child's `v: ProcessChild` may hold a CreateChild: followed (it was cut). reset's
    # ResetView() has no subclass that is a ValidMixin: cut.
    report = _report(tmp_path, SIBLINGS, "ValidMixin.form_valid")
    assert _targets(report) == [("ValidMixin.form_valid", "selected")]
    assert _reached(report) == [("ProcessForm.post", 1), ("any_form", 2), ("child", 2), ("create", 2)]
    assert report.truncated == (f"1 caller not followed: {_CUT}",)
