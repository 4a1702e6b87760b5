"""Service boundaries (:mod:`indexer.frameworks.services`): which folders are services and their
names, from build units of every language, compose and Kubernetes; and the bounds that keep a
hostile repository from hanging the indexer or making it read outside its root."""

from __future__ import annotations

import os
import time
from pathlib import Path

from indexer.frameworks.link import LinkOptions, split_url
from indexer.frameworks.services import ServiceUnit, service_map
from indexer.frameworks.spring_config import load_module_properties

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "monorepo"


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def test_fixture_units_named_by_compose_with_other_names_as_aliases() -> None:
    m = service_map(FIXTURE, load_module_properties(FIXTURE))
    assert [(u.folder, u.name, u.how, u.aliases) for u in m.units.values()] == [
        ("accounts", "accounts", "compose", ()),
        ("admin", "admin", "compose", ()),
        ("billing", "billing-api", "compose", ("billing",)),
        ("notify", "notify", "compose", ()),
        ("orders", "orders-api", "compose", ("orders",)),
        ("reports", "reports", "compose", ()),
        ("web", "web", "compose", ()),
    ]
    assert m.units["billing"].kinds == ("compose", "docker", "maven", "spring")
    assert m.hosts["billing"] == "billing-api" and m.hosts["orders"] == "orders-api"
    assert m.unit_of("billing/src/main/java/shop/billing/InvoiceService.java") == m.units["billing"]
    assert m.unit_of("docker-compose.yml") is None


def test_names_without_compose_spring_then_package_then_folder(tmp_path: Path) -> None:
    _write(tmp_path, {
        "pom.xml": "<project><modules><module>svc-a</module><module>../escape</module></modules></project>",
        "svc-a/src/main/resources/application.yml": "spring:\n  application:\n    name: alpha\n",
        "svc-a/pom.xml": "<project/>",
        "js/package.json": '{"name": "@acme/gateway", "dependencies": {"fastify": "4"}}',
        "lib/package.json": '{"name": "@acme/util", "dependencies": {"lodash": "4"}}',
        "py/tool/pyproject.toml": "[project]\nname = 'tool'\n",
        "settings.gradle": "rootProject.name = 'x'\ninclude ':jobs:nightly', 'svc-a'\n",
        "jobs/nightly/Main.java": "class Main {}\n",
    })
    m = service_map(tmp_path, load_module_properties(tmp_path))
    got = {u.folder: (u.name, u.how) for u in m.units.values()}
    assert got == {
        "": (None, ""),  # the root (an aggregator pom) is named by nothing
        "js": ("gateway", "package"),
        "jobs/nightly": ("nightly", "folder"),
        "py/tool": ("tool", "folder"),
        "svc-a": ("alpha", "spring"),
    }
    assert "lib" not in m.units  # a package.json without a start script or framework: a library
    assert m.units["svc-a"].aliases == ("svc-a",)


def test_workspaces_and_kubernetes_service_names(tmp_path: Path) -> None:
    _write(tmp_path, {
        "package.json": '{"name": "root", "private": true, "workspaces": ["packages/*", "apps/site"]}',
        "packages/cart/index.js": "",
        "packages/pay/index.js": "",
        "apps/site/index.js": "",
        "pay/Dockerfile": "FROM node\n",
        "deploy/k8s.yaml": (
            "apiVersion: v1\nkind: Service\nmetadata:\n  name: payments\nspec:\n  selector:\n    app: pay\n"
            "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: pay\nspec:\n  template:\n"
            "    metadata:\n      labels:\n        app: pay\n        tier: web\n    spec:\n      containers:\n"
            "        - name: pay\n          image: registry.example/shop/pay:1.2\n"),
    })
    m = service_map(tmp_path)
    got = {u.folder: (u.name, u.how, u.kinds) for u in m.units.values()}
    assert got == {
        "apps/site": ("site", "folder", ("npm",)),
        "packages/cart": ("cart", "folder", ("npm",)),
        "packages/pay": ("payments", "kubernetes", ("npm",)),
        "pay": ("payments", "kubernetes", ("docker",)),
    }
    assert m.hosts["pay"] == "payments"


