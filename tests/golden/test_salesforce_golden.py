"""Golden blast-radius reports across Apex, Lightning Web Components and an HTTP client
(tests/fixtures/salesforce-app, indexed with the real pipeline): Apex called by LWC (``@wire`` and
imperative imports of ``@salesforce/apex/...``), by a trigger, a scheduled job and a Queueable, and an
Apex REST resource called by a Node portal. Exact callers, endpoints and entry points are asserted,
with what must not count; markdown is compared with ``snapshots/<name>.md`` byte for byte
(``RIPPLE_UPDATE_GOLDEN=1`` rewrites them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from tests.golden.harness import check_snapshot, index_fixture

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "salesforce-app"
REPO = "salesforce-app"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = index_fixture(FIXTURE, tmp_path_factory.mktemp("golden") / "sf.db", REPO)
    yield s
    s.close()


def _reached(report) -> list[tuple[str, int]]:
    return [(r.node.qualname, r.hops) for level in report.hops for r in level]


def test_repository_save_reaches_components_trigger_job_and_rest(store) -> None:
    report = blast_radius(store, SymbolQuery("AccountRepo.save"))
    assert _reached(report) == [
        ("AccountService.createAccount", 1), ("AccountService.renameAccount", 1),
        ("NightlyCleanup.execute", 2), ("AccountCard.load", 2), ("ContactList.handleRename", 2),
        # the portal's `fetch(.../services/apexrest/accounts/, {method: 'POST'})`, over HTTP
        ("AccountTrigger", 2), ("createAccount", 2), ("AccountCard.connectedCallback", 3),
    ]
    assert [(h.http_method, h.path, h.handler.qualname) for h in report.endpoints] == [
        ("POST", "/services/apexrest/accounts", "AccountService.createAccount"),
        ("POST", "/services/apexrest/accounts/{}", "AccountService.createAccount"),
    ]
    assert [(p.node.qualname, p.kinds, p.hops) for p in report.entry_points] == [
        ("AccountService.createAccount", ("http",), 1),
        ("AccountService.renameAccount", ("lightning",), 1),
        ("NightlyCleanup.execute", ("scheduled",), 2),
        ("AccountTrigger", ("trigger", "salesforce"), 2),  # and a consumer of Account's record events
        ("AccountCard.connectedCallback", ("runtime",), 3),
    ]
    # the @IsTest class is a test, kept apart from production callers
    assert [t.node.qualname for t in report.tests] == ["AccountServiceTest.renames"]
    check_snapshot("salesforce_repo_save", render_markdown(report))


def test_rest_resource_is_reached_by_the_portal_client(store) -> None:
    report = blast_radius(store, SymbolQuery("AccountService.getAccount"))
    assert _reached(report) == [("loadAccount", 1)]
    assert [(h.http_method, h.path) for h in report.endpoints] == [
        ("GET", "/services/apexrest/accounts"), ("GET", "/services/apexrest/accounts/{}")]
    check_snapshot("salesforce_rest_resource", render_markdown(report))


def test_wired_apex_method_lists_the_component_class_only(store) -> None:
    report = blast_radius(store, SymbolQuery("AccountService.getContacts"))
    assert _reached(report) == [("ContactList", 1)]
    assert [(p.node.qualname, p.kinds) for p in report.entry_points] == [("AccountService.getContacts", ("lightning",))]


def test_future_callout_reaches_queueable_and_billing_endpoint_client(store) -> None:
    report = blast_radius(store, SymbolQuery("BillingClient.syncAccounts"))
    assert _reached(report) == [
        ("AccountService.execute", 1), ("AccountService.createAccount", 2), ("createAccount", 3)]
