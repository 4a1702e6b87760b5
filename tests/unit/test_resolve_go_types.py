"""Go implicit interfaces compare parameter and result TYPES where both are known (acc60): the shape
of ThreeDotsLabs/wild-workouts-go-ddd-example, where ``internal/common/decorator`` declares generic
``CommandHandler[C]`` / ``QueryHandler[Q, R]`` interfaces and logging decorators, and each service
declares ``type XHandler decorator.CommandHandler[X]``. Counting parameters only, a call through
``XHandler`` reached every handler of the module (commands and queries alike: ``Handle(ctx, x)`` has
two parameters in both) and the generic decorator, whose own generic call reached every handler of
every module requiring ``common``. Negatives: another command's handler, a query handler (other
results), a pointer where the interface takes a value, the generic decorator behind a bound
instantiation, a type of another package of the same name."""

from tests.resolution_harness import edges, resolve_fixture

SERVICE = """
// --- path: common/go.mod ---
module example.com/app/common
// --- path: common/decorator/command.go ---
package decorator

import "context"

type CommandHandler[C any] interface {
    Handle(ctx context.Context, cmd C) error
}

type QueryHandler[Q any, R any] interface {
    Handle(ctx context.Context, q Q) (R, error)
}

type logging[C any] struct{ base CommandHandler[C] }

func (l logging[C]) Handle(ctx context.Context, cmd C) (err error) { return l.base.Handle(ctx, cmd) }
// --- path: svc/go.mod ---
module example.com/app/svc

require example.com/app/common v0.0.0
// --- path: svc/command/commands.go ---
package command

import (
    "context"

    "example.com/app/common/decorator"
)

type Schedule struct{}

type Cancel struct{}

type ScheduleHandler decorator.CommandHandler[Schedule]

type CancelHandler decorator.CommandHandler[Cancel]

type scheduleHandler struct{}

func (h scheduleHandler) Handle(ctx context.Context, cmd Schedule) error { return nil }

type cancelHandler struct{}

func (h cancelHandler) Handle(ctx context.Context, cmd Cancel) error { return nil }

// takes a pointer: *Cancel is not Cancel
type cancelByPointer struct{}

func (h cancelByPointer) Handle(ctx context.Context, cmd *Cancel) error { return nil }

// a function type is not understood: the count decides, as before
type cancelUnknown struct{}

func (h cancelUnknown) Handle(ctx func(), cmd Cancel) error { return nil }
// --- path: svc/query/queries.go ---
package query

import (
    "context"

    "example.com/app/common/decorator"
    "example.com/app/svc/command"
)

type Date struct{}

type Hours struct{}

type HoursHandler decorator.QueryHandler[Hours, []Date]

type hoursHandler struct{}

func (h hoursHandler) Handle(ctx context.Context, q Hours) ([]Date, error) { return nil, nil }

// one result where the interface has two
type hoursOneResult struct{}

func (h hoursOneResult) Handle(ctx context.Context, q Hours) error { return nil }

// another package's Cancel (command.Cancel) is the type CancelHandler binds: this one is query.Cancel
type Cancel struct{}

type localCancel struct{}

func (h localCancel) Handle(ctx context.Context, cmd Cancel) error { return nil }

// the command package's Cancel written through its import: the same type
type importedCancel struct{}

func (h importedCancel) Handle(ctx context.Context, cmd command.Cancel) error { return nil }
// --- path: svc/ports/http.go ---
package ports

import (
    "context"

    "example.com/app/svc/command"
    "example.com/app/svc/query"
)

type Server struct {
    cancel command.CancelHandler
    hours  query.HoursHandler
}

func (s Server) PostCancel(ctx context.Context) error {
    return s.cancel.Handle(ctx, command.Cancel{})
}

func (s Server) GetHours(ctx context.Context) error {
    _, err := s.hours.Handle(ctx, query.Hours{})
    return err
}
"""


def _from(result, caller: str) -> list[str]:
    return [e for e in edges(result) if e.startswith(caller)]


def test_a_bound_command_handler_reaches_the_handlers_of_that_command_only():
    result = resolve_fixture(SERVICE)
    assert _from(result, "svc/ports/http.Server.PostCancel") == [
        "svc/ports/http.Server.PostCancel(1) -> common/decorator/command.CommandHandler.Handle(2) [inferred]",
        "svc/ports/http.Server.PostCancel(1) -> svc/command/commands.cancelHandler.Handle(2) [inferred]",
        "svc/ports/http.Server.PostCancel(1) -> svc/command/commands.cancelUnknown.Handle(2) [inferred]",
        "svc/ports/http.Server.PostCancel(1) -> svc/query/queries.importedCancel.Handle(2) [inferred]",
    ]
    calls = " ".join(_from(result, "svc/ports/http.Server.PostCancel"))
    # another command's handler, a pointer parameter, query.Cancel, a query handler, the generic decorator
    for absent in ("scheduleHandler", "cancelByPointer", "localCancel", "hoursHandler", "hoursOneResult", "logging"):
        assert absent not in calls


def test_a_bound_query_handler_compares_the_results():
    result = resolve_fixture(SERVICE)
    assert _from(result, "svc/ports/http.Server.GetHours") == [
        "svc/ports/http.Server.GetHours(1) -> common/decorator/command.QueryHandler.Handle(2) [inferred]",
        "svc/ports/http.Server.GetHours(1) -> svc/query/queries.hoursHandler.Handle(2) [inferred]",
    ]


