"""A blast radius that names names (issue 14, item 4): what test code is, tests kept apart from
production callers (``tests`` modes), a call site bound to an interface method and its implementations
counted once, how sure each endpoint's path is, callers named per hop, and the Mermaid diagram
(escaped, collapsed past a readable size). Exact nodes and edges in an embedded store."""

from __future__ import annotations

from pathlib import Path

import pytest

from stores.embedded import EmbeddedStore
from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import mermaid_diagram, mermaid_text, render_markdown, report_json, summary_text
from analysis.testcode import is_test_path
from tests.unit.test_impact import Repo, endpoint

LIB = "src/main/java/shop/Repo.java"
IMPL = "src/main/java/shop/JdbcRepo.java"
SVC = "src/main/java/shop/Service.java"
WEB = "src/main/java/shop/Web.java"
JTEST = "src/test/java/shop/ServiceTest.java"
PYTEST = "tests/test_service.py"
ODD = "src/main/java/shop/Odd.java"


@pytest.mark.parametrize("path", [
    "tests/test_x.py", "pkg/tests/helpers.py", "test/unit/a.js", "app/test_views.py", "app/views_test.py",
    "conftest.py", "src/conftest.py", "web/src/app.test.ts", "web/src/app.spec.tsx", "lib/x.spec.mjs",
    "e2e/login.ts", "src/__tests__/a.js", "src/test/java/shop/ServiceTest.java", "src/main/java/shop/ServiceTest.java",
    "src/main/java/shop/ServiceTests.java", "src/main/java/shop/ServiceIT.java", "src/main/java/shop/TestUtils.java",
    "pkg/x_test.go", "spec/models/user_spec.rb", "src\\test\\java\\A.java", "app/Tests/x.py",
    "src/addDays/test.ts", "web/src/test.ts", "lib/tests.js", "lib/spec.mjs", "polls/tests.py", "tests.py",
])
def test_test_paths(path: str) -> None:
    assert is_test_path(path)


@pytest.mark.parametrize("path", [
    "", "src/main/java/shop/Service.java", "src/main/java/shop/Testimonial.java", "src/main/java/shop/Contest.java",
    "app/testing_utils.py", "app/latest.py", "app/attestation.py", "web/src/latest.ts", "web/src/contest.ts",
    "web/src/testing.ts", "web/src/test.json",
    "src/main/java/shop/Latest.java", "docs/testimonials.md", "tests", "app/protest/x.py", "app/test.py",
    "app/contests.py",
])
def test_not_test_paths(path: str) -> None:
    assert not is_test_path(path)


def _store(tmp_path: Path) -> tuple[EmbeddedStore, dict[str, str]]:
    """``Repo.find`` (interface) implemented by ``JdbcRepo.find``; ``Service.load`` calls it once, the
    call bound to both (same position); ``Web.show`` (GET /show) calls ``load``; ``Web.guess`` (GET /guess)
    calls ``Odd.pick`` which calls ``load`` by name only; ``ServiceTest.loads`` (JUnit) and
    ``test_load`` (pytest) call ``load``; ``ServiceTest.helper`` calls ``loads``; ``Web.debug``
    (production) calls the test helper (production code reached only through a test)."""
    r = Repo("shop", "java")
    ids = {
        "decl": r.node(LIB, "Repo.find", "int", 3, 3), "impl": r.node(IMPL, "JdbcRepo.find", "int", 4, 8),
        "load": r.node(SVC, "Service.load", "int", 5, 9), "show": r.node(WEB, "Web.show", "int", 5, 7),
        "guess": r.node(WEB, "Web.guess", "", 9, 11), "pick": r.node(ODD, "Odd.pick", "", 2, 4),
        "loads": r.node(JTEST, "ServiceTest.loads", "", 6, 9), "helper": r.node(JTEST, "ServiceTest.helper", "", 11, 13),
        "debug": r.node(WEB, "Web.debug", "", 13, 15),
    }
    r.edge("OVERRIDES", ids["impl"], ids["decl"], IMPL, 4, 15)
    r.edge("CALLS", ids["load"], ids["decl"], SVC, 6, 20, "exact")
    r.edge("CALLS", ids["load"], ids["impl"], SVC, 6, 20, "inferred")
    r.edge("CALLS", ids["show"], ids["load"], WEB, 6, 8, "exact")
    r.edge("CALLS", ids["pick"], ids["load"], ODD, 3, 8, "name")
    r.edge("CALLS", ids["guess"], ids["pick"], WEB, 10, 8, "exact")
    r.edge("CALLS", ids["loads"], ids["load"], JTEST, 7, 8, "exact")
    r.edge("CALLS", ids["helper"], ids["loads"], JTEST, 12, 8, "exact")
    r.edge("CALLS", ids["debug"], ids["helper"], WEB, 14, 8, "exact")
    for name, method, path in (("show", "GET", "/show"), ("guess", "GET", "/guess")):
        ep = endpoint(method, path)
        r.shared(WEB, ep)
        r.edge("EXPOSES", ids[name], ep.id, WEB, 5, 4, framework="spring")
    p = Repo("shop", "python")
    ids["test_load"] = p.node(PYTEST, "test_load", "0", 3, 5, "Function")
    p.edge("CALLS", ids["test_load"], ids["load"], PYTEST, 4, 4, "exact")
    s = EmbeddedStore(tmp_path / "i.db")
    s.replace_files([*r.files.values(), *p.files.values()])
    return s, ids


