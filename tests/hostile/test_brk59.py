"""Hostile suite, session 59 (brk59): what the newcomer run on two multi-service repositories found
(ThreeDotsLabs/wild-workouts-go-ddd-example, Go modules per service; sqshq/piggymetrics, Spring Cloud
services configured by a config server), and attacks on session 58's additions. Every input is
generated here (no committed blobs).

- :class:`TestGoDefinedInterfaceTypes`: wild-workouts keeps one ``go.mod`` per service and declares each
  command handler as ``type ScheduleTrainingHandler decorator.CommandHandler[ScheduleTraining]`` (a type
  defined as a generic interface of the ``common`` module). A call ``g.app.Commands.ScheduleTraining.Handle``
  linked nothing (the defined type had no methods) and the handlers of ``internal/trainer`` satisfied no
  interface of ``internal/common`` (implicit implementations were looked for within one ``go.mod``), so
  ``ripple impact`` of a repository method reached no endpoint: now the trainer's gRPC and HTTP endpoints
  and, through the generated gRPC client, the trainings service's callers.
"""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

HANDLERS = """
// --- path: common/go.mod ---
module example.com/app/common
// --- path: common/decorator/command.go ---
package decorator

import "context"

type CommandHandler[C any] interface {
    Handle(ctx context.Context, cmd C) error
}
// --- path: trainer/go.mod ---
module example.com/app/trainer

require (
    example.com/app/common v0.0.0
    github.com/sirupsen/logrus v1.5.0
)
// --- path: trainer/command/schedule.go ---
package command

import (
    "context"

    "example.com/app/common/decorator"
)

type Schedule struct{}

type ScheduleHandler decorator.CommandHandler[Schedule]

type scheduleHandler struct{}

func (h scheduleHandler) Handle(ctx context.Context, cmd Schedule) error { return nil }

// Plain is a struct type; Renamed is defined as it: it has no method of Plain's own.
type Plain struct{}

func (p Plain) Handle(ctx context.Context, cmd Schedule) error { return nil }

type Renamed Plain
// --- path: trainer/ports/grpc.go ---
package ports

import (
    "context"

    "example.com/app/trainer/command"
)

type Server struct{ h command.ScheduleHandler }

func (s Server) Schedule(ctx context.Context) error {
    return s.h.Handle(ctx, command.Schedule{})
}
// --- path: billing/go.mod ---
module example.com/app/billing
// --- path: billing/pay.go ---
package billing

import "context"

// billing requires nothing of common: its Handle satisfies none of common's interfaces.
type payHandler struct{}

func (p payHandler) Handle(ctx context.Context, cmd int) error { return nil }
"""


class TestGoDefinedInterfaceTypes:
    def test_a_call_on_a_type_defined_as_an_interface_reaches_the_implementations(self):
        result = resolve_fixture(HANDLERS)
        calls = [e for e in edges(result) if e.startswith("trainer/ports/grpc.Server.Schedule")]
        assert calls == [
            "trainer/ports/grpc.Server.Schedule(1) -> common/decorator/command.CommandHandler.Handle(2) [inferred]",
            "trainer/ports/grpc.Server.Schedule(1) -> trainer/command/schedule.Plain.Handle(2) [inferred]",
            "trainer/ports/grpc.Server.Schedule(1) -> trainer/command/schedule.scheduleHandler.Handle(2) [inferred]",
        ]
        # billing's payHandler is of a module that does not require common: never reached
        assert not any("billing" in e for e in calls)

    def test_implementations_across_required_modules_only(self):
        result = resolve_fixture(HANDLERS)
        implements = edges(result, "IMPLEMENTS")
        assert implements == [
            "trainer/command/schedule.Plain -> common/decorator/command.CommandHandler",
            "trainer/command/schedule.Plain -> trainer/command/schedule.ScheduleHandler",
            "trainer/command/schedule.scheduleHandler -> common/decorator/command.CommandHandler",
            "trainer/command/schedule.scheduleHandler -> trainer/command/schedule.ScheduleHandler",
        ]
        # Renamed (type Renamed Plain) has none of Plain's own methods; ScheduleHandler is an interface,
        # no concrete type; billing requires nothing of common
        assert not any(e.startswith(("trainer/command/schedule.Renamed", "trainer/command/schedule.ScheduleHandler",
                                     "billing/")) for e in implements)
        assert edges(result, "EXTENDS") == [
            "trainer/command/schedule.Renamed -> trainer/command/schedule.Plain",
            "trainer/command/schedule.ScheduleHandler -> common/decorator/command.CommandHandler",
        ]
