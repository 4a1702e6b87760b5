"""Documentation, configuration and SQL in search (indexer/content, indexer/mentions): exact chunks per
kind on inline sources, the files claimed and refused (a real ``.env`` never read, binaries and huge
files skipped), ``MENTIONS`` edges to the symbols a doc names and none for common words, and search by
kind with the mentioned code next to a doc hit."""

from __future__ import annotations

import pytest

from analysis.agent_queries import AgentQueries
from analysis.retrieval import QueryEngine
from indexer.content import MAX_CHUNKS, SECTION_LINES, content_chunks, content_language
from indexer.content.docs import headings
from indexer.mentions import mention_edges, mentions
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.contracts import Chunk, Node, SearchFilters, SymbolKey, qualname_agrees
from stores.embedded import EmbeddedStore


def chunks(path: str, text: str, max_chars: int = 6000) -> list[tuple[str, str, int, int, str]]:
    lang = content_language(path)
    assert lang is not None
    return [(c.kind, c.name, c.start_line, c.end_line, c.text)
            for c in content_chunks("r", "p", path, lang, f"r:{path}", text, max_chars)]


@pytest.mark.parametrize(("path", "language"), [
    ("README.md", "markdown"), ("docs/adr/0002-queues.md", "markdown"), ("guide.rst", "restructuredtext"),
    ("docs/topics/db.txt", "restructuredtext"), ("wiki/Home.adoc", "asciidoc"),
    ("src/main/resources/application.yml", "yaml"), ("application-prod.properties", "properties"),
    ("bootstrap.yaml", "yaml"), ("chart/values.yaml", "yaml"), ("chart/values-prod.yml", "yaml"),
    (".env.example", "dotenv"), ("db/schema.sql", "sql"),
    # not content: secrets, other text, other YAML
    (".env", None), (".env.local", None), ("notes.txt", None), ("src/docsy/x.txt", None),
    ("docker-compose.yml", None), ("openapi.yaml", None), ("pom.xml", None),
])
def test_which_files_are_content(path, language):
    assert content_language(path) == language


def test_markdown_sections_with_their_breadcrumbs():
    text = "Intro\n\n# Shop\n\nAbout.\n\n## Refunds\n\nSee `OrderService.refund`.\n\n```sh\n# not a heading\n```\n" \
           "\nSetext\n------\n\nlast\n"
    assert chunks("README.md", text) == [
        ("doc", "README.md", 1, 2, "Intro"),
        ("doc", "Shop", 3, 6, "# Shop\n\nAbout."),
        ("doc", "Refunds", 7, 14, "Shop > Refunds\n## Refunds\n\nSee `OrderService.refund`.\n\n```sh\n# not a heading\n```"),
        ("doc", "Setext", 15, 18, "Shop > Setext\nSetext\n------\n\nlast"),
    ]


def test_rst_and_asciidoc_sections():
    rst = "=====\nGuide\n=====\n\nWelcome.\n\nInstall\n-------\n\nRun ``pip install shop``.\n\nFrom source\n~~~~~~~~~~~\n\nClone.\n"
    assert [(k, n, s, e) for k, n, s, e, _ in chunks("docs/guide.txt", rst)] == [
        ("doc", "Guide", 1, 6), ("doc", "Install", 7, 11), ("doc", "From source", 12, 15)]
    assert chunks("docs/guide.txt", rst)[2][4] == "Guide > Install > From source\nFrom source\n~~~~~~~~~~~\n\nClone."
    adoc = "= Use SQLite\n\n== Context\n\nWe need a store.\n\n----\n== not a title\n----\n\n== Decision\n\nSQLite.\n"
    assert headings("asciidoc", adoc.split("\n")) == [(1, 1, "Use SQLite"), (3, 2, "Context"), (11, 2, "Decision")]


