"""Search hits carry their chunk's metadata, read from the graph node (issue 21 item 7): decorators,
modifiers, visibility by each language's rule, export, parent and signature."""

from __future__ import annotations

from analysis.retrieval import chunk_metadata
from stores.contracts import Chunk, Node


def _chunk(language: str, kind: str = "method") -> Chunk:
    return Chunk("c", "r", "p", "f", language, kind, "n", "fqn", None, 1, 2, "text", "sum")


def _node(name: str, qualname: str, label: str = "Method", **props) -> Node:
    return Node(f"r:f.{qualname}", label, name, qualname, "r", "f", 1, 0, 2, 0, props)


def test_apex_and_java_visibility_comes_from_the_modifiers() -> None:
    node = _node("getContacts", "AccountService.getContacts", decorators=["AuraEnabled(cacheable=true)"],
                 modifiers=["public", "static"], signature="public static List<Contact> getContacts(Id a)")
    assert chunk_metadata(_chunk("apex"), node) == {
        "language": "apex", "kind": "method", "decorators": ["AuraEnabled(cacheable=true)"], "modifiers": ["static"],
        "visibility": "public", "exported": False, "documented": False, "parent": "AccountService",
        "signature": "public static List<Contact> getContacts(Id a)"}
    pkg = chunk_metadata(_chunk("java"), _node("m", "A.m", modifiers=["static"]))
    assert pkg["visibility"] is None  # Java package-private: nothing written, nothing claimed
    assert chunk_metadata(_chunk("java"), _node("m", "A.m", documented=True))["documented"] is True


def test_python_and_ecmascript_follow_their_conventions() -> None:
    assert chunk_metadata(_chunk("python"), _node("_helper", "mod_helper"))["visibility"] == "private"
    assert chunk_metadata(_chunk("python"), _node("__init__", "A.__init__"))["visibility"] == "public"
    top = chunk_metadata(_chunk("typescript", "function"), _node("load", "load", "Function", exported=True))
    assert (top["visibility"], top["exported"], top["parent"]) == ("export", True, None)
    assert chunk_metadata(_chunk("javascript", "function"), _node("f", "f", "Function"))["visibility"] == "module"
    assert chunk_metadata(_chunk("javascript"), _node("#secret", "C.#secret"))["visibility"] == "private"
    assert chunk_metadata(_chunk("typescript"), _node("m", "C.m", modifiers=["private"]))["visibility"] == "private"


def test_a_file_section_has_no_definition_metadata() -> None:
    meta = chunk_metadata(_chunk("python", "file_section"), Node("r:f", "File", "f", "", "r", "f", 1, 0, 9, 0,
                                                                 {"language": "python", "digest": "x"}))
    assert meta == {"language": "python", "kind": "file_section", "decorators": [], "modifiers": [], "visibility": None,
                    "exported": False, "documented": False, "parent": None, "signature": None}