def test_the_generic_interface_keeps_every_implementation_of_the_count():
    result = resolve_fixture(SERVICE)
    # logging[C]'s own call is through CommandHandler[C], C unbound: any command handler may be wrapped
    assert _from(result, "common/decorator/command.logging.Handle") == [
        "common/decorator/command.logging.Handle(2) -> common/decorator/command.CommandHandler.Handle(2) [exact]",
        "common/decorator/command.logging.Handle(2) -> common/decorator/command.logging.Handle(2) [inferred]",
        "common/decorator/command.logging.Handle(2) -> svc/command/commands.cancelByPointer.Handle(2) [inferred]",
        "common/decorator/command.logging.Handle(2) -> svc/command/commands.cancelHandler.Handle(2) [inferred]",
        "common/decorator/command.logging.Handle(2) -> svc/command/commands.cancelUnknown.Handle(2) [inferred]",
        "common/decorator/command.logging.Handle(2) -> svc/command/commands.scheduleHandler.Handle(2) [inferred]",
        # Handle(ctx, Hours) error is a CommandHandler[Hours]; hoursHandler's two results are not
        "common/decorator/command.logging.Handle(2) -> svc/query/queries.hoursOneResult.Handle(2) [inferred]",
        "common/decorator/command.logging.Handle(2) -> svc/query/queries.importedCancel.Handle(2) [inferred]",
        "common/decorator/command.logging.Handle(2) -> svc/query/queries.localCancel.Handle(2) [inferred]",
    ]
    assert not any("hoursHandler" in e for e in _from(result, "common/decorator/command.logging.Handle"))


def test_implements_rows_follow_the_types():
    implements = edges(resolve_fixture(SERVICE), "IMPLEMENTS")
    assert [e for e in implements if e.endswith("commands.CancelHandler")] == [
        "svc/command/commands.cancelHandler -> svc/command/commands.CancelHandler",
        "svc/command/commands.cancelUnknown -> svc/command/commands.CancelHandler",
        "svc/query/queries.importedCancel -> svc/command/commands.CancelHandler",
    ]
    assert [e for e in implements if e.endswith("commands.ScheduleHandler")] == [
        "svc/command/commands.scheduleHandler -> svc/command/commands.ScheduleHandler",
    ]
    assert [e for e in implements if e.endswith("queries.HoursHandler")] == [
        "svc/query/queries.hoursHandler -> svc/query/queries.HoursHandler",
    ]
    # the generic interfaces: every implementation of the shape (one result for commands, two for queries)
    assert [e for e in implements if e.endswith("decorator/command.QueryHandler")] == [
        "svc/query/queries.hoursHandler -> common/decorator/command.QueryHandler",
    ]
    assert "common/decorator/command.logging -> svc/command/commands.CancelHandler" not in implements
    assert "common/decorator/command.logging -> common/decorator/command.CommandHandler" in implements
    assert "svc/query/queries.hoursOneResult -> common/decorator/command.QueryHandler" not in implements


def test_declaration_heads_name_their_type_parameters():
    from indexer.languages.go.typekeys import split_top, type_parameters

    assert type_parameters("CommandHandler[C any] interface { Handle(ctx context.Context, cmd C) error }",
                           "CommandHandler") == ("C",)
    assert type_parameters("QueryHandler[Q any, R any] interface {}", "QueryHandler") == ("Q", "R")
    assert type_parameters("Pair[K, V any] struct{}", "Pair") == ("K", "V")
    assert type_parameters("(d *logging[C])", "logging") == ("C",)
    # not a type parameter list: an array type, another name ending alike, no brackets
    assert type_parameters("X [4]int", "X") == ()
    assert type_parameters("(d *mylogging[C])", "logging") == ()
    assert type_parameters("(p Plain)", "Plain") == ()
    assert split_top("a, m map[K]V, f func(x, y int)") == ["a", "m map[K]V", "f func(x, y int)"]


ALIASES = """
// --- path: go.mod ---
module example.com/io
// --- path: sink/sink.go ---
package sink

type Writer interface {
    Write(p []byte) (n int, err error)
}

type RuneSink interface {
    Put(r rune) error
}

// []uint8 is []byte: the same type
type file struct{}

func (f file) Write(p []uint8) (int, error) { return len(p), nil }

// int32 is rune
type runes struct{}

func (r runes) Put(c int32) error { return nil }

// []int8 is not []byte
type signed struct{}

func (s signed) Write(p []int8) (int, error) { return 0, nil }

func Copy(w Writer, s RuneSink) {
    w.Write(nil)
    s.Put('x')
}
"""


def test_byte_and_rune_are_the_uint8_and_int32_they_alias():
    calls = _from(resolve_fixture(ALIASES), "sink/sink.Copy")
    assert calls == [
        "sink/sink.Copy(2) -> sink/sink.RuneSink.Put(1) [exact]",
        "sink/sink.Copy(2) -> sink/sink.Writer.Write(1) [exact]",
        "sink/sink.Copy(2) -> sink/sink.file.Write(1) [inferred]",
        "sink/sink.Copy(2) -> sink/sink.runes.Put(1) [inferred]",
    ]  # not signed.Write: []int8 is not []byte
