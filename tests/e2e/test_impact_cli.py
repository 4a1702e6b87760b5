"""End to end: ``ripple impact`` on a workspace it indexes itself (plain code, no framework), and on an
index of three services written through the store contract (the cross-service graph of
tests/unit/test_impact.py), as markdown and as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lsp_server.cli import main
from stores.embedded import EmbeddedStore
from tests.unit.test_impact import CREATE_VISIT, FIND, JPA, PAGE_PY, SHOW, files

FILES = {
    "app/__init__.py": "",
    "app/repo.py": '''
class OwnerRepository:
    def find(self, owner_id):
        return None
''',
    "app/service.py": '''
from app.repo import OwnerRepository


def lookup(owner_id):
    return OwnerRepository().find(owner_id)


def rename(owner_id, name):
    owner = lookup(owner_id)
    return owner
''',
    "app/cli.py": '''
from app.service import rename


def main():
    rename(1, "x")
''',
}


@pytest.fixture(scope="module")
def plain_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("impact") / "shop"
    for rel, text in FILES.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text.lstrip("\n"), encoding="utf-8")
    result = CliRunner().invoke(main, ["index", str(root), "--no-embed", "--jobs", "1", "--json"])
    assert result.exit_code == 0, result.output
    return root / ".ripple" / "index.db"


@pytest.fixture(scope="module")
def services_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("services") / "index.db"
    store = EmbeddedStore(db)
    store.replace_files(files())
    store.close()
    return db


def impact(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, ["impact", *args])
    assert result.exit_code == code, result.output
    return result.stdout


def test_plain_markdown_with_path_line_locations(plain_db: Path) -> None:
    text = impact("OwnerRepository.find", "--db", str(plain_db))
    body = text.split("## Steps executed")[0]
    assert body == """\
# Blast radius of `OwnerRepository.find`

**1 direct caller · 0 endpoints** · 1 service · 3 nodes reached within 5 hops

## Targets

- `app.repo.OwnerRepository.find` (method, selected) · shop · `app/repo.py:2`

## Direct callers

- `lookup` · shop · `app/service.py:5` (exact)

## Callers by hop

### Hop 1 · 1 caller

- `lookup` · shop · `app/service.py:4`

### Hop 2 · 1 caller

- `rename` · shop · `app/service.py:8`

### Hop 3 · 1 caller

- `main` · shop · `app/cli.py:4`

## Reachable endpoints

- none

## Topics

- none

## Tables

- none

## Other entry points

- `main` (main) · shop · 3 hops · `app/cli.py:4`

## Tests affected · 0

- none

## Services affected

| Repository | Nodes | Endpoints | Nearest hop |
|---|---|---|---|
| shop | 4 | 0 | 0 |

## Diagram

```mermaid
flowchart LR
  subgraph s0["shop"]
    t0(["OwnerRepository.find"])
    c0["lookup"]
    c1["rename"]
    c2["main"]
  end
  t0 --> c0
  c0 --> c1
  c1 --> c2
```

## Truncated

- nothing: every caller within 5 hops was followed

