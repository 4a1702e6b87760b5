"""What a file context computes when first asked (its interface digests, the parameters its functions
call, hold or iterate) is kept in attributes the class declares (indexer.heap.declared_lazily), so
that computing them does not give each context an attribute dict of its own (session 61, mem61a:
1.3 KiB a file bound in CPython 3.11)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from indexer.heap import declared_lazily
from indexer.parked import ParkedList
from indexer.resolve.context import FileCtx
from indexer.resolve.repository import RepositoryResolver
from indexer.spill import SpillFile
from tests.resolution_harness import extract_fixture

FIXTURE = """
# --- path: app/__init__.py ---
# --- path: app/jobs.py ---
class Runner:
    def __init__(self, task):
        self.task = task

    def go(self):
        self.task.run()


def each(items):
    for x in items:
        x.run()


def call(cb):
    cb()
# --- path: app/main.py ---
from app.jobs import Runner, call, each


class Task:
    def run(self):
        return 1


def main():
    Runner(Task()).go()
    each([Task()])
    call(main)
"""

LAZY = ("interface", "structure", "names", "param_calls", "held_arguments", "protocol_parameters")


def _contexts(park: SpillFile | None) -> dict[str, FileCtx]:
    resolver = RepositoryResolver("r", park=park)
    resolver.update(extract_fixture(FIXTURE), track=False)
    return resolver.files


@pytest.mark.parametrize("park", [SpillFile, lambda: None], ids=["parked", "held"])
def test_computing_them_leaves_the_context_its_size(park):
    files = _contexts(park())
    jobs = files["app/jobs.py"]
    before = {p: sys.getsizeof(fc) for p, fc in files.items()}
    values = {name: getattr(jobs, name) for name in LAZY}
    for fc in files.values():
        for name in LAZY:
            getattr(fc, name)
    # slots (session 62): no attribute dict at all, the same fixed size whatever was computed, parked
    # or not (app/__init__.py has no definitions to park, and its context is made first)
    assert not any(hasattr(fc, "__dict__") for fc in files.values())
    assert {p: sys.getsizeof(fc) for p, fc in files.items()} == before
    assert set(before.values()) == {16 + 16 + 29 * 8} and len(files) == 3  # GC header, object header, 29 slots
    assert dict(values["param_calls"]) == {"call": {"cb": (("call", 0, ()),)}}
    assert list(values["protocol_parameters"]) == ["each"] and list(values["held_arguments"]) == ["Runner.__init__"]
    assert "each" not in values["param_calls"] and "Runner.__init__" not in values["protocol_parameters"]
    assert all(getattr(jobs, name) is values[name] for name in LAZY)  # computed once
    assert jobs.interface != files["app/main.py"].interface and len(jobs.interface) == 40


def test_assigning_sets_the_value_and_none_computes_it_again():
    files = _contexts(None)
    main = files["app/main.py"]
    first = main.names
    main.names = {"x": "y"}
    assert main.names == {"x": "y"}
    main.names = None
    assert main.names == first and main.names is not first
    assert FileCtx.names.__doc__ and isinstance(FileCtx.__dict__["names"], declared_lazily)


def test_a_stub_context_has_none_computed():
    stub = _contexts(None)["app/main.py"].released()
    assert stub._param_calls is None and stub._interface is None  # noqa: SLF001 (set by stub)
    assert stub.unpacked is None and stub.def_lines is None and stub._members is None  # noqa: SLF001
    with pytest.raises(AttributeError):  # no lookup tables: nothing resolves through it
        stub.defs  # noqa: B018


_FRESH = """
import sys
from indexer.resolve.repository import RepositoryResolver
from indexer.spill import SpillFile
from tests.resolution_harness import extract_fixture
from tests.unit.test_lazy_context_values import FIXTURE
first = RepositoryResolver("r")
first.update(extract_fixture(FIXTURE), track=False)
stub = first.files["app/main.py"].released()  # a stub context made before the parked ones
resolver = RepositoryResolver("r", park=SpillFile())
resolver.update(extract_fixture(FIXTURE), track=False)
print(sorted({sys.getsizeof(fc) for fc in [stub, *resolver.files.values()]}),
      [hasattr(fc, "__dict__") for fc in [stub, *resolver.files.values()]])
"""


def test_contexts_made_after_a_stub_and_held_ones_keep_their_size():
    """In a fresh process, a stub context and contexts holding their definitions made before parked
    ones: all have the one fixed size of the class's slots and no attribute dict (with attribute
    dicts, the first instances decided what the class's shared keys held: session 61's parked
    contexts' dicts were 1,584 bytes each when only they set ``unpacked`` and ``def_lines``)."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", _FRESH], cwd=root, capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    sizes, dicts = done.stdout.split("] [")
    assert sizes == "[264" and dicts.strip() == "False, False, False, False]"


@pytest.mark.parametrize("first", ["held_arguments", "protocol_parameters"])
def test_the_held_and_iterated_parameters_read_the_parked_call_sites_once(first, monkeypatch):
    """The callbacks read ``held_arguments`` and ``protocol_parameters`` together, and a parked file's call
    sites are unpickled on every read: the first of the two read computes both from one read (session 67,
    cpu67b), with the values each computes alone."""
    alone = _contexts(None)["app/jobs.py"]
    expected = {"held_arguments": alone.held_arguments, "protocol_parameters": alone.protocol_parameters}
    jobs = _contexts(SpillFile())["app/jobs.py"]
    calls = jobs.ex.calls
    reads = []
    unpack = ParkedList.unpack

    def counted(self: ParkedList) -> list[object]:
        if self is calls:
            reads.append(len(self))
        return unpack(self)

    monkeypatch.setattr(ParkedList, "unpack", counted)
    other = "protocol_parameters" if first == "held_arguments" else "held_arguments"
    assert isinstance(calls, ParkedList) and len(calls) == 5  # task.run, __iter__, __next__, x.run, cb
    assert getattr(jobs, first) == expected[first]
    assert reads == [5]  # the call sites, once
    assert getattr(jobs, other) == expected[other]
    assert reads == [5]  # computed with the first: no second read
    assert {k: list(v) for k, v in jobs.held_arguments.items()} == {"Runner.__init__": ["task"]}
    assert {k: list(v) for k, v in jobs.protocol_parameters.items()} == {"each": ["items"]}
    jobs.protocol_parameters = None  # one computed again alone: one more read, the other kept
    assert jobs.protocol_parameters == expected["protocol_parameters"] and reads == [5, 5]
    assert jobs.held_arguments is not None and reads == [5, 5]
