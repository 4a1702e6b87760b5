"""Incremental runs over Go inputs that change which implementations an interface call reaches
(acc60): a method's parameter type (implicit interfaces compare types) and a ``go.mod``'s ``require``
lines (a module's types satisfy the interfaces of the modules it requires). After each edit the
watcher's index and a one-shot run's equal a full index of the same tree, row by row
(:class:`tests.unit.test_incremental.Workspace`)."""

from __future__ import annotations

from pathlib import Path

from tests.index_dump import calls
from tests.unit.test_incremental import Workspace

COMMON = {
    "common/go.mod": "module example.com/app/common\n",
    "common/decorator/command.go": (
        "package decorator\n\nimport \"context\"\n\ntype CommandHandler[C any] interface {\n"
        "\tHandle(ctx context.Context, cmd C) error\n}\n\n"
        "type logging[C any] struct{ base CommandHandler[C] }\n\n"
        "func (l logging[C]) Handle(ctx context.Context, cmd C) error { return l.base.Handle(ctx, cmd) }\n"),
    "svc/go.mod": "module example.com/app/svc\n\nrequire example.com/app/common v0.0.0\n",
    "svc/command/types.go": (
        "package command\n\nimport \"example.com/app/common/decorator\"\n\n"
        "type Cancel struct{}\n\ntype Schedule struct{}\n\n"
        "type CancelHandler decorator.CommandHandler[Cancel]\n"),
    "svc/command/cancel.go": (
        "package command\n\nimport \"context\"\n\ntype cancelHandler struct{}\n\n"
        "func (h cancelHandler) Handle(ctx context.Context, cmd Cancel) error { return nil }\n"),
    "svc/ports/http.go": (
        "package ports\n\nimport (\n\t\"context\"\n\n\t\"example.com/app/svc/command\"\n)\n\n"
        "type Server struct{ cancel command.CancelHandler }\n\n"
        "func (s Server) PostCancel(ctx context.Context) error { return s.cancel.Handle(ctx, command.Cancel{}) }\n"),
}
POST = "svc/ports/http.Server.PostCancel(1) -> "
HANDLER = "svc/command/cancel.cancelHandler.Handle(2) [inferred]"
LOGGING = "common/decorator/command.logging.Handle(2) -> "
LOGGING_TO_HANDLER = LOGGING + HANDLER
BASE_CALLS = sorted([
    LOGGING + "common/decorator/command.CommandHandler.Handle(2) [exact]",
    LOGGING + "common/decorator/command.logging.Handle(2) [inferred]",  # logging[C] is a CommandHandler[C] too
    LOGGING_TO_HANDLER,
    POST + "common/decorator/command.CommandHandler.Handle(2) [inferred]",
    POST + HANDLER,
])
"""Every CALLS row of :data:`COMMON` (a full index's and the watcher's)."""


def test_a_parameter_type_that_changes_rebinds_the_interface_calls(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, COMMON)
    try:
        assert calls(ws.db) == BASE_CALLS
        # the handler now takes Schedule: no longer a CancelHandler (the rows equal a full index), still a
        # CommandHandler[C] (LOGGING_TO_HANDLER stays)
        ws.edit({"svc/command/cancel.go": COMMON["svc/command/cancel.go"].replace("cmd Cancel", "cmd Schedule")})
        assert calls(ws.db) == [c for c in BASE_CALLS if c != POST + HANDLER]
        ws.edit({"svc/command/cancel.go": COMMON["svc/command/cancel.go"]})
        assert calls(ws.db) == BASE_CALLS
    finally:
        ws.close()


def test_a_require_that_comes_and_goes_rebinds_what_the_module_reaches(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, COMMON)
    try:
        assert calls(ws.db) == BASE_CALLS
        # svc no longer requires common: common's generic code holds none of svc's types (svc's own call
        # through its CancelHandler, POST + HANDLER, stays)
        ws.edit({"svc/go.mod": "module example.com/app/svc\n"})
        assert calls(ws.db) == [c for c in BASE_CALLS if c != LOGGING_TO_HANDLER]
        ws.edit({"svc/go.mod": COMMON["svc/go.mod"]})
        assert calls(ws.db) == BASE_CALLS
    finally:
        ws.close()


SCHEDULE = {
    **COMMON,
    "svc/command/types.go": COMMON["svc/command/types.go"].replace("type Schedule struct{}", "type Schedule struct{ At string }"),
    "svc/command/schedule.go": (
        "package command\n\nimport \"context\"\n\ntype scheduleHandler struct{}\n\n"
        "func (h scheduleHandler) Handle(ctx context.Context, cmd Schedule) error { return nil }\n"),
}
SCHEDULE_HANDLER = "svc/command/schedule.scheduleHandler.Handle(2) [inferred]"


def test_a_type_declared_or_removed_in_a_package_rebinds_the_files_whose_keys_it_changes(tmp_path: Path) -> None:
    """acc60's report: whether a named type's key is known depends on its folder declaring it; a type
    that an edit of another file turns into an alias (unknown: the parameter count decides) or back
    into a definition changes what the handler in schedule.go implements and what PostCancel reaches,
    though neither file changed."""
    ws = Workspace(tmp_path, SCHEDULE)
    try:
        # Schedule is not Cancel: PostCancel does not reach the schedule handler (common's generic code does)
        scheduled = sorted([*BASE_CALLS, LOGGING + SCHEDULE_HANDLER])
        assert calls(ws.db) == scheduled
        ws.edit({"svc/command/types.go": SCHEDULE["svc/command/types.go"].replace(
            "type Schedule struct{ At string }", "type Schedule = decorator.Unknown")})
        assert calls(ws.db) == sorted([*scheduled, POST + SCHEDULE_HANDLER])  # an alias is unknown: the count decides
        ws.edit({"svc/command/types.go": SCHEDULE["svc/command/types.go"]})
        assert calls(ws.db) == scheduled
    finally:
        ws.close()
