"""Call hierarchy ranges of a function handed to a parameter its callee calls
(:mod:`indexer.resolve.callbacks`): the CALLS edge run -> handler sits in the file that hands
``handler`` over, while ``run`` lives in another; ``fromRanges`` are relative to the caller item's
document, so a site in another file is replaced by the caller's name (LSP 3.17)."""

from __future__ import annotations

from lsprotocol import types

from analysis.navigation import CallGroup, Site
from lsp_server.convert import Converter, FileText
from stores.contracts import Node

FILES = {
    "lib.py": ["def run(cb):", "    cb()", ""],
    "app.py": ["from lib import run", "def handler():", "    pass", "run(handler)", "run(handler)  # again"],
}


def _texts(repo: str, path: str) -> FileText:
    return FileText(f"file:///w/{path}", FILES[path])


def _node(name: str, path: str, line: int, end: int) -> Node:
    return Node(f"t:{path}.{name}", "Function", name, name, "t", path, line, 0, end, 0,
                {"name_line": line, "name_col": 4})


RUN = _node("run", "lib.py", 1, 2)
HANDLER = _node("handler", "app.py", 2, 3)


def test_incoming_call_of_a_handed_function_selects_the_callers_name_not_a_site_in_another_file():
    conv = Converter(types.PositionEncodingKind.Utf16, _texts)
    group = CallGroup(RUN, (Site("t", "app.py", 4, 4), Site("t", "app.py", 5, 4)))  # the argument `handler`
    call = conv.incoming_call(group, HANDLER)
    name = types.Range(types.Position(0, 4), types.Position(0, 7))  # `run` in lib.py
    assert call.from_.uri == "file:///w/lib.py"
    assert call.from_ranges == [name]
    assert call.from_.selection_range == name


def test_sites_in_the_callers_own_file_are_kept():
    conv = Converter(types.PositionEncodingKind.Utf16, _texts)
    caller = _node("handler", "app.py", 2, 3)
    group = CallGroup(caller, (Site("t", "app.py", 4, 0),))
    call = conv.incoming_call(group, RUN)
    assert call.from_ranges == [types.Range(types.Position(3, 0), types.Position(3, 3))]  # `run` at app.py:4
    out = conv.outgoing_call(CallGroup(HANDLER, (Site("t", "app.py", 4, 4),)), RUN)
    assert out.from_ranges == [types.Range(types.Position(0, 4), types.Position(0, 7))]  # not app.py's line 4