@pytest.fixture
def shop(tmp_path: Path):
    s, ids = _store(tmp_path)
    yield s, ids
    s.close()


def _names(nodes) -> list[str]:
    return [n.qualname for n in nodes]


def test_tests_are_kept_apart_by_default(shop) -> None:
    s, ids = shop
    report = blast_radius(s, SymbolQuery(ids["load"]))
    # Negative: neither test caller is a production caller, nor reached by hop, nor a service node.
    assert _names(c.node for c in report.callers) == ["Odd.pick", "Web.show"]
    assert [[r.node.qualname for r in hop] for hop in report.hops] == [["Odd.pick", "Web.show"], ["Web.guess"]]
    assert report.callers_by_hop == (2, 1)
    assert [(r.node.qualname, r.hops) for r in report.tests] == [
        ("ServiceTest.loads", 1), ("test_load", 1), ("ServiceTest.helper", 2)]
    # Web.debug is production code reached only through a test helper: not affected.
    assert "Web.debug" not in _names(r.node for hop in report.hops for r in hop)
    assert [(sv.repo, sv.nodes) for sv in report.services] == [("shop", 4)]
    assert summary_text(report) == "2 callers · 2 endpoints · 3 tests"
    text = render_markdown(report)
    assert ("## Tests affected · 3\n\n"
            "- hop 1 · `ServiceTest.loads` · shop · `src/test/java/shop/ServiceTest.java:6`\n"
            "- hop 1 · `test_load` · shop · `tests/test_service.py:3`\n"
            "- hop 2 · `ServiceTest.helper` · shop · `src/test/java/shop/ServiceTest.java:11`\n") in text
    assert report_json(report)["summary"]["tests"] == 3


def test_tests_include_exclude_only(shop) -> None:
    s, ids = shop
    included = blast_radius(s, SymbolQuery(ids["load"]), tests="include")
    assert _names(c.node for c in included.callers) == ["Odd.pick", "Web.show", "ServiceTest.loads", "test_load"]
    assert included.tests == () and included.callers_by_hop == (4, 2, 1)  # Web.debug at hop 3, through the test
    assert summary_text(included) == "4 callers · 2 endpoints"
    excluded = blast_radius(s, SymbolQuery(ids["load"]), tests="exclude")
    assert _names(c.node for c in excluded.callers) == ["Odd.pick", "Web.show"]
    assert (excluded.tests, excluded.excluded_tests) == ((), 2)
    assert excluded.truncated == ("2 test callers not followed (tests excluded)",)
    assert "## Tests affected · 0\n\n- 2 test callers not followed (tests excluded)\n" in render_markdown(excluded)
    only = blast_radius(s, SymbolQuery(ids["load"]), tests="only")
    assert _names(c.node for c in only.callers) == ["ServiceTest.loads", "test_load"]
    assert [[r.node.qualname for r in hop] for hop in only.hops] == [["ServiceTest.loads", "test_load"], ["ServiceTest.helper"]]
    assert (only.endpoints, only.entry_points) == ((), ())
    with pytest.raises(ValueError, match="tests must be one of apart, include, exclude, only"):
        blast_radius(s, SymbolQuery(ids["load"]), tests="skip")


