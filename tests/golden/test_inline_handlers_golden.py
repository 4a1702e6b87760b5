"""Golden blast-radius reports on an Express application whose route handlers are written inline
(tests/fixtures/inline-handlers): a service function called from one inline handler reaches that
handler's endpoint only (issue 14: before, every endpoint of the router file). The markdown is
compared with ``snapshots/<name>.md`` byte for byte, step times masked; ``RIPPLE_UPDATE_GOLDEN=1``
rewrites the snapshots (review the diff before committing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from tests.golden.harness import check_snapshot, index_fixture

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "inline-handlers"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = index_fixture(FIXTURE, tmp_path_factory.mktemp("golden") / "inline.db", "inline-handlers")
    yield s
    s.close()


_check = check_snapshot


def _endpoints(report) -> list[tuple[str, str, int]]:
    return [(h.http_method, h.path, h.hops) for h in report.endpoints]


def test_service_called_from_one_inline_handler_reaches_its_endpoint_only(store) -> None:
    report = blast_radius(store, SymbolQuery("deleteOrder"))
    assert _endpoints(report) == [("DELETE", "/api/orders/{}", 1)]  # not GET /api/orders{,/{}}, POST, /health
    _check("inline_delete_order", render_markdown(report))


def test_service_called_from_two_inline_handlers_reaches_both(store) -> None:
    report = blast_radius(store, SymbolQuery("record"))
    assert _endpoints(report) == [("POST", "/api/orders", 1), ("DELETE", "/api/orders/{}", 1)]
    _check("inline_audit_record", render_markdown(report))


def test_handler_on_the_application_itself(store) -> None:
    report = blast_radius(store, SymbolQuery("health"))
    assert _endpoints(report) == [("GET", "/health", 1)]
