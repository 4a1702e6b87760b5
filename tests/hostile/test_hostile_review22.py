"""Findings of this stop's hostile review, each reproduced as it was reported: Liquibase change logs
whose line lookups were quadratic (a run of blank lines, a minified JSON change log), diamond-heavy
class hierarchies whose C3 merges were recomputed for every lookup, and configuration names that
carried control characters to the terminal."""

from __future__ import annotations

import json
import time

import pytest

from indexer.languages.sql.liquibase import LiquibaseExtractor
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.config import ConfigError, doc_folder_paths, load_config
from stores.embedded import EmbeddedStore


def test_a_change_log_with_a_long_blank_run_is_read_in_linear_time_with_its_lines():
    text = ("databaseChangeLog:\n- changeSet: {id: 1, author: a, changes: [{createTable: {tableName: t1}}]}\n"
            + "\n" * 100_000 + "- changeSet:\n    id: 2\n    author: a\n    changes:\n    - createTable:\n"
            "        tableName: t2\n")
    started = time.monotonic()
    out = LiquibaseExtractor().extract("db/changelog/db.changelog-master.yaml", text.encode())
    assert time.monotonic() - started < 10  # was quadratic: 24 s at 40,000 blank lines
    assert [(t.name, t.line) for t in out.tables] == [("t1", 2), ("t2", 100_007)]


def test_a_minified_json_change_log_of_thousands_of_tables_is_read_whole():
    doc = {"databaseChangeLog": [{"changeSet": {"id": str(i), "author": "a", "changes": [
        {"createTable": {"tableName": f"t{i}", "columns": [{"column": {"name": "id", "type": "int"}}]}}]}}
        for i in range(5_000)]}
    started = time.monotonic()
    out = LiquibaseExtractor().extract("db/changelog/db.changelog-master.json",
                                       json.dumps(doc, separators=(",", ":")).encode())
    assert time.monotonic() - started < 10  # 3,000 tables took 16 s
    assert len(out.tables) == 5_000 and {t.line for t in out.tables} == {1}  # all on its one line


def diamond(width: int, depth: int) -> str:
    out = [f"class L0_{j}:\n    def m(self):\n        return {j}\n" for j in range(width)]
    for i in range(1, depth):
        bases = ", ".join(f"L{i - 1}_{k}" for k in range(width))
        out += [f"class L{i}_{j}({bases}):\n    def m(self):\n        return super().m()\n" for j in range(width)]
    return "\n".join(out)


def test_a_diamond_heavy_hierarchy_resolves_quickly_and_super_follows_c3(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "d.py").write_text(diamond(8, 20))
    started = time.monotonic()
    with EmbeddedStore(tmp_path / "i.db") as store:
        index_repository(tmp_path / "src", store, store, IndexOptions(repo="r", jobs=1))
        calls = store.outgoing(["r:d.L2_3.m(0)", "r:d.L1_5.m(0)"], ["CALLS"])
    assert time.monotonic() - started < 60  # was 108 s (8 x 20) and over 300 s (8 x 40)
    # C3: super() from L2_3 is its first base L1_0; from L1_5 the first base L0_0
    assert [e.dst for e in calls["r:d.L2_3.m(0)"]] == ["r:d.L1_0.m(0)"]
    assert [e.dst for e in calls["r:d.L1_5.m(0)"]] == ["r:d.L0_0.m(0)"]


@pytest.mark.parametrize("name", ["\x1b]52;c;ZWNobyBoaQ==\x07", "x\nfake: ok"])
def test_a_table_name_with_control_characters_is_shown_escaped(tmp_path, name):
    ws = tmp_path / "ws"
    (ws / ".ripple").mkdir(parents=True)
    (ws / ".ripple" / "config.toml").write_text(json.dumps({name: {}}).replace(": {}}", "]").replace("{", "[", 1))
    config = load_config(ws, {"HOME": str(tmp_path / "home")})
    assert len(config.warnings) == 1 and repr(name) in config.warnings[0]
    assert "\x1b" not in config.warnings[0] and "\n" not in config.warnings[0]


def test_left_out_warnings_of_one_file_are_bounded(tmp_path):
    ws = tmp_path / "ws"
    (ws / ".ripple").mkdir(parents=True)
    (ws / ".ripple" / "config.toml").write_text("[embedding]\n" + "".join(f"k{i} = 1\n" for i in range(3_000)))
    warnings = load_config(ws, {"HOME": str(tmp_path / "home")}).warnings
    assert len(warnings) == 11 and warnings[-1].endswith(": 2,990 more tables or keys left out")


@pytest.mark.parametrize("folder", [".git", ".git/info", "docs/.ripple"])
def test_docs_folders_inside_git_or_ripple_are_refused(folder):
    with pytest.raises(ConfigError, match="is inside .git or .ripple"):
        doc_folder_paths("docs.folders", [folder])


def test_calls_other_libraries_share_with_jooq_name_no_table(tmp_path):
    src = tmp_path / "src" / "main" / "java" / "x"
    src.mkdir(parents=True)
    (src / "Svc.java").write_text(
        "package x;\nimport org.jooq.DSLContext;\nimport static x.gen.Tables.ORDERS;\n"
        "class Svc {\n  private final DSLContext ctx;\n  Redis redis;\n"
        "  void evict() { redis.delete(CACHE_KEY); }\n"
        "  Object t() { return java.time.Instant.from(NOW_TEMPORAL); }\n"
        "  void drop() { ctx.delete(ORDERS).execute(); }\n"
        "  Object all() { return ctx.select().from(ACCOUNTS).fetch(); }\n}\n")
    with EmbeddedStore(tmp_path / "i.db") as store:
        index_repository(tmp_path / "src", store, store, IndexOptions(repo="r", jobs=1))
        ids = [f"table:r:.{t}" for t in ("accounts", "orders", "cache_key", "now_temporal")]
        tables = sorted(n.name for n in store.get_nodes(ids).values())
        counts = store.stats()["nodes"]["Table"], store.stats()["edges"].get("READS"), store.stats()["edges"].get("WRITES")
    assert tables == ["accounts", "orders"] and counts == (2, 1, 1)  # not cache_key, not now_temporal


def test_every_cli_error_message_is_escaped_for_the_terminal(tmp_path):
    # A manifest's names and paths reach click's error message; no control character may pass (here an
    # OSC title sequence and a colour), whichever command raised it.
    from click.testing import CliRunner

    from lsp_server.cli import main

    manifest = tmp_path / "m.toml"
    manifest.write_text('[[repository]]\npath = 3\nname = "a\\u001b]0;x\\u0007"\n'
                        '[[repository]]\npath = "no\\u001b[31mwhere"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["index", "--all", str(manifest), "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 1
    assert result.output.splitlines()[1:] == [
        "  - repository #1 (a\\x1b]0;x\\x07): path must be a string, not int",
        f"  - repository #2: path 'no\\x1b[31mwhere' is not a folder ({tmp_path}/no\\x1b[31mwhere)"]
    assert "\x1b" not in result.output and "\x07" not in result.output
