"""Go's hard resolution cases: interfaces satisfied implicitly (dispatch reaches every type of the
repository whose method set holds the interface's, ``inferred``), embedding (promoted methods, and a
type satisfying an interface through an embedded type's methods), value and pointer receivers,
local types inferred from ``x := T{}`` / ``&T{}`` / ``NewT()``; with the negative cases (a type missing
one method of the interface, the empty interface, an unrelated method of the same name)."""

from tests.resolution_harness import check, edges

SHAPES = """
// --- path: go.mod ---
module example.com/geo
// --- path: shape/shape.go ---
package shape

type Shape interface {
    Area() float64
    Name() string
}

type Square struct{ s float64 }

func (q Square) Area() float64 { return q.s * q.s }
func (q Square) Name() string { return "square" }

type Circle struct{ r float64 }

func (c *Circle) Area() float64 { return 3 * c.r * c.r }
// --- path: shape/circle_name.go ---
package shape

func (c *Circle) Name() string { return "circle" }

// Line has Area but no Name: it does not satisfy Shape.
type Line struct{}

func (l Line) Area() float64 { return 0 }
// --- path: shape/empty.go ---
package shape

type Any interface{}

type Named interface{ Name() string }
"""


def test_call_through_an_interface_reaches_every_type_satisfying_it():
    result = check(
        SHAPES
        + """
// --- path: report/report.go ---
package report

import "example.com/geo/shape"

func Total(items []shape.Shape) float64 {
    t := 0.0
    for _, s := range items {
        t += s.Area()
    }
    return t
}

func Label(n shape.Named) string { return n.Name() }

func Direct() float64 {
    q := shape.Square{}
    return q.Area()
}
""",
        [
            # the interface method itself, then each implementer (Line has no Name: not reached)
            "report/report.Total(1) -> shape/shape.Shape.Area(0) [exact]",
            "report/report.Total(1) -> shape/shape.Square.Area(0) [inferred]",
            "report/report.Total(1) -> shape/shape.Circle.Area(0) [inferred]",
            # Named needs only Name: Square and Circle (its Name is in another file of the package)
            "report/report.Label(1) -> shape/empty.Named.Name(0) [exact]",
            "report/report.Label(1) -> shape/shape.Square.Name(0) [inferred]",
            "report/report.Label(1) -> shape/circle_name.Circle.Name(0) [inferred]",
            # a concrete receiver binds its own method only
            "report/report.Direct(0) -> shape/shape.Square.Area(0) [exact]",
        ],
    )
    implements = sorted(edges(result, "IMPLEMENTS"))
    assert implements == [
        "shape/shape.Circle -> shape/empty.Named",
        "shape/shape.Circle -> shape/shape.Shape",
        "shape/shape.Square -> shape/empty.Named",
        "shape/shape.Square -> shape/shape.Shape",
    ]  # never Line (Area only) and nothing for the empty interface Any
    overrides = sorted(edges(result, "OVERRIDES"))
    assert overrides == [  # each implementing method -> the interface methods it implements; never Line's Area
        "shape/circle_name.Circle.Name(0) -> shape/empty.Named.Name(0)",
        "shape/circle_name.Circle.Name(0) -> shape/shape.Shape.Name(0)",
        "shape/shape.Circle.Area(0) -> shape/shape.Shape.Area(0)",
        "shape/shape.Square.Area(0) -> shape/shape.Shape.Area(0)",
        "shape/shape.Square.Name(0) -> shape/empty.Named.Name(0)",
        "shape/shape.Square.Name(0) -> shape/shape.Shape.Name(0)",
    ]


