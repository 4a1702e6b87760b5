"""The per-file tables behind :meth:`JsFile.template`'s local values (:mod:`indexer.languages.ecmascript.local_scopes`) and
the template memo: each answer equals the per-lookup scan it replaced (parameter words, the declarator
before a use, assignments inside a block), and a template that met a choice point (a conditional, ``||``,
a reassigned local) is never remembered, so :meth:`JsFile.alternatives` still sees every branch."""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, combined_query, parser, run_query
from indexer.languages.ecmascript.frameworks.common import JsFile
from indexer.languages.ecmascript.local_scopes import ScopeTables
from indexer.languages.ecmascript.typescript import EXTRACTOR as TS
from indexer.model import FileExtraction, Template

_CODE = b"""\
function send(url: Url = base, { method }, ...rest) {
  const a = "/one";
  let b = "/two", a2 = a + "/x";
  if (method) { const a = "/inner"; b = "/three"; }
  const a = "/four";
  use(a, b, a2);
  const late = "/late";
  n++;
}
function other() { total += 1; obj.b = 2; }
"""


def _tree(code: bytes, grammar: str = "typescript") -> tuple[Node, SourceText]:
    return parser(grammar).parse(code).root_node, SourceText(code)


def nodes_of_type(node: Node, type_: str) -> list[Node]:
    """Every node of ``type_`` under ``node`` (itself included), in source order."""
    found, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type == type_:
            found.append(n)
        stack.extend(reversed(n.children))
    return found


def _tables(root: Node, src: SourceText) -> ScopeTables:
    """The tables as :class:`JsFile` builds them: the assignments from the query file's matches."""
    query, _ = combined_query("typescript", ("ecmascript/queries",), ("local_names",))
    return ScopeTables(src.text, [caps for _, caps in run_query(query, root)])


def _use(root: Node) -> Node:
    return next(c for c in nodes_of_type(root, "call_expression") if c.text.startswith(b"use("))


def test_parameter_words_are_whole_words_of_the_parameter_text() -> None:
    root, src = _tree(_CODE)
    tables = _tables(root, src)
    fn = nodes_of_type(root, "function_declaration")[0]
    params = fn.child_by_field_name("parameters")
    got = {w: tables.parameter_word(params, fn, w) for w in ("url", "Url", "base", "method", "rest", "ur",
                                                                "ethod", "send", "a")}
    assert got == {"url": True, "Url": True, "base": True, "method": True, "rest": True,
                   "ur": False, "ethod": False, "send": False, "a": False}  # fmt: skip


def test_declarator_before_is_the_last_one_of_the_block_before_the_use() -> None:
    root, src = _tree(_CODE)
    tables = _tables(root, src)
    block = nodes_of_type(root, "statement_block")[0]
    pos = _use(root).start_byte

    def value(name: str) -> str | None:
        d = tables.declarator_before(block, name, pos)
        return None if d is None else src.text(d.child_by_field_name("value"))

    assert value("a") == '"/four"'  # the second `const a` of the block, not the inner block's
    assert value("b") == '"/two"'
    assert value("a2") == 'a + "/x"'
    assert value("late") is None  # declared after the use
    assert value("method") is None  # a parameter, not a declarator
    first_if = nodes_of_type(root, "if_statement")[0]
    d = tables.declarator_before(block, "a", first_if.start_byte)
    assert src.text(d.child_by_field_name("value")) == '"/one"'  # before the second declaration


def test_reassigned_reads_plain_names_inside_the_block_only() -> None:
    root, src = _tree(_CODE)
    tables = _tables(root, src)
    send_body, inner, other_body = nodes_of_type(root, "statement_block")
    assert [tables.reassigned(send_body, n) for n in ("b", "n", "a", "total")] == [True, True, False, False]
    assert [tables.reassigned(inner, n) for n in ("b", "n")] == [True, False]
    assert [tables.reassigned(other_body, n) for n in ("total", "b", "obj", "n")] == [True, False, False, False]


