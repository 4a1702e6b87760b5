"""A blast radius says how many call sites of the target's name the index left unbound (their
receiver's type unknown): "0 direct callers" must not read as complete when such calls exist (a
newcomer's report: express ``app.render`` with ``app.render(view, opts, done)`` kept unbound)."""

from __future__ import annotations

from pathlib import Path

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown, report_json
from stores.embedded import EmbeddedStore
from tests.index_harness import index_files

FILES = {
    "app/__init__.py": "",
    "app/views.py": "class Page:\n    def render(self, name, ctx):\n        return name\n\n\ndef show(page: Page):\n    return page.render('a', {})\n",
    "app/mail.py": "class Template:\n    def render(self, name, ctx):\n        return ctx\n\n\n"
                   "def send(template, x):\n    return template.render('b', x)\n",
    "tests/test_mail.py": "def test_send(tpl):\n    tpl.render('c', 1)\n",
}


def _store(tmp_path: Path) -> EmbeddedStore:
    return index_files(tmp_path / "src", FILES, "r", db=tmp_path / "x.db")


def test_unbound_calls_of_the_name_are_counted_and_named(tmp_path: Path) -> None:
    store = _store(tmp_path)
    try:
        # two receivers of unknown type call `render`: the name fallback cannot choose between
        # Page.render and Template.render, so both stay unbound
        assert sorted((u.file, u.line) for u in store.unresolved_calls(["render"])["render"]) == [
            ("app/mail.py", 7), ("tests/test_mail.py", 2)]
        report = blast_radius(store, SymbolQuery("Page.render"))
        assert [c.node.qualname for c in report.callers] == ["show"]
        assert report.unbound == 2
        note = ("2 call sites named `render` left unbound (the receiver's type is unknown): they may call it too, "
                "e.g. app/mail.py:7, tests/test_mail.py:2")
        assert note in report.truncated
        text = render_markdown(report)
        assert "· 2 unbound call sites of that name (see Truncated)" in text and f"- {note}" in text
        assert report_json(report)["unbound"] == 2
        # test code left out: only the application's site
        excluded = blast_radius(store, SymbolQuery("Page.render"), tests="exclude")
        assert excluded.unbound == 1 and any(t.endswith("e.g. app/mail.py:7") for t in excluded.truncated)
        # a function nothing else is named like: no note
        quiet = blast_radius(store, SymbolQuery("show"))
        assert quiet.unbound == 0 and not any("unbound" in t for t in quiet.truncated)
    finally:
        store.close()
