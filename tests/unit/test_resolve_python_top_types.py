"""A Python name declared with a top type (``self._obj: Any = None``) takes what it is assigned: the
declaration says nothing of the value (the module system's ``top_types``)."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture


def _calls(resolved, caller: str, needle: str) -> list[tuple[int, str, str]]:
    return sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.src.endswith(caller) and needle in e.dst)


def test_a_python_name_declared_any_takes_what_it_is_assigned() -> None:
    resolved = resolve_fixture('''
# --- path: app/__init__.py ---
# --- path: app/z.py ---
from typing import Any


class Compressor:
    def flush(self): pass


class Other:
    def flush(self): pass


class Writer:
    def __init__(self):
        self._obj: Any = None
        self._typed: Other = None
        self._top: object = None

    def make(self) -> Compressor:
        return Compressor()

    def send(self):
        if not self._obj:
            self._obj = self.make()
        self._obj.flush()
        self._typed = self.make()
        self._typed.flush()
        self._top.flush()
''')
    assert _calls(resolved, "Writer.send(0)", "flush") == [
        (24, "app/z.Compressor.flush(0)", "inferred"),  # `: Any` says nothing: the assignment does
        (26, "app/z.Other.flush(0)", "exact"),  # a declared class still beats the assignment
        # negative: `_top: object` assigned nothing else (27) stays unbound, by name or otherwise
    ]
