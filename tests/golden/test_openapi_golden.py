"""Golden blast-radius reports over API-first services (tests/fixtures/openapi): a Spring service whose
endpoints an OpenAPI 3 spec declares (``api/petstore.yaml``, one path item in ``api/paths/pet.yaml``)
and whose controllers implement the generated ``PetsApi`` / ``StoresApiDelegate`` (not in the
repository), with a TypeScript front end calling the generated axios client ``PetsApi``; a connexion
app (Swagger 2.0, dotted operationIds and ``x-swagger-router-controller``) with an
openapi-python-client caller. Exact endpoint lists with their operationIds, and the negative cases: a
method named like an operation in a class implementing no generated API, a call of a same-named
method on an object that is no generated client, a ``$ref`` out of the repository, a YAML file with
``openapi:`` nested below the top level, a dotted operationId naming no function.
``RIPPLE_UPDATE_GOLDEN=1`` rewrites the snapshots."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.golden.harness import check_snapshot

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "openapi"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory):
    s = EmbeddedStore(tmp_path_factory.mktemp("golden") / "openapi.db")
    reports = {name: index_repository(FIXTURE / name, s, s, IndexOptions(repo=name, jobs=1))
               for name in ("petstore", "connexion")}
    yield s, reports
    s.close()


_check = check_snapshot


def _endpoints(report) -> list[tuple[str, str, str, int, str, str | None]]:
    return [(h.http_method, h.path, h.handler.qualname, h.hops, h.certainty, h.operation_id) for h in report.endpoints]


def test_link_outcomes(indexed) -> None:
    _, reports = indexed
    # PetsController: listPets, createPets, showPetById; StoresDelegate: getStore; the front end
    # calls listPets and deletePet. connexion: 3 operations handled, handlers.missing.health is not.
    assert reports["petstore"].links == {"calls_http": 2, "exposes": 4}
    # entry: app.py's `if __name__ == "__main__"` (a cli entry point)
    assert reports["connexion"].links == {"calls_http": 2, "entry": 1, "exposes": 3, "unlinked_handler": 1}


def test_implementation_of_the_generated_interface_exposes_the_operation_and_the_client_reaches_it(indexed) -> None:
    store, _ = indexed
    report = blast_radius(store, SymbolQuery("PetRepository.findAll"))
    # LegacyPets.listPets (implements Runnable only) calls findAll too but exposes nothing
    assert _endpoints(report) == [("GET", "/v1/pets", "PetsController.listPets", 1, "exact", "listPets")]
    reached = [(r.node.qualname, r.node.file, i + 1, r.certainty) for i, hop in enumerate(report.hops) for r in hop]
    # new PetsApi(...).listPets() through the spec; catalogue.listPets() (browse) is no generated client
    assert reached == [
        ("LegacyPets.listPets", "src/main/java/org/pets/LegacyPets.java", 1, "exact"),
        ("PetsController.listPets", "src/main/java/org/pets/PetsController.java", 1, "exact"),
        ("loadPets", "frontend/src/pets.ts", 2, "exact"),
        ("LegacyPets.run", "src/main/java/org/pets/LegacyPets.java", 2, "exact"),
    ]
    _check("openapi_find_all", render_markdown(report))


def test_delegate_and_a_referenced_path_item(indexed) -> None:
    store, _ = indexed
    report = blast_radius(store, SymbolQuery("PetRepository.findById"))
    assert _endpoints(report) == [
        ("GET", "/v1/pets/{}", "PetsController.showPetById", 1, "exact", "showPetById"),  # api/paths/pet.yaml
        ("GET", "/v1/stores/{}", "StoresDelegate.getStore", 1, "exact", "getStore"),  # StoresApiDelegate
    ]
    _check("openapi_find_by_id", render_markdown(report))


def test_edges_carry_operation_and_match(indexed) -> None:
    store, _ = indexed
    ids = ["endpoint:GET /v1/pets", "endpoint:DELETE /v1/pets/{}", "endpoint:GET /api/animals"]
    edges = store.incoming(ids, ["EXPOSES", "CALLS_HTTP"])
    got = sorted((e.kind, e.src.rsplit(":", 1)[-1], e.dst, e.props.get("operation_id"), e.props.get("match"),
                  e.props.get("framework")) for es in edges.values() for e in es)
    assert [g[0] for g in got] == ["CALLS_HTTP", "CALLS_HTTP", "CALLS_HTTP", "EXPOSES", "EXPOSES"]
    assert {(g[2], g[3], g[4], g[5]) for g in got} == {
        ("endpoint:DELETE /v1/pets/{}", "deletePet", "exact", "openapi-client"),  # PetsApi / tag pets
        ("endpoint:GET /v1/pets", "listPets", "exact", "openapi-client"),
        ("endpoint:GET /v1/pets", "listPets", "exact", "openapi-generator"),
        # openapi-python-client's animals.list_animals: the spec's operation has no tags: by name
        ("endpoint:GET /api/animals", "handlers.animals.list_animals", "name", "openapi-client"),
        ("endpoint:GET /api/animals", "handlers.animals.list_animals", "exact", "connexion"),
    }
    nodes = store.get_nodes([*ids, "endpoint:GET /fake", "endpoint:GET /v1/fake", "endpoint:GET /v1/secret",
                             "endpoint:GET /secret", "endpoint:GET /api/health", "endpoint:POST /v1/pets"])
    assert nodes["endpoint:GET /v1/pets"].props == {"http_method": "GET", "path": "/v1/pets", "operation_id": "listPets"}
    # nested "openapi:" (config/settings.yaml), the $ref out of the repository, the unhandled health
    # operation: no endpoint; createPets is exposed, nobody calls it
    assert sorted(nodes) == ["endpoint:DELETE /v1/pets/{}", "endpoint:GET /api/animals", "endpoint:GET /v1/pets",
                             "endpoint:POST /v1/pets"]


def test_connexion_handlers_and_python_client(indexed) -> None:
    store, _ = indexed
    report = blast_radius(store, SymbolQuery("load"))
    assert _endpoints(report) == [
        ("GET", "/api/animals", "list_animals", 1, "exact", "handlers.animals.list_animals"),
        ("GET", "/api/animals/{}", "get_animal", 1, "exact", "get_animal"),  # x-swagger-router-controller
    ]
    reached = [(r.node.qualname, r.node.file, i + 1, r.certainty) for i, hop in enumerate(report.hops) for r in hop]
    # list_animals.sync(...) / get_animal.asyncio(...) of the generated client reach the handlers; the
    # spec's operations have no tags, so the client package "animals" matches them by name only
    assert reached == [
        ("list_animals", "handlers/animals.py", 1, "exact"),
        ("get_animal", "handlers/animals.py", 1, "exact"),
        ("count_animals", "client/report.py", 2, "name"),
        ("first_animal", "client/report.py", 2, "name"),
    ]
    _check("openapi_connexion_load", render_markdown(report))
