"""How the language server reads a folder's files for positions and names (``RippleServer._file_text``
through :meth:`lsp_server.convert.Converter.text`): a file's real path is resolved once and kept
(a workspace-symbol answer names up to 100 files), yet a file swapped for a link that leads out of
the folder afterwards is not read where the link points, and a path that leads out is never read."""

from __future__ import annotations

from pathlib import Path

import pytest

from pygls.workspace import Workspace

from lsp_server.server import Folder, RippleServer


@pytest.fixture()
def server(tmp_path: Path) -> tuple[RippleServer, Path, Path]:
    root = tmp_path / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("def a():\n    return 1\n", encoding="utf-8")
    outside = tmp_path / "secret.py"
    outside.write_text("TOKEN = 'do not show'\nMORE = 2\nEVEN_MORE = 3\n", encoding="utf-8")
    ls = RippleServer()
    ls.protocol._workspace = Workspace(root.as_uri())  # what initialize sets up
    ls.folders.append(Folder(root.as_uri(), root.resolve(), "ws", tmp_path / "x.db"))
    return ls, root, outside


def test_a_file_is_read_and_its_real_path_kept(server) -> None:
    ls, root, _ = server
    first = ls.converter().text("ws", "pkg/a.py")
    assert (first.uri, first.disk) == ((root / "pkg" / "a.py").resolve().as_uri(), ["def a():", "    return 1"])
    (root / "pkg" / "a.py").write_text("def a():\n    return 2\n\n", encoding="utf-8")  # edited: read again
    assert ls.converter().text("ws", "pkg/a.py").disk == ["def a():", "    return 2", ""]


def test_a_file_swapped_for_a_link_out_of_the_folder_is_not_read_there(server) -> None:
    ls, root, outside = server
    assert ls.converter().text("ws", "pkg/a.py").disk is not None  # resolved and kept while it was a file
    (root / "pkg" / "a.py").unlink()
    (root / "pkg" / "a.py").symlink_to(outside)
    assert ls.converter().text("ws", "pkg/a.py").disk is None


def test_a_path_through_a_link_out_of_the_folder_is_never_read(server) -> None:
    ls, root, outside = server
    (root / "out").symlink_to(outside.parent)
    text = ls.converter().text("ws", "out/secret.py")
    assert (text.uri, text.disk) == ("ripple:/ws/out/secret.py", None)
    assert ls.converter().text("ws", "out/secret.py").disk is None  # the answer is kept too
