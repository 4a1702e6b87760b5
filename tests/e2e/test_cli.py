"""End to end: ``ripple index`` / ``callers`` / ``references`` / ``stats`` on a fixture workspace
holding good files, bad files and files that must be skipped."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from lsp_server.cli import main

FILES = {
    "app/__init__.py": "",
    "app/repo.py": '''
class OwnerRepository:
    def find_by_last_name(self, name):
        return []

    def save(self, owner):
        pass
''',
    "app/service.py": '''
from app.repo import OwnerRepository


class OwnerService:
    def __init__(self, repo: OwnerRepository):
        self.repo = repo

    def rename(self, owner, name):
        found = self.repo.find_by_last_name(name)
        self.repo.save(owner)
        return found
''',
    "app/cli.py": '''
from app.service import OwnerService
from app.repo import OwnerRepository


def main():
    service = OwnerService(OwnerRepository())
    service.rename(None, "x")
''',
    # Syntax error in the middle: the functions around it are still indexed.
    "app/broken.py": '''
def before():
    OwnerRepository().save(1)

def broken(:
    pass

def after():
    pass
''',
    "src/Owner.java": '''
package shop;

public class Owner {
    public String getName() { return ""; }
}
''',
    "src/OwnerController.java": '''
package shop;

public class OwnerController {
    private final Owner owner = new Owner();

    public String show() {
        return owner.getName();
    }
}
''',
    "web/client.ts": '''
export function fetchOwners(url: string) { return url; }
export class Page {
  load() { return fetchOwners("/owners"); }
}
''',
    "ignored/skip.py": "def hidden(): pass\n",
    "node_modules/lib/index.js": "function vendored() {}\n",
    "notes.txt": "not code\n",
    ".gitignore": "ignored/\n*.log\n",
}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ws") / "shop"
    for rel, text in FILES.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text.lstrip("\n"), encoding="utf-8")
    (root / "app" / "latin1.py").write_bytes("# caf\xe9\ndef café():\n    return 1\n".encode("latin-1"))
    (root / "app" / "blob.py").write_bytes(b"\x00\x01\x02binary")
    (root / "app" / "huge.py").write_text("x = 1\n" * 50_000, encoding="utf-8")
    os.symlink(root / "app", root / "app" / "loop")
    return root


def run(*args: str) -> dict:
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def indexed(workspace: Path) -> dict:
    return run("index", str(workspace), "--max-file-size", "100000", "--jobs", "1")


def test_index_summary_counts_files_and_skips(indexed: dict) -> None:
    assert indexed["files_indexed"] == 9
    assert indexed["files_by_language"] == {"python": 6, "java": 2, "typescript": 1}
    assert indexed["files_with_parse_errors"] == 1
    assert indexed["skipped"] == {
        "binary": 1, "gitignored": 1, "no_extractor": 2, "pruned_dir": 1, "symlink_loop": 1, "too_large": 1,
    }
    assert indexed["skipped_examples"]["symlink_loop"] == ["app/loop/"]
    assert indexed["skipped_examples"]["gitignored"] == ["ignored/"]
    assert indexed["skipped_examples"]["no_extractor"] == [".gitignore", "notes.txt"]
    assert indexed["skipped_examples"]["pruned_dir"] == ["node_modules/"]


def test_callers_across_files_with_resolution(workspace: Path, indexed: dict) -> None:
    out = run("callers", "OwnerRepository.save", "--db", str(workspace / ".ripple" / "index.db"))
    assert out["targets"] == ["shop:app/repo.OwnerRepository.save(1)"]
    assert [(c["path"], c["line"], c["col"], c["from"], c["resolution"]) for c in out["callers"]] == [
        ("app/broken.py", 2, 23, "shop:app/broken.before(0)", "name"),
        ("app/service.py", 10, 19, "shop:app/service.OwnerService.rename(2)", "exact"),
    ]


def test_callers_of_java_and_typescript_methods(workspace: Path, indexed: dict) -> None:
    db = str(workspace / ".ripple" / "index.db")
    java = run("callers", "Owner.getName", "--db", db)
    assert [(c["path"], c["line"], c["from"], c["resolution"]) for c in java["callers"]] == [
        ("src/OwnerController.java", 7, "shop:src/OwnerController.OwnerController.show()", "exact"),
    ]
    ts = run("callers", "fetchOwners", "--db", db)
    assert [(c["path"], c["line"], c["from"]) for c in ts["callers"]] == [
        ("web/client.ts", 3, "shop:web/client.Page.load(0)"),
    ]


def test_references_include_type_uses_and_declaration(workspace: Path, indexed: dict) -> None:
    out = run("references", "app.repo.OwnerRepository", "--include-declaration",
              "--db", str(workspace / ".ripple" / "index.db"))
    assert [(r["kind"], r["path"], r["line"], r["from"]) for r in out["references"]] == [
        ("DECLARATION", "app/repo.py", 1, "shop:app/repo.OwnerRepository"),
        ("CALLS", "app/cli.py", 6, "shop:app/cli.main(0)"),
        ("USES_TYPE", "app/service.py", 5, "shop:app/service.OwnerService.__init__(1)"),
    ]


def test_latin1_file_is_decoded_leniently_and_indexed(workspace: Path, indexed: dict) -> None:
    out = run("stats", "--db", str(workspace / ".ripple" / "index.db"))
    assert out["repos"] == ["shop"]
    assert out["files"] == {"java": 2, "python": 6, "typescript": 1}
    # before, broken (recovered from its syntax error), after, main, fetchOwners, and café from the
    # latin-1 file, read as cp1252 so the identifier survives.
    assert out["nodes"]["Function"] == 6
    found = run("callers", "app.latin1.café", "--db", str(workspace / ".ripple" / "index.db"))
    assert found["targets"] == ["shop:app/latin1.café(0)"]


def test_unknown_symbol_is_a_clear_error(workspace: Path, indexed: dict) -> None:
    result = CliRunner().invoke(main, ["callers", "NoSuchThing", "--db", str(workspace / ".ripple" / "index.db")])
    assert result.exit_code == 1
    assert "no symbol matches 'NoSuchThing'" in result.output


def test_missing_index_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["stats", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 1
    assert "no index at" in result.output


def test_index_folder_ignores_itself(workspace: Path, indexed: dict) -> None:
    assert (workspace / ".ripple" / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"


def test_bare_name_prefers_exact_qualname_and_names_the_others(workspace: Path, indexed: dict) -> None:
    (workspace / "app" / "extra.py").write_text("def save(x):\n    pass\n", encoding="utf-8")
    run("index", str(workspace), "--jobs", "1")
    result = CliRunner().invoke(main, ["callers", "save", "--db", str(workspace / ".ripple" / "index.db")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "shop:app/extra.save(1)  (function, app/extra.py:1)"
    assert lines[1] == "also named 'save', not shown: app.repo.OwnerRepository.save (qualify the name to choose)"
    assert lines[2] == "0 call sites"


def test_bad_options_and_unusable_db_path_are_clear_errors(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    pass\n", encoding="utf-8")
    (tmp_path / "afile").write_text("", encoding="utf-8")
    for args, message in [
        (["--max-file-size", "0"], "Invalid value for '--max-file-size'"),
        (["--jobs", "0"], "Invalid value for '--jobs'"),
        (["--db", str(tmp_path / "afile" / "x.db")], "cannot create the folder of index"),
    ]:
        result = CliRunner().invoke(main, ["index", str(tmp_path), *args])
        assert result.exit_code in (1, 2), result.output
        assert message in result.output


def test_locations_are_printed_literally_never_as_emoji() -> None:
    # rich turns ":100:" into an emoji code unless told not to: "x.py:100:16" printed "x.py💯16".
    from lsp_server.cli import out

    with out.capture() as captured:
        out.print("tests/test_reqctx.py:100:16 src/a.py:1234:0", markup=False)
    assert captured.get() == "tests/test_reqctx.py:100:16 src/a.py:1234:0\n"


def test_search_language_is_checked_against_the_registry(workspace: Path, indexed: dict) -> None:
    db = str(workspace / ".ripple" / "index.db")
    result = CliRunner().invoke(main, ["search", "rename", "--language", "cobol", "--db", db])
    assert result.exit_code == 2
    assert ("Invalid value for '--language': 'cobol' is not one of apex, asciidoc, aura, csharp, dotenv, go, gomod, graphql, "
            "java, javascript, kotlin, liquibase, markdown, prisma, properties, proto, python, restructuredtext, sql, typescript, "
            "vue, yaml") in result.output
    result = CliRunner().invoke(main, ["search", "rename", "--language", "python", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    hits = json.loads(result.output)["hits"]
    assert hits and {Path(h["path"]).suffix for h in hits} == {".py"}


def test_an_empty_search_query_is_a_usage_error(workspace: Path, indexed: dict) -> None:
    db = str(workspace / ".ripple" / "index.db")
    for query in ("", "   \t"):
        result = CliRunner().invoke(main, ["search", query, "--db", db, "--json"])
        assert result.exit_code == 2, result.output
        assert ("Invalid value for 'QUERY': query is empty: give words or an identifier to search for"
                in result.output)
        assert '"hits"' not in result.output


def test_typescript_names_are_module_relative_and_path_forms_still_accepted(workspace: Path, indexed: dict) -> None:
    db = str(workspace / ".ripple" / "index.db")
    ts = run("callers", "fetchOwners", "--db", db)
    assert [(c["from"], c["from_name"]) for c in ts["callers"]] == [("shop:web/client.Page.load(0)", "Page.load")]
    java = run("callers", "Owner.getName", "--db", db)  # dotted-module languages keep their package
    assert [c["from_name"] for c in java["callers"]] == ["shop.OwnerController.show"]
    assert run("callers", "web.client.fetchOwners", "--db", db)["targets"] == ["shop:web/client.fetchOwners(1)"]


def test_search_hits_name_the_symbol_and_file_level_hits_do_not_repeat_the_path(workspace: Path, indexed: dict) -> None:
    db = str(workspace / ".ripple" / "index.db")
    hits = run("search", "fetchOwners", "--db", db)["hits"]
    assert [(h["path"], h["kind"], h["name"]) for h in hits if h["kind"] == "function"][0] == (
        "web/client.ts", "function", "fetchOwners")
    result = CliRunner().invoke(main, ["search", "service rename None", "--kind", "file_section", "--db", db])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if "file_section" in line]
    assert lines and all(line.split("  ")[1] == "file_section (top-level code)" for line in lines), lines
    assert not any("app.cli.app/cli.py" in line or "shop:" in line for line in lines)


def test_a_name_in_two_repositories_is_said_and_repo_chooses(tmp_path: Path) -> None:
    db = str(tmp_path / "two.db")
    for repo, caller in (("blog", "post_url"), ("shop", "product_url")):
        (tmp_path / repo / "text").mkdir(parents=True)
        (tmp_path / repo / "text" / "utils.py").write_text(
            f"def slugify(value):\n    return value.lower()\n\n\ndef {caller}(title):\n    return slugify(title)\n",
            encoding="utf-8")
        run("index", str(tmp_path / repo), "--db", db, "--no-embed", "--jobs", "1")
    both = run("callers", "slugify", "--db", db)
    assert (both["targets"], both["repos"]) == (["blog:text/utils.slugify(1)", "shop:text/utils.slugify(1)"],
                                                ["blog", "shop"])
    result = CliRunner().invoke(main, ["callers", "slugify", "--db", db])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "'slugify' is defined in 2 repositories (blog, shop); the answer covers them all: --repo NAME chooses one"]
    one = run("callers", "slugify", "--db", db, "--repo", "shop")
    assert (one["targets"], [c["from"] for c in one["callers"]]) == (
        ["shop:text/utils.slugify(1)"], ["shop:text/utils.product_url(1)"])
    result = CliRunner().invoke(main, ["callers", "slugify", "--db", db, "--repo", "shop"])
    assert result.stderr == ""
    refs = run("references", "slugify", "--db", db, "--repo", "blog")
    assert [r["from"] for r in refs["references"]] == ["blog:text/utils.post_url(1)"]
    result = CliRunner().invoke(main, ["references", "slugify", "--db", db, "--repo", "nope"])
    assert (result.exit_code, result.stderr.strip()) == (
        1, "Error: no repository 'nope' is indexed here (indexed: blog, shop)")
    result = CliRunner().invoke(main, ["callers", "product_url", "--db", db, "--repo", "blog"])  # only in shop
    assert (result.exit_code, result.stderr.strip()) == (1, "Error: no symbol matches 'product_url' in repository 'blog'; "
                                                         "try a qualified name such as Class.method or "
                                                         "package.module.function, a node id or PATH:LINE")
    # a dotted name the index does not hold (a package's public path): the closest names are offered
    for command in ("callers", "references", "impact"):
        result = CliRunner().invoke(main, [command, "shop.slugify", "--db", db, "--repo", "shop"])
        assert (result.exit_code, result.stderr.strip()) == (
            1, "Error: no symbol matches 'shop.slugify' in repository 'shop'; closest names: utils.slugify; try "
               "a qualified name such as Class.method or package.module.function, a node id or PATH:LINE"), command
    impact = run("impact", "slugify", "--db", db, "--repo", "blog")
    assert [t["id"] for t in impact["targets"]] == ["blog:text/utils.slugify(1)"]
    result = CliRunner().invoke(main, ["impact", "slugify", "--db", db])
    assert "is defined in 2 repositories (blog, shop)" in result.stderr


def test_a_tree_without_source_says_which_languages_are_read(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing to index\n")
    result = CliRunner().invoke(main, ["index", str(tmp_path), "--no-embed", "--db", str(tmp_path / "i.db")])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # rich wraps long lines
    assert f"warning: no source file of a supported language found under {tmp_path}" in text
    assert "(supported: apex, asciidoc, aura, csharp," in text and "python," in text


def test_index_summary_folds_a_long_path_instead_of_cutting_it(tmp_path: Path) -> None:
    """Newcomer on a Kotlin app: the "with syntax errors" row ended each path in "…" at 80 columns
    (``src/test/kotlin/com/example/realworldkotlinspr…``), so the file could not be found."""
    rel = "src/test/kotlin/com/example/realworldkotlinspringbootjdbc/api_integration/BrokenTest.kt"
    (tmp_path / rel).parent.mkdir(parents=True)
    (tmp_path / rel).write_text("package a\nclass A {\n  fun f() { val x = ) }\n}\n")
    result = CliRunner(env={"COLUMNS": "80"}).invoke(
        main, ["index", str(tmp_path), "--no-embed", "--db", str(tmp_path / "i.db"), "--jobs", "1"],
        catch_exceptions=False)
    assert result.exit_code == 0, result.output
    row = [line.split("│")[2].strip() for line in result.stdout.splitlines() if line.count("│") == 3]
    cells = "".join(row)
    assert f"{rel}: 3:18: syntax error" in cells
    assert "…" not in result.stdout