_VALUES = b"""\
function get(flag) {
  const base = "/api";
  const url = flag ? base + "/a" : "/b";
  const plain = base + "/orders";
  client.get(url);
  client.get(plain);
}
"""


def _jsfile(code: bytes) -> tuple[JsFile, Node]:
    root, src = _tree(code)
    return JsFile(root, src, FileExtraction(path="a.ts", language="typescript")), root


def test_template_memo_keeps_plain_values_and_never_a_chosen_one() -> None:
    jf, root = _jsfile(_VALUES)
    url_arg, plain_arg = (c.child_by_field_name("arguments").named_children[0]
                          for c in nodes_of_type(root, "call_expression"))  # fmt: skip
    plain = jf.template(plain_arg)
    assert plain == Template((("lit", "/api/orders"),))
    assert jf.template(plain_arg) is plain  # remembered: no choice point below it
    assert jf.alternatives(lambda: jf.template(plain_arg)) == [plain]
    hole = Template((("hole", 'flag ? base + "/a" : "/b"'),))
    assert jf.template(url_arg) == hole  # outside alternatives() a conditional is a hole
    assert jf.alternatives(lambda: jf.template(url_arg)) == [Template((("lit", "/api/a"),)),
                                                             Template((("lit", "/b"),))]  # fmt: skip
    assert jf.template(url_arg) == hole  # and the runs above left nothing remembered
    assert jf.alternatives(lambda: jf.template(url_arg)) == [Template((("lit", "/api/a"),)),
                                                             Template((("lit", "/b"),))]  # fmt: skip


def test_parameters_are_the_same_set_for_every_node_of_a_function() -> None:
    jf, root = _jsfile(_VALUES)
    calls = nodes_of_type(root, "call_expression")
    assert jf.parameters(calls[0]) == frozenset({"flag"})
    assert jf.parameters(calls[1]) is jf.parameters(calls[0])
    assert jf.parameters(root.children[0]) == frozenset()  # the function itself: module level


_LISTENERS = b"""\
const BASE = "/api";
export function init(io) {
  io.on("connection", (socket) => {
    request("/users/online");
    socket.on("disconnect", () => {
      request(BASE + "/users/offline");
    });
  });
}
"""


def test_code_scope_memo_forgets_when_a_detector_adds_a_scope() -> None:
    # http_wrappers asks code_scope() inside both handlers before listeners makes them definitions; the
    # extractor's listeners then ask again: the inner handler is a scope of its own, not `init` remembered.
    out = TS.extract("src/ws.ts", _LISTENERS)
    assert [(d.qualname, d.parent) for d in out.definitions] == [
        ("init", None),
        ("init.on connection", "init"),
        ("init.on connection.on disconnect", "init.on connection"),
    ]
    assert [(c.caller, c.name, c.line) for c in out.calls] == [
        ("init", "on", 3),
        ("init.on connection", "request", 4),
        ("init.on connection", "on", 5),
        ("init.on connection.on disconnect", "request", 6),
    ]
    lit, base = Template((("lit", "/users/online"),)), Template((("ref", "BASE"), ("lit", "/users/offline")))
    assert [(u.callee, u.caller, u.line, u.args) for u in out.url_arg_calls] == [
        ("io.on", "init", 3, (Template((("lit", "connection"),)), None)),
        ("request", "init", 4, (lit,)),  # asked before the handlers were definitions (as the base tree)
        ("socket.on", "init", 5, (Template((("lit", "disconnect"),)), None)),
        ("request", "init", 6, (base,)),
    ]


def test_declared_names_are_every_declarator_of_the_file() -> None:
    root, src = _tree(_CODE)
    tables = _tables(root, src)
    got = {w: tables.declared(w) for w in ("a", "b", "a2", "late", "method", "url", "n", "total", "obj", "send")}
    assert got == {"a": True, "b": True, "a2": True, "late": True, "method": False, "url": False, "n": False,
                   "total": False, "obj": False, "send": False}  # fmt: skip
