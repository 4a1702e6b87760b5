"""The central indexer's manifest (indexer.manifest): what a valid one yields, every problem of a bad one
reported at once, and the memory estimate."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.manifest import BASE_MIB, MIB_PER_SOURCE_MIB, ManifestEntry, ManifestError, estimate_mib, load_manifest


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "repos.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_manifest_defaults_and_relative_paths(tmp_path):
    (tmp_path / "checkouts" / "web").mkdir(parents=True)
    (tmp_path / "billing").mkdir()
    path = write(tmp_path, '''
[[repository]]
path = "billing"
product = "shop"

[[repository]]
path = "checkouts/web"
name = "shop-web"
product = "shop"
branch = "release/2.1"
''')
    assert load_manifest(path) == [
        ManifestEntry(tmp_path / "billing", "billing", "shop", None),
        ManifestEntry(tmp_path / "checkouts" / "web", "shop-web", "shop", "release/2.1"),
    ]
    (tmp_path / "solo").mkdir()
    only = write(tmp_path, f'[[repository]]\npath = "{tmp_path / "solo"}"\n')
    assert load_manifest(only) == [ManifestEntry(tmp_path / "solo", "solo", "solo", None)]


def test_every_problem_is_reported_at_once(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    path = write(tmp_path, '''
colour = "blue"
[[repository]]
path = "missing"
[[repository]]
path = "a"
name = "pet clinic"
prodcut = "x"
[[repository]]
path = 42
[[repository]]
name = "nameless"
[[repository]]
path = "b"
name = "a"
[[repository]]
path = "a"
branch = "x@y"
product = " "
''')
    with pytest.raises(ManifestError) as caught:
        load_manifest(path)
    assert str(caught.value) == "\n".join([
        f"manifest {path}:",
        "  - unknown top-level key(s) colour: a manifest holds [[repository]] tables only",
        f"  - repository #1: path 'missing' is not a folder ({tmp_path / 'missing'})",
        "  - repository #2 (pet clinic): unknown key(s) prodcut (allowed: branch, name, path, product)",
        "  - repository #2 (pet clinic): name 'pet clinic' holds a character a repository key cannot "
        "(':', '@', whitespace, control)",
        "  - repository #3: path must be a string, not int",
        "  - repository #4 (nameless): path is missing",
        "  - repository #6: product is empty",
        "  - repository #6: branch 'x@y' holds a character a repository key cannot (':', '@', whitespace, control)",
    ])


def test_the_same_name_twice_is_refused(tmp_path):
    for d in ("a", "b", "c"):
        (tmp_path / d).mkdir()
    path = write(tmp_path, '[[repository]]\npath = "a"\nname = "shop"\n[[repository]]\npath = "b"\nname = "shop"\n'
                           '[[repository]]\npath = "c"\nname = "shop"\nbranch = "dev"\n')
    with pytest.raises(ManifestError, match=r"repository #2 \(shop\): name 'shop' is also repository #1 \(shop\): "
                                            "give one of them another name"):
        load_manifest(path)


@pytest.mark.parametrize(("text", "message"), [
    ("[[repository]\npath = 'x'", "is not valid TOML"),
    ("", "no [[repository]] entries: nothing to index"),
    ("repository = 'x'", "`repository` must be a list of tables: write each as [[repository]]"),
    ("repository = [1, 2]", "`repository` must be a list of tables"),
])
def test_not_a_manifest(tmp_path, text, message):
    with pytest.raises(ManifestError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_manifest(write(tmp_path, text))


def test_unreadable_and_binary(tmp_path):
    with pytest.raises(ManifestError, match="cannot read manifest"):
        load_manifest(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe[[repository]]")
    with pytest.raises(ManifestError, match="is not UTF-8 text"):
        load_manifest(bad)


def test_estimate_counts_source_and_skips_dependencies(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_bytes(b"x" * (3 << 20))
    (tmp_path / "README.md").write_bytes(b"x" * (5 << 20))  # not source
    (tmp_path / "node_modules" / "dep").mkdir(parents=True)
    (tmp_path / "node_modules" / "dep" / "i.js").write_bytes(b"x" * (7 << 20))  # pruned
    assert estimate_mib(tmp_path) == BASE_MIB + 3 * MIB_PER_SOURCE_MIB
    assert estimate_mib(tmp_path / "nowhere") == BASE_MIB
