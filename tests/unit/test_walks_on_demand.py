"""Two query walks run only for the files that need them (issue 19 goal 3: the extract phase's CPU):
the names bound otherwise than as a container (``container_shadows.scm``) only in a file that holds a
container and calls through one, and the ``self.<name>`` reads of ``orm_attribute_reads.scm`` only in
a file declaring a mapped class (and then not as a walk of their own: the extractor's walk of the
attribute reads hands them over). What they find when they run is unchanged."""

from __future__ import annotations

import pytest

from indexer.languages.python import containers, extractor
from indexer.languages.base import SourceText
from indexer.languages.python.frameworks import common, orm_attributes
from indexer.model import FileExtraction


def _extract(code: str, module: object, monkeypatch: pytest.MonkeyPatch) -> tuple[FileExtraction, list[str]]:
    """The extraction of ``code`` and one entry (the query's pattern count) per query ``module`` ran."""
    runs: list[str] = []
    real = module.run_query  # type: ignore[attr-defined]

    def spy(q, node):  # noqa: ANN001, ANN202 - a spy
        runs.append(str(q.pattern_count))
        return real(q, node)

    monkeypatch.setattr(module, "run_query", spy)
    return extractor.EXTRACTOR.extract("app/m.py", code.encode()), runs


def _element_calls(out: FileExtraction) -> list[tuple[str | None, str, int]]:
    return [(c.caller, c.name, c.line) for c in out.calls if c.via == "element"]


HANDLERS = (
    "def on_a(x): pass\n"
    "def on_b(x): pass\n"
    "table = {'a': on_a, 'b': on_b}\n"
    "def run(k):\n"
    "    table[k](1)\n"          # line 5: through the module's container
    "def other(table, k):\n"
    "    table[k](2)\n"          # line 7: `table` is this function's parameter, never passed: not the container
    "def local(k):\n"
    "    h = table.get(k)\n"
    "    h(3)\n"                 # line 10: a local fetched from the container
)


def test_a_container_called_through_reads_the_names_bound_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    out, runs = _extract(HANDLERS, containers, monkeypatch)
    assert len(runs) == 2  # containers (shared), container_shadows (the fetched local's calls: the extractor's own)
    assert _element_calls(out) == [("run", "on_a", 5), ("run", "on_b", 5),
                                   ("local", "on_a", 10), ("local", "on_b", 10)]
    assert not any(line == 7 for _, _, line in _element_calls(out))  # the parameter shadows it


def test_a_container_never_called_through_skips_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    out, runs = _extract(
        "def on_a(x): pass\n"
        "table = {'a': on_a}\n"
        "table['b'] = on_a\n"        # a store, but no call through the container
        "def run(table, k):\n"
        "    return table\n", containers, monkeypatch)
    assert len(runs) == 1  # containers.scm only
    assert _element_calls(out) == []


def test_no_container_skips_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    out, runs = _extract("def run(f, k):\n    f[k](1)\n    g = f.get(k)\n    g(2)\n", containers, monkeypatch)
    assert len(runs) == 1
    assert _element_calls(out) == []


MAPPED = (
    "from app import db\n"
    "class User(db.Model):\n"
    "    __tablename__ = 'user'\n"
    "    name = db.Column(db.String)\n"
    "    def show(self):\n"
    "        return self.name\n"        # line 6: a read of a column in the mapped class's method
    "def rename(user):\n"
    "    user.name = 'x'\n"             # line 8: a write anywhere
    "    return self.name\n"            # no method of a mapped class: no read
)


def _uses(out: FileExtraction) -> list[tuple[str, str | None, str | None, list[str], int]]:
    return [(u.role, u.owner, u.entity, u.columns, u.line) for u in out.table_uses if u.framework == "orm_attribute"]


def test_a_mapped_class_reads_self_attributes(monkeypatch: pytest.MonkeyPatch) -> None:
    read_walks: list[str] = []
    real = common.run_query
    monkeypatch.setattr(common, "run_query", lambda q, node: read_walks.append("reads") or real(q, node))
    out, runs = _extract(MAPPED, orm_attributes, monkeypatch)
    assert len(runs) == 1  # the writes (shared)
    assert read_walks == []  # the self reads: the extractor's walk of the attribute reads met them
    assert _uses(out) == [("writes", "rename", "user", ["name"], 8), ("reads", "User.show", "self", ["name"], 6)]


SELF_FORMS = (
    "from app import db\n"
    "class User(db.Model):\n"
    "    __tablename__ = 'user'\n"
    "    def show(self, selfie):\n"
    "        a = self.name\n"          # line 5: read
    "        b = self .email\n"        # line 6: read, spaced
    "        c = self.pet.age\n"       # line 7: `self.pet` read; `self.pet.age` is no `self.<name>`
    "        d = selfie.size\n"        # line 8: another name starting with "self": no read
    "        e = (self).zone\n"        # line 9: a parenthesised object: no read, as the query
    "        self.save()\n"            # line 10: a called attribute is met too (the linker drops non-columns)
    "        self.seen = 1\n"          # line 11: written: no read
    "        return self.seen\n"
)


def test_the_self_reads_handed_over_are_the_querys_own(monkeypatch: pytest.MonkeyPatch) -> None:
    out = extractor.EXTRACTOR.extract("app/m.py", SELF_FORMS.encode())
    expected = [("reads", "User.show", "self", ["name", "email", "pet", "save", "seen"], 5),
                ("writes", "User.show", "self", ["seen"], 11)]
    assert sorted(_uses(out), key=lambda u: u[4]) == expected
    # the detector on its own (no extractor's walk held): the query runs, the same uses
    fresh = FileExtraction(path="app/m.py", language="python", tables=out.tables)
    tree = extractor.parser("python").parse(SELF_FORMS.encode())
    walks: list[int] = []
    real = common.run_query
    monkeypatch.setattr(common, "run_query", lambda q, node: walks.append(q.pattern_count) or real(q, node))
    orm_attributes.detect(tree.root_node, SourceText(SELF_FORMS.encode()), fresh)
    assert walks == [1]
    assert sorted(_uses(fresh), key=lambda u: u[4]) == expected


def test_no_mapped_class_skips_the_read_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    out, runs = _extract(MAPPED.replace("(db.Model)", "").replace("    __tablename__ = 'user'\n", ""),
                         orm_attributes, monkeypatch)
    assert len(runs) == 1
    assert _uses(out) == [("writes", "rename", "user", ["name"], 7)]
