"""Configuration: file + environment precedence, validation, and the stores the factory builds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from stores.config import Config, ConfigError, GraphConfig, SearchConfig, load_config
from stores.elasticsearch import ElasticsearchSearchIndex
from stores.embedded import EmbeddedStore
from stores.factory import open_stores
from stores.memgraph import MemgraphGraphStore


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "src" / "deep").mkdir(parents=True)
    return ws


def write(path: Path, text: str, mode: int = 0o600) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def test_defaults_without_any_source(workspace, home):
    config = load_config(workspace, {"HOME": str(home)})
    assert config == Config()
    assert (config.graph, config.search) == (GraphConfig(), SearchConfig())
    assert (config.graph.backend, config.search.backend, config.db, config.embedding_model) == (
        "embedded", "embedded", None, None)
    assert config.source_of("search.url") == "default"


def test_precedence_environment_explicit_workspace_user(workspace, home, tmp_path):
    user = write(home / ".config" / "ripple" / "config.toml", """
[graph]
backend = "memgraph"
uri = "bolt://user-default:7687"
user = "ripple"
[search]
url = "http://user-default:9200"
api_key = "user-key"
index_prefix = "team"
""")
    ws_file = write(workspace / ".ripple" / "config.toml", """
[search]
backend = "elasticsearch"
url = "http://workspace:9200"
[graph]
uri = "bolt://workspace:7687"
max_concurrency = 4
""")
    explicit = write(tmp_path / "explicit.toml", """
[graph]
uri = "bolt://explicit:7687"
""")
    env = {"HOME": str(home), "RIPPLE_CONFIG": str(explicit), "RIPPLE_ES_URL": "http://env:9200",
           "RIPPLE_MEMGRAPH_CONCURRENCY": "32", "RIPPLE_ES_USER": ""}
    config = load_config(workspace / "src" / "deep", env)  # found from a subfolder, as the index is
    assert config.files == (explicit, ws_file, user)
    assert config.graph == GraphConfig(backend="memgraph", uri="bolt://explicit:7687", user="ripple",
                                       max_concurrency=32)
    assert config.search == SearchConfig(backend="elasticsearch", url="http://env:9200", api_key="user-key",
                                         index_prefix="team")
    assert dict(config.origin) == {
        "graph.backend": str(user), "graph.uri": str(explicit), "graph.user": str(user),
        "graph.max_concurrency": "$RIPPLE_MEMGRAPH_CONCURRENCY",
        "search.backend": str(ws_file), "search.url": "$RIPPLE_ES_URL", "search.api_key": str(user),
        "search.index_prefix": str(user),
    }
    assert config.warnings == ()
    # Without the environment, the explicit file and then the workspace win.
    config = load_config(workspace, {"HOME": str(home)})
    assert (config.graph.uri, config.search.url, config.graph.max_concurrency) == (
        "bolt://workspace:7687", "http://workspace:9200", 4)


def test_environment_selects_backends_and_keeps_ripple_db_and_model(workspace, home):
    env = {"HOME": str(home), "RIPPLE_GRAPH_BACKEND": "memgraph", "RIPPLE_SEARCH_BACKEND": "elasticsearch",
           "RIPPLE_MEMGRAPH_URI": "bolt://mg:7687", "RIPPLE_MEMGRAPH_USER": "u", "RIPPLE_MEMGRAPH_PASSWORD": "p",
           "RIPPLE_MEMGRAPH_DATABASE": "db", "RIPPLE_MEMGRAPH_DIALECT": "memgraph", "RIPPLE_ES_API_KEY": "k",
           "RIPPLE_ES_INDEX_PREFIX": "acme", "RIPPLE_ES_REPLICAS": "1", "RIPPLE_ES_CA_CERTS": "/ca.pem",
           "RIPPLE_DB": "rel/index.db", "RIPPLE_EMBEDDING_MODEL": "BAAI/bge-small-en-v1.5"}
    config = load_config(workspace, env)
    assert config.graph == GraphConfig("memgraph", "bolt://mg:7687", {}, "u", "p", "db", "memgraph", 16)
    assert config.search == SearchConfig("elasticsearch", "http://127.0.0.1:9200", "k", None, None, "acme", 1,
                                         "/ca.pem")
    assert config.db == Path("rel/index.db")  # relative to the current folder, like --db
    assert config.embedding_model == "BAAI/bge-small-en-v1.5"


def test_products_and_relative_db_in_a_workspace_file(workspace, home):
    write(workspace / ".ripple" / "config.toml", """
