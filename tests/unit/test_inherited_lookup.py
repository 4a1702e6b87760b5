"""``Class.member`` the class inherits names the base's definition (newcomer round 50: ``ripple
callers Site.get_absolute_url`` on NetBox answered "no symbol matches": ``Site`` inherits it from
``NetBoxModel``). The CLI, MCP and REST answers say where it is inherited from."""

from __future__ import annotations

import pytest

from analysis.agent_queries import AgentQueries
from analysis.navigation import callers, inherited_members, inherited_note, lookup
from tests.index_harness import index_files

FILES = {
    "app/__init__.py": "",
    "app/models.py": (
        "class Mixin:\n"
        "    def describe(self):\n        return 1\n\n\n"
        "class Base:\n"
        "    def get_absolute_url(self):\n        return '/'\n\n"
        "    def describe(self):\n        return 2\n\n\n"
        "class NetBoxModel(Mixin, Base):\n    pass\n\n\n"
        "class Site(NetBoxModel):\n"
        "    def own(self):\n        return 3\n\n\n"
        "class Overrides(Base):\n"
        "    def get_absolute_url(self):\n        return '/o'\n\n\n"
        "class Other:\n    pass\n"),
    "app/views.py": (
        "from app.models import Base, Overrides, Site\n\n\n"
        "def show(s: Site):\n    return s.get_absolute_url()\n\n\n"
        "def plain(b: Base):\n    return b.get_absolute_url()\n\n\n"
        "def own(o: Overrides):\n    return o.get_absolute_url()\n"),
    "src/main/java/com/x/A.java": "package com.x;\n\npublic class A {\n    public void run() {}\n}\n",
    "src/main/java/com/x/B.java": "package com.x;\n\npublic class B extends A {\n}\n",
    "src/main/java/com/x/C.java": ("package com.x;\n\npublic class C extends B {\n"
                                   "    void go(C c) {\n        c.run();\n    }\n}\n"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = index_files(tmp_path_factory.mktemp("inherit") / "proj", FILES, "proj")
    yield s
    s.close()


def _ids(nodes):
    return [n.qualname for n in nodes]


def test_an_inherited_method_names_the_base_definition_and_its_callers(store):
    targets, others = lookup(store, "Site.get_absolute_url")
    assert _ids(targets) == ["Base.get_absolute_url"] and others == []
    assert inherited_note("Site.get_absolute_url", targets) == "Site.get_absolute_url is inherited from Base.get_absolute_url"
    # the base method's callers: through Site and through Base; not the override's caller
    assert sorted((r.file, r.line, r.source.qualname) for r in callers(store, targets)) == [
        ("app/views.py", 5, "show"), ("app/views.py", 9, "plain")]
    # with a module path and a signature-like tail too
    assert _ids(lookup(store, "app.models.Site.get_absolute_url()")[0]) == ["Base.get_absolute_url"]


def test_the_first_base_written_that_declares_it_wins(store):
    assert _ids(inherited_members(store, "Site.describe")) == ["Mixin.describe"]
    assert _ids(inherited_members(store, "NetBoxModel.describe")) == ["Mixin.describe"]


def test_a_java_superclass_chain(store):
    targets, _ = lookup(store, "C.run")
    assert _ids(targets) == ["A.run"]
    assert inherited_note("C.run", targets) == "C.run is inherited from A.run"
    assert [(r.file, r.line, r.source.qualname) for r in callers(store, targets)] == [
        ("src/main/java/com/x/C.java", 5, "C.go")]


def test_what_is_not_inherited_is_not_found(store):
    assert lookup(store, "Other.get_absolute_url") == ([], [])  # no base declares it
    assert lookup(store, "Site.missing") == ([], [])
    assert inherited_members(store, "get_absolute_url") == []  # no class part
    assert inherited_members(store, "Nope.get_absolute_url") == []  # no such class
    assert inherited_members(store, "Site.get_absolute_url", repo="elsewhere") == []
    # a class's own member is itself, with no note
    own, _ = lookup(store, "Overrides.get_absolute_url")
    assert _ids(own) == ["Overrides.get_absolute_url"] and inherited_note("Overrides.get_absolute_url", own) is None
    assert inherited_note("Base.get_absolute_url", lookup(store, "Base.get_absolute_url")[0]) is None
    assert _ids(lookup(store, "Site.own")[0]) == ["Site.own"]
    assert inherited_note("Site.own", lookup(store, "Site.own")[0]) is None


def test_agent_and_cli_answers_say_where_it_is_inherited_from(store, tmp_path, monkeypatch):
    a = AgentQueries(store, store).callers("Site.get_absolute_url")
    assert [c["from_name"] for c in a.result["callers"]] == ["app.views.show", "app.views.plain"]
    assert "Site.get_absolute_url is inherited from Base.get_absolute_url" in a.text
    from click.testing import CliRunner

    from lsp_server.cli import main

    result = CliRunner().invoke(main, ["callers", "Site.get_absolute_url", "--db", str(store.path)])
    assert result.exit_code == 0, result.output
    assert "Site.get_absolute_url is inherited from Base.get_absolute_url" in result.output
    assert "2 call sites from 2 callers" in result.output