def test_a_call_bound_to_an_interface_and_its_implementation_counts_once(shop) -> None:
    s, ids = shop
    report = blast_radius(s, SymbolQuery(ids["impl"]))
    assert [t.role for t in report.targets] == ["selected", "declaration"]
    (load,) = report.callers
    assert (len(load.sites), load.locations, report.call_sites) == (2, 1, 1)
    assert report_json(report)["callers"][0]["sites"] == [{
        "target": ids["decl"], "targets": sorted([ids["decl"], ids["impl"]]), "repo": "shop", "path": SVC,
        "line": 6, "col": 21, "resolution": "exact"}]
    assert "- `Service.load` · shop · `src/main/java/shop/Service.java:6` (exact) → " in render_markdown(report)
    assert report_json(report)["summary"]["call_sites"] == 1


def test_each_endpoint_says_how_sure_its_path_is(shop) -> None:
    s, ids = shop
    report = blast_radius(s, SymbolQuery(ids["impl"]))
    assert [(h.path, h.hops, h.certainty) for h in report.endpoints] == [("/show", 2, "exact"), ("/guess", 3, "name")]
    # Service.load is reached through the exact edge to the declaration, not the inferred one to the implementation.
    assert [(r.node.qualname, r.parent, r.certainty) for r in report.hops[0]] == [("Service.load", ids["decl"], "exact")]
    assert [s.name for s in report.endpoints[0].example] == ["GET /show", "Web.show", "Service.load", "Repo.find"]
    text = render_markdown(report)
    assert "| GET | `/guess` | shop | 3 | name | `GET /guess` → `Web.guess` → `Odd.pick` → `Service.load` → `Repo.find` |" in text
    assert "- `Odd.pick` · shop · `src/main/java/shop/Odd.java:2` · through a name binding" in text
    assert [e["certainty"] for e in report_json(report)["endpoints"]] == ["exact", "name"]


def test_callers_are_named_per_hop_then_counted_and_the_diagram_collapses(tmp_path: Path) -> None:
    r = Repo("big", "python")
    target = r.node("lib/core.py", "core", "0", 1, 2, "Function")
    for i in range(45):
        fn = r.node(f"app/m{i:02}.py", f"f{i:02}", "0", 3, 4, "Function")
        r.edge("CALLS", fn, target, f"app/m{i:02}.py", 4, 4, "exact")
    s = EmbeddedStore(tmp_path / "big.db")
    s.replace_files(list(r.files.values()))
    report = blast_radius(s, SymbolQuery(target))
    s.close()
    text = render_markdown(report, per_hop=3)
    assert ("### Hop 1 · 45 callers\n\n- `f00` · big · `app/m00.py:3`\n- `f01` · big · `app/m01.py:3`\n"
            "- `f02` · big · `app/m02.py:3`\n- … and 42 more\n") in text
    assert mermaid_diagram(report) == (
        'flowchart LR\n  t0(["core"])\n  h1["hop 1 · 45 callers"]\n  t0 --> h1\n  s["1 service: big"]')
    # 46 nodes are drawn one by one when the limit allows it.
    assert mermaid_diagram(report, max_nodes=46).count(" --> ") == 45
    data = report_json(report, per_hop=3)
    assert (data["hops"][0]["count"], len(data["hops"][0]["callers"]), data["hops"][0]["more"]) == (45, 3, 42)


def test_mermaid_labels_are_escaped() -> None:
    assert mermaid_text('a"b<c>d&e#f`g\nh') == "a#quot;b#lt;c#gt;d#amp;e#35;f#96;g h"
    assert mermaid_text("GET /a/{id}|[x]") == "GET /a/{id}|[x]"


def test_hover_and_code_lens_show_the_report_numbers(shop) -> None:
    """Hover and code lens summarise the report's own numbers: tests apart, the call bound to the
    interface and to its implementation once."""
    from lsp_server.features.hover import markdown

    s, ids = shop
    node = s.get_nodes([ids["impl"]])[ids["impl"]]
    report = blast_radius(s, SymbolQuery(ids["impl"]))
    hover = markdown(node, report)
    assert ("**Impact:** 1 caller · 2 endpoints · 3 tests — 1 call site; 4 nodes reached within 5 hops (1 / 2 / 1 by hop)"
            in hover)
    assert render_markdown(report).startswith(
        "# Blast radius of `JdbcRepo.find`\n\n**1 direct caller · 2 endpoints · 3 tests** · 1 service · 4 nodes reached within 5 hops")