[graph]
backend = "memgraph"
[graph.products]
petclinic = "bolt://mg-petclinic:7687"
[embedded]
db = "indexes/main.db"
""")
    config = load_config(workspace / "src", {"HOME": str(home)})
    assert config.graph.uri_for("petclinic") == "bolt://mg-petclinic:7687"
    assert config.graph.uri_for("billing") == "bolt://127.0.0.1:7687"
    assert config.graph.uri_for(None) == "bolt://127.0.0.1:7687"
    assert config.db == workspace.resolve() / "indexes" / "main.db"


def test_xdg_config_home_is_the_user_folder(workspace, tmp_path):
    xdg = tmp_path / "xdg"
    write(xdg / "ripple" / "config.toml", '[search]\nbackend = "elasticsearch"\n')
    config = load_config(workspace, {"HOME": str(tmp_path / "nohome"), "XDG_CONFIG_HOME": str(xdg)})
    assert config.search.backend == "elasticsearch"


@pytest.mark.parametrize(("text", "message"), [
    ('[serach]\nurl = "x"\n', r"config\.toml: unknown table \[serach\]; known tables: \[graph\], \[search\], "
                              r"\[embedded\], \[embedding\], \[http\]$"),
    ('[search]\nurll = "x"\n', r"config\.toml: unknown key 'urll' in \[search\]; known keys: backend, url, api_key, "
                               r"user, password, index_prefix, replicas, ca_certs$"),
    ("[graph]\nmax_concurrency = \"8\"\n", r"config\.toml: graph\.max_concurrency must be an integer, not '8'$"),
    ("[graph]\nmax_concurrency = 0\n", r"config\.toml: graph\.max_concurrency must be >= 1, not 0$"),
    ('[search]\nbackend = "opensearch"\n', r"config\.toml: search\.backend must be one of embedded, elasticsearch, "
                                           r"not 'opensearch'$"),
    ('[graph]\nbackend = "neo4j"\n', r"config\.toml: graph\.backend must be one of embedded, memgraph, not 'neo4j'$"),
    ("[graph]\nproducts = { shop = 1 }\n", r"graph\.products must be a table of strings"),
    ('search = "x"\n', r"config\.toml: search must be a table \(\[search\]\), not a str$"),
    ("[search\n", r"config\.toml is not valid TOML: .*; fix the file or remove it$"),
])
def test_bad_files_name_the_file_and_the_key(workspace, home, text, message):
    write(workspace / ".ripple" / "config.toml", text)
    with pytest.raises(ConfigError, match=message):
        load_config(workspace, {"HOME": str(home)})


def test_bad_environment(workspace, home, tmp_path):
    with pytest.raises(ConfigError, match=r"^\$RIPPLE_ES_REPLICAS must be an integer, not 'one'$"):
        load_config(workspace, {"HOME": str(home), "RIPPLE_ES_REPLICAS": "one"})
    with pytest.raises(ConfigError, match=r"^\$RIPPLE_GRAPH_BACKEND: graph\.backend must be one of embedded, "
                                          r"memgraph, not 'memgrpah'$"):
        load_config(workspace, {"HOME": str(home), "RIPPLE_GRAPH_BACKEND": "memgrpah"})
    missing = tmp_path / "missing.toml"
    with pytest.raises(ConfigError, match=rf"^\$RIPPLE_CONFIG names {missing}, which is not a file"):
        load_config(workspace, {"HOME": str(home), "RIPPLE_CONFIG": str(missing)})


def test_a_readable_file_with_a_secret_is_a_warning(workspace, home):
    path = write(workspace / ".ripple" / "config.toml", '[search]\napi_key = "k"\n[graph]\npassword = "p"\n', 0o644)
    config = load_config(workspace, {"HOME": str(home)})
    assert config.warnings == (
        f"{path} holds graph.password, search.api_key and other users can read it; run chmod 600 {path}",)
    path.chmod(0o600)
    assert load_config(workspace, {"HOME": str(home)}).warnings == ()


# --------------------------------------------------------------------------------------- factory


def test_open_stores_embedded_default_is_one_store(tmp_path):
    stores = open_stores(Config(), tmp_path / ".ripple" / "index.db", create=True)
    assert isinstance(stores.graph, EmbeddedStore)
    assert stores.search is stores.graph
    stores.close()


def test_open_stores_team_backends_connect_lazily(tmp_path):
    # Nothing listens on these addresses: building the stores sends nothing.
    config = Config(GraphConfig("memgraph", "bolt://127.0.0.1:1", {"shop": "bolt://127.0.0.1:2"}),
                    SearchConfig("elasticsearch", "http://127.0.0.1:3", index_prefix="team"))
    stores = open_stores(config, product="shop")
    assert isinstance(stores.graph, MemgraphGraphStore)
    assert stores.graph.uri == "bolt://127.0.0.1:2"
    assert isinstance(stores.search, ElasticsearchSearchIndex)
    assert (stores.search.url, stores.search.chunk_pattern) == ("http://127.0.0.1:3", "team-chunks.*")
    stores.close()
    mixed = open_stores(Config(search=SearchConfig("elasticsearch")), tmp_path / "index.db", create=True)
    assert isinstance(mixed.graph, EmbeddedStore)
    assert isinstance(mixed.search, ElasticsearchSearchIndex)
    mixed.close()


def test_open_stores_refuses_what_the_backends_refuse(tmp_path):
    with pytest.raises(ConfigError, match=r"^search \(default\): index prefix 'Team' is not a valid"):
        open_stores(Config(search=SearchConfig("elasticsearch", index_prefix="Team")), tmp_path / "i.db", create=True)
    with pytest.raises(ConfigError, match=r"^the embedded store needs an index file"):
        open_stores(Config())
    assert not os.path.exists(tmp_path / "i.db-wal")  # the embedded store opened first was closed again


def test_http_services_table(tmp_path) -> None:
    from stores.config import load_config

    (tmp_path / ".ripple").mkdir()
    (tmp_path / ".ripple" / "config.toml").write_text(
        '[http.services]\n"/api/customer" = "customers-service"\n"http://localhost:8082" = "visits-service"\n')
    config = load_config(tmp_path, env={"HOME": str(tmp_path / "home")})
    assert config.http_services == {"/api/customer": "customers-service", "http://localhost:8082": "visits-service"}
    assert load_config(tmp_path / "..", env={"HOME": str(tmp_path / "home")}).http_services == {}
