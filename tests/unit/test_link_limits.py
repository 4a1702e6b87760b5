"""Bounds of the linker (indexer/frameworks/link.py) against hostile repositories: what it renders
into node ids stays bounded."""

from __future__ import annotations

from indexer.frameworks.link import MAX_RENDERED, TRUNCATED
from tests.resolution_harness import resolve_fixture


def test_names_longer_than_the_render_cap_are_cut_to_it() -> None:
    # Hostile review D9: send_task with a 200,000-character literal made a topic node of that id.
    long = "t" * 3000
    fixture = f"""
# --- path: app/tasks.py ---
from celery import Celery

app = Celery("app")

def enqueue():
    app.send_task("{long}")
    app.send_task("mail.send")
"""
    result = resolve_fixture(fixture)
    produced = sorted(e.dst for f in result.files for e in f.edges if e.kind == "PRODUCES")
    # js50: cut at the cap and marked (the id stays bounded), no longer dropped as unknown
    assert produced == ["topic:celery:mail.send", f"topic:celery:{long[:MAX_RENDERED]}{TRUNCATED}"]
