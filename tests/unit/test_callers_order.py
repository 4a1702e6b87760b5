"""Callers and references list production code first, then test code, each by location: a method
with hundreds of test call sites (healthchecks' ``Channel.notify``: 3 real callers, 338 in tests)
must not push its real callers past an agent answer's budget (newcomer round 45)."""

from __future__ import annotations


import pytest

from analysis.agent_queries import AgentQueries
from analysis.navigation import callers, lookup, references
from tests.index_harness import index_files

TESTS = 30
FILES = {
    "app/__init__.py": "",
    "app/tests/__init__.py": "",
    "app/models.py": "class Channel:\n    def notify(self, flip):\n        return flip\n",
    # a test folder whose path sorts between the two production files
    "app/tests/test_notify.py": ("from app.models import Channel\n\n\n"
                                 "def test_a():\n    Channel().notify(1)\n\n\n"
                                 "def test_b():\n    Channel().notify(2)\n"),
    "app/tests/test_many.py": "from app.models import Channel\n" + "".join(
        f"\n\ndef test_{i}():\n    Channel().notify({i})\n" for i in range(TESTS)),
    "app/api.py": "from app.models import Channel\n\n\ndef send(c: Channel):\n    c.notify(3)\n",
    "app/views.py": "from app.models import Channel\n\n\ndef view(c: Channel):\n    c.notify(4)\n",
    "app/admin.py": "def unrelated():\n    return 5\n",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = index_files(tmp_path_factory.mktemp("order") / "proj", FILES, "proj")
    yield s
    s.close()


def test_callers_put_production_code_before_test_code(store):
    targets, _ = lookup(store, "Channel.notify")
    refs = callers(store, targets)
    assert [(r.file, r.line, r.source.qualname) for r in refs] == [
        ("app/api.py", 5, "send"), ("app/views.py", 5, "view"),
        *(("app/tests/test_many.py", 5 + 4 * i, f"test_{i}") for i in range(TESTS)),
        ("app/tests/test_notify.py", 5, "test_a"), ("app/tests/test_notify.py", 9, "test_b")]
    assert {r.file for r in refs} == {"app/api.py", "app/views.py", "app/tests/test_many.py",
                                       "app/tests/test_notify.py"}


def test_references_put_production_code_before_test_code(store):
    targets, _ = lookup(store, "app.models.Channel")
    refs = references(store, targets, include_declaration=True)
    files = [r.file for r in refs]
    assert files[0] == "app/models.py" and refs[0].kind == "DECLARATION"
    first_test = next(i for i, f in enumerate(files) if f.startswith("app/tests/"))
    assert all(f.startswith("app/tests/") for f in files[first_test:])
    assert set(files[1:first_test]) == {"app/api.py", "app/views.py"}


def test_an_agent_answer_cut_to_its_budget_keeps_the_production_callers(store):
    # 210: the answer's steps table has a "Reached through" row since session 64 (front64), about 10 tokens
    a = AgentQueries(store, store).callers("Channel.notify", max_tokens=210)
    shown = [c["path"] for c in a.result["callers"]]
    assert a.result["count"] == TESTS + 4  # cut to the budget: the two production callers stay
    assert shown == ["app/api.py", "app/views.py"]
    assert a.text.splitlines()[4:6] == ["- app/api.py:5:7 `app.api.send` [exact]",
                                        "- app/views.py:5:7 `app.views.view` [exact]"]


def test_a_name_of_several_files_shows_where_each_call_goes(tmp_path):
    # go-base's `ripple callers AccountStore.Update` printed two lines for one call site, both ending
    # `-> AccountStore.Update(1)`: one name in several files now ends with its file and line; a name of one file
    # (the module's other tests) keeps the bare name
    from click.testing import CliRunner

    from lsp_server.cli import main
    files = {"a/__init__.py": "", "b/__init__.py": "",
             "a/store.py": "class Store:\n    def update(self):\n        return 1\n",
             "b/store.py": "class Store:\n    def update(self):\n        return 2\n",
             "use.py": ("from a.store import Store as A\nfrom b.store import Store as B\n\n\n"
                        "def run(x: A, y: B):\n    x.update()\n    y.update()\n")}
    s = index_files(tmp_path / "proj", files, "proj")
    s.close()
    result = CliRunner().invoke(main, ["callers", "Store.update", "--db", str(tmp_path / "i.db")],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert [line for line in result.output.splitlines() if line.startswith("use.py")] == [
        "use.py:6:7  run  [exact]  -> Store.update(0) (a/store.py:2)",
        "use.py:7:7  run  [exact]  -> Store.update(0) (b/store.py:2)",
    ]
