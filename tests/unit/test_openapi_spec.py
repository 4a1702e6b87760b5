"""The OpenAPI / Swagger reader (:mod:`indexer.frameworks.openapi`): specs found by content, base
paths, ``$ref`` inside the repository only, and hostile documents (aliases, cycles, junk)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from indexer.frameworks import openapi
from indexer.frameworks.openapi import ApiOperation, load_operations, looks_like_spec, parse_document

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "openapi"


def _ops(specs) -> list[tuple[str, str, str]]:
    return [(o.method, o.path, o.operation_id) for o in specs.operations]


def test_fixture_spec_with_a_referenced_path_item_and_a_server_base_path() -> None:
    specs = load_operations(FIXTURES / "petstore")
    assert specs.operations == (
        ApiOperation("GET", "/v1/pets", "listPets", ("pets",), "api/petstore.yaml", base="/v1"),
        ApiOperation("POST", "/v1/pets", "createPets", ("pets",), "api/petstore.yaml", base="/v1"),
        ApiOperation("GET", "/v1/pets/{petId}", "showPetById", ("pets",), "api/petstore.yaml", base="/v1"),
        ApiOperation("DELETE", "/v1/pets/{petId}", "deletePet", ("pets",), "api/petstore.yaml", base="/v1"),
        ApiOperation("GET", "/v1/stores/{storeId}", "getStore", ("stores",), "api/petstore.yaml", base="/v1"),
    )
    # config/settings.yaml nests "openapi:" under "docs": no spec, its fakeOperation is not declared;
    # /secret's $ref climbs out of the repository: not read, counted
    assert specs.files == frozenset({"api/petstore.yaml", "api/paths/pet.yaml"})
    assert specs.skipped == (("ref_outside", 1),)


def test_swagger_base_path_and_connexion_handlers() -> None:
    specs = load_operations(FIXTURES / "connexion")
    assert [(o.method, o.path, o.handler) for o in specs.operations] == [
        ("GET", "/api/animals", "handlers.animals.list_animals"),
        ("POST", "/api/animals", "handlers.animals.add_animal"),
        ("GET", "/api/animals/{animal_id}", "handlers.animals.get_animal"),  # x-swagger-router-controller
        ("GET", "/api/health", "handlers.missing.health"),
    ]


def test_a_ref_out_of_the_repository_is_never_read(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "api").mkdir(parents=True)
    (tmp_path / "x.yaml").write_text("get:\n  operationId: stolen\n")
    (repo / "api" / "spec.yaml").write_text(
        "openapi: 3.1.0\npaths:\n  /a:\n    $ref: '../../x.yaml'\n  /b:\n    $ref: '/etc/passwd'\n"
        "  /c:\n    $ref: 'https://example.com/x.yaml'\n  /d:\n    get: {operationId: kept}\n")
    (repo / "api" / "link.yaml").symlink_to(tmp_path / "x.yaml")
    (repo / "api" / "via-link.yaml").write_text("openapi: 3.0.0\npaths:\n  /e:\n    $ref: 'link.yaml'\n")
    specs = load_operations(repo)
    assert _ops(specs) == [("GET", "/d", "kept")]
    assert dict(specs.skipped) == {"ref_outside": 3, "ref_remote": 1}


def test_json_spec_server_variables_and_per_path_servers(tmp_path: Path) -> None:
    doc = {
        "info": {"title": "x"},
        "servers": [{"url": "https://{host}/{base}", "variables": {"host": {"default": "h"}, "base": {"default": "api/v2"}}}],
        "paths": {
            "/orders/{id}": {"get": {"operationId": "getOrder"},
                             "patch": {"operationId": "patchOrder", "servers": [{"url": "/admin"}]}},
            "/health": {"servers": [{"url": "http://x"}], "get": {}},
            "x-extension": {"get": {"operationId": "no"}},
        },
        "openapi": "3.0.1",
    }
    (tmp_path / "orders.json").write_text(json.dumps(doc))
    (tmp_path / "package.json").write_text('{"name": "x", "config": {"openapi": "3.0.0", "paths": {}}}')
    assert _ops(load_operations(tmp_path)) == [
        ("PATCH", "/admin/orders/{id}", "patchOrder"),  # the operation's own servers
        ("GET", "/api/v2/orders/{id}", "getOrder"),  # {host}/{base} filled with their defaults
        ("GET", "/health", ""),  # the path item's servers: http://x has no path
    ]


def test_internal_and_fragment_refs_and_a_ref_cycle(tmp_path: Path) -> None:
    (tmp_path / "common.yaml").write_text("items:\n  pets:\n    get: {operationId: listPets}\n")
    (tmp_path / "spec.yaml").write_text(
        "swagger: '2.0'\nbasePath: /v1/\npaths:\n"
        "  /pets:\n    $ref: 'common.yaml#/items/pets'\n"
        "  /loop:\n    $ref: '#/x-loop'\n"
        "  /missing:\n    $ref: 'common.yaml#/items/nothing'\n"
        "x-loop:\n  $ref: '#/x-loop'\n")
    specs = load_operations(tmp_path)
    assert _ops(specs) == [("GET", "/v1/pets", "listPets")]
    assert dict(specs.skipped) == {"ref_depth": 1, "ref_missing": 1}
    assert specs.files == frozenset({"spec.yaml", "common.yaml"})


def test_billion_laughs_is_dropped_quickly(tmp_path: Path) -> None:
    lines = ["openapi: 3.0.0", "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [{', '.join(['*a' + str(i - 1)] * 10)}]" for i in range(1, 200)]
    lines += ["paths:", "  /x:", "    get: {operationId: x, tags: *a199}"]
    (tmp_path / "lol.yaml").write_text("\n".join(lines) + "\n")
    t0 = time.perf_counter()
    specs = load_operations(tmp_path)
    assert time.perf_counter() - t0 < 10  # a loose budget: it must not expand 10**200 items
    assert specs.operations == ()
    assert dict(specs.skipped) == {"aliases": 1}


def test_a_few_aliases_are_fine_and_junk_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "ok.yaml").write_text(
        "openapi: 3.0.0\nx-tags: &t [pets]\npaths:\n  /p:\n    get: {operationId: a, tags: *t}\n")
    (tmp_path / "broken.yaml").write_text("openapi: 3.0.0\npaths: {/p: [unclosed\n")
    (tmp_path / "binary.json").write_bytes(b'"openapi": \xff\xfe')
    (tmp_path / "deep.json").write_bytes(b'{"openapi": "3.0.0", "paths": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    (tmp_path / "list.yaml").write_text("- openapi: 3.0.0\n")
    specs = load_operations(tmp_path)
    assert [(o.path, o.tags) for o in specs.operations] == [("/p", ("pets",))]
    assert dict(specs.skipped) == {"unparsable": 3}


def test_looks_like_spec_and_parse_document() -> None:
    assert looks_like_spec(b"swagger: '2.0'\n") and looks_like_spec(b'{\n  "openapi" : "3.1.0"}')
    assert not looks_like_spec(b"docs:\n  title: openapi\n")
    assert parse_document(b"openapi: 3.0.0\n---\nsecond: doc\n", "a.yaml") == {"openapi": "3.0.0"}


def test_an_alias_bomb_in_a_server_variable_default_is_never_expanded(tmp_path: Path) -> None:
    # Hostile review D1: str() of the default expanded 10**7 shared lists (MemoryError); 90 aliases
    # stay under MAX_ALIASES, so only the scalar rule stops it. The default is ignored, not the spec.
    lines = ["openapi: 3.0.0", "x-l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"x-l{i}: &l{i} [{', '.join(['*l' + str(i - 1)] * 10)}]" for i in range(1, 9)]
    lines += ["servers: [{url: 'http://h/{v}/api', variables: {v: {default: *l8}}}]",
              "paths: {/a: {get: {operationId: a}}}"]
    (tmp_path / "spec.yaml").write_text("\n".join(lines) + "\n")
    t0 = time.perf_counter()
    specs = load_operations(tmp_path)
    assert time.perf_counter() - t0 < 10
    assert _ops(specs) == [("GET", "/{v}/api/a", "a")]


def test_paths_with_line_breaks_or_over_the_length_cap_are_skipped(tmp_path: Path) -> None:
    # They would become Endpoint node ids (hostile review D9).
    long = "/x" * 2000
    (tmp_path / "spec.json").write_text(json.dumps({"openapi": "3.0.0", "paths": {
        "/ok": {"get": {"operationId": "ok"}}, "/pets/{id}\n": {"get": {"operationId": "nl"}},
        long: {"get": {"operationId": "long"}}}}))
    specs = load_operations(tmp_path)
    assert _ops(specs) == [("GET", "/ok", "ok")]
    assert dict(specs.skipped) == {"bad_path": 2}


def test_candidates_that_are_no_spec_are_not_kept_parsed(tmp_path: Path, monkeypatch) -> None:
    # Hostile review D3: every file matching `"openapi":` stayed parsed (1.4 GB for 55 MB of them).
    # A candidate without `paths` is dropped after the check (its bytes leave the parsed budget); a
    # spec that $refs it parses it again. With the budget at 12.1 KB, three kept 4 KB candidates
    # would leave no room for the spec.
    monkeypatch.setattr(openapi, "MAX_PARSED_BYTES", 12_100)
    body = json.dumps({"openapi": "3.0.0", "x": [[] for _ in range(1000)]})
    for i in range(5):
        (tmp_path / f"junk{i}.json").write_text(body)
    (tmp_path / "z.json").write_text(json.dumps({"openapi": "3.0.0", "paths": {
        "/a": {"$ref": "junk0.json#/x/0"}, "/b": {"get": {"operationId": "b"}}}}))
    specs = load_operations(tmp_path)
    assert _ops(specs) == [("GET", "/b", "b")]  # /a's $ref names a list, no path item
    assert sorted(specs.files) == ["junk0.json", "z.json"]