"""
    steps = text.split("## Steps executed")[1].splitlines()
    assert [row.split(" | ")[1] for row in steps[4:10]] == [
        "Targets", "Direct callers", "Upward walk", "Attach endpoints and topics", "Tables", "Report"]


def test_path_line_and_depth_as_json(plain_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(plain_db.parent.parent)
    data = json.loads(impact("app/service.py:9", "--depth", "1", "--json", "--db", str(plain_db)))
    assert [(t["id"], t["role"]) for t in data["targets"]] == [("shop:app/service.rename(2)", "selected")]
    assert [c["id"] for c in data["callers"]] == ["shop:app/cli.main(0)"]
    assert (data["callers_by_hop"], data["truncated"]) == ([1], [])
    data = json.loads(impact("service.py:5", "--depth", "1", "--json", "--db", str(plain_db)))
    assert [t["id"] for t in data["targets"]] == ["shop:app/service.lookup(1)"]
    assert data["truncated"] == ["depth 1 reached: 1 caller at hop 2 not followed"]


def test_cross_service_report_with_service_map(services_db: Path) -> None:
    args = [f"{JPA}:5", "--db", str(services_db), "--json"]
    data = json.loads(impact(*args, "--service", "owners-service=owners", "--service", "vets-service=vets"))
    assert [(e["http_method"], e["path"], e["repo"], e["hops"], e["handler"]["id"]) for e in data["endpoints"]] == [
        ("GET", "/owners/{}", "owners", 2, SHOW),
        ("POST", "/visits", "visits", 4, CREATE_VISIT),
        ("GET", "/pages/owner/{}", "web", 4, PAGE_PY),
    ]
    assert data["summary"]["text"] == "2 callers · 3 endpoints"
    assert data["callers_by_hop"] == [2, 3, 3, 2, 1]
    assert data["round_trips"] == 22  # one registry read (applications), one outgoing for the Tables section, one for unbound calls of the name
    # Without the service map the client of the vets service is followed too.
    assert json.loads(impact(*args))["callers_by_hop"] == [2, 3, 4, 2, 1]
    text = impact(FIND, "--db", str(services_db), "--service", "owners-service=owners,vets-service=vets")
    assert "| GET | `/owners/{}` | owners | 1 | exact | `GET /owners/{}` → `OwnerController.show` → `OwnerService.find` |" in text
    # The test that reaches main is kept apart from the callers: named in its own section, counted in the headline.
    assert "**3 direct callers · 3 endpoints · 1 topic · 1 test** · 3 services" in text
    assert "## Tests affected · 1\n\n- hop 5 · `test_main` · web · `tests/test_cli.py:3`\n" in text


def test_a_fuzzy_name_keeps_every_qualifier_written(plain_db: Path) -> None:
    # The search fallback matches the name up to case and separators, and so every qualifier before
    # it: `owner_repository.FIND` is OwnerRepository.find, `Nope.find` names nothing (it used to
    # answer for OwnerRepository.find without a word).
    assert impact("owner_repository.FIND", "--db", str(plain_db)).startswith(
        "# Blast radius of `OwnerRepository.find`\n\n**1 direct caller · 0 endpoints**")
    result = CliRunner().invoke(main, ["impact", "Nope.find", "--db", str(plain_db)])
    assert result.exit_code != 0 and "no symbol matches 'Nope.find'" in result.output


def test_errors_are_clear(plain_db: Path, services_db: Path) -> None:
    assert "no symbol matches 'Nope.nothing'" in CliRunner().invoke(main, ["impact", "Nope.nothing", "--db", str(plain_db)]).output
    assert json.loads(impact("Nope.nothing", "--db", str(plain_db), "--json", code=1))["targets"] == []
    assert "is not a file of the index" in CliRunner().invoke(main, ["impact", "nope.py:3", "--db", str(plain_db)]).output
    # an indexed file, a line outside every definition (the import): said so, not "no symbol matches"
    out = CliRunner().invoke(main, ["impact", "app/service.py:1", "--db", str(plain_db)]).output
    assert out == ("Error: nothing is defined at app/service.py:1 (outside every method, function and class); nearest: "
                   "lookup at app/service.py:4: give a line inside a method, function or class (PATH:LINE), or its name\n")
    # between two definitions: both, each with its line; the same words from callers and references
    for command in ("impact", "callers", "references"):
        out = CliRunner().invoke(main, [command, "app/service.py:7", "--db", str(plain_db)]).output
        assert out == ("Error: nothing is defined at app/service.py:7 (outside every method, function and class); "
                       "nearest: lookup at app/service.py:4 or rename at app/service.py:8: give a line inside a "
                       "method, function or class (PATH:LINE), or its name\n"), command
    # a file without definitions says so instead of offering nothing
    out = CliRunner().invoke(main, ["callers", "app/__init__.py:1", "--db", str(plain_db)]).output
    assert out == ("Error: nothing is defined at app/__init__.py:1 (outside every method, function and class; the file "
                   "defines no method, function or class): give a qualified name or a line of another file\n")
    out = CliRunner().invoke(main, ["impact", "x:1", "--service", "broken", "--db", str(plain_db)]).output
    assert "expected NAME=REPO" in out
    out = CliRunner().invoke(main, ["impact", "FIND", "--depth", "0", "--db", str(services_db)]).output
    assert "0 is not in the range 1<=x<=20" in out


def test_a_bare_name_says_what_else_it_matched(tmp_path: Path) -> None:
    # `callers`, `impact` and the agent tools pick the same definition for a bare name and all name the others.
    root = tmp_path / "app"
    root.mkdir()
    (root / "routes.py").write_text("def follow(name):\n    return name\n", encoding="utf-8")
    (root / "models.py").write_text("class User:\n    def follow(self, other):\n        return other\n", encoding="utf-8")
    db = str(tmp_path / "i.db")
    assert CliRunner().invoke(main, ["index", str(root), "--db", db, "--no-embed", "--jobs", "1"]).exit_code == 0
    data = json.loads(impact("follow", "--db", db, "--json"))
    assert ([t["id"] for t in data["targets"]], data["also_named"]) == (
        ["app:routes.follow(1)"], ["app:models.User.follow(1)"])
    result = CliRunner().invoke(main, ["impact", "follow", "--db", db])
    assert result.exit_code == 0
    assert "also named 'follow', not shown: models.User.follow (qualify the name to choose)" in result.output
    callers = CliRunner().invoke(main, ["callers", "follow", "--db", db]).output.splitlines()
    assert callers[:2] == ["app:routes.follow(1)  (function, routes.py:1)",
                           "also named 'follow', not shown: models.User.follow (qualify the name to choose)"]
    assert json.loads(impact("User.follow", "--db", db, "--json"))["also_named"] == []
