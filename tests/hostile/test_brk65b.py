"""Session 65, brk65b: session 64's additions attacked (Go package constants, the receiver walk, unlinked
calls, Nest transports, Aura ``extends``, function-local imports, the forked link-options read) and the
known leftovers (upward ``Node.parent`` walks, long TypeScript chains). Each class is one defect found,
with exact expectations and what must not be linked; every input is generated here.

- :class:`TestCutTemplates`: a string concatenation longer than ``MAX_JOINED`` was cut by turning the
  piece that did not fit into an empty *literal* followed by ``…``, and what came after the cut was
  appended behind the mark. A Go constant of 100,000 terms (``"http://svc" + "p" + ...``: its left side,
  past the template's depth, is a hole whose text is the whole expression) became the literal
  ``…pppppppppppppppp`` and ``http.Get(big)`` a client of the made-up endpoint ``GET /…pppppppppppppppp``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from indexer.languages.go.extractor import EXTRACTOR as GO
from indexer.string_templates import MAX_JOINED, Template
from tests.index_harness import index_fixture
from tests.resolution_harness import write_tree


def _rows(db: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


class TestCutTemplates:
    def test_a_piece_past_the_cut_stays_unknown_and_a_cut_template_stays_cut(self) -> None:
        long_hole = "x" * (MAX_JOINED + 10)
        t = Template.of("http://svc/") + Template((("hole", long_hole), ("lit", "/a")))
        assert t.parts == (("lit", "http://svc/"), ("hole", "x" * (MAX_JOINED - len("http://svc/"))), ("lit", "\u2026"))
        assert (t + Template.of("/more")).parts == t.parts  # nothing behind the mark
        ref = Template.of("a" * (MAX_JOINED - 2)) + Template((("ref", "NAME"),))
        assert ref.parts == (("lit", "a" * (MAX_JOINED - 2)), ("hole", "NA"), ("lit", "\u2026"))
        lit = Template.of("b" * MAX_JOINED) + Template.of("cd")
        assert lit.parts == (("lit", "b" * MAX_JOINED + "\u2026"),)
        # under the limit: untouched
        assert (Template.of("/a/") + Template((("ref", "X"), ("hole", "id")))).parts == (
            ("lit", "/a/"), ("ref", "X"), ("hole", "id"))

    def test_a_go_constant_of_100000_terms_is_unknown_not_a_path(self, tmp_path: Path) -> None:
        terms = " + ".join(['"p"'] * 100_000)
        files = {
            "go.mod": "module x\n\ngo 1.21\n",
            "consts.go": f'package main\n\nconst a = b\nconst b = a\n\nconst (\n\tc1 = c2 + "/x"\n\tc2 = c1 + "/y"\n)\n\n'
                         f'const big = "http://svc" + {terms}\n\nconst small = "http://svc" + "/ok"\n',
            "main.go": 'package main\n\nimport "net/http"\n\nfunc main() {\n\thttp.Get(a + "/a")\n\thttp.Get(c1)\n'
                       '\thttp.Get(big)\n\thttp.Get(small)\n}\n',
        }
        ex = GO.extract("consts.go", files["consts.go"].encode())
        # `big` has no known text: it is no constant; the cycles stay references (the linker bounds them)
        assert [(c.qualname, c.value.parts) for c in ex.constants] == [
            ("a", (("ref", "b"),)), ("b", (("ref", "a"),)), ("c1", (("ref", "c2"), ("lit", "/x"))),
            ("c2", (("ref", "c1"), ("lit", "/y"))), ("small", (("lit", "http://svc/ok"),))]
        root = write_tree(tmp_path / "g", files)
        index_fixture(root, tmp_path / "g.db", "g").close()
        assert _rows(tmp_path / "g.db", "SELECT file, line, kind, dst, coalesce(json_extract(props, '$.url'),"
                     " json_extract(props, '$.call')) FROM edges WHERE kind IN ('CALLS_HTTP', 'UNLINKED')"
                     " ORDER BY file, line") == [
            ("main.go", 6, "CALLS_HTTP", "endpoint:GET /a", "{}/a"),  # an unknown base, a known end
            ("main.go", 7, "UNLINKED", "unlinked:url", "GET {}"),  # a cycle: unknown
            ("main.go", 8, "UNLINKED", "unlinked:url", "GET {}"),  # was endpoint:GET /…pppppppppppppppp
            ("main.go", 9, "CALLS_HTTP", "endpoint:GET /ok", "http://svc/ok"),
        ]
