"""Hostile suite, second review of issue 12's fixes: each class is an attack or careless use the first
round of fixes still let through, kept fixed by a named regression test. Inputs are generated here.

- :class:`TestIndexPathNotAFile`: ``--db`` naming a FIFO, a character device (``/dev/null``) or a
  link to one: refused before SQLite touches it (before: an I/O error blamed on the disk, or
  "cannot rollback" after SQLite created ``/dev/null-journal``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from stores.embedded import EmbeddedStore
from stores.errors import StoreUnavailable
from tests.hostile.test_hostile_stores_cli import ripple, write_tree


class TestIndexPathNotAFile:
    """``--db`` / ``RIPPLE_DB`` naming something that is not a regular file (nor a folder, nor absent)."""

    @pytest.mark.parametrize("kind", ["fifo", "link_to_fifo", "device"])
    def test_refused_with_what_it_is_and_nothing_created_beside_it(self, tmp_path, kind):
        fifo = tmp_path / "pipe.db"
        os.mkfifo(fifo)
        if kind == "fifo":
            db = fifo
        elif kind == "link_to_fifo":
            db = tmp_path / "link.db"
            db.symlink_to(fifo)
        else:
            db = Path("/dev/null")
        beside = {p for p in db.parent.iterdir() if p.name.startswith(db.name)}
        with pytest.raises(StoreUnavailable) as info:
            EmbeddedStore(db)
        assert str(info.value) == (f"{db} is not a regular file (a FIFO or a device), not an index file; pass "
                                   "another --db (or RIPPLE_DB)")
        src = write_tree(tmp_path / "src", {"a.py": "def f():\n    pass\n"})
        for args in (["index", str(src), "--no-embed"], ["stats"], ["search", "f"]):
            result = ripple(*args, "--db", str(db))
            assert result.exit_code == 1, result.stdout
            assert " ".join(result.stderr.split()) == f"Error: {info.value}"
        assert {p for p in db.parent.iterdir() if p.name.startswith(db.name)} == beside  # no -journal, -wal
