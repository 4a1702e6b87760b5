"""The dialect of a ``.sql`` file from what the file says (its path, a ``-- dialect:`` comment), H2's
``DROP TABLE x IF EXISTS``, statements on other objects than tables, and the reason of a statement no
dialect parses. Shapes from spring-petclinic's ``db/h2/schema.sql`` and ``db/mysql/user.sql`` (valid
SQL that was reported as syntax errors)."""

from __future__ import annotations

from indexer.frameworks.sql_dialect import H2, file_dialects, h2_standard_form
from indexer.frameworks.sql_text import declared_tables
from indexer.languages.sql.extractor import SQL_EXTRACTOR

H2_SCHEMA = """\
DROP TABLE vet_specialties IF EXISTS;
DROP TABLE vets IF EXISTS;

CREATE TABLE vets (
  id         INTEGER IDENTITY PRIMARY KEY,
  first_name VARCHAR(30)
);
CREATE INDEX vets_last_name ON vets (first_name);
"""

MYSQL_USERS = """\
CREATE DATABASE IF NOT EXISTS petclinic;

ALTER DATABASE petclinic
  DEFAULT CHARACTER SET utf8
  DEFAULT COLLATE utf8_general_ci;

CREATE USER IF NOT EXISTS 'petclinic'@'%' IDENTIFIED BY 'petclinic';

GRANT ALL PRIVILEGES ON petclinic.* TO 'petclinic'@'%';

FLUSH PRIVILEGES;
"""


def test_the_file_names_its_dialect() -> None:
    assert file_dialects("src/main/resources/db/h2/schema.sql", "") == (H2,)
    assert file_dialects("src/main/resources/db/mysql/user.sql", "") == ("mysql",)
    assert file_dialects("db/postgresql/V1__init.sql", "") == ("postgres",)
    assert file_dialects("src/main/resources/schema-hsqldb.sql", "") == (H2,)  # spring.sql.init.platform
    assert file_dialects("src/main/resources/data-mariadb.sql", "") == ("mysql",)
    assert file_dialects("db/migration/V1__init.sql", "-- dialect: postgres\nCREATE TABLE a (id INT);") == ("postgres",)
    # the comment wins over the path; no evidence: nothing named
    assert file_dialects("db/mysql/x.sql", "-- database: sqlserver\n") == ("tsql",)
    assert file_dialects("db/migration/V1__init.sql", "CREATE TABLE a (id INT);") == ()
    assert file_dialects("src/schema.sql", "-- dialect: nosuchdb\n") == ()
    assert file_dialects(None, "") == ()


def test_h2_trailing_if_exists_is_moved() -> None:
    assert h2_standard_form("DROP TABLE vets IF EXISTS") == "DROP TABLE IF EXISTS vets"
    assert h2_standard_form("-- c\nDROP TABLE a, b IF EXISTS CASCADE") == "-- c\nDROP TABLE IF EXISTS a, b CASCADE"
    assert h2_standard_form("DROP TABLE IF EXISTS vets") is None
    assert h2_standard_form("CREATE TABLE vets (id INT)") is None


def test_h2_schema_parses_every_statement() -> None:
    found = declared_tables(H2_SCHEMA, "src/main/resources/db/h2/schema.sql")
    assert [(t.name, t.change, t.line, t.columns) for t in found.tables] == [
        ("vet_specialties", "drop", 1, ()),
        ("vets", "drop", 2, ()),
        ("vets", None, 4, (("id", "int"), ("first_name", "varchar(30)"))),
    ]
    assert found.skipped == {} and found.unparsed == []
    # the H2 form is read whatever the path says (no other dialect gives it another meaning)
    assert [t.change for t in declared_tables(H2_SCHEMA, "schema.sql").tables] == ["drop", "drop", None]


def test_statements_on_other_objects_than_tables_are_no_errors() -> None:
    ex = SQL_EXTRACTOR.extract("src/main/resources/db/mysql/user.sql", MYSQL_USERS.encode())
    assert ex.tables == [] and ex.errors == []


