"""Functions handed to a library that runs them (indexer/languages/python/frameworks/deferred_calls.py):
FastAPI / Starlette background tasks, threads, executors. The shape of mealie's
``mealie/routes/recipe/recipe_crud_routes.py``: ``bg_tasks.add_task(bulk_scraper.scrape, urls)`` in a
route, ``bulk_scraper`` built from a repository class. Exact CALLS edges (``via`` library: ``inferred``),
the endpoint a blast radius reaches through them, and what must not be linked: a name the resolver cannot
type (never matched by name), a function handed to a callable that does not run it."""

from __future__ import annotations

import sqlite3

import pytest

from analysis.impact import SymbolQuery, blast_radius
from tests.golden.harness import index_fixture

SERVICE = '''\
class BulkScraper:
    def scrape(self, urls):
        return urls

    def report(self):
        return 1


class Other:
    def scrape(self, urls):
        return None


def cleanup():
    return 0


def by_name(x):
    return x
'''

ROUTES = '''\
import threading
from concurrent.futures import ThreadPoolExecutor

from fastapi import APIRouter, BackgroundTasks
from starlette.concurrency import run_in_threadpool

from app.service import BulkScraper, by_name, cleanup

router = APIRouter(prefix="/recipes")


@router.post("/bulk")
def bulk(urls: list[str], bg_tasks: BackgroundTasks):
    scraper = BulkScraper()
    bg_tasks.add_task(scraper.scrape, urls)
    return {}


@router.post("/report")
async def report():
    scraper = BulkScraper()
    return await run_in_threadpool(scraper.report)


def jobs(pool: ThreadPoolExecutor, unknown):
    threading.Thread(target=cleanup, daemon=True).start()
    pool.submit(cleanup)
    pool.submit(unknown.scrape, [])
    return sorted([1], key=by_name)
'''


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("deferred") / "src"
    (root / "app").mkdir(parents=True)
    (root / "app" / "__init__.py").write_text("", encoding="utf-8")
    (root / "app" / "service.py").write_text(SERVICE, encoding="utf-8")
    (root / "app" / "routes.py").write_text(ROUTES, encoding="utf-8")
    s = index_fixture(root, root.parent / "i.db", "shop")
    yield s
    s.close()


def _callers(store, qualname: str) -> list[tuple[str, int, int, str]]:
    with sqlite3.connect(store.path) as db:
        rows = db.execute(
            "SELECT s.qualname, e.line, e.col, e.resolution FROM edges e JOIN nodes n ON n.id = e.dst"
            " JOIN nodes s ON s.id = e.src WHERE e.kind = 'CALLS' AND n.qualname = ?", (qualname,)).fetchall()
    return sorted(rows)


def test_a_background_task_and_a_threadpool_run_are_calls_from_the_route(store):
    assert _callers(store, "BulkScraper.scrape") == [("bulk", 15, 30, "inferred")]
    assert _callers(store, "BulkScraper.report") == [("report", 22, 43, "inferred")]
    endpoints = sorted(f"{h.http_method} {h.path}" for h in blast_radius(store, SymbolQuery("BulkScraper.scrape")).endpoints)
    assert endpoints == ["POST /recipes/bulk"]


def test_a_thread_target_and_an_executor_submit_are_calls(store):
    assert _callers(store, "cleanup") == [("jobs", 26, 28, "inferred"), ("jobs", 27, 16, "inferred")]


def test_an_untyped_handed_name_and_a_key_function_link_nothing(store):
    # `unknown.scrape` handed to submit: no value, so no name match onto either `scrape`
    assert _callers(store, "Other.scrape") == []
    assert [c for c in _callers(store, "BulkScraper.scrape") if c[0] == "jobs"] == []
    # sorted() calls its key where it is called: the builtins' rule (the module system's library_callbacks),
    # not this detector's
    assert _callers(store, "by_name") == [("jobs", 29, 27, "inferred")]