def _cli(*args: str, code: int = 0) -> str:
    from click.testing import CliRunner

    from lsp_server.cli import main

    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == code, result.output
    return result.output


def test_cli_tests_option_and_path_line_for_callers_and_references(tmp_path: Path, monkeypatch) -> None:
    import json

    s, ids = _store(tmp_path)
    s.close()
    db = str(tmp_path / "i.db")
    monkeypatch.chdir(tmp_path)
    apart = json.loads(_cli("impact", ids["load"], "--db", db, "--json"))
    assert (apart["tests_mode"], [c["qualname"] for c in apart["callers"]], apart["summary"]["tests"]) == (
        "apart", ["Odd.pick", "Web.show"], 3)
    only = json.loads(_cli("impact", ids["load"], "--db", db, "--json", "--tests", "only"))
    assert [c["qualname"] for c in only["callers"]] == ["ServiceTest.loads", "test_load"]
    text = _cli("impact", ids["load"], "--db", db, "--tests", "include", "--per-hop", "1")
    assert "### Hop 1 · 4 callers\n\n- `Odd.pick` · shop · `src/main/java/shop/Odd.java:2` · through a name binding\n- … and 3 more\n" in text
    assert "Invalid value for '--tests'" in _cli("impact", ids["load"], "--db", db, "--tests", "none", code=2)
    # callers / references take PATH:LINE[:COL] (1-based) like impact: line 6 of Web.java is inside Web.show;
    # Service.java:6:21 is the call bound to Repo.find and JdbcRepo.find.
    assert _cli("callers", f"{WEB}:6", "--db", db).splitlines()[:2] == [
        "shop:src/main/java/shop/Web.Web.show(int)  (method, src/main/java/shop/Web.java:5)", "0 call sites"]
    # The count line says what `search` (callers) and `impact` (direct callers, tests apart) count.
    assert _cli("callers", "Service.java:5", "--db", db).splitlines()[1] == "4 call sites from 4 callers (2 in test code)"
    data = json.loads(_cli("callers", "Service.java:5", "--db", db, "--json"))
    assert (data["targets"], [(c["from"], c["line"], c["col"]) for c in data["callers"]]) == (
        [ids["load"]], [(ids["pick"], 3, 9), (ids["show"], 6, 9), (ids["loads"], 7, 9), (ids["test_load"], 4, 5)])
    data = json.loads(_cli("references", f"{SVC}:6:21", "--db", db, "--json"))
    assert sorted(data["targets"]) == sorted([ids["decl"], ids["impl"]])
    assert "nope.py is not a file of the index" in _cli("callers", "nope.py:3", "--db", db, code=1)


def test_a_name_of_symbols_in_several_files_says_so(tmp_path: Path) -> None:
    # go-base: `impact AccountStore.Update` took the interfaces of packages admin and app and the struct of
    # database, and its answer (the admin route too) read as the struct's. The report now says the name selected
    # symbols of three files; a name of one file's symbol (or overloads) says nothing
    r = Repo("gobase", "go")
    admin = r.node("api/admin/accounts.go", "AccountStore.Update", "1", 27, 27)
    app = r.node("api/app/account.go", "AccountStore.Update", "1", 26, 26)
    db = r.node("database/accountStore.go", "AccountStore.Update", "1", 37, 44)
    get = r.node("database/accountStore.go", "AccountStore.Get", "1", 26, 34)
    r.edge("CALLS", r.node("api/app/account.go", "AccountResource.update", "2", 101, 115), app,
           "api/app/account.go", 109, 21, "exact")
    s = EmbeddedStore(tmp_path / "g.db")
    try:
        s.replace_files(list(r.files.values()))
        report = blast_radius(s, SymbolQuery("AccountStore.Update"))
        assert sorted(t.node.id for t in report.targets if t.role == "selected") == sorted([admin, app, db])
        text = render_markdown(report)
        assert ("`AccountStore.Update` names 3 symbols in 3 files (api/admin/accounts.go, api/app/account.go, "
                "database/accountStore.go); this is the blast radius of them all. Ask for one by `PATH:LINE` or a "
                "longer qualified name.") in text
        assert "names" not in render_markdown(blast_radius(s, SymbolQuery("AccountStore.Get"))).split("## Targets")[0]
        assert get
    finally:
        s.close()
