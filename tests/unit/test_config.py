"""Configuration: file + environment precedence, validation, and the stores the factory builds."""

from __future__ import annotations

import re

import os
from pathlib import Path

import pytest

from stores.config import Config, ConfigError, GraphConfig, SearchConfig, load_config
from stores.elasticsearch import ElasticsearchSearchIndex
from stores.embedded import EmbeddedStore
from stores.factory import open_stores
from stores.memgraph import MemgraphGraphStore
from stores.vector_index import AnnParams


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


def trust(home: Path, *folders: Path, extra: str = "") -> Path:
    """The user's file trusting ``folders`` (their workspace files may choose servers and credentials)."""
    listed = ", ".join(f'"{f}"' for f in folders)
    return write(home / ".config" / "ripple" / "config.toml", f"{extra}\n[trust]\nworkspaces = [{listed}]\n")


def test_defaults_without_any_source(workspace, home):
    config = load_config(workspace, {"HOME": str(home)})
    assert config == Config()
    assert (config.graph, config.search) == (GraphConfig(), SearchConfig())
    assert (config.graph.backend, config.search.backend, config.db, config.embedding_model) == (
        "embedded", "embedded", None, None)
    assert config.source_of("search.url") == "default"


def test_precedence_environment_explicit_workspace_user(workspace, home, tmp_path):
    user = write(home / ".config" / "ripple" / "config.toml", f"""
[graph]
backend = "memgraph"
uri = "bolt://user-default:7687"
user = "ripple"
[search]
url = "http://user-default:9200"
api_key = "user-key"
index_prefix = "team"
[trust]
workspaces = ["{workspace}"]
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
    # The user's credentials are not sent to URIs set elsewhere (the explicit file, the environment).
    assert config.graph == GraphConfig(backend="memgraph", uri="bolt://explicit:7687", max_concurrency=32)
    assert config.search == SearchConfig(backend="elasticsearch", url="http://env:9200", index_prefix="team")
    assert dict(config.origin) == {
        "graph.backend": str(user), "graph.uri": str(explicit), "graph.user": str(user),
        "graph.max_concurrency": "$RIPPLE_MEMGRAPH_CONCURRENCY",
        "search.backend": str(ws_file), "search.url": "$RIPPLE_ES_URL", "search.api_key": str(user),
        "search.index_prefix": str(user),
    }
    assert config.warnings == (
        f"graph.user from {user} is not sent to the graph.uri set in {explicit}: a credential goes only to an "
        "endpoint set in the same file (or both in the environment); set it beside the URI",
        f"search.api_key from {user} is not sent to the search.url set in $RIPPLE_ES_URL: a credential goes only to "
        "an endpoint set in the same file (or both in the environment); set it beside the URL",
    )
    assert (config.workspace, config.workspace_trusted, config.ignored) == (ws_file, True, ())
    # Without the environment, the explicit file and then the workspace win.
    config = load_config(workspace, {"HOME": str(home)})
    assert (config.graph.uri, config.search.url, config.graph.max_concurrency) == (
        "bolt://workspace:7687", "http://workspace:9200", 4)
    assert (config.graph.user, config.search.api_key) == (None, None)
    # The user's own endpoints get the user's credentials.
    config = load_config(tmp_path, {"HOME": str(home)})
    assert (config.graph.uri, config.graph.user, config.search.url, config.search.api_key) == (
        "bolt://user-default:7687", "ripple", "http://user-default:9200", "user-key")


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
    trust(home, workspace)
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
                              r"\[embedded\], \[embedding\], \[http\], \[api\], \[server\], \[trust\], \[docs\]$"),
    ('[docs]\nfolders = ["../wiki"]\n', r"config\.toml: docs\.folders: '\.\./wiki' leads out of the repository"),
    ('[search]\nurll = "x"\n', r"config\.toml: unknown key 'urll' in \[search\]; known keys: backend, url, api_key, "
                               r"user, password, index_prefix, replicas, ca_certs, models$"),
    ("[graph]\nmax_concurrency = \"8\"\n", r"config\.toml: graph\.max_concurrency must be an integer, not '8'$"),
    ("[graph]\nmax_concurrency = 0\n", r"config\.toml: graph\.max_concurrency must be between 1 and 1,024, not 0$"),
    ('[search]\nbackend = "opensearch"\n', r"config\.toml: search\.backend must be one of embedded, elasticsearch, "
                                           r"not 'opensearch'$"),
    ('[graph]\nbackend = "neo4j"\n', r"config\.toml: graph\.backend must be one of embedded, memgraph, not 'neo4j'$"),
    ("[graph]\nproducts = { shop = 1 }\n", r"graph\.products must be a table of strings"),
    ('search = "x"\n', r"config\.toml: search must be a table \(\[search\]\), not a str$"),
    ("[search\n", r"config\.toml is not valid TOML: .*; fix the file or remove it$"),
])
def test_bad_files_name_the_file_and_the_key(workspace, home, text, message):
    trust(home, workspace)
    write(workspace / ".ripple" / "config.toml", text)
    with pytest.raises(ConfigError, match=message):
        load_config(workspace, {"HOME": str(home)})


def test_ann_parameters_from_a_file_or_the_environment(workspace, home):
    assert load_config(workspace, {"HOME": str(home)}).ann_params == AnnParams()
    write(workspace / ".ripple" / "config.toml",
          '[embedded]\nann_connectivity = 32\nann_expansion_add = 128\nann_candidates = 100\nann_dtype = "f16"\n')
    env = {"HOME": str(home), "RIPPLE_ANN_EXPANSION_SEARCH": "512"}
    assert load_config(workspace, env).ann_params == AnnParams(connectivity=32, expansion_add=128, expansion_search=512,
                                                               candidates=100, dtype="f16")


def test_ann_threshold_from_a_file_or_the_environment(workspace, home):
    assert load_config(workspace, {"HOME": str(home)}).ann_threshold == 200_000
    assert load_config(workspace, {"HOME": str(home), "RIPPLE_ANN_THRESHOLD": "0"}).ann_threshold == 0
    write(workspace / ".ripple" / "config.toml", "[embedded]\nann_threshold = 5000\n")
    assert load_config(workspace, {"HOME": str(home)}).ann_threshold == 5000


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
    trust(home, workspace)
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


# ---------------------------------------------------------------------- hostile files (issue 7)


@pytest.mark.parametrize(("data", "message"), [
    (bytes(range(256)), r"config\.toml is not UTF-8 text \(byte 128 is 0x80\); a configuration file is TOML saved as "
                        r"UTF-8: fix the file or remove it$"),
    ('[graph]\nbackend = "memgraph"\n'.encode("utf-16"), r"config\.toml is not UTF-8 text \(byte 0 is 0xff\)"),
    (b"#" * (1 << 20) + b"\n", r"config\.toml is larger than 1,048,576 bytes, too large for a configuration file: "
                               r"is it the right file\?$"),
    (b'[embedded]\ndb = ""\n', r"config\.toml: embedded\.db must not be empty or hold a NUL character, not ''; "
                               r"remove the key to use the default$"),
    (b'[embedded]\ndb = "a\\u0000b"\n', r"config\.toml: embedded\.db must not be empty or hold a NUL character, "
                                        r"not 'a\\x00b'"),
    (b'[embedding]\nmodel = "  "\n', r"config\.toml: embedding\.model must not be empty"),
    (b"[http]\nservices = 1\n", r"config\.toml: http\.services must be a table of strings "
                                r"\(\"http://localhost:8081\" = \"customers-service\"\)$"),
    (b"[graph]\nmax_concurrency = 99999999999999999999\n", r"config\.toml: graph\.max_concurrency must be between 1 "
                                                           r"and 1,024, not 99999999999999999999$"),
    (b"[search]\nreplicas = 1000\n", r"config\.toml: search\.replicas must be between 0 and 100, not 1000$"),
    (b"[embedded]\nann_threshold = -1\n", r"config\.toml: embedded\.ann_threshold must be between 0 and "
                                         r"1,099,511,627,776, not -1$"),
    (b"[embedded]\nann_connectivity = 2\n", r"config\.toml: embedded\.ann_connectivity must be between 4 and 128, not 2$"),
    (b"[embedded]\nann_expansion_search = 100000\n", r"config\.toml: embedded\.ann_expansion_search must be between 8 "
                                                     r"and 65,536, not 100000$"),
    (b'[embedded]\nann_dtype = "f64"\n', r"config\.toml: embedded\.ann_dtype must be one of i8, f16, f32, not 'f64'$"),
])
def test_files_that_are_not_configuration(workspace, home, data, message):
    path = workspace / ".ripple" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    # the repository's own file, not trusted: what cannot be read is left out and said, nothing stops
    config = load_config(workspace, {"HOME": str(home)})
    assert len(config.warnings) == 1 and re.search(message.removesuffix("$"), config.warnings[0])
    assert config.warnings[0].endswith(("(left out)", "(the file is ignored)"))
    assert (config.graph, config.search, config.db, config.ann_threshold) == (GraphConfig(), SearchConfig(), None,
                                                                              200_000)
    trust(home, workspace)  # a file the user vouches for is strict
    with pytest.raises(ConfigError, match=message):
        load_config(workspace, {"HOME": str(home)})


def test_an_untrusted_workspace_file_keeps_what_it_can_and_a_user_file_stays_strict(workspace, home):
    write(workspace / ".ripple" / "config.toml",
          '[embedded]\nann_threshold = 5000\n[serach]\nurl = "x"\n[embedding]\nmodel = "m"\nmodell = "x"\n')
    config = load_config(workspace, {"HOME": str(home)})
    assert (config.ann_threshold, config.embedding_model) == (5000, "m")
    assert [w.split(": ", 1)[1] for w in config.warnings] == [
        "unknown table [serach]; known tables: [graph], [search], [embedded], [embedding], [http], [api], [server], "
        "[trust], [docs] (left out)",
        "unknown key 'modell' in [embedding]; known keys: model, models_dir (left out)"]
    write(home / ".config" / "ripple" / "config.toml", "[serach]\n")
    with pytest.raises(ConfigError, match=r"unknown table \[serach\]"):
        load_config(workspace, {"HOME": str(home)})


def test_a_byte_order_mark_and_an_empty_file_are_fine(workspace, home):
    trust(home, workspace)
    path = write(workspace / ".ripple" / "config.toml", '\ufeff[graph]\nbackend = "memgraph"\n')
    assert path.read_bytes()[:3] == b"\xef\xbb\xbf"
    assert load_config(workspace, {"HOME": str(home)}).graph.backend == "memgraph"
    path.write_bytes(b"")
    assert load_config(workspace, {"HOME": str(home)}).graph == GraphConfig()


def test_environment_garbage(workspace, home):
    with pytest.raises(ConfigError, match=r"^\$RIPPLE_MEMGRAPH_CONCURRENCY must be an integer, not 'abc'$"):
        load_config(workspace, {"HOME": str(home), "RIPPLE_MEMGRAPH_CONCURRENCY": "abc"})
    with pytest.raises(ConfigError, match=r"^\$RIPPLE_MEMGRAPH_CONCURRENCY: graph\.max_concurrency must be between 1 "
                                          r"and 1,024, not -1$"):
        load_config(workspace, {"HOME": str(home), "RIPPLE_MEMGRAPH_CONCURRENCY": "-1"})
    with pytest.raises(ConfigError, match=r"^\$RIPPLE_ES_REPLICAS must be an integer, not '9{40}\.\.\.'$"):
        load_config(workspace, {"HOME": str(home), "RIPPLE_ES_REPLICAS": "9" * 5000})
    with pytest.raises(ConfigError, match=rf"^\$RIPPLE_CONFIG names {workspace}, which is not a file"):
        load_config(workspace, {"HOME": str(home), "RIPPLE_CONFIG": str(workspace)})  # a folder


def test_an_explicit_file_keeps_its_relative_db_when_the_folder_changes(tmp_path, home, monkeypatch):
    write(tmp_path / "conf" / "ripple.toml", '[embedded]\ndb = "indexes/main.db"\n')
    monkeypatch.chdir(tmp_path)
    config = load_config(tmp_path / "elsewhere", {"HOME": str(home), "RIPPLE_CONFIG": str(tmp_path / "conf/ripple.toml")})
    assert config.files == (tmp_path / "conf" / "ripple.toml",)
    assert config.db == tmp_path / "conf" / "indexes" / "main.db"
    monkeypatch.chdir(home)
    assert config.db.resolve() == tmp_path.resolve() / "conf" / "indexes" / "main.db"


def test_a_user_without_a_home_folder(workspace, monkeypatch):
    # A container run under an arbitrary uid: no $HOME and no password entry.
    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert load_config(workspace, {}) == Config()
    write(workspace / ".ripple" / "config.toml", '[graph]\ndialect = "neo4j"\nbackend = "memgraph"\n')
    config = load_config(workspace, {})  # no user file, so no trust list: harmless keys only
    assert (config.graph.backend, config.graph.dialect, config.ignored) == ("embedded", "neo4j", ("graph.backend",))


def test_open_stores_names_the_product_entry_of_a_bad_uri(tmp_path, home):
    path = write(tmp_path / "team.toml", '[graph]\nbackend = "memgraph"\n[graph.products]\nshop = "http://mg:7687"\n')
    config = load_config(tmp_path, {"HOME": str(home), "RIPPLE_CONFIG": str(path)})
    with pytest.raises(ConfigError) as info:
        open_stores(config, tmp_path / "index.db", product="shop", create=True)
    assert str(info.value) == (f"graph ([graph.products] shop in {path}): not a Bolt URI: 'http://mg:7687'; expected "
                               "bolt://host:7687 (schemes: bolt, bolt+s, bolt+ssc, neo4j, neo4j+s, neo4j+ssc)")
    open_stores(config, tmp_path / "index.db", product="billing", create=True).close()  # the default URI is fine


def test_a_workspace_file_of_another_user_is_ignored_with_a_warning(tmp_path, monkeypatch) -> None:
    import stores.config as config_module
    from stores.config import load_config

    (tmp_path / ".ripple").mkdir()
    (tmp_path / ".ripple" / "config.toml").write_text('[search]\nbackend = "elasticsearch"\n')
    monkeypatch.setattr(config_module, "_owned_by_us", lambda path: False)
    config = load_config(tmp_path, env={"HOME": str(tmp_path / "home")})
    assert config.search.backend == "embedded"
    assert config.warnings == (f"{tmp_path}/.ripple/config.toml is ignored: it belongs to another user; "
                               "name it with $RIPPLE_CONFIG to use it anyway",)
    explicit = load_config(tmp_path, env={"HOME": str(tmp_path / "home"),
                                          "RIPPLE_CONFIG": str(tmp_path / ".ripple" / "config.toml")})
    assert explicit.search.backend == "elasticsearch"


# ------------------------------------------------------------------------- workspace trust (issue 12)


def test_an_untrusted_workspace_file_chooses_no_server_credential_or_index(workspace, home):
    user = write(home / ".config" / "ripple" / "config.toml", """
[graph]
backend = "memgraph"
uri = "bolt://team:7687"
user = "alice"
password = "alice-secret"
""")
    ws_file = write(workspace / ".ripple" / "config.toml", """
[graph]
uri = "bolt://attacker:7687"
user = "mallory"
dialect = "neo4j"
max_concurrency = 2
[search]
backend = "elasticsearch"
url = "http://attacker:9200"
ca_certs = "evil.pem"
[embedded]
db = "/home/alice/.ssh/authorized_keys"
[http.services]
"/api/customer" = "customers-service"
[trust]
workspaces = ["/"]
""")
    config = load_config(workspace / "src", {"HOME": str(home)})
    assert config.graph == GraphConfig(backend="memgraph", uri="bolt://team:7687", user="alice",
                                       password="alice-secret", dialect="neo4j", max_concurrency=2)
    assert config.search == SearchConfig()
    assert config.db is None
    assert config.http_services == {"/api/customer": "customers-service"}  # names in reports: harmless
    assert (config.workspace, config.workspace_trusted) == (ws_file, False)
    assert config.ignored == ("graph.uri", "search.backend", "search.url", "search.ca_certs", "embedded.db",
                              "graph.user")
    assert config.warnings == (
        f"{ws_file}: [trust] is ignored in a workspace file; it is read from your own configuration file only "
        f"({user})",
        f"{ws_file}: ignored graph.uri, search.backend, search.url, search.ca_certs, embedded.db, graph.user: this "
        "workspace is not trusted to choose where your code and credentials go; if you trust it, run "
        f"`ripple trust {workspace.resolve()}`",
    )


def test_a_trusted_workspace_or_one_below_a_trusted_folder_applies_whole(workspace, home, tmp_path):
    write(workspace / ".ripple" / "config.toml", '[search]\nbackend = "elasticsearch"\nurl = "http://ws:9200"\n'
                                                 'api_key = "ws-key"\n')
    for trusted in (workspace, tmp_path):  # the folder itself, or a parent of it
        trust(home, trusted)
        config = load_config(workspace, {"HOME": str(home)})
        assert (config.search.url, config.search.api_key, config.workspace_trusted, config.ignored) == (
            "http://ws:9200", "ws-key", True, ())
        assert config.warnings == ()
    trust(home, workspace / "src")  # a folder below the workspace does not trust it
    assert load_config(workspace, {"HOME": str(home)}).search.url == "http://127.0.0.1:9200"
    with pytest.raises(ConfigError, match=r"trust\.workspaces: 'relative/dir' is not an absolute path"):
        write(home / ".config" / "ripple" / "config.toml", '[trust]\nworkspaces = ["relative/dir"]\n')
        load_config(workspace, {"HOME": str(home)})


def test_credentials_go_only_to_an_endpoint_of_their_own_source(workspace, home, tmp_path):
    explicit = write(tmp_path / "team.toml", """
[graph]
backend = "memgraph"
user = "ripple"
password = "team-secret"
[graph.products]
shop = "bolt://shop:7687"
""")
    env = {"HOME": str(home), "RIPPLE_CONFIG": str(explicit)}
    config = load_config(workspace, env)  # the default URI and the file's products: both get them
    assert config.graph.credentials_for(None) == ("ripple", "team-secret")
    assert config.graph.credentials_for("shop") == ("ripple", "team-secret")
    assert config.warnings == ()
    config = load_config(workspace, {**env, "RIPPLE_MEMGRAPH_URI": "bolt://elsewhere:7687"})
    assert config.graph.credentials_for(None) == (None, None)
    assert config.graph.credentials_for("shop") == ("ripple", "team-secret")
    assert config.warnings[0].startswith(f"graph.user from {explicit} is not sent to the graph.uri set in "
                                         "$RIPPLE_MEMGRAPH_URI")
    # Both from the environment: one source.
    config = load_config(workspace, {"HOME": str(home), "RIPPLE_GRAPH_BACKEND": "memgraph",
                                     "RIPPLE_MEMGRAPH_URI": "bolt://mg:7687", "RIPPLE_MEMGRAPH_PASSWORD": "p"})
    assert config.graph.credentials_for(None) == (None, "p") and config.warnings == ()


def test_ripple_trust_edits_the_user_file_keeping_what_is_there(workspace, home, tmp_path):
    from stores.config import trust_workspace

    env = {"HOME": str(home)}
    user = write(home / ".config" / "ripple" / "config.toml", "# my settings\n[graph]\ndialect = \"neo4j\"  # keep\n",
                 0o640)
    assert trust_workspace(workspace, env) == user
    assert trust_workspace(workspace / "src" / "..", env) == user  # the same folder once
    other = tmp_path / "other"
    other.mkdir()
    trust_workspace(other, env)
    text = user.read_text()
    assert text.startswith("# my settings\n[graph]\ndialect = \"neo4j\"  # keep\n")
    assert load_config(workspace, env).workspace is None  # no workspace file yet
    import tomllib
    assert tomllib.loads(text)["trust"] == {"workspaces": [str(workspace.resolve()), str(other.resolve())]}
    assert user.stat().st_mode & 0o777 == 0o640  # the user's mode is kept
    trust_workspace(workspace, env, remove=True)
    assert tomllib.loads(user.read_text())["trust"] == {"workspaces": [str(other.resolve())]}
    fresh_home = tmp_path / "fresh"
    created = trust_workspace(workspace, {"HOME": str(fresh_home)})
    assert created == fresh_home / ".config" / "ripple" / "config.toml"
    assert created.stat().st_mode & 0o777 == 0o600
    bad = write(tmp_path / "bad" / ".config" / "ripple" / "config.toml", "[graph\n")
    with pytest.raises(ConfigError, match="is not valid TOML"):
        trust_workspace(workspace, {"HOME": str(tmp_path / "bad")})
    assert bad.read_text() == "[graph\n"


def test_trust_of_the_root_or_the_home_folder_is_refused(workspace, home, tmp_path):
    from stores.config import trust_workspace

    env = {"HOME": str(home)}
    for folder, why in [(Path("/"), "is the file system's root"), (home, "is your home folder")]:
        with pytest.raises(ConfigError, match=why):
            trust_workspace(folder, env)
        # written by hand into the user's file, the entry is refused too (it would trust every clone below it)
        write(home / ".config" / "ripple" / "config.toml", f'[trust]\nworkspaces = ["{folder}"]\n')
        with pytest.raises(ConfigError, match=why):
            load_config(workspace, env)
    (home / ".config" / "ripple" / "config.toml").unlink()
    assert trust_workspace(home / "src", env)  # a folder below home is a workspace like any other


def test_a_relative_ripple_config_is_refused(workspace, home):
    write(workspace / ".ripple" / "config.toml", '[graph]\nbackend = "memgraph"\n')
    with pytest.raises(ConfigError, match=r"\$RIPPLE_CONFIG must be an absolute path, not '.ripple/config.toml'"):
        load_config(workspace, {"HOME": str(home), "RIPPLE_CONFIG": ".ripple/config.toml"})


def test_the_rest_api_key_comes_from_the_environment_or_a_trusted_file(workspace, home):
    user = write(home / ".config" / "ripple" / "config.toml", '[api]\nkey = "user-key-0123456789"\n')
    assert load_config(workspace, {"HOME": str(home)}).api_key == "user-key-0123456789"
    assert load_config(workspace, {"HOME": str(home), "RIPPLE_API_KEY": "env-key-0123456789"}).api_key == (
        "env-key-0123456789")
    # A cloned repository's file must not choose the key that opens the index to the network.
    ws_file = write(workspace / ".ripple" / "config.toml", '[api]\nkey = "planted-key-012345"\n')
    config = load_config(workspace, {"HOME": str(home)})
    assert (config.api_key, config.ignored) == ("user-key-0123456789", ("api.key",))
    user.chmod(0o644)
    assert f"{user} holds api.key and other users can read it; run chmod 600 {user}" in load_config(
        workspace, {"HOME": str(home)}).warnings
    trust(home, workspace)
    assert load_config(workspace, {"HOME": str(home)}).api_key == "planted-key-012345"
    assert ws_file.is_file()


def test_server_index_workspace_from_a_file_and_the_environment(workspace, home):
    env = {"HOME": str(home)}
    assert load_config(workspace, env).index_workspace is True  # the server indexes its folders by default
    write(workspace / ".ripple" / "config.toml", "[server]\nindex_workspace = false\n")
    config = load_config(workspace, env)
    assert config.index_workspace is False and config.source_of("server.index_workspace").endswith("config.toml")
    assert config.warnings == ()  # no endpoint: applies in a workspace that is not trusted
    for raw, value in (("true", True), ("1", True), ("FALSE", False), ("0", False)):
        assert load_config(workspace, {**env, "RIPPLE_SERVER_INDEX_WORKSPACE": raw}).index_workspace is value
    with pytest.raises(ConfigError, match=r"\$RIPPLE_SERVER_INDEX_WORKSPACE must be true or false \(or 1 / 0\), not 'yes'"):
        load_config(workspace, {**env, "RIPPLE_SERVER_INDEX_WORKSPACE": "yes"})
    write(workspace / ".ripple" / "config.toml", '[server]\nindex_workspace = "no"\n')
    untrusted = load_config(workspace, env)  # the repository's file: left out with a warning
    assert untrusted.index_workspace is True and untrusted.warnings[0].endswith(
        "server.index_workspace must be true or false, not 'no' (left out)")
    trust(home, workspace)
    with pytest.raises(ConfigError, match=r"server.index_workspace must be true or false, not 'no'"):
        load_config(workspace, env)
    write(workspace / ".ripple" / "config.toml", "[server]\nindex = true\n")
    with pytest.raises(ConfigError, match=r"unknown key 'index' in \[server\]; known keys: index_workspace"):
        load_config(workspace, env)


def test_doc_folders_of_a_repository_reads_its_own_setting_and_never_raises(workspace, home):
    from stores.config import doc_folders_of

    assert doc_folders_of(workspace) == ()
    write(workspace / ".ripple" / "config.toml", '[docs]\nfolders = ["wiki-export", "./docs/adr/"]\n')
    assert doc_folders_of(workspace / "src") == ("wiki-export", "docs/adr")  # seen from a folder below, as load_config
    trust(home, workspace)
    write(workspace / ".ripple" / "config.toml", '[docs]\nfolders = "wiki"\n')  # trusted, so strict: an error...
    assert doc_folders_of(workspace) == ()  # ...logged, and no folders: the code is indexed all the same
