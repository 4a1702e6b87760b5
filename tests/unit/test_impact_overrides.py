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

from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from indexer.languages import extractor_for_path
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree

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
])
def test_csharp_and_kotlin_mark_bodiless_methods_abstract_as_java_does(path: str, source: str) -> None:
    ex = extractor_for_path(path)
    assert ex is not None
    out = ex.extract(path, source.encode())
    abstract = sorted(d.qualname for d in out.definitions if d.kind == "method" and "abstract" in d.modifiers)
    assert abstract == ["Base.Step", "IApi.Run"]