def test_config_keys_with_full_dotted_names():
    yml = "spring:\n  datasource:\n    url: jdbc:h2:mem:shop\n  profiles:\n    active: [dev, test]\nserver:\n" \
          "  port: 8080\n---\nspring:\n  config:\n    activate:\n      on-profile: prod\nitems:\n  - name: a\n"
    assert chunks("application.yml", yml) == [
        ("config", "spring.datasource.url", 3, 3, "spring.datasource.url = jdbc:h2:mem:shop"),
        ("config", "spring.profiles.active", 5, 5, "spring.profiles.active = dev, test"),
        ("config", "server.port", 7, 7, "server.port = 8080"),
        ("config", "spring.config.activate.on-profile", 12, 12, "spring.config.activate.on-profile = prod"),
        ("config", "items[0].name", 14, 14, "items[0].name = a"),
    ]
    props = "# db\nspring.datasource.url=jdbc:mysql://db/petclinic\nlong.value = a \\\n    b\nempty=\n"
    assert chunks("application-mysql.properties", props) == [
        ("config", "spring.datasource.url", 2, 2, "spring.datasource.url = jdbc:mysql://db/petclinic"),
        ("config", "long.value", 3, 4, "long.value = a b"),
        ("config", "empty", 5, 5, "empty = "),
    ]
    assert chunks(".env.example", "# the database\nDATABASE_URL=postgres://localhost/shop\nDEBUG=\"1\"\n") == [
        ("config", "DATABASE_URL", 2, 2, "DATABASE_URL = postgres://localhost/shop"),
        ("config", "DEBUG", 3, 3, "DEBUG = 1")]
    assert chunks("application.yml", "a: [unclosed\n") == []  # does not parse: no keys, no error


def test_sql_one_chunk_per_ddl_statement_and_per_migration():
    schema = ("-- people who own pets\nCREATE TABLE owners (\n  id INT PRIMARY KEY,\n  name VARCHAR(30)\n);\n\n"
              "CREATE INDEX idx_owner_name ON owners (name);\nINSERT INTO owners VALUES (1, 'a;b');\n"
              "INSERT INTO owners VALUES (2, 'c');\nALTER TABLE owners ADD COLUMN email VARCHAR(50);\n")
    assert chunks("src/main/resources/db/schema.sql", schema) == [
        ("sql", "owners", 1, 5, "-- people who own pets\nCREATE TABLE owners (\n  id INT PRIMARY KEY,\n"
                                "  name VARCHAR(30)\n);"),
        ("sql", "idx_owner_name", 7, 7, "CREATE INDEX idx_owner_name ON owners (name);"),
        ("sql", "schema.sql", 8, 9, "INSERT INTO owners VALUES (1, 'a;b');\nINSERT INTO owners VALUES (2, 'c');"),
        ("sql", "owners", 10, 10, "ALTER TABLE owners ADD COLUMN email VARCHAR(50);"),
    ]
    migration = "CREATE TABLE pets (id INT);\nALTER TABLE pets ADD COLUMN name VARCHAR(10);\n"
    for path in ("db/migration/V1__init.sql", "src/main/resources/db/changelog/001.sql"):
        assert chunks(path, migration) == [("sql", path.rsplit("/", 1)[1], 1, 2, migration.rstrip("\n"))]
    assert chunks("x.sql", "SELECT 'unterminated\n") == [("sql", "x.sql", 1, 1, "SELECT 'unterminated")]


def test_huge_content_is_capped():
    big = "# Big\n" + "".join(f"line {i}\n" for i in range(2 * SECTION_LINES + 5))
    got = chunks("README.md", big)
    assert [(n, s, e) for _, n, s, e, _ in got] == [("Big", 1, SECTION_LINES), ("Big", SECTION_LINES + 1,
                                                                                  2 * SECTION_LINES),
                                                    ("Big", 2 * SECTION_LINES + 1, 2 * SECTION_LINES + 6)]
    assert chunks("README.md", "# T\n" + "x" * 100, max_chars=20)[0][4] == "# T\n" + "x" * 16 + "\n…"
    many = "".join(f"k{i}: {i}\n" for i in range(MAX_CHUNKS + 10))
    assert len(chunks("values.yaml", many)) == MAX_CHUNKS


def _doc(text: str, start: int = 1, kind: str = "doc") -> Chunk:
    return Chunk("c", "r", "p", "README.md", "markdown", kind, "s", "r:README.md", None, start, start + 9, text, "x")


def _node(id_: str, label: str, name: str, qualname: str, file: str, module: str | None = None) -> Node:
    return Node(id_, label, name, qualname, "r", file, 1, 0, 2, 0, {"module": module} if module else {})


