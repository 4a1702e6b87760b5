"""Golden blast-radius reports over the data layer (tests/fixtures/data-java, issue 20 item 3): the
"Tables" section (every table the targets and their callees within the depth read or write, R / W,
with the columns) and a table as the target (``table:owners``, ``table:owners.status``): the methods
reading or writing it, then upward the callers and the endpoints reaching them. The markdown is
compared with ``snapshots/<name>.md`` byte for byte, step times masked; ``RIPPLE_UPDATE_GOLDEN=1``
rewrites the snapshots (review the diff before committing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown, report_json
from tests.golden.harness import FIXTURES, check_snapshot, index_fixture


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = index_fixture(FIXTURES / "data-java", Path(tmp_path_factory.mktemp("golden")) / "data.db", "data-java")
    yield s
    s.close()


def _tables(report) -> list[tuple[str, str, str, tuple[str, ...], int]]:
    return [(h.table.qualname, h.via.qualname, h.role, h.columns, h.hops) for h in report.tables]


def test_tables_section_of_a_controller_method(store) -> None:
    report = blast_radius(store, SymbolQuery("OwnerController.rename"))
    # rename -> OwnerService.rename (hop 1): JDBC UPDATE owners SET last_name ... WHERE id
    assert _tables(report) == [("owners", "OwnerService.rename", "RW", ("id", "last_name"), 1)]
    check_snapshot("tables_controller_rename", render_markdown(report))
    data = report_json(report)
    assert data["summary"]["tables"] == 1
    assert data["tables"][0]["access"] == "RW" and data["tables"][0]["via"]["line"] == 43


def test_tables_section_walks_down_to_declared_repository_methods(store) -> None:
    report = blast_radius(store, SymbolQuery("OwnerService.active"), depth=1)
    assert _tables(report) == [("owners", "OwnerRepository.findByEmailAndStatus", "R", ("email", "status"), 1)]


def test_table_target_report(store) -> None:
    report = blast_radius(store, SymbolQuery("table:owners"))
    assert sorted(t.node.qualname for t in report.targets if t.role == "selected") == [
        "OwnerMapper.search", "OwnerMapper.touch",
        "OwnerRepository.byName", "OwnerRepository.deleteByLastName", "OwnerRepository.findByEmailAndStatus",
        "OwnerRepository.retire", "OwnerService.find", "OwnerService.register", "OwnerService.rename",
    ]
    assert sorted((h.http_method, h.path) for h in report.endpoints) == [
        ("GET", "/owners/{}"), ("POST", "/owners"), ("POST", "/owners/{}/name")]
    check_snapshot("tables_target_owners", render_markdown(report))


def test_column_target_report(store) -> None:
    report = blast_radius(store, SymbolQuery("table:owners.email"))
    assert sorted(t.node.qualname for t in report.targets if t.role == "selected") == [
        "OwnerMapper.search", "OwnerRepository.findByEmailAndStatus", "OwnerService.find", "OwnerService.register"]
    check_snapshot("tables_target_owners_email", render_markdown(report))