def test_embedding_promotes_methods_and_satisfies_interfaces():
    result = check(
        """
// --- path: go.mod ---
module example.com/emb
// --- path: base/base.go ---
package base

type Logger struct{}

func (l *Logger) Log(msg string) {}

type Service struct {
    *Logger
    name string
}

func (s *Service) Run() { s.Log("run") }

type Loggable interface{ Log(msg string) }

func Emit(x Loggable) { x.Log("x") }
// --- path: main.go ---
package main

import "example.com/emb/base"

func main() {
    s := &base.Service{}
    s.Log("hi")
    s.Run()
}
""",
        [
            "base/base.Service.Run(0) -> base/base.Logger.Log(1) [inferred]",
            "base/base.Emit(1) -> base/base.Loggable.Log(1) [exact]",
            # Logger and Service (through its embedded *Logger) satisfy Loggable: one promoted target
            "base/base.Emit(1) -> base/base.Logger.Log(1) [inferred]",
            "main.main(0) -> base/base.Logger.Log(1) [inferred]",
            "main.main(0) -> base/base.Service.Run(0) [exact]",
        ],
    )
    assert sorted(edges(result, "IMPLEMENTS")) == ["base/base.Logger -> base/base.Loggable",
                                                   "base/base.Service -> base/base.Loggable"]
    assert sorted(edges(result, "EXTENDS")) == ["base/base.Service -> base/base.Logger"]


def test_constructor_function_return_types_and_literals_type_locals():
    check(
        """
// --- path: go.mod ---
module example.com/ctor
// --- path: repo/repo.go ---
package repo

type Repo struct{}

func NewRepo() *Repo { return &Repo{} }

func (r *Repo) Find(id int) string { return "" }

type Cache struct{}

func (c Cache) Find(id int) string { return "" }
// --- path: svc/svc.go ---
package svc

import r "example.com/ctor/repo"

type Svc struct{ repo *r.Repo }

func (s *Svc) A() { s.repo.Find(1) }

func B() {
    x := r.NewRepo()
    x.Find(2)
    c := r.Cache{}
    c.Find(3)
    p := &r.Cache{}
    p.Find(4)
}
""",
        [
            "svc/svc.Svc.A(0) -> repo/repo.Repo.Find(1) [exact]",
            "svc/svc.B(0) -> repo/repo.NewRepo(0) [exact]",
            "svc/svc.B(0) -> repo/repo.Repo.Find(1) [inferred]",
            "svc/svc.B(0) -> repo/repo.Cache.Find(1) [exact]",
        ],
    )


def test_dot_and_blank_imports():
    result = check(
        """
// --- path: go.mod ---
module example.com/d
// --- path: util/u.go ---
package util

func Helper() {}
// --- path: plug/p.go ---
package plug

func init() {}

func Other() {}
// --- path: main.go ---
package main

import (
    . "example.com/d/util"
    _ "example.com/d/plug"
)

func main() {
    Helper()
    Other()
}
""",
        ["main.main(0) -> util/u.Helper(0) [exact]"],
    )
    main = next(f for f in result.files if f.file.path == "main.go")
    # the blank import binds nothing: Other stays unresolved although plug declares it
    assert [(u.name, u.receiver) for u in main.unresolved] == [("Other", None)]


def test_implementations_are_looked_for_within_one_go_module():
    result = check(
        """
// --- path: a/go.mod ---
module example.com/a
// --- path: a/api/api.go ---
package api

type Store interface{ Get(id int) string }

func Use(s Store) { s.Get(1) }
// --- path: a/impl/impl.go ---
package impl

type Mem struct{}

func (m Mem) Get(id int) string { return "" }
// --- path: b/go.mod ---
module example.com/b
// --- path: b/copy/copy.go ---
package copy

type Other struct{}

func (o Other) Get(id int) string { return "" }
""",
        [
            "a/api/api.Use(1) -> a/api/api.Store.Get(1) [exact]",
            "a/api/api.Use(1) -> a/impl/impl.Mem.Get(1) [inferred]",
        ],  # b/copy's Other has the method set too, but lives in another Go module
    )
    assert edges(result, "IMPLEMENTS") == ["a/impl/impl.Mem -> a/api/api.Store"]


def test_type_assertion_receiver_is_an_instance_of_the_asserted_type():
    check(
        """
// --- path: go.mod ---
module example.com/ta
// --- path: svc/svc.go ---
package svc

type Server interface{ Get(id int) string }

type impl struct{}

func (i impl) Get(id int) string { return "" }

func Handle(srv interface{}) { srv.(Server).Get(1) }
""",
        ["svc/svc.Handle(1) -> svc/svc.Server.Get(1) [exact]", "svc/svc.Handle(1) -> svc/svc.impl.Get(1) [inferred]"],
    )