def test_mentions_are_specific_names_in_code_spans():
    text = "T > S\n## S\nUse `OrderService.refund()` and :func:`~shop.service.validate`,\nnot `save` or `name` " \
           "or `__init__` or `a b`; see ``get_user_model`` and `HttpRequest`."
    assert mentions(_doc(text, start=5)) == [
        ("OrderService.refund", 6, 4), ("shop.service.validate", 6, 38), ("save", 7, 4), ("name", 7, 14),
        ("__init__", 7, 24), ("get_user_model", 7, 49), ("HttpRequest", 7, 72)]  # line 5 is the heading
    config = Chunk("k", "r", "p", "application.properties", "properties", "config", "a.b", "r:x", None, 3, 3,
                   "a.b = com.shop.web.CacheConfig, plain words", "x")
    assert mentions(config) == [("com.shop.web.CacheConfig", 3, 0)]


def test_mention_edges_link_symbols_and_tables_never_common_words():
    nodes = [
        _node("r:shop/service.OrderService.refund(1)", "Method", "refund", "OrderService.refund", "shop/service.py",
              "shop.service"),
        _node("r:shop/service.validate(1)", "Function", "validate", "validate", "shop/service.py", "shop.service"),
        _node("r:shop/models.Order.save(0)", "Method", "save", "Order.save", "shop/models.py", "shop.models"),
        _node("r:shop/other.refund(1)", "Function", "refund", "refund", "shop/other.py", "shop.other"),
        _node("table:orders", "Table", "orders", "orders", ""),
        _node("r:shop/db.get_user_model(0)", "Function", "get_user_model", "get_user_model", "shop/db.py", "shop.db"),
        _node("r:shop/models/base.Order", "Class", "Order", "Order", "shop/models/base.py", "shop.models.base"),
        _node("r:shop/auth/context.auth(1)", "Function", "auth", "auth", "shop/auth/context.py", "shop.auth.context"),
    ] + [_node(f"r:m{i}.HttpRequest", "Class", "HttpRequest", "HttpRequest", f"m{i}.py", f"m{i}") for i in range(4)]
    by_name: dict[str, list[SymbolKey]] = {}
    for n in nodes:
        by_name.setdefault(n.name, []).append(SymbolKey.of(n))
    asked: list[list[tuple[str, str]]] = []

    def lookup(keys):
        asked.append(list(keys))
        return {k: [n for n in by_name.get(k[0], []) if qualname_agrees(n.qualname, k[1])] for k in keys}

    text = "## S\nUse `OrderService.refund` and :func:`shop.service.validate`, write `orders`, not `save`,\n" \
           "see `get_user_model` and `HttpRequest` and `shop.missing.refund`,\n`shop.models.Order` and `shop.auth`."
    edges = mention_edges("r", "README.md", "r:README.md", [_doc(text)], lookup)
    assert asked == [[("HttpRequest", ""), ("Order", "shop.models.Order"), ("auth", "shop.auth"), ("get_user_model", ""),
                      ("orders", ""), ("refund", "OrderService.refund"), ("refund", "shop.missing.refund"),
                      ("save", ""), ("validate", "shop.service.validate")]]
    assert [(e.kind, e.src, e.dst, e.line) for e in edges] == [
        ("MENTIONS", "r:README.md", "r:shop/service.OrderService.refund(1)", 2),
        ("MENTIONS", "r:README.md", "r:shop/service.validate(1)", 2),
        ("MENTIONS", "r:README.md", "table:orders", 2),
        ("MENTIONS", "r:README.md", "r:shop/db.get_user_model(0)", 3),
        ("MENTIONS", "r:README.md", "r:shop/models/base.Order", 4),  # re-exported by the package above
    ]  # `save` is a common word (tables only), HttpRequest names 4 classes, shop.missing.refund none,
    # `shop.auth` is a package, not the function auth two modules below it


SHOP_SOURCES = {
    "shop/__init__.py": "",
    "shop/service.py": "class OrderService:\n    def refund(self, order):\n        return order\n\n\n"
                       "def validate(order):\n    return order\n",
    "README.md": "# Shop\n\nOrders.\n\n## Refunds\n\nA refund goes through `OrderService.refund`; it never "
                 "calls `save`.\n",
    "src/main/resources/application.properties": "shop.refund.window-days=30\nshop.validator=shop.service.OrderService\n",
    "schema.sql": "CREATE TABLE refunds (id INT, amount DECIMAL(10, 2));\n",
    ".env.example": "REFUND_API_URL=http://localhost:9000\n",
    ".env": "REFUND_API_KEY=sk-live-secret\n",
    "logo.md": "\x00\x01binary",
}


