"""The language server's progress of an index run: the indexer's :class:`indexer.run.ProgressSink`
sent as LSP ``window/workDoneProgress`` (create, then begin / report / end once the client answered),
one token per run of a workspace folder (:class:`lsp_server.server.RippleServer` makes one per sync)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

if TYPE_CHECKING:
    from lsp_server.server import Folder, RippleServer

__all__ = ["WorkDoneProgress"]


class WorkDoneProgress:
    """The indexer's :class:`indexer.run.ProgressSink` as ``window/workDoneProgress``; called
    from the indexing thread, it hands every message to the server's event loop."""

    def __init__(self, server: RippleServer, folder: Folder) -> None:
        self.server, self.folder = server, folder
        self.token = f"ripple-index-{folder.repo}-{id(self)}"
        self.total: int | None = None
        self.count = 0
        self.last = -1
        self.begun = False
        self.ended: str | None = None

    def open(self) -> None:
        """Create the token; ``begin`` follows the client's answer (reports before it are dropped)."""
        def begun(*_: Any) -> None:
            self.begun = True
            self.server.work_done_progress.begin(self.token, types.WorkDoneProgressBegin(
                title=f"ripple: indexing {self.folder.repo}", cancellable=False, percentage=0))
            if self.ended is not None:
                self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=self.ended))

        def send() -> None:
            if self.server.progress_supported:
                self.server.work_done_progress.create(self.token, begun)
        self.begun, self.ended = False, None
        self.server.call_soon(send)

    def start(self, phase: str, total: int | None) -> None:
        """A pipeline phase begins."""
        self.folder.phase, self.total, self.count, self.last = phase, total, 0, -1
        self._report(f"{phase}…")

    def advance(self, n: int = 1) -> None:
        """Progress within the phase (reported at most once per percent)."""
        self.count += n
        if self.total:
            pct = min(100, 100 * self.count // self.total)
            if pct != self.last:
                self.last = pct
                self._report(f"{self.folder.phase} {self.count}/{self.total}", pct)

    def done(self, phase: str) -> None:
        """A pipeline phase is over."""

    def close(self, message: str) -> None:
        """Send ``end`` (after ``begin``, whenever the client answers); the folder's phase becomes
        ``done`` on the event loop, after the message, so ``ripple/indexStatus`` never runs ahead."""
        def send() -> None:
            if self.begun:
                self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
            else:
                self.ended = message
            self.folder.phase = "done"
        self.server.call_soon(send)

    def _report(self, message: str, pct: int | None = None) -> None:
        def send() -> None:
            if self.begun and self.ended is None:
                self.server.work_done_progress.report(
                    self.token, types.WorkDoneProgressReport(message=message, percentage=pct))
        self.server.call_soon(send)
