"""The CLI's log lines off a terminal: one plain line per record, never wrapped, control characters escaped."""

from __future__ import annotations

import io
import logging

from rich.logging import RichHandler

from lsp_server.cli_support import SafeLogFormatter, err, log_handler


def test_off_a_terminal_a_record_is_one_unwrapped_line_with_control_characters_escaped() -> None:
    assert not err.is_terminal  # pytest captures stderr
    handler = log_handler()
    assert not isinstance(handler, RichHandler)
    assert isinstance(handler.formatter, SafeLogFormatter)
    stream = io.StringIO()
    handler.setStream(stream)
    path = "/tmp/" + "d" * 150 + "/.gitignore"
    record = logging.LogRecord("indexer", logging.WARNING, __file__, 1, "%s ignored: %s", (path, "not_regular\x1b]0;x\x07"), None)
    handler.emit(record)
    assert stream.getvalue() == f"WARNING  {path} ignored: not_regular\\x1b]0;x\\x07\n"


def test_on_a_terminal_the_records_share_the_progress_bars_console(monkeypatch) -> None:
    monkeypatch.setattr(type(err), "is_terminal", property(lambda self: True))
    handler = log_handler()
    assert isinstance(handler, RichHandler)
    assert handler.console is err