@pytest.fixture
def shop(tmp_path):
    root = tmp_path / "shop-src"
    for path, text in SHOP_SOURCES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    (root / "docs").mkdir()
    (root / "docs" / "huge.md").write_text("# Huge\n" + "x\n" * 600_000)
    store = EmbeddedStore(tmp_path / "shop.db")
    report = index_repository(root, store, store, IndexOptions(repo="shop", jobs=1, max_file_bytes=1_000_000))
    yield store, report
    store.close()


def test_indexing_a_repository_with_docs_config_and_sql(shop):
    store, report = shop
    kinds = store._db.execute(  # noqa: SLF001 - the test reads what was written
        "SELECT kind, name, file FROM chunks WHERE kind IN ('doc', 'config', 'sql') ORDER BY file, start_line").fetchall()
    assert kinds == [
        ("config", "REFUND_API_URL", ".env.example"),
        ("doc", "Shop", "README.md"), ("doc", "Refunds", "README.md"),
        ("sql", "refunds", "schema.sql"),
        ("config", "shop.refund.window-days", "src/main/resources/application.properties"),
        ("config", "shop.validator", "src/main/resources/application.properties"),
    ]
    assert report.skipped["too_large"] == 1 and report.skipped["binary"] == 1
    assert store.file_text("shop", ".env") is None  # the secrets file is not read
    every = [r[0] for r in store._db.execute("SELECT id FROM chunks")]  # noqa: SLF001
    texts = [c.text for c in store.get_chunks(every).values()]
    assert len(texts) == len(every) > 0 and not any("sk-live-secret" in t for t in texts)
    edges = store.outgoing(["shop:README.md", "shop:src/main/resources/application.properties"], ["MENTIONS"])
    assert [(e.dst, e.line) for e in edges["shop:README.md"]] == [("shop:shop/service.OrderService.refund(1)", 7)]
    assert [(e.dst, e.line) for e in edges["shop:src/main/resources/application.properties"]] == [
        ("shop:shop/service.OrderService", 2)]


def test_search_by_kind_shows_the_mentioned_code(shop):
    store, _ = shop
    engine = QueryEngine(store, store)
    doc = engine.search("refund", 5, SearchFilters(kind="doc")).hits
    assert [(h.chunk.name, [n.id for n in h.mentions]) for h in doc] == [
        ("Refunds", ["shop:shop/service.OrderService.refund(1)"])]
    assert [h.chunk.name for h in engine.search("refunds table", 5, SearchFilters(kind="sql")).hits] == ["refunds"]
    assert [h.chunk.name for h in engine.search("refund window days", 5, SearchFilters(kind="config")).hits][0] == \
        "shop.refund.window-days"
    answer = AgentQueries(store, store).search("refund", kind="doc", limit=1)
    hit = answer.result["hits"][0]
    assert (hit["name"], hit["kind"], [m["id"] for m in hit["mentions"]]) == (
        "Refunds", "doc", ["shop:shop/service.OrderService.refund(1)"])
    assert "mentions `shop.service.OrderService.refund` (shop/service.py:2)" in answer.text  # one repository: no repo/ in front


def test_yaml_aliases_are_not_expanded_again():
    text = "base: &b\n  host: db\n  port: 5432\nprimary: *b\nreplica: *b\n"
    assert [(n, t) for _, n, _, _, t in chunks("application.yml", text)] == [
        ("base.host", "base.host = db"), ("base.port", "base.port = 5432"), ("primary", "primary = *alias"),
        ("replica", "replica = *alias")]


def test_yaml_documents_of_the_same_shape_are_each_read_whole():
    """A later ``---`` document's collection may reuse the id() of a freed earlier one's: it is no alias (seen in
    a real Spring profile file: a chunk `spring = *alias` in some runs, the profile's keys in others)."""
    text = "\n---\n".join(f"spring:\n  datasource:\n    username: u{i}\n  port: {i}\n" for i in range(40))
    got = [(n, t) for _, n, _, _, t in chunks("application.yml", text)]
    assert got == [pair for i in range(40) for pair in (
        ("spring.datasource.username", f"spring.datasource.username = u{i}"), ("spring.port", f"spring.port = {i}"))]


