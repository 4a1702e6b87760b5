"""What a file context computes when first asked (its interface digests, the parameters its functions
call, hold or iterate) is kept in attributes the class declares (indexer.heap.declared_lazily), so
that computing them does not give each context an attribute dict of its own (session 61, mem61a:
1.3 KiB a file bound in CPython 3.11)."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
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
    assert set(before.values()) == {16 + 16 + 30 * 8} and len(files) == 3  # GC header, object header, 30 slots
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
    assert sizes == "[272" and dicts.strip() == "False, False, False, False]"


DERIVED = ("param_calls", "held_arguments", "protocol_parameters")


def _counting(monkeypatch: pytest.MonkeyPatch, calls: ParkedList) -> list[int]:
    """The lengths of the reads of ``calls`` made from now on (each unpickles it)."""
    reads: list[int] = []
    unpack = ParkedList.unpack

    def counted(self: ParkedList) -> list[object]:
        if self is calls:
            reads.append(len(self))
        return unpack(self)

    monkeypatch.setattr(ParkedList, "unpack", counted)
    return reads


@pytest.mark.parametrize("first", DERIVED)
def test_the_called_held_and_iterated_parameters_read_the_parked_call_sites_once(first, monkeypatch):
    """The callbacks read ``param_calls``, ``held_arguments`` and ``protocol_parameters`` of the same target
    files, and a parked file's call sites are unpickled on every read outside its binding: the first of the
    three read computes all three from one read (session 67, cpu67b for the last two, r67a), with the values
    each computes alone."""
    alone = _contexts(None)["app/jobs.py"]
    expected = {name: getattr(alone, name) for name in DERIVED}
    jobs = _contexts(SpillFile())["app/jobs.py"]
    calls = jobs.ex.calls
    reads = _counting(monkeypatch, calls)
    assert isinstance(calls, ParkedList) and len(calls) == 5  # task.run, __iter__, __next__, x.run, cb
    assert getattr(jobs, first) == expected[first]
    assert reads == [5]  # the call sites, once
    for name in DERIVED:
        assert getattr(jobs, name) == expected[name]
    assert reads == [5]  # computed with the first: no second read
    assert {k: list(v) for k, v in jobs.held_arguments.items()} == {"Runner.__init__": ["task"]}
    assert {k: list(v) for k, v in jobs.protocol_parameters.items()} == {"each": ["items"]}
    assert dict(jobs.param_calls) == {"call": {"cb": (("call", 0, ()),)}}
    jobs.protocol_parameters = None  # one computed again alone: one more read, the others kept
    assert jobs.protocol_parameters == expected["protocol_parameters"] and reads == [5, 5]
    assert jobs.held_arguments is not None and jobs.param_calls is not None and reads == [5, 5]


def test_a_file_calling_no_held_or_iterated_parameter_shares_one_empty_mapping():
    """``held_arguments`` / ``protocol_parameters`` of a file with none (most) are one shared read-only
    mapping, not an empty dict per file (all three are now computed together, so for more files)."""
    files = _contexts(SpillFile())
    main, init = files["app/main.py"], files["app/__init__.py"]
    assert main.held_arguments == {} and main.protocol_parameters == {} and init.held_arguments == {}
    assert main.held_arguments is main.protocol_parameters is init.protocol_parameters
    with pytest.raises(TypeError):
        main.held_arguments["x"] = {}  # type: ignore[index]


def test_a_file_being_bound_has_its_call_sites_read_once(monkeypatch):
    """While a file is bound (:meth:`FileCtx.binding`, around its output), every reader of its call sites
    (its output, its parameter calls, its held arguments) gets the one list read back at the start; the
    block's end drops it, and a read after it unpickles again (no file's call sites outlive its binding)."""
    resolver = RepositoryResolver("r", park=SpillFile())
    resolver.update(extract_fixture(FIXTURE), track=False)
    jobs = resolver.files["app/jobs.py"]
    calls = jobs.ex.calls
    reads = _counting(monkeypatch, calls)
    assert isinstance(calls, ParkedList) and jobs.unpacked is not None
    with jobs.binding():
        assert reads == [5]  # read once, when the binding starts
        held = jobs.call_sites()
        assert [(cs.receiver, cs.name) for cs in held] == [
            ("self.task", "run"), ("x", "run"), (None, "cb"), ("items", "__iter__"), ("items", "__next__")]
        assert jobs.call_sites() is held and jobs.unpacked.held(calls) is held
        assert dict(jobs.param_calls) == {"call": {"cb": (("call", 0, ()),)}}
        assert list(jobs.held_arguments) == ["Runner.__init__"] and list(jobs.protocol_parameters) == ["each"]
        with jobs.binding():  # nested (bound again from within): the same list, still held after
            assert jobs.call_sites() is held
        assert jobs.unpacked.held(calls) is held and reads == [5]
    assert jobs.unpacked.held(calls) is None and len(jobs.unpacked) == 1  # dropped (1: the definitions param_calls read)
    after = jobs.call_sites()
    assert after == held and after is not held and reads == [5, 5]
    assert jobs.unpacked.get(calls) == held and reads == [5, 5, 5]  # not left in the lists read last either
    fresh = RepositoryResolver("r", park=SpillFile())  # nothing computed yet: main's binding asks app/jobs.py
    fresh.update(extract_fixture(FIXTURE), track=False)
    main, jobs = fresh.files["app/main.py"], fresh.files["app/jobs.py"]
    main_reads, jobs_reads = _counting(monkeypatch, main.ex.calls), []
    unpack = ParkedList.unpack  # (main's counter, wrapped once more for jobs' list)

    def both(self: ParkedList) -> list[object]:
        if self is jobs.ex.calls:
            jobs_reads.append(len(self))
        return unpack(self)

    monkeypatch.setattr(ParkedList, "unpack", both)
    out = fresh._current().file_output(main, defaultdict(int))  # noqa: SLF001 (the resolver's binding, as a run's)
    assert main_reads == [len(main.ex.calls)] == [6] and main.unpacked.held(main.ex.calls) is None
    assert jobs_reads == [5]  # jobs' param_calls, held arguments and iterated parameters: one read, the three
    assert sorted((e.src, e.dst, e.line) for e in out.edges if e.kind == "CALLS") == [
        ("r:app/jobs.call(1)", "r:app/main.main(0)", 12),  # call(main): call's cb() runs main (param_calls)
        ("r:app/main.main(0)", "r:app/jobs.Runner.__init__(1)", 10),
        ("r:app/main.main(0)", "r:app/jobs.Runner.go(0)", 10),
        ("r:app/main.main(0)", "r:app/jobs.call(1)", 12),
        ("r:app/main.main(0)", "r:app/jobs.each(1)", 11),
        ("r:app/main.main(0)", "r:app/main.Task", 10),
        ("r:app/main.main(0)", "r:app/main.Task", 11)]


def test_a_file_without_definitions_holds_its_call_sites_while_bound(monkeypatch):
    """A file with call sites but no definitions (a script, a package ``__init__`` running setup) has
    nothing of its definitions parked, yet its call sites are: its binding reads them once too."""
    resolver = RepositoryResolver("r", park=SpillFile())
    resolver.update(extract_fixture(FIXTURE + "# --- path: app/run.py ---\nfrom app.jobs import call\ncall(print)\n"
                                     "call(len)\n"), track=False)
    run = resolver.files["app/run.py"]
    assert not run.ex.definitions and isinstance(run.ex.calls, ParkedList) and run.unpacked is not None
    reads = _counting(monkeypatch, run.ex.calls)
    with run.binding():
        assert [cs.name for cs in run.call_sites()] == ["call", "call"] and run.param_calls == {}
        assert reads == [2]
    assert reads == [2]
