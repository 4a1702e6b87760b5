"""The data layer's leftovers (issue 20): Liquibase change logs and migrations replayed in order
(:mod:`indexer.languages.sql.liquibase`, :mod:`indexer.frameworks.schema_history`), with exact
tables, columns and edges from ``tests/fixtures/data-liquibase`` and the negative cases: a renamed
table keeps no node under its old name, a dropped table or column none at all, an XML file that is no
change log declares nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indexer.frameworks.schema_history import migration_order, replay
from indexer.frameworks.sql_text import declared_tables
from indexer.languages import extractor_for_path
from indexer.model import TableDef
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.index_harness import index_fixture

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CHANGES = "src/main/resources/db/changelog"


def _index(tmp_path: Path, name: str) -> EmbeddedStore:
    return index_fixture(FIXTURES / name, tmp_path / f"{name}.db", name)


def _short(node_id: str) -> str:
    return node_id.split(":", 1)[1].rsplit("/", 1)[-1]


def edges(s: EmbeddedStore, *kinds: str) -> list[tuple[str, str, str, dict]]:
    rows = s._db.execute(  # noqa: SLF001 - the test reads the stored rows as they are
        f"SELECT kind, src, dst, props FROM edges WHERE kind IN ({','.join('?' * len(kinds))})", kinds)
    return sorted({(k, _short(src), dst, p or "") for k, src, dst, p in rows})


def columns(s: EmbeddedStore) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for src, dst in s._db.execute("SELECT DISTINCT src, dst FROM edges WHERE kind = 'HAS_COLUMN'"):  # noqa: SLF001
        out.setdefault(src, []).append(dst.rsplit(".", 1)[-1])
    return {k: sorted(v) for k, v in sorted(out.items())}


def _extract(repo: str, rel: str):
    ex = extractor_for_path(rel)
    assert ex is not None, rel
    return ex.extract(rel, (FIXTURES / repo / rel).read_bytes())


# --------------------------------------------------------------------------------- Liquibase


def test_sql_schema_changes() -> None:
    found = declared_tables("CREATE TABLE a (x int);\nALTER TABLE a RENAME TO b;\nALTER TABLE b RENAME COLUMN x TO y;\n"
                            "ALTER TABLE b ADD COLUMN z INT, DROP COLUMN q;\n-- a comment\nDROP TABLE IF EXISTS c, s.d;\n")
    assert [(t.name, t.schema, t.columns, t.line, t.change, t.renamed) for t in found.tables] == [
        ("a", None, (("x", "int"),), 1, None, None),
        ("a", None, (), 2, "rename", ("a", "b")),
        ("b", None, (), 3, "rename_column", ("x", "y")),
        ("b", None, (("z", "int"),), 4, None, None),
        ("b", None, (("q", None),), 4, "drop_column", None),
        ("c", None, (), 6, "drop", None),  # the line of the statement, not of its leading comment
        ("d", "s", (), 6, "drop", None),
    ]


def test_jpql_join_fetch_and_spel() -> None:
    from indexer.frameworks.sql_text import Access, statement_access

    # JHipster's repositories: "join fetch" is a join, ?#{...} a parameter, an alias named like its entity no column
    assert statement_access("select operation from Operation operation left join fetch operation.bankAccount "
                            "where operation.id =:id") == [
        Access("reads", "bankAccount", "operation", ()), Access("reads", "Operation", None, ("id",))]
    assert statement_access("select bankAccount from BankAccount bankAccount where bankAccount.user.login = "
                            "?#{authentication.name}") == [Access("reads", "BankAccount", None, ())]


def test_jpql_constructor_expression() -> None:
    from indexer.frameworks.sql_text import Access, statement_access

    # callicoder's polls app: `select new Dto(...)` (a JPQL / HQL constructor expression) reads its FROM as any
    # select does; its arguments are the selected columns. A name merely starting with `new` is a function
    assert statement_access("SELECT NEW com.example.polls.model.ChoiceVoteCount(v.choice.id, count(v.id)) FROM Vote v "
                            "WHERE v.poll.id = :pollId GROUP BY v.choice.id") == [Access("reads", "Vote", None, ("id",))]
    assert statement_access("select distinct new Dto (o.id, o.total) from Order o where o.total > 5") == [
        Access("reads", "Order", None, ("id", "total"))]
    assert statement_access("select new_total(x) from t") == [Access("reads", "t", None, ("x",))]
    assert statement_access("select new Dto(") is None  # no FROM: not a statement


def test_liquibase_xml_changes() -> None:
    ex = _extract("data-liquibase", f"{CHANGES}/changes/001_init.xml")
    assert ex.language == "liquibase" and ex.errors == []
    assert [(t.kind, t.name, t.schema, t.columns, t.line) for t in ex.tables] == [
        ("table", "customer", None, [("id", "bigint"), ("email", "varchar(255)"), ("nick", "varchar(40)")], 4),
        ("table", "orders", "sales", [("id", "bigint"), ("customer_id", "bigint"), ("amount", "decimal(10,2)")], 11),
        ("table", "tmp_import", None, [("line", "text")], 16),
        ("table", "audit_entry", None, [("id", "bigint"), ("what", "varchar(100)")], 21),  # a <sql> change
    ]  # the commented-out <createTable> is no change


def test_liquibase_yaml_changes() -> None:
    ex = _extract("data-liquibase", f"{CHANGES}/changes/002_rework.yaml")
    assert [(t.kind, t.name, t.schema, t.columns, t.line, t.renamed) for t in ex.tables] == [
        ("table", "customer", None, [("phone", "varchar(20)")], 6, None),
        ("rename", "orders", "sales", [], 12, ("orders", "purchase")),
        ("rename_column", "customer", None, [], 16, ("nick", "display_name")),
        ("drop_column", "purchase", "sales", [("amount", None)], 20, None),
        ("drop", "tmp_import", None, [], 24, None),
    ]


def test_liquibase_includes_and_non_changelogs() -> None:
    master = _extract("data-liquibase", f"{CHANGES}/db.changelog-master.xml")
    assert master.tables == []
    # the three includes under the change-log folder are read as files of their own; the fourth is not
    assert master.errors == ["9:0: liquibase: include src/main/resources/scripts/seed.xml: not under a change-log "
                             "folder, not read as one"]
    other = _extract("data-liquibase", f"{CHANGES}/not-a-changelog.xml")
    assert other.tables == [] and other.errors == []  # claimed by its folder, but no databaseChangeLog
    assert extractor_for_path("pom.xml") is None
    bad = extractor_for_path("db/changelog/x.yaml").extract("db/changelog/x.yaml", b"databaseChangeLog: [\n")
    assert bad.tables == [] and len(bad.errors) == 1 and bad.errors[0].startswith("1:0: liquibase: not read: ")
    bomb = b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><databaseChangeLog>&b;</databaseChangeLog>'
    assert extractor_for_path("liquibase/x.xml").extract("liquibase/x.xml", bomb).tables == []


def test_replay_order_and_fates() -> None:
    assert sorted(["V10__c.sql", "V2__b.sql", "V1__a.sql"], key=migration_order) == ["V1__a.sql", "V2__b.sql", "V10__c.sql"]
    create = TableDef("sql", "t", None, [("a", "int"), ("b", "int")], 1, 0)
    entity = TableDef("jpa", "t", None, [("a", "Long")], 3, 0, entity="T")
    later = [
        ("V10__drop_b.sql", TableDef("sql", "t", None, [("b", None)], 1, 0, kind="drop_column")),
        ("V2__rename.sql", TableDef("sql", "t", None, [], 1, 0, kind="rename", renamed=("t", "u"))),
    ]
    fates = replay([("V1__init.sql", create), ("T.java", entity), *later])
    fate = fates[id(create)]
    assert fate is not None and (fate.name, fate.columns) == ("u", (("a", "int"), ("b", "int")))
    assert id(entity) not in fates  # an entity is never replayed: the code names its table
    # V10 drops column b of "t", which V2 renamed: nothing named t is left to change, so b stays
    gone = TableDef("sql", "g", None, [], 1, 0)
    assert replay([("V1.sql", gone), ("V2.sql", TableDef("sql", "g", None, [], 1, 0, kind="drop"))])[id(gone)] is None


@pytest.fixture(scope="module")
def liquibase(tmp_path_factory: pytest.TempPathFactory):
    s = _index(tmp_path_factory.mktemp("lb"), "data-liquibase")
    yield s
    s.close()


def test_liquibase_tables_in_the_graph(liquibase: EmbeddedStore) -> None:
    assert columns(liquibase) == {
        "table:data-liquibase:.audit_entry": ["id", "what"],
        "table:data-liquibase:.customer": ["display_name", "email", "id", "phone"],  # nick renamed
        "table:data-liquibase:.loyalty": ["balance", "customer_id"],  # points renamed in the SQL change log
        "table:data-liquibase:sales.purchase": ["customer_id", "id", "total"],  # amount dropped
    }
    assert edges(liquibase, "DECLARES") == [
        ("DECLARES", "001_init.xml", "table:data-liquibase:.audit_entry", '{"framework":"liquibase"}'),
        ("DECLARES", "001_init.xml", "table:data-liquibase:.customer", '{"framework":"liquibase"}'),
        ("DECLARES", "001_init.xml", "table:data-liquibase:sales.purchase", '{"framework":"liquibase"}'),  # as orders
        ("DECLARES", "002_rework.yaml", "table:data-liquibase:.customer", '{"framework":"liquibase"}'),
        ("DECLARES", "003_loyalty.sql", "table:data-liquibase:.loyalty", '{"framework":"sql"}'),
        ("DECLARES", "003_loyalty.sql", "table:data-liquibase:sales.purchase", '{"framework":"sql"}'),
        ("DECLARES", "Purchase.Purchase", "table:data-liquibase:sales.purchase", '{"framework":"jpa"}'),
    ]
    ids = {r[0] for r in liquibase._db.execute("SELECT id FROM nodes WHERE label IN ('Table', 'Column')")}  # noqa: SLF001
    assert not {i for i in ids if "orders" in i or "tmp_import" in i or i.endswith((".nick", ".amount", ".points"))}
    assert edges(liquibase, "READS", "WRITES") == [
        ("READS", "PurchaseRepository.PurchaseRepository.loyalCustomers()", "table:data-liquibase:.loyalty",
         json.dumps({"columns": ["balance"], "framework": "jpa", "resolution": "exact"}, separators=(",", ":"))),
    ]


# ------------------------------------------------------------------------- JavaScript / TypeScript


def _p(**props: object) -> str:
    return json.dumps(dict(sorted(props.items())), separators=(",", ":"))


@pytest.fixture(scope="module")
def js(tmp_path_factory: pytest.TempPathFactory):
    s = _index(tmp_path_factory.mktemp("js"), "data-js")
    yield s
    s.close()


def test_js_tables(js: EmbeddedStore) -> None:
    assert columns(js) == {
        "table:data-js:.accounts": ["created_at", "email", "id"],  # Prisma @@map / @map
        "table:data-js:.app_users": ["email", "id"],  # TypeORM @Entity('app_users')
        "table:data-js:.post": ["id", "title"],
        "table:data-js:.session": ["account_id", "id", "token"],
    }


def test_js_reads_and_writes(js: EmbeddedStore) -> None:
    def e(kind: str, src: str, table: str, framework: str, columns: list[str] | None = None,
          resolution: str = "exact"):
        props = {"framework": framework, "resolution": resolution, **({"columns": columns} if columns else {})}
        return (kind, src, f"table:data-js:{table}", _p(**props))

    assert edges(js, "READS", "WRITES") == sorted([
        # pg: a constant, a literal with $n parameters, a { text } query config
        e("READS", "db.activeUsers(0)", ".users", "sql", ["active", "email", "id"]),
        e("READS", "db.renameUser(2)", ".users", "sql", ["id"]),
        e("WRITES", "db.renameUser(2)", ".users", "sql", ["name"]),
        e("WRITES", "db.logEvent(1)", "audit.events", "sql", ["kind"]),
        # knex chains
        e("READS", "db.ordersOf(1)", ".orders", "knex", ["id", "total", "user_id"]),
        e("WRITES", "db.addOrder(1)", ".orders", "knex", ["total", "user_id"]),
        e("READS", "db.closeOrder(1)", ".orders", "knex", ["id"]),
        e("WRITES", "db.closeOrder(1)", ".orders", "knex", ["status"]),
        e("WRITES", "db.purgeOrders(0)", ".orders", "knex"),
        # Prisma client: model accessor -> schema.prisma model -> @@map table; @map columns
        e("READS", "accounts.findAccount(1)", ".accounts", "prisma", ["email"]),
        e("WRITES", "accounts.openSession(2)", ".session", "prisma", ["account_id", "token"]),
        e("READS", "accounts.closeSessions(1)", ".session", "prisma", ["account_id"]),  # tx.session in $transaction
        e("WRITES", "accounts.closeSessions(1)", ".session", "prisma"),
        # a tagged sql`...` template, its ${days} a parameter
        e("READS", "accounts.recentLogins(1)", ".accounts", "sql", ["created_at", "email", "id"]),
        e("READS", "accounts.recentLogins(1)", ".session", "sql", ["account_id"]),
        # TypeORM: @InjectRepository field, getRepository(E) chain and variable, EntityManager
        e("READS", "users.service.UsersService.byEmail(1)", ".app_users", "typeorm", ["email"], "inferred"),
        e("WRITES", "users.service.UsersService.register(1)", ".app_users", "typeorm", None, "inferred"),
        e("WRITES", "users.service.UsersService.publish(1)", ".post", "typeorm", None, "inferred"),
        e("READS", "users.service.UsersService.countPosts(0)", ".post", "typeorm", None, "inferred"),
        e("WRITES", "users.service.UsersService.removeWith(1)", ".app_users", "typeorm", None, "inferred"),
    ])
    # notSql: a log line, res.get('/users') and pool.query(buildQuery()) claim nothing; prisma.ghost is
    # no model; list.find(...) on an array is no repository
    srcs = {src for _, src, _, _ in edges(js, "READS", "WRITES")}
    assert not srcs & {"db.notSql(1)", "accounts.unknownModel(0)", "users.service.UsersService.notARepository(1)"}
    assert not [r for r in js._db.execute("SELECT id FROM nodes WHERE id LIKE '%ghost%'")]  # noqa: SLF001


# ------------------------------------------------------------------------------------------ jOOQ


def test_jooq_reads_and_writes(tmp_path: Path) -> None:
    s = _index(tmp_path, "data-jooq")
    try:
        def e(kind: str, method: str, table: str, framework: str, columns: list[str] | None = None):
            props = {"framework": framework, "resolution": "inferred" if framework == "jooq" else "exact",
                     **({"columns": columns} if columns else {})}
            return (kind, f"AccountDao.AccountDao.{method}", f"table:data-jooq:.{table}", _p(**props))

        assert edges(s, "READS", "WRITES") == sorted([
            e("READS", "owners(BigDecimal)", "bank_account", "jooq", ["balance", "owner"]),
            e("WRITES", "open(long,String)", "bank_account", "jooq", ["id", "owner"]),
            e("WRITES", "credit(long,BigDecimal)", "bank_account", "jooq", ["balance"]),
            e("READS", "credit(long,BigDecimal)", "bank_account", "jooq", ["id"]),  # its where
            e("READS", "history(long)", "transfer", "jooq", ["from_id"]),  # bank.db.Tables.TRANSFER
            e("WRITES", "forget(long)", "transfer", "jooq"),
            e("READS", "forget(long)", "transfer", "jooq", ["to_id"]),
            # JdbcTemplate.update("sql") is SQL, not jOOQ; limit(PAGE_SIZE) names no table
            e("WRITES", "legacy(String)", "bank_account", "jdbc", ["owner"]),
            e("READS", "legacy(String)", "bank_account", "jdbc", ["id"]),
        ])
        tables = {r[0] for r in s._db.execute("SELECT id FROM nodes WHERE label = 'Table'")}  # noqa: SLF001
        assert tables == {"table:data-jooq:.bank_account", "table:data-jooq:.transfer"}  # no page_size table
    finally:
        s.close()


# ---------------------------------------------------------------------------------------- Django


def test_django_managers_and_join_tables(tmp_path: Path) -> None:
    s = _index(tmp_path, "data-django")
    try:
        t = "table:data-django:."
        skip = (f"{t}library_book", f"{t}library_genre", f"{t}library_patron")
        assert {k: v for k, v in columns(s).items() if k not in skip} == {
            f"{t}book_genre_links": ["book_id", "genre_id", "id"],  # db_table=
            f"{t}library_author": ["book_count", "id", "name"],
            f"{t}library_author_friends": ["from_author_id", "id", "to_author_id"],  # "self"
            f"{t}library_book_readers": ["book_id", "id", "user_id"],  # settings.AUTH_USER_MODEL
            f"{t}library_credit": ["author_id", "book_id", "id"],  # the through model is the join table
        }
        assert f"{t}library_book_authors" not in columns(s)  # through= declares no table of its own

        def e(kind: str, src: str, table: str, framework: str, resolution: str, columns: list[str] | None = None):
            props = {"framework": framework, "resolution": resolution, **({"columns": columns} if columns else {})}
            return (kind, src, t + table, _p(**props))

        assert edges(s, "READS", "WRITES") == sorted([
            # custom manager / queryset methods reach their model's table through ``objects = ...``
            e("READS", "models.AuthorManager.prolific(0)", "library_author", "django", "exact", ["book_count"]),
            e("READS", "models.AuthorManager.rename_all(2)", "library_author", "django", "exact", ["name"]),
            e("WRITES", "models.AuthorManager.rename_all(2)", "library_author", "django", "exact", ["name"]),
            e("WRITES", "models.AuthorManager.create_author(1)", "library_author", "django", "inferred"),  # self.model()
            e("WRITES", "models.PatronManager.create_patron(1)", "library_patron", "django", "inferred"),  # BUM alias
            e("READS", "models.BookQuerySet.published(0)", "library_book", "django", "exact", ["status"]),
            e("READS", "services.top_authors(0)", "library_author", "django", "exact"),
            # many-to-many managers write the join table
            e("WRITES", "models.Book.tag(1)", "book_genre_links", "django-m2m", "inferred"),
            e("WRITES", "services.shelve(2)", "book_genre_links", "django-m2m", "inferred"),
            e("WRITES", "services.shelve(2)", "library_book_readers", "django-m2m", "inferred"),
            e("WRITES", "services.befriend(2)", "library_author_friends", "django-m2m", "inferred"),
        ])
        # request.session.clear() and a set's add() are no join-table writes
        assert "services.not_a_relation(1)" not in {src for _, src, _, _ in edges(s, "READS", "WRITES")}
    finally:
        s.close()


# ----------------------------------------------------------------------- [docs] folders (a wiki)


def _wiki_repo(root: Path, folders: str = '["wiki-export"]') -> Path:
    (root / "wiki-export" / "billing").mkdir(parents=True)
    (root / "wiki-export" / "Refunds.md").write_text("# Refunds\n\nA refund reverses a `payments` row.\n")
    (root / "wiki-export" / "billing" / "Invoices.adoc").write_text("= Invoices\n\n== Numbering\n\nYearly.\n")
    (root / "wiki-export" / "export.py").write_text("def leak():\n    return 1\n")  # not documentation
    (root / "notes").mkdir()
    (root / "notes" / "todo.md").write_text("# Todo\n")  # gitignored and not a doc folder
    (root / ".gitignore").write_text("wiki-export/\nnotes/\n")
    (root / "app.py").write_text("def pay():\n    return 2\n")
    (root / ".ripple").mkdir()
    (root / ".ripple" / "config.toml").write_text(f"[docs]\nfolders = {folders}\n")
    return root


def test_doc_folders_are_indexed_even_when_gitignored(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from indexer.discovery import classify_path, discover
    from lsp_server.cli import main

    root = _wiki_repo(tmp_path / "repo")
    found = discover(root, doc_folders=("wiki-export",))
    assert [f.path for f in found.files] == [
        "app.py", "wiki-export/Refunds.md", "wiki-export/billing/Invoices.adoc"]
    assert found.skipped["gitignored"] == 2  # wiki-export/export.py and notes/
    assert [f.path for f in discover(root).files] == ["app.py"]  # without the setting
    assert classify_path(root, "wiki-export/Refunds.md", doc_folders=("wiki-export",)).path == "wiki-export/Refunds.md"
    assert classify_path(root, "wiki-export/export.py", doc_folders=("wiki-export",)) == "gitignored"
    assert classify_path(root, "wiki-export/Refunds.md") == "gitignored"

    db = tmp_path / "x.db"
    run = CliRunner().invoke(main, ["index", str(root), "--db", str(db), "--no-embed", "--json", "-j", "1"])
    assert run.exit_code == 0, run.output
    s = EmbeddedStore(db)
    try:
        rows = sorted(s._db.execute("SELECT file, kind, name FROM chunks WHERE kind = 'doc'"))  # noqa: SLF001
    finally:
        s.close()
    assert rows == [("wiki-export/Refunds.md", "doc", "Refunds"),
                    ("wiki-export/billing/Invoices.adoc", "doc", "Invoices"),
                    ("wiki-export/billing/Invoices.adoc", "doc", "Numbering")]


def test_unsafe_doc_folders_are_refused(tmp_path: Path) -> None:
    """A folder outside the repository is refused when the configuration is read (an untrusted
    workspace file's bad key is left out with a warning, as every bad key there); one missing, or a
    link out of the repository, when the tree is walked (skipped and counted). Nothing outside is read."""
    from click.testing import CliRunner

    from lsp_server.cli import main

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Secret.md").write_text("# Secret\n")
    cases = {
        '["../outside"]': "docs.folders: '../outside' leads out of the repository; only folders inside it are indexed (left out)",
        '["/etc"]': "docs.folders: '/etc' is not inside the repository",
        '["missing"]': "doc_folder_missing 1",
        '["link"]': "doc_folder_outside 1",
    }
    for i, (folders, message) in enumerate(cases.items()):
        root = _wiki_repo(tmp_path / f"r{i}", folders)
        (root / "link").symlink_to(outside, target_is_directory=True)
        db = tmp_path / f"r{i}.db"
        run = CliRunner().invoke(main, ["index", str(root), "--db", str(db), "--no-embed", "-j", "1"])
        assert run.exit_code == 0 and message in " ".join(run.output.replace("│", " ").split()), (folders, run.output)
        s = EmbeddedStore(db)
        try:
            files = {r[0] for r in s._db.execute("SELECT DISTINCT file FROM chunks")}  # noqa: SLF001
        finally:
            s.close()
        assert files == {"app.py"}, folders  # neither the wiki export (gitignored) nor anything outside


def test_jpa_cascades_write_the_related_tables_and_nothing_else(tmp_path):
    """``owners.save(owner)`` with ``@OneToMany(cascade = ALL) List<Pet> pets`` inserts the pets too,
    and their visits (cascade again); a relationship without a cascade writes nothing more."""
    from stores.embedded import EmbeddedStore

    pkg = tmp_path / "src" / "main" / "java" / "shop"
    pkg.mkdir(parents=True)
    head = "package shop;\nimport jakarta.persistence.*;\nimport java.util.*;\n"
    (pkg / "Owner.java").write_text(head + "@Entity @Table(name = \"owners\")\npublic class Owner {\n"
                                    "  @Id Integer id;\n  @OneToMany(cascade = CascadeType.ALL) @JoinColumn(name = \"owner_id\")\n"
                                    "  private List<Pet> pets = new ArrayList<>();\n}\n")
    (pkg / "Pet.java").write_text(head + "@Entity @Table(name = \"pets\")\npublic class Pet {\n  @Id Integer id;\n"
                                  "  @ManyToOne @JoinColumn(name = \"type_id\") private PetType type;\n"
                                  "  @OneToMany(orphanRemoval = true) private Set<Visit> visits;\n}\n")
    (pkg / "PetType.java").write_text(head + "@Entity @Table(name = \"types\")\npublic class PetType {\n  @Id Integer id;\n}\n")
    (pkg / "Visit.java").write_text(head + "@Entity @Table(name = \"visits\")\npublic class Visit {\n  @Id Integer id;\n}\n")
    (pkg / "OwnerRepository.java").write_text(
        "package shop;\nimport org.springframework.data.jpa.repository.JpaRepository;\n"
        "public interface OwnerRepository extends JpaRepository<Owner, Integer> {}\n")
    (pkg / "OwnerService.java").write_text(
        "package shop;\npublic class OwnerService {\n  private final OwnerRepository owners;\n"
        "  OwnerService(OwnerRepository owners) { this.owners = owners; }\n"
        "  void add(Owner o) { owners.save(o); }\n  Owner find(int id) { return owners.findById(id).orElseThrow(); }\n}\n")
    with EmbeddedStore(tmp_path / "i.db") as store:
        index_repository(tmp_path / "src", store, store, IndexOptions(repo="r", jobs=1))
        add, find = "r:main/java/shop/OwnerService.OwnerService.add(Owner)", "r:main/java/shop/OwnerService.OwnerService.find(int)"
        out = store.outgoing([add], ["WRITES", "READS"])
        reads = [(e.kind, e.dst) for e in store.outgoing([find], ["WRITES", "READS"])[find]]
        got = sorted((e.kind, e.dst.rsplit(".", 1)[-1], e.props.get("cascade", "").rsplit(".", 1)[-1] or None)
                     for es in out.values() for e in es)
    # props cascade: the table the code wrote, whose entity cascades (through pets, to visits)
    assert got == [("WRITES", "owners", None), ("WRITES", "pets", "owners"), ("WRITES", "visits", "owners")]
    assert reads == [("READS", "table:r:.owners")]  # a read cascades nothing; types (no cascade) never written
