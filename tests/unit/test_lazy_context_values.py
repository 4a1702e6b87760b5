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
def test_computing_them_leaves_the_attribute_dict_shared(park):
    files = _contexts(park())
    jobs = files["app/jobs.py"]
    before = {p: sys.getsizeof(vars(fc)) for p, fc in files.items()}
    values = {name: getattr(jobs, name) for name in LAZY}
    for fc in files.values():
        for name in LAZY:
            getattr(fc, name)
    assert {p: sys.getsizeof(vars(fc)) for p, fc in files.items()} == before
    assert all(size < 600 for size in before.values())  # key-sharing (a dict of its own: about 1,600)
    # the same attributes in every context, parked or not (app/__init__.py has no definitions to park,
    # and its context is made first): one set in some only made the later ones' dicts their own
    assert len(set(before.values())) == 1 and len(files) == 3
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
    assert stub._param_calls is None and stub._interface is None  # noqa: SLF001 (class defaults)


_FRESH = """
import sys
from indexer.resolve.repository import RepositoryResolver
from indexer.spill import SpillFile
from tests.resolution_harness import extract_fixture
from tests.unit.test_lazy_context_values import FIXTURE
RepositoryResolver("r").update(extract_fixture(FIXTURE), track=False)  # held (not parked) contexts first
resolver = RepositoryResolver("r", park=SpillFile())
resolver.update(extract_fixture(FIXTURE), track=False)
print(sorted({sys.getsizeof(vars(fc)) for fc in resolver.files.values()}))
"""


def test_parked_contexts_made_after_held_ones_keep_shared_dicts():
    """In a fresh process (the first instances decide what the class's shared keys hold), contexts
    that hold their definitions made before parked ones: every context sets the same attributes in
    the same order, so the parked ones' dicts stay key-sharing (they were 1,584 bytes each when only
    parked contexts set ``unpacked`` and ``def_lines``)."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", _FRESH], cwd=root, capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    sizes = eval(done.stdout)  # noqa: S307 (a list of ints this test printed)
    assert len(sizes) == 1 and sizes[0] < 600