def test_repeated_and_mutually_listing_workspace_globs_stay_within_the_folder_budget(tmp_path: Path) -> None:
    # Hostile review D4: 500 copies of "pkgs/*" over 1,000 packages, each listing "../*" again,
    # took minutes (every listing stat-ed every folder). Duplicates are expanded once, and all the
    # listings of a run share one budget of MAX_DIRS folders.
    files = {"package.json": '{"name": "root", "workspaces": [' + ", ".join(['"pkgs/*"'] * 500) + "]}"}
    for i in range(300):
        files[f"pkgs/p{i}/package.json"] = '{"name": "p' + str(i) + '", "workspaces": ["../*", "../*"]}'
    _write(tmp_path, files)
    t0 = time.perf_counter()
    m = service_map(tmp_path)
    assert time.perf_counter() - t0 < 30  # a loose budget: seconds, not minutes
    assert len([u for u in m.units.values() if u.folder.startswith("pkgs/")]) == 300


def test_url_host_alias_names_the_unit_service() -> None:
    opts = LinkOptions.for_repository(FIXTURE)
    assert split_url("http://billing:8080/api/invoices/1", opts.services) == ("billing-api", "/api/invoices/1")
    assert split_url("lb://orders/api/orders/1", opts.services) == ("orders-api", "/api/orders/1")
    assert split_url("http://notify/health", opts.services) == ("notify", "/health")
    assert split_url("/billing/x", opts.services) == (None, "/billing/x")  # an alias is a host, never a path prefix
    assert opts.service_for("orders/app/main.py") == "orders-api"
    assert opts.service_for("docker-compose.yml") is None


# ------------------------------------------------------------------------------------ hostile


def test_compose_build_outside_the_root_names_nothing(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "Dockerfile").write_text("FROM x\n")
    _write(root, {"docker-compose.yml": "services:\n  escape:\n    build: ../outside\n  abs:\n    build: /etc\n"
                  "  deep:\n    build:\n      context: ./a/../../outside\n"})
    m = service_map(root)
    assert m.units == {} and m.hosts == {}


