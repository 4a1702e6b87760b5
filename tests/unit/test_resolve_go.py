"""Go call resolution (trial of the "Adding a language" recipe): imports through go.mod, name binding
within a package across files, receivers typed by parameters, constructors and composite literals,
struct fields, and what must stay unresolved or external."""

from tests.resolution_harness import check, resolve_fixture

MODULE = """
// --- path: go.mod ---
module example.com/shop

go 1.21
// --- path: store/repo.go ---
package store

type Repo struct {
    db *DB
}

func NewRepo() *Repo { return &Repo{db: open()} }

func (r *Repo) Save(name string) error {
    r.db.Exec(name)
    return nil
}
// --- path: store/db.go ---
package store

type DB struct{}

func (d *DB) Exec(q string) {}

func open() *DB { return &DB{} }
"""


def test_imports_through_go_mod_and_package_scope_across_files():
    check(
        MODULE
        + """
// --- path: cmd/main.go ---
package main

import (
    "fmt"
    "example.com/shop/store"
    other "github.com/x/store"
)

func main() {
    r := store.NewRepo()
    r.Save("a")
    var s store.Repo
    s.Save("b")
    run(r)
    other.Save("c")
    fmt.Println(len("x"))
}

func run(r *store.Repo) {
    r.Save("c")
    p := &store.DB{}
    p.Exec("d")
}
""",
        [
            "cmd/main.main(0) -> store/repo.NewRepo(0) [exact]",
            "cmd/main.main(0) -> store/repo.Repo.Save(1) [inferred]",
            "cmd/main.main(0) -> store/repo.Repo.Save(1) [exact]",
            "cmd/main.main(0) -> cmd/main.run(1) [exact]",
            "cmd/main.run(1) -> store/repo.Repo.Save(1) [exact]",
            "cmd/main.run(1) -> store/db.DB.Exec(1) [exact]",  # &store.DB{} is exactly a DB
            # same package, other file: open() is found through the package; r.db is the field's type
            "store/repo.NewRepo(0) -> store/db.open(0) [exact]",
            "store/repo.Repo.Save(1) -> store/db.DB.Exec(1) [exact]",
        ],
    )


def test_external_and_unknown_stay_unbound():
    result = check(
        MODULE
        + """
// --- path: app/app.go ---
package app

import "github.com/other/lib"

func Use(x Unknown) {
    lib.Save("a")
    x.Exec("b")
    missing()
}
""",
        [
            "store/repo.NewRepo(0) -> store/db.open(0) [exact]",
            "store/repo.Repo.Save(1) -> store/db.DB.Exec(1) [exact]",
            # x's type is unknown: the name fallback finds exactly one method Exec of arity 1
            "app/app.Use(1) -> store/db.DB.Exec(1) [name]",
        ],
    )
    app = next(f for f in result.files if f.file.path == "app/app.go")
    assert sorted((u.name, u.receiver) for u in app.unresolved) == [("missing", None)]


def test_import_without_go_mod_is_external():
    result = check(
        """
// --- path: a/a.go ---
package a

import "example.com/shop/b"

func F() { b.G() }
// --- path: b/b.go ---
package b

func G() {}
""",
        [],
    )
    assert [u.name for f in result.files for u in f.unresolved] == []


def test_method_declared_in_another_file_of_the_package():
    check(
        """
// --- path: go.mod ---
module example.com/m
// --- path: p/t.go ---
package p

type T struct{}

func Make() *T { return &T{} }
// --- path: p/t_methods.go ---
package p

func (t *T) Run() {}
// --- path: other/t.go ---
package other

type T struct{}

func (t *T) Stop() {}
// --- path: q/q.go ---
package q

import "example.com/m/p"

func Q(t *p.T) {
    t.Run()
    t.Stop()
    p.Make().Run()
}
""",
        # t.Stop(): T of package other has a Stop, p.T has none: the known receiver stays unresolved
        ["q/q.Q(1) -> p/t_methods.T.Run(0) [exact]", "q/q.Q(1) -> p/t_methods.T.Run(0) [inferred]",
         "q/q.Q(1) -> p/t.Make(0) [exact]"],
    )


def test_go_mod_in_a_subfolder_maps_its_module_path():
    check(
        """
// --- path: svc/go.mod ---
module example.com/svc
// --- path: svc/api/h.go ---
package api

func Handle() {}
// --- path: svc/main.go ---
package main

import "example.com/svc/api"

func main() { api.Handle() }
""",
        ["svc/main.main(0) -> svc/api/h.Handle(0) [exact]"],
    )


def test_other_mod_files_are_not_modules():
    result = resolve_fixture(
        """
// --- path: lib/thing.mod ---
module example.com/notgo
// --- path: a.go ---
package main

import "example.com/notgo"

func main() { notgo.F() }
"""
    )
    assert sorted((f.file.path, f.file.language) for f in result.files) == [("a.go", "go"), ("lib/thing.mod", "gomod")]
    # thing.mod is no go.mod: the import stays external (no edge, not unresolved either)
    assert [(f.edges and [e.kind for e in f.edges if e.kind == "CALLS"], f.unresolved) for f in result.files] == [
        ([], []), ([], [])]
