"""Go extraction (trial of the "Adding a language" recipe): exact IR records per query, syntax
errors, non-ASCII columns, go.mod."""

from indexer.languages.go.extractor import EXTRACTOR, GOMOD_EXTRACTOR, type_text
from indexer.model import Binding, CallSite, Import, Param

SOURCE = """package app

import (
\t"fmt"
\tu "example.com/m/util"
\t. "example.com/m/dot"
\t_ "example.com/m/side"
)

type Server struct {
\trepo *Repo
\tBase
}

type Doer interface{ Do(x int) error }

func NewServer() *Server { return &Server{} }

func (s *Server) Handle(a, b int, rest ...string) (int, error) {
\tq := NewServer()
\ts.repo.Save(1)
\tu.Help(rest...)
\tfmt.Println(len(rest))
\tq.Handle(1, 2).Close()
\tfunc() { s.Handle() }()
\treturn 0, nil
}
"""


def test_definitions_methods_types_fields():
    ex = EXTRACTOR.extract("app/a.go", SOURCE.encode())
    assert ex.errors == [] and ex.package == "app"
    got = [(d.kind, d.qualname, d.parent, d.name_line, d.name_col, d.return_type, d.bases, d.field_type)
           for d in ex.definitions]
    assert got == [
        ("class", "Server", None, 10, 5, None, ["Base"], None),
        ("field", "Server.repo", "Server", 11, 1, None, [], "Repo"),
        ("interface", "Doer", None, 15, 5, None, [], None),
        ("method", "Doer.Do", "Doer", 15, 21, "error", [], None),
        ("function", "NewServer", None, 17, 5, "Server", [], None),
        ("method", "Server.Handle", "Server", 19, 17, "int", [], None),
    ]
    handle = ex.definitions[-1]
    assert handle.params == [Param("a", "int"), Param("b", "int"), Param("rest", "string", variadic="*")]
    assert handle.signature == "func (s *Server) Handle(a, b int, rest ...string) (int, error)"
    assert (handle.start_line, handle.end_line, handle.min_arity, handle.max_arity) == (19, 27, 2, None)


def test_calls_receivers_and_arity():
    ex = EXTRACTOR.extract("app/a.go", SOURCE.encode())
    # `&Server{}` is a composite literal, not a call
    assert ex.calls == [
        CallSite("Server.Handle", "NewServer", None, 0, 20, 6),
        CallSite("Server.Handle", "Save", "s.repo", 1, 21, 8),
        CallSite("Server.Handle", "Help", "u", -1, 22, 3),
        CallSite("Server.Handle", "Println", "fmt", 1, 23, 5),
        CallSite("Server.Handle", "len", None, 1, 23, 13),
        CallSite("Server.Handle", "Handle", "q", 2, 24, 3),
        CallSite("Server.Handle", "Close", "q.Handle()", 0, 24, 16),
        CallSite("Server.Handle", "Handle", "s", 0, 25, 12),  # a function literal's call is its function's
    ]


def test_imports_and_bindings():
    ex = EXTRACTOR.extract("app/a.go", SOURCE.encode())
    assert ex.imports == [
        Import("fmt", "fmt", None, line=4),
        Import("u", "example.com/m/util", None, line=5),
        Import("*", "example.com/m/dot", None, line=6),
    ]  # the blank import binds nothing
    assert ex.bindings == [
        Binding("Server", "this.repo", "Repo", "declared", 11),
        Binding("Server.Handle", "s", "Server", "declared", 19),
        Binding("Server.Handle", "a", "int", "declared", 19),
        Binding("Server.Handle", "b", "int", "declared", 19),
        Binding("Server.Handle", "rest", "string", "declared", 19),
        Binding("Server.Handle", "q", "NewServer", "constructed", 20),
    ]  # Doer.Do's parameter x binds nothing (no body)


def test_syntax_errors_keep_what_parsed():
    ex = EXTRACTOR.extract("b.go", b"package b\n\nfunc Ok() { Ok() }\n\nfunc Bad( {\n")
    assert ex.errors != [] and all(":" in e for e in ex.errors)
    assert [d.qualname for d in ex.definitions][:1] == ["Ok"]
    assert ex.calls[0] == CallSite("Ok", "Ok", None, 0, 3, 12)


def test_non_ascii_columns_are_code_points():
    ex = EXTRACTOR.extract("c.go", "package c\n\nfunc F() { s := \"héllo→\"; G(s) }\n".encode())
    assert [(c.name, c.line, c.col) for c in ex.calls] == [("G", 3, 26)]  # bytes: 29


def test_go_mod_and_other_mod_files():
    assert GOMOD_EXTRACTOR.extract("x/go.mod", b"module example.com/x\n\ngo 1.22\n").package == "example.com/x"
    other = GOMOD_EXTRACTOR.extract("lib/thing.mod", b"module example.com/x\n")
    assert (other.package, other.definitions, other.errors) == (None, [], [])
    assert GOMOD_EXTRACTOR.extract("go.mod", b"\xff\xfe module").package is None


def test_type_texts():
    assert [type_text(t) for t in ("*pkg.T", "[]*T", "...T", "map[string]T", "T[int]", "[4]T")] == [
        "pkg.T", "T", "T", "map", "T", "T"]