def test_symlinked_folder_out_of_the_root_is_not_followed(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    _write(tmp_path, {"outside/svc/Dockerfile": "FROM x\n", "outside/svc/package.json": '{"scripts": {"start": "x"}}'})
    _write(root, {"app/Dockerfile": "FROM x\n",
                  "docker-compose.yml": "services:\n  ln:\n    build: ./linked/svc\n"})
    os.symlink(tmp_path / "outside", root / "linked")
    m = service_map(root)
    assert list(m.units) == ["app"]


def test_fifty_megabyte_compose_file_is_ignored_quickly(tmp_path: Path) -> None:
    _write(tmp_path, {"svc/Dockerfile": "FROM x\n"})
    with open(tmp_path / "docker-compose.yml", "wb") as f:
        f.write(b"services:\n  big:\n    build: ./svc\n")
        f.seek(50 * 1024 * 1024)
        f.write(b"\n")
    start = time.monotonic()
    m = service_map(tmp_path)
    assert time.monotonic() - start < 5
    assert {u.folder: u.name for u in m.units.values()} == {"svc": "svc"}  # named by its folder, not compose


def test_yaml_alias_bomb_in_compose_and_kubernetes_files_does_not_expand(tmp_path: Path) -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi"))
    _write(tmp_path, {
        "svc/Dockerfile": "FROM x\n",
        "docker-compose.yml": bomb + "services:\n  api:\n    build: ./svc\n    labels: *i\n",
        "k8s.yaml": bomb + "kind: Deployment\nspec:\n  template:\n    metadata:\n      labels:\n        app: *i\n"
                           "    spec:\n      containers: *i\n",
    })
    start = time.monotonic()
    m = service_map(tmp_path)
    assert time.monotonic() - start < 5
    assert m.units == {"svc": ServiceUnit("svc", "api", "compose", ("svc",), ("compose", "docker"))}


def test_malformed_files_are_skipped(tmp_path: Path) -> None:
    _write(tmp_path, {
        "a/package.json": "{not json",
        "b/docker-compose.yml": "services: [: :",
        "c/docker-compose.yml": "- just\n- a list\n",
        "d/pom.xml": "<project><module>",
        "e/Dockerfile": "FROM x\n",
    })
    m = service_map(tmp_path)
    assert sorted(m.units) == ["d", "e"]


def test_compose_service_running_an_image_named_like_a_folder_names_it(tmp_path: Path) -> None:
    # spring-petclinic-microservices: services run images built by Maven, not compose builds
    _write(tmp_path, {
        "pom.xml": "<project><modules><module>shop-customers-service</module></modules></project>",
        "shop-customers-service/pom.xml": "<project/>",
        "shop-customers-service/src/main/resources/application.yml": "spring:\n  application:\n    name: customers\n",
        "docker-compose.yml": "services:\n  customers-service:\n    image: acme/shop-customers-service:3.1\n"
                              "  other:\n    image: acme/shop-customers-service\n  db:\n    image: mysql:8\n",
    })
    m = service_map(tmp_path, load_module_properties(tmp_path))
    u = m.units["shop-customers-service"]
    assert (u.name, u.how, u.aliases) == ("customers-service", "compose", ("customers", "shop-customers-service"))


def test_boundary_files_trigger_a_rescan_in_the_watcher() -> None:
    from indexer.incremental import is_config_path

    for rel in ("billing/Dockerfile", "docker-compose.yml", "ops/compose.prod.yaml", "web/package.json",
                "orders/requirements-dev.txt", "settings.gradle.kts", "svc/pom.xml", "api.Dockerfile"):
        assert is_config_path(rel), rel
    for rel in ("web/src/api.ts", "docs/compose.md", "package-lock.json", "k8s/deploy.yaml"):
        assert not is_config_path(rel), rel


def test_compose_published_ports_name_localhost_urls(tmp_path: Path) -> None:
    _write(tmp_path, {
        "api/Dockerfile": "FROM x\n",
        "docker-compose.yml": "services:\n  api:\n    build: ./api\n    ports:\n      - \"8081:8080\"\n"
                              "      - \"127.0.0.1:9090:9000/tcp\"\n      - \"7000\"\n      - published: 6001\n"
                              "        target: 6000\n",
    })
    assert service_map(tmp_path).ports == {"8081": "api", "9090": "api", "6001": "api"}
    opts = LinkOptions.for_repository(tmp_path)
    assert split_url("http://localhost:8081/x", opts.services) == ("api", "/x")
    assert split_url("http://127.0.0.1:9090/x", opts.services) == ("api", "/x")
    assert split_url("http://localhost:7000/x", opts.services) == ("localhost", "/x")  # unknown: followed as unnamed


def test_of_several_compose_services_building_one_folder_the_one_copying_its_files_names_it(tmp_path: Path) -> None:
    # brocoders/nestjs-boilerplate: `maildev` (a tool installed from npm, none of the folder's files) is
    # built from the root before `api` is; the endpoints are api's (newcomer round 45)
    _write(tmp_path, {
        "package.json": '{"name": "nest-app", "dependencies": {"@nestjs/core": "11"}}',
        "Dockerfile": "FROM node:24\nRUN npm i -g @nestjs/cli\nCOPY --chown=node:node . /usr/src/app\n",
        "maildev.Dockerfile": "FROM node:24\nRUN npm i -g maildev@2.0.5\nCMD maildev\n",
        "docker-compose.yaml": "services:\n  maildev:\n    build:\n      context: .\n      dockerfile: maildev.Dockerfile\n"
                               "    ports:\n      - 1080:1080\n  api:\n    build:\n      context: .\n"
                               "      dockerfile: Dockerfile\n    ports:\n      - 3000:3000\n",
        "svc/Dockerfile.tool": "FROM alpine\nCOPY --from=build /out /bin\n",
        "svc/Dockerfile": "FROM alpine\nADD app.tar /srv\n",
        "svc/compose.yml": "services:\n  tool:\n    build:\n      context: .\n      dockerfile: Dockerfile.tool\n"
                           "  other-tool:\n    build:\n      context: .\n      dockerfile: Dockerfile.tool\n"
                           "  svc-api:\n    build: .\n",
        "lone/Dockerfile": "FROM x\n",  # the only service building a folder names it, copying or not
        "lone/compose.yml": "services:\n  lone-db:\n    build: .\n",
    })
    m = service_map(tmp_path)
    assert {u.folder: (u.name, u.how) for u in m.units.values()} == {
        "": ("api", "compose"), "svc": ("svc-api", "compose"), "lone": ("lone-db", "compose")}
    assert "maildev" not in m.hosts and "tool" not in m.hosts and "other-tool" not in m.hosts
    assert m.ports == {"1080": "maildev", "3000": "api"}  # each published port stays its service's
