"""The data layer (issue 20 items 1-2): SQL read with sqlglot (:mod:`indexer.frameworks.sql_text`),
Table / Column nodes and DECLARES / HAS_COLUMN / READS / WRITES edges from the fixtures
``tests/fixtures/data-java`` (Flyway scripts, JPA entities, a Spring Data repository, JDBC, an
EntityManager, MyBatis annotations) and ``tests/fixtures/data-python`` (Django models and a migration,
SQLAlchemy declarative and ``Table(...)``, ORM calls, raw SQL, a Prisma schema), with the negative
cases: a string that merely starts with "select" is no access, an unknown receiver writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis.tables import (
    TableTargetError,
    tables_declared_at,
    parse_table_target,
    table_accessors,
    table_nodes,
    table_summary,
)
from indexer.frameworks.mybatis_xml import load_mappers, mapper_statements
from indexer.frameworks.sql_text import (
    MAX_STATEMENT_CHARS,
    Access,
    declared_tables,
    looks_like_sql,
    statement_access,
)
from indexer.languages.java.frameworks.jpa_data import derived_query, snake
from indexer.languages.python.frameworks.orm_tables import app_label
from indexer.languages.sql.extractor import PRISMA_EXTRACTOR, SQL_EXTRACTOR
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.contracts import column_id, table_id, table_key
from stores.embedded import EmbeddedStore
from tests.index_harness import index_fixture
from tests.resolution_harness import write_tree

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


# ------------------------------------------------------------------------------------------- SQL


def test_statement_access_reads_and_writes() -> None:
    assert statement_access("INSERT INTO users (id, name) VALUES (#{id}, #{name})") == [
        Access("writes", "users", None, ("id", "name"))]
    assert statement_access("update articles set title = ? where id = ?") == [
        Access("writes", "articles", None, ("title",)), Access("reads", "articles", None, ("id",))]
    assert statement_access("select a.id, u.name from articles a join users u on a.user_id = u.id "
                            "where u.email = :email") == [
        Access("reads", "articles", None, ("id", "user_id")), Access("reads", "users", None, ("email", "id", "name"))]
    assert statement_access("SELECT id FROM billing.invoices WHERE amount > %(limit)s") == [
        Access("reads", "invoices", "billing", ("amount", "id"))]
    assert statement_access("with x as (select * from a) select * from x join b on x.id = b.id") == [
        Access("reads", "a", None, ()), Access("reads", "b", None, ("id",))]
    assert statement_access("TRUNCATE TABLE logs") == [Access("writes", "logs", None, ())]
    assert statement_access("SELECT o FROM Owner o WHERE o.lastName = :n") == [
        Access("reads", "Owner", None, ("lastName",))]  # JPQL: the alias is no column


def test_a_statement_met_again_gets_the_same_answer_in_a_list_of_its_own() -> None:
    # lnk43: answers are kept per text (a link that runs again meets the same statements); each
    # call still gets a new list, which a caller may change without touching the next answer
    text = "select n.id from notes_kept n where n.title = ?"
    first = statement_access(text)
    assert first == [Access("reads", "notes_kept", None, ("id", "title"))]
    first.append(Access("writes", "x", None, ()))
    again = statement_access(text)
    assert again == [Access("reads", "notes_kept", None, ("id", "title"))] and again is not first
    assert statement_access(text, "postgres") == again  # another dialect: its own entry, the same tables
    assert statement_access("select a kept file") is None and statement_access("select a kept file") is None


def test_strings_that_are_not_sql_claim_nothing() -> None:
    assert not looks_like_sql("select a file")
    assert statement_access("select a file") is None
    assert statement_access("Please select an owner from the list") is None  # does not start like SQL
    assert statement_access("updated the owner") is None
    assert statement_access("delete") is None
    assert statement_access("SELECT " + "x," * MAX_STATEMENT_CHARS + " FROM t") is None  # too large: not parsed


def test_declared_tables_with_dialects_and_skips() -> None:
    script = (
        "CREATE TABLE `users` (id INT AUTO_INCREMENT PRIMARY KEY, email VARCHAR(255)) ENGINE=InnoDB;\n"
        "\n"
        "CREATE TABLE public.orders (id SERIAL, user_id INT REFERENCES users(id));\n"
        "ALTER TABLE orders ADD COLUMN total NUMERIC(10, 2);\n"
        "CREATE INDEX ix ON orders (user_id);\n"
        "this is not sql;\n"
        "CREATE TABLE ok (a INT);\n"
    )
    found = declared_tables(script)
    assert [(t.name, t.schema, t.columns, t.line, t.alter) for t in found.tables] == [
        ("users", None, (("id", "int"), ("email", "varchar(255)")), 1, False),
        ("orders", "public", (("id", "serial"), ("user_id", "int")), 3, False),
        ("orders", None, (("total", "decimal(10, 2)"),), 4, True),
        ("ok", None, (("a", "int"),), 7, False),
    ]
    assert found.skipped == {}  # "this is not sql" is no CREATE / ALTER: not even tried
    bad = declared_tables("CREATE TABLE (;\nCREATE TABLE t (a INT);")
    assert [t.name for t in bad.tables] == ["t"] and bad.skipped == {"unparsed": 1}
    assert declared_tables("x" * 2_000_001).skipped == {"too_large": 1}


def test_sql_and_prisma_extractors() -> None:
    ex = SQL_EXTRACTOR.extract("db/V1__x.sql", b"CREATE TABLE a (id INT);\nCREATE TABLE (;\n")
    assert [(t.framework, t.name, t.columns, t.line) for t in ex.tables] == [("sql", "a", [("id", "int")], 1)]
    assert ex.errors == ["2:0: sql: 1 statement(s) skipped: unparsed (line 2: Expected table name but got '(')"]
    ex = PRISMA_EXTRACTOR.extract("schema.prisma", (FIXTURES / "data-python" / "prisma" / "schema.prisma").read_bytes())
    assert [(t.name, t.columns, t.line) for t in ex.tables] == [
        ("users", [("id", "Int"), ("email", "String"), ("created_at", "DateTime")], 6),
        ("Post", [("id", "Int"), ("author_id", "Int"), ("title", "String")], 15),
    ]


def test_identity_rule() -> None:
    assert table_key("Users", "public") == table_key("users") == table_key('"users"') == ".users"
    assert table_key("events", "audit") == "audit.events"
    assert table_id("r", "Owners") == "table:r:.owners"
    assert column_id("table:r:.owners", "Last_Name") == "column:r:.owners.last_name"


def test_naming_rules() -> None:
    assert snake("OwnerPet") == "owner_pet"
    assert snake("birthDate") == "birth_date"
    assert snake("URLMapping") == "urlmapping"  # Spring: "_" only where lower case meets a capital
    assert derived_query("findByEmailAndStatus") == ("reads", ["email", "status"])
    assert derived_query("deleteByOwnerId") == ("writes", ["owner_id"])
    assert derived_query("findDistinctTop3ByLastNameStartingWithOrderByAgeDesc") == ("reads", ["last_name"])
    assert derived_query("countByActiveTrue") == ("reads", ["active"])
    assert derived_query("findAll") is None
    assert derived_query("byName") is None
    assert app_label("shop/models.py") == "shop"
    assert app_label("src/shop/models/order.py") == "shop"
    assert app_label("django/contrib/auth/migrations/0001_initial.py") == "auth"
    assert app_label("models.py") is None


def test_table_target_readings() -> None:
    assert parse_table_target("table:owners") == [(None, "owners", None)]
    assert parse_table_target("table:owners.email") == [("owners", "email", None), (None, "owners", "email")]
    assert parse_table_target("table:audit.events.kind") == [("audit", "events", "kind")]
    for bad in ("table:", "table:a..b", "table:a.b.c.d"):
        with pytest.raises(TableTargetError):
            parse_table_target(bad)


# ------------------------------------------------------------------------------------ fixtures


def _index(tmp_path: Path, name: str) -> EmbeddedStore:
    return index_fixture(FIXTURES / name, tmp_path / f"{name}.db", name)


def _short(node_id: str) -> str:
    return node_id.split(":", 1)[1].rsplit("/", 1)[-1]


def _edges(s: EmbeddedStore, kinds: tuple[str, ...]) -> list[tuple[str, str, str, dict]]:
    rows = s._db.execute(  # noqa: SLF001 - the test reads the stored rows as they are
        f"SELECT kind, src, dst, props FROM edges WHERE kind IN ({','.join('?' * len(kinds))})", kinds)
    return sorted((k, _short(src), dst, json.loads(p) if p else {}) for k, src, dst, p in rows)


def _columns(s: EmbeddedStore) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for src, dst in s._db.execute("SELECT DISTINCT src, dst FROM edges WHERE kind = 'HAS_COLUMN'"):  # noqa: SLF001
        out.setdefault(src, []).append(dst.rsplit(".", 1)[-1])
    return {k: sorted(v) for k, v in sorted(out.items())}


@pytest.fixture(scope="module")
def java(tmp_path_factory: pytest.TempPathFactory):
    s = _index(tmp_path_factory.mktemp("java"), "data-java")
    yield s
    s.close()


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory):
    s = _index(tmp_path_factory.mktemp("python"), "data-python")
    yield s
    s.close()


def test_java_tables_merge_sql_and_entities(java: EmbeddedStore) -> None:
    assert _columns(java) == {
        "table:data-java:.owners": ["email", "first_name", "id", "last_name", "status"],
        "table:data-java:.pet_visit": ["id", "owner_id", "visit_date"],
        "table:data-java:audit.events": ["id", "kind"],
    }
    assert _edges(java, ("DECLARES",)) == [
        ("DECLARES", "Owner.Owner", "table:data-java:.owners", {"framework": "jpa"}),
        ("DECLARES", "PetVisit.PetVisit", "table:data-java:.pet_visit", {"framework": "jpa"}),
        ("DECLARES", "V1__init.sql", "table:data-java:.owners", {"framework": "sql"}),
        ("DECLARES", "V1__init.sql", "table:data-java:.pet_visit", {"framework": "sql"}),
        ("DECLARES", "V2__audit.sql", "table:data-java:.owners", {"framework": "sql"}),
        ("DECLARES", "V2__audit.sql", "table:data-java:audit.events", {"framework": "sql"}),
    ]
    tables = java.get_nodes(["table:data-java:.owners", "table:data-java:audit.events"])
    assert tables["table:data-java:audit.events"].props == {"schema": "audit", "repository": "data-java", "declared": True}
    assert tables["table:data-java:.owners"].label == "Table" and tables["table:data-java:.owners"].name == "owners"


def test_java_reads_and_writes(java: EmbeddedStore) -> None:
    def e(kind: str, src: str, table: str, framework: str, resolution: str, columns: list[str] | None = None):
        props = {"framework": framework, "resolution": resolution, **({"columns": columns} if columns else {})}
        return (kind, src, f"table:data-java:{table}", props)

    assert _edges(java, ("READS", "WRITES")) == sorted([
        e("READS", "OwnerMapper.OwnerMapper.search(String,String,boolean)", ".owners", "mybatis", "exact",
          ["email", "id"]),  # the <if>s exclude each other (two order by): read without them
        e("READS", "OwnerMapper.OwnerMapper.touch(Long,String)", ".owners", "mybatis", "exact", ["id"]),
        e("WRITES", "OwnerMapper.OwnerMapper.touch(Long,String)", ".owners", "mybatis", "exact", ["status"]),
        e("READS", "OwnerRepository.OwnerRepository.byName(String)", ".owners", "jpa", "exact", ["last_name"]),
        e("READS", "OwnerRepository.OwnerRepository.findByEmailAndStatus(String,String)", ".owners", "jpa", "inferred",
          ["email", "status"]),
        e("READS", "OwnerRepository.OwnerRepository.retire(Long)", ".owners", "jpa", "exact", ["id"]),
        e("READS", "OwnerService.OwnerService.countEvents(String)", "audit.events", "jdbc", "exact", ["kind"]),
        e("READS", "OwnerService.OwnerService.find(Long)", ".owners", "jpa", "inferred"),
        e("READS", "OwnerService.OwnerService.rename(Long,String)", ".owners", "jdbc", "exact", ["id"]),
        e("READS", "OwnerService.OwnerService.visit(Long)", ".pet_visit", "jpa", "exact"),
        e("READS", "VisitMapper.VisitMapper.forOwner(Long)", ".pet_visit", "mybatis", "exact",
          ["id", "owner_id", "visit_date"]),
        e("WRITES", "OwnerRepository.OwnerRepository.deleteByLastName(String)", ".owners", "jpa", "inferred",
          ["last_name"]),
        e("WRITES", "OwnerRepository.OwnerRepository.retire(Long)", ".owners", "jpa", "exact", ["status"]),
        e("WRITES", "OwnerService.OwnerService.book(PetVisit)", ".pet_visit", "jpa", "inferred"),
        e("WRITES", "OwnerService.OwnerService.register(Owner)", ".owners", "jpa", "inferred"),
        e("WRITES", "OwnerService.OwnerService.rename(Long,String)", ".owners", "jdbc", "exact", ["last_name"]),
        e("WRITES", "VisitMapper.VisitMapper.insert(PetVisit)", ".pet_visit", "mybatis", "exact",
          ["id", "owner_id", "visit_date"]),
    ])
    # OwnerService.register also calls notes.save(owner) (Notes is no repository) and logs "select an
    # owner from the list": neither is an access; active() calls a declared repository method, whose
    # own READS the walk follows (no edge of its own).
    srcs = {src for _, src, _, _ in _edges(java, ("READS", "WRITES"))}
    assert "OwnerService.OwnerService.active(String)" not in srcs
    assert "OwnerMapper.OwnerMapper.notInXml()" not in srcs  # no statement of that id


def test_python_tables(python: EmbeddedStore) -> None:
    assert _columns(python) == {
        "table:data-python:.payments": ["id", "invoice_id", "note"],  # note: an Alembic add_column
        "table:data-python:.post": ["author_id", "id", "title"],
        "table:data-python:.shop_customer": ["created", "email", "full_name", "id", "referrer_id"],
        "table:data-python:.shop_orders": ["customer_id", "id", "total"],
        "table:data-python:.shop_orders_tags": ["id", "order_id", "tag_id"],  # Order.tags: <db_table>_<field>
        "table:data-python:.shop_tag": ["label"],
        "table:data-python:.users": ["created_at", "email", "id"],
        "table:data-python:billing.invoices": ["amount", "id", "invoice_no"],
        "table:data-python:billing.refunds": ["id", "invoice_id"],
    }
    declared = {(src, dst) for _, src, dst, _ in _edges(python, ("DECLARES",))}
    # the abstract model declares no table; the proxy model none of its own; the migration the same table
    assert ("models.Timestamped", "table:data-python:.shop_timestamped") not in declared
    assert not any("VipCustomer" in src for src, _ in declared)
    assert ("0001_initial.py", "table:data-python:.shop_customer") in declared
    assert ("models.Customer", "table:data-python:.shop_customer") in declared


def test_python_reads_and_writes(python: EmbeddedStore) -> None:
    def e(kind: str, src: str, table: str, framework: str, resolution: str, columns: list[str] | None = None):
        props = {"framework": framework, "resolution": resolution, **({"columns": columns} if columns else {})}
        return (kind, src, f"table:data-python:{table}", props)

    assert _edges(python, ("READS", "WRITES")) == sorted([
        e("READS", "service.count_payments(1)", ".payments", "sqlalchemy", "exact"),  # sa.select(t), t imported
        e("READS", "service.late_invoices(1)", "billing.invoices", "sql", "exact", ["amount", "id"]),
        e("READS", "service.list_invoices(1)", "billing.invoices", "sqlalchemy", "exact"),
        e("READS", "service.newest(1)", "billing.invoices", "sqlalchemy", "exact", ["amount", "id"]),
        e("READS", "service.purge(1)", ".audit_log", "sql", "exact", ["created"]),
        e("READS", "views.close_orders(1)", ".shop_orders", "django", "exact", ["customer_id"]),
        e("READS", "views.customer_detail(2)", ".shop_customer", "django", "exact", ["email"]),
        e("READS", "views.place_order(2)", ".shop_customer", "django", "exact", ["id"]),
        e("READS", "views.vip_count(0)", ".shop_customer", "django", "exact"),  # the proxy's base table
        e("WRITES", "service.add_invoice(1)", "billing.invoices", "sqlalchemy", "inferred"),
        e("WRITES", "service.purge(1)", ".audit_log", "sql", "exact"),
        e("WRITES", "service.record_payment(2)", ".payments", "sqlalchemy", "exact"),
        e("WRITES", "views.close_orders(1)", ".shop_orders", "django", "exact", ["total"]),
        e("WRITES", "views.place_order(2)", ".shop_orders", "django", "inferred"),
    ])
    # forget(thing): thing.save() on an unknown receiver writes nothing; purge's second execute
    # ("select the best option from the menu") and customer_detail's log line are no SQL access.
    srcs = {src for _, src, _, _ in _edges(python, ("READS", "WRITES"))}
    assert "views.forget(1)" not in srcs
    assert table_nodes(python, "table:audit_log")[0][0].props["declared"] is False


def test_table_accessors(java: EmbeddedStore) -> None:
    def names(target: str) -> list[str]:
        return [n.qualname for n in table_accessors(java, target)]

    assert names("table:owners.status") == [
        "OwnerMapper.touch", "OwnerRepository.findByEmailAndStatus", "OwnerRepository.retire",
        "OwnerService.find", "OwnerService.register",  # accesses naming no column may touch any
    ]
    assert names("table:OWNERS.last_name") == [
        "OwnerRepository.byName", "OwnerRepository.deleteByLastName", "OwnerService.find", "OwnerService.register",
        "OwnerService.rename",
    ]
    assert names("table:audit.events") == ["OwnerService.countEvents"]
    with pytest.raises(TableTargetError, match="no table of the index is named 'nope'$"):
        table_accessors(java, "table:nope")
    with pytest.raises(TableTargetError, match="^no table of the index is named 'owner'; closest tables: .*owners"):
        table_accessors(java, "table:owner")
    with pytest.raises(TableTargetError, match="^no table of the index is named 'pet_visits'; closest tables: pet_visit$"):
        table_accessors(java, "table:pet_visits")  # a plural for a singular table
    # a column the table does not declare is an error naming its columns, not the whole table's answer
    with pytest.raises(TableTargetError, match=r"table 'owners' has no column 'nosuch'; its columns: .*\bemail\b"):
        table_accessors(java, "table:owners.nosuch")
    assert names("table:owners.EMAIL") == names("table:owners.email")  # column names compare case-insensitively


def test_mybatis_mapper_statements(tmp_path: Path) -> None:
    xml = (FIXTURES / "data-java" / "src" / "main" / "resources" / "mapper" / "OwnerMapper.xml").read_bytes()
    namespace, statements = mapper_statements(xml)  # type: ignore[misc]
    assert namespace == "shop.OwnerMapper"
    assert statements == {
        "search": (
            "select O.id ownerId, O.email ownerEmail from owners O WHERE O.email = #{email} AND O.status = "
            "#{status} order by O.id desc order by O.id asc",
            "select O.id ownerId, O.email ownerEmail from owners O",
        ),
        "touch": ("update owners SET status = #{status} where id = #{id}", "update owners where id = #{id}"),
    }
    assert mapper_statements(b"<beans><bean id='x'/></beans>") is None  # XML, no mapper
    found = load_mappers(FIXTURES / "data-java")
    assert found.files == frozenset({"src/main/resources/mapper/OwnerMapper.xml"})
    assert found.skipped == (("malformed", 1),)  # Broken.xml
    (tmp_path / "dao").mkdir()
    (tmp_path / "dao" / "A.xml").write_text(
        '<mapper namespace="a.A"><sql id="c">x, y</sql><select id="f">select <include refid="c"/> from t</select></mapper>')
    (tmp_path / "dao" / "B.xml").write_text(
        '<mapper namespace="b.B"><select id="g">select <include refid="a.A.c"/>, from u</select></mapper>')
    assert load_mappers(tmp_path).statements == {"a.A": {"f": ("select x, y from t",)},
                                                  "b.B": {"g": ("select x, y from u",)}}


def test_hover_summaries(java: EmbeddedStore) -> None:
    owner = [n for n in java.nodes_in_file("data-java", "src/main/java/shop/Owner.java") if n.label == "Class"]
    assert tables_declared_at(java, "data-java", "src/main/java/shop/Owner.java", 12, owner) == ["table:data-java:.owners"]
    sql = "src/main/resources/db/migration/V1__init.sql"
    assert tables_declared_at(java, "data-java", sql, 5, []) == ["table:data-java:.owners"]  # inside CREATE TABLE owners
    assert tables_declared_at(java, "data-java", sql, 11, []) == ["table:data-java:.pet_visit"]
    notes = [n for n in java.nodes_in_file("data-java", "src/main/java/shop/Notes.java") if n.label == "Class"]
    assert tables_declared_at(java, "data-java", "src/main/java/shop/Notes.java", 3, notes) == []
    assert table_summary(java, ["table:data-java:.owners", "table:data-java:audit.events", "table:x:.nope"], limit=3) == [
        "owners (5 columns): read by 7, written by 5: OwnerMapper.search (R), OwnerMapper.touch (RW), "
        "OwnerRepository.byName (R), … 6 more",
        "audit.events (2 columns): read by 1, written by 0: OwnerService.countEvents (R)",
    ]


def test_cli_impact_on_a_table(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from lsp_server.cli import main

    s = _index(tmp_path, "data-java")
    s.close()
    db = str(tmp_path / "data-java.db")
    run = CliRunner().invoke(main, ["impact", "table:audit.events", "--db", db, "--json"])
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert [t["qualname"] for t in data["targets"]] == ["OwnerService.countEvents"]
    assert data["summary"]["tables"] == 1
    assert [(t["name"], t["access"], t["columns"], t["via"]["qualname"]) for t in data["tables"]] == [
        ("events", "R", ["kind"], "OwnerService.countEvents")]
    run = CliRunner().invoke(main, ["impact", "table:nope", "--db", db])
    assert run.exit_code == 1 and "no table of the index is named 'nope'" in run.output
    run = CliRunner().invoke(main, ["impact", "table:audit.events.id", "--db", db])
    assert run.exit_code == 1 and "nothing in the index reads or writes table:audit.events.id" in run.output


TYPEORM = b'''import { Entity, Column, PrimaryGeneratedColumn, ManyToOne, OneToMany, OneToOne, JoinColumn } from "typeorm";

@Entity("users")
export class User {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: "first_name", length: 50 })
  firstName: string;

  @OneToMany(() => BlogPost, (p) => p.author)
  posts: BlogPost[];

  @OneToOne(() => Profile, (p) => p.user)
  profile: Profile;
}

@Entity({ name: "posts", schema: "blog" })
export class BlogPost {
  @Column("text")
  body: string;

  @ManyToOne(() => User, (u) => u.posts)
  author: User;

  @ManyToOne(() => User)
  @JoinColumn({ name: "editor_ref" })
  editor: User;

  helper = 3;
}

@Entity()
export class AuditTrail {
  @CreateDateColumn()
  createdAt: Date;
}

export class NotAnEntity {
  @Column()
  x: string;
}
'''


def test_typeorm_entities() -> None:
    from indexer.languages import extractor_for_path

    ex = extractor_for_path("src/user.entity.ts").extract("src/user.entity.ts", TYPEORM)
    assert [(t.framework, t.name, t.schema, t.columns, t.entity, t.line) for t in ex.tables] == [
        ("typeorm", "users", None, [("id", "number"), ("first_name", "string")], "User", 4),
        ("typeorm", "posts", "blog", [("body", "text"), ("authorId", None), ("editor_ref", None)], "BlogPost", 19),
        ("typeorm", "audit_trail", None, [("createdAt", "Date")], "AuditTrail", 34),
    ]


def test_apex_sobjects_are_tables(tmp_path: Path) -> None:
    s = _index(tmp_path, "salesforce-app")
    try:
        def e(kind: str, src: str, table: str, resolution: str, columns: list[str] | None = None):
            props = {"framework": "apex", "resolution": resolution, **({"columns": columns} if columns else {})}
            return (kind, src, f"table:salesforce-app:.{table}", props)

        assert _edges(s, ("READS", "WRITES")) == sorted([
            e("WRITES", "AccountRepo.AccountRepo.save(1)", "account", "inferred"),
            e("READS", "AccountService.AccountService.getAccount(0)", "account", "exact", ["id", "name"]),
            e("READS", "AccountService.AccountService.getContacts(1)", "contact", "exact", ["email", "id", "lastname"]),
            e("READS", "AccountService.AccountService.renameAccount(2)", "account", "exact", ["id"]),
            e("READS", "NightlyCleanup.NightlyCleanup.execute(1)", "task", "exact", ["id"]),
            e("WRITES", "NightlyCleanup.NightlyCleanup.execute(1)", "task", "exact"),
        ])
    finally:
        s.close()


SQLMODEL = {
    "app/__init__.py": "",
    "app/models.py": ("import uuid\nfrom typing import ClassVar\n\nfrom sqlmodel import Field, Relationship, SQLModel\n\n\n"
                      "class UserBase(SQLModel):\n    email: str\n\n\n"
                      "class User(UserBase, table=True):\n    id: uuid.UUID = Field(primary_key=True)\n"
                      "    hashed_password: str\n    items: list['Item'] = Relationship(back_populates='owner')\n"
                      "    registry: ClassVar[dict] = {}\n\n\n"
                      "class UserPublic(UserBase):\n    id: uuid.UUID\n\n\n"
                      "class Draft(SQLModel, table=False):\n    text: str\n"),
    "app/crud.py": ("from sqlmodel import Session, delete, select\n\nfrom app.models import User\n\n\n"
                    "def by_email(session: Session, email: str):\n    return session.exec(select(User).where(User.email == email)).first()\n\n\n"
                    "def purge(session: Session):\n    session.exec(delete(User))\n\n\n"
                    "def public(session: Session):\n    return select(UserPublic)\n"),
}


def test_sqlmodel_table_models_are_tables_and_their_statements_read_and_write(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "src", SQLMODEL)
    s = EmbeddedStore(tmp_path / "i.db")
    try:
        index_repository(root, s, s, IndexOptions(repo="r", jobs=1))
        # only the table=True model: its own annotated fields, a Relationship and a ClassVar aside
        assert _columns(s) == {"table:r:.user": ["hashed_password", "id"]}
        assert [(k, src, dst) for k, src, dst, _ in _edges(s, ("READS", "WRITES"))] == [
            ("READS", "crud.by_email(2)", "table:r:.user"),
            ("WRITES", "crud.purge(1)", "table:r:.user"),
        ]
    finally:
        s.close()