def test_cli_search_lines_show_the_key_value_under_a_config_hit(shop, tmp_path):
    from click.testing import CliRunner

    from lsp_server.cli import main

    store, _ = shop
    db = str(tmp_path / "shop.db")
    result = CliRunner().invoke(main, ["search", "refund window days", "--kind", "config", "--limit", "1", "--db", db])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "chunks embedded" not in line]  # stderr's note
    assert lines[0].startswith("src/main/resources/application.properties:1  config       shop.refund.window-days  ")
    assert lines[1] == "    shop.refund.window-days = 30"  # the value, without opening the file


def test_sql_statements_stop_past_the_cap_with_their_own_lines():
    from indexer.content.sql import statements

    text = "".join(f"-- table {i}\nCREATE TABLE t{i} (id int);\n" for i in range(5))
    got = [(p.name, p.start, p.end) for p in statements("db/schema.sql", text, 2)]
    assert got == [("t0", 1, 2), ("t1", 3, 4), ("t2", 5, 6)]  # one past the cap: the caller keeps 2 and says so
    assert [(p.name, p.start) for p in statements("db/schema.sql", text)][-1] == ("t4", 9)


def test_a_config_file_with_a_syntax_error_keeps_the_documents_above_it_and_says_where():
    from indexer.content import content_extractor

    text = "server:\n  port: 8080\n---\nspring:\n  name: [shop\n  other: 1\n"
    ex = content_extractor("application.yml").extract("application.yml", text.encode())
    assert len(ex.errors) == 1 and ex.errors[0].startswith("6:")  # PyYAML points at the line the list never closes
    assert ex.partial is None
    assert [(n, s, e) for _, n, s, e, _ in chunks("application.yml", text)] == [("server.port", 2, 2)]
    good = content_extractor("application.yml").extract("application.yml", b"server:\n  port: 8080\n")
    assert (good.errors, good.partial) == ([], None)


def test_content_past_the_chunk_cap_is_marked_indexed_in_part_and_a_file_at_the_cap_is_not():
    from indexer.content import content_extractor

    def extracted(path: str, text: str):
        ex = content_extractor(path).extract(path, text.encode())
        return ex.partial, len(chunks(path, text))

    at_cap = "".join(f"k{i}: {i}\n" for i in range(MAX_CHUNKS))
    assert extracted("values.yaml", at_cap) == (None, MAX_CHUNKS)
    assert extracted("values.yaml", at_cap + "k_last: 1\n") == ("chunk_cap", MAX_CHUNKS)
    props = "".join(f"k{i}={i}\n" for i in range(MAX_CHUNKS + 1))
    assert extracted("application.properties", props) == ("chunk_cap", MAX_CHUNKS)
    ddl = "".join(f"CREATE TABLE t{i} (id INT);\n" for i in range(MAX_CHUNKS + 1))
    assert extracted("schema.sql", ddl) == ("chunk_cap", MAX_CHUNKS)
    doc = "".join(f"# S{i}\ntext\n" for i in range(MAX_CHUNKS + 1))
    assert extracted("README.md", doc) == ("chunk_cap", MAX_CHUNKS)
    assert extracted("README.md", "# One\ntext\n") == (None, 1)


def test_the_index_summary_counts_a_broken_config_file_and_a_cut_one(tmp_path):
    root = tmp_path / "app"
    (root / "src").mkdir(parents=True)
    (root / "src" / "application.yml").write_text("server:\n  port: [8080\n")
    (root / "values.yaml").write_text("".join(f"k{i}: {i}\n" for i in range(MAX_CHUNKS + 3)))
    (root / "README.md").write_text("# App\nfine\n")
    store = EmbeddedStore(tmp_path / "i.db")
    try:
        report = index_repository(root, store, store, IndexOptions(repo="app", jobs=1))
    finally:
        store.close()
    assert (report.files_indexed, report.files_with_parse_errors, dict(report.partial)) == (3, 1, {"chunk_cap": 1})