def test_a_broken_table_statement_is_counted_with_its_line_and_reason_and_the_rest_kept() -> None:
    script = "CREATE TABLE a (id INT);\n\nCREATE TABLE (id INT);\nCREATE TABLE c (id INT);\n"
    found = declared_tables(script, "db/h2/schema.sql")
    assert [t.name for t in found.tables] == ["a", "c"]
    assert found.skipped == {"unparsed": 1}
    assert [line for line, _ in found.unparsed] == [3]
    ex = SQL_EXTRACTOR.extract("db/h2/schema.sql", script.encode())
    assert ex.errors == ["3:0: sql: 1 statement(s) skipped: unparsed (line 3: Expected table name but got '(')"]


def test_h2_column_rename_is_a_rename_column_fact() -> None:
    script = "ALTER TABLE BATCH_PARAMS ALTER COLUMN TYPE_CD RENAME TO PARAMETER_TYPE;\n" \
             "ALTER TABLE BATCH_PARAMS MODIFY COLUMN KEY_NAME PARAMETER_NAME VARCHAR(100);\n"
    found = declared_tables(script, "migration/5.0/migration-h2.sql")
    assert [(t.name, t.change, t.renamed, t.line) for t in found.tables] == [
        ("BATCH_PARAMS", "rename_column", ("TYPE_CD", "PARAMETER_TYPE"), 1),
    ]
    # MySQL's CHANGE written as MODIFY (valid nowhere): counted, with the reason
    assert found.skipped == {"unparsed": 1}
    assert found.unparsed == [(2, "read only as an opaque command (syntax sqlglot does not support)")]


def test_a_standalone_drop_script_drops_no_other_files_tables() -> None:
    from indexer.frameworks.schema_history import replay

    def facts(path: str, text: str) -> list[tuple[str, object]]:
        return [(path, t) for t in SQL_EXTRACTOR.extract(path, text.encode()).tables]

    main = facts("core/src/main/resources/schema-h2.sql", "CREATE TABLE batch_job (id INT);\nCREATE TABLE batch_step (id INT);")
    drop = facts("core/src/test/resources/schema-drop-h2.sql", "DROP TABLE batch_job IF EXISTS;")
    v1 = facts("db/migration/V1__init.sql", "CREATE TABLE legacy (id INT);\nCREATE TABLE kept (id INT);")
    v2 = facts("db/migration/V2__drop.sql", "DROP TABLE legacy;")
    own = facts("src/test/resources/reset.sql", "CREATE TABLE scratch (id INT);\nDROP TABLE scratch;")
    fates = replay([*main, *drop, *v1, *v2, *own])
    named = {td.name: (fates[id(td)].name if fates[id(td)] else None) for _, td in [*main, *v1, *own] if td.kind == "table"}
    assert named == {"batch_job": "batch_job", "batch_step": "batch_step", "legacy": None, "kept": "kept", "scratch": None}


def test_history_steps_and_standalone_scripts() -> None:
    from indexer.frameworks.sql_dialect import is_history_step

    assert [is_history_step(p) for p in ("db/migration/V1__init.sql", "V2.sql", "sql/0002_add_email.up.sql",
                                         "db/schema.sql", "src/test/resources/schema-drop-h2.sql", "db/h2/data.sql")] == [
        True, True, True, False, False, False]


def test_many_broken_statements_are_all_counted_with_the_wide_retry_bounded() -> None:
    from indexer.frameworks.sql_text import WIDE_RETRIES

    script = "CREATE TABLE (a INT);\n" * (WIDE_RETRIES + 5) + "CREATE TABLE ok (a INT);\n"
    found = declared_tables(script, "db/oracle/schema.sql")
    assert [t.name for t in found.tables] == ["ok"]
    assert found.skipped == {"unparsed": WIDE_RETRIES + 5}
    assert [line for line, _ in found.unparsed] == list(range(1, WIDE_RETRIES + 6))
