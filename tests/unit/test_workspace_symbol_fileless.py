"""workspace/symbol and ripple/search over a central store (many repositories in one file), as the
scale benchmark found them: nodes without a place in a file (SQL tables and columns, HTTP endpoints,
topics: ``file`` empty, line 0) are left out of workspace/symbol, the others answered (they made the
whole request an internal error: Position.line -1); folders sharing one index file are searched once."""

from __future__ import annotations

from types import SimpleNamespace

from lsprotocol import types

from lsp_server.convert import Converter, FileText
from lsp_server.features.symbols import LIMIT, workspace_symbol
from stores.contracts import Node


def _node(label: str, name: str, path: str, line: int) -> Node:
    return Node(f"{label}:{path}:{name}", label, name, name, "r", path, line, 0, line, 0, {})


class _Graph:
    def __init__(self, nodes: list[Node]) -> None:
        self.nodes, self.asked = nodes, []

    def search_symbols(self, query: str, limit: int) -> list[Node]:
        self.asked.append(limit)
        return [n for n in self.nodes if n.name.startswith(query)][:limit]


def _server(graph: _Graph) -> SimpleNamespace:
    conv = Converter(types.PositionEncodingKind.Utf16, lambda repo, path: FileText(f"file:///w/{path}", ["x"] * 50))
    return SimpleNamespace(converter=lambda: conv, graph=lambda: graph)


def test_fileless_nodes_are_left_out_and_the_rest_answered():
    graph = _Graph([_node("Table", "blogs", "", 0), _node("Column", "blog_id", "", 0),
                    _node("Function", "blog_feed", "feeds.py", 12)])
    found = workspace_symbol(_server(graph), types.WorkspaceSymbolParams(query="blog"))
    assert [(s.name, s.location.uri, s.location.range.start.line) for s in found] == [
        ("blog_feed", "file:///w/feeds.py", 11)]


def test_the_answer_is_still_filled_to_the_limit_past_fileless_matches():
    nodes = [_node("Column", f"col{i:03d}", "", 0) for i in range(30)]
    nodes += [_node("Function", f"col_fn{i:03d}", "m.py", i + 1) for i in range(LIMIT + 5)]
    graph = _Graph(nodes)
    found = workspace_symbol(_server(graph), types.WorkspaceSymbolParams(query="col"))
    assert len(found) == LIMIT and all(s.location.uri == "file:///w/m.py" for s in found)
    assert graph.asked == [LIMIT, 4 * LIMIT]


def test_no_second_query_when_every_match_has_a_file():
    graph = _Graph([_node("Function", "alpha", "a.py", 3)])
    found = workspace_symbol(_server(graph), types.WorkspaceSymbolParams(query="al"))
    assert [s.name for s in found] == ["alpha"] and graph.asked == [LIMIT]


def test_search_runs_once_per_index_file_when_folders_share_one():
    from pathlib import Path

    from lsp_server.server import RippleServer

    shared, other = object(), object()
    folders = [SimpleNamespace(db=Path("/c/index.db"), store=shared, state="ready"),
               SimpleNamespace(db=Path("/c/index.db"), store=shared, state="ready"),
               SimpleNamespace(db=Path("/o/index.db"), store=other, state="ready"),
               SimpleNamespace(db=Path("/e/index.db"), store=object(), state="error")]
    fake = SimpleNamespace(session=None, folders=folders)
    assert RippleServer.search_sources(fake) == [(shared, shared), (other, other)]
