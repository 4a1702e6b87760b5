"""Binding on a second core (:mod:`indexer.resolve.forked_binding`, :mod:`indexer.forked`): a forked copy
of the resolver binds files from the back of the list while the parent binds them from the front; the
outputs, their order, the read records and the outcome counts are exactly one process's; a copy that raises, dies or hangs leaves its files to the
parent, which binds them itself and says so; and the spill files a copy reads are read at offsets,
so the parent writing them meanwhile changes nothing the copy reads."""

from __future__ import annotations

import fcntl
import logging
import os
import pickle
import signal
import tempfile
import time
from collections import defaultdict

import psutil
import pytest

import indexer.resolve.forked_binding as fb
from indexer.forked import ForkedCall, ForkFailed, can_fork, lineage
from indexer.pipeline import index_repository
from indexer.resolve.repository import RepositoryResolver
from indexer.resolve.tracking import record_tokens
from indexer.run import IndexOptions
from indexer.spill import SpillFile
from stores.embedded import EmbeddedStore
from tests.index_dump import dump
from tests.resolution_harness import extract_fixture

pytestmark = pytest.mark.skipif(not can_fork(), reason="no safe fork on this platform")


def _fixture(modules: int) -> str:
    """A package of ``modules`` modules, each calling into the one before it and overriding a base."""
    parts = ["# --- path: shop/__init__.py ---",
             "# --- path: shop/base.py ---\nclass Base:\n    def run(self):\n        return self.step()\n"
             "    def step(self):\n        return 0\n"]
    for i in range(modules):
        prev = f"from shop.m{i - 1} import f{i - 1}, C{i - 1}\n" if i else ""
        call = f"    C{i - 1}().step()\n    return f{i - 1}()\n" if i else "    return missing_name()\n"
        parts.append(f"# --- path: shop/m{i}.py ---\nfrom shop.base import Base\n{prev}\n\n"
                     f"class C{i}(Base):\n    def step(self):\n        return {i}\n\n\n"
                     f"def f{i}():\n{call}")
    return "\n".join(parts)


def _resolve(processes: int, park: SpillFile | None = None, modules: int = 12):
    resolver = RepositoryResolver("r", park=park)
    extractions = extract_fixture(_fixture(modules))
    resolver.update(extractions, track=False)
    out = resolver.resolve([ex.path for ex, _, _ in extractions], spill=SpillFile(), processes=processes)
    return resolver, out


def _outputs(resolved) -> list[bytes]:
    return [pickle.dumps(resolved.files[i]) for i in range(len(resolved.files))]


@pytest.fixture
def forking(monkeypatch) -> list[int]:
    """Fork from the first file on, whatever the memory (the fixtures are small); the list of the
    copies' process ids, as they start."""
    monkeypatch.setattr(fb, "FORK_MIN_FILES", 1)
    monkeypatch.setattr(fb, "_rss_mib", lambda: 1.0)
    monkeypatch.setattr(fb, "held_mib", lambda copy, parent: 1.0)  # whatever the test process holds
    started: list[int] = []

    class Spied(ForkedCall):
        def __init__(self, fn):
            super().__init__(fn)
            started.append(self.pid)

    monkeypatch.setattr(fb, "ForkedCall", Spied)
    return started


def test_should_fork_only_with_processes_files_and_memory(monkeypatch):
    monkeypatch.setattr(fb, "_rss_mib", lambda: 150.0)
    assert fb.should_fork(3510, 2, None) is True
    assert fb.should_fork(3510, 1, None) is False  # one process asked for
    assert fb.should_fork(fb.FORK_MIN_FILES - 1, 2, None) is False  # too few files
    assert fb.should_fork(fb.FORK_MIN_FILES, 2, None) is True
    assert fb.should_fork(3510, 2, 150 + fb.FORK_HEADROOM_MIB - 1) is False  # too little left beside 150 MiB
    assert fb.should_fork(3510, 2, 150 + fb.FORK_HEADROOM_MIB) is True
    monkeypatch.setattr(fb, "_rss_mib", lambda: 400.0 - fb.FORK_HEADROOM_MIB + 1)
    assert fb.should_fork(3510, 2, None) is False  # the default budget, 400 MiB
    monkeypatch.setattr(fb, "_rss_mib", lambda: None)
    assert fb.should_fork(3510, 2, None) is False  # memory unknown: one process


def test_claims_from_both_ends_cover_every_file_once():
    claims = fb.FileClaims(300)

    def slow_back():
        got = []
        while (i := claims.back()) is not None:
            got.append(i)
            time.sleep(0.004)  # the copy is slower: the parent takes more
        return got

    call = ForkedCall(slow_back)
    front = []
    while (i := claims.front()) is not None:
        front.append(i)
        time.sleep(0.001)
    back = call.result(60)
    assert front == list(range(len(front)))  # ascending from 0
    assert back == list(range(299, 299 - len(back), -1))  # descending from the last
    assert sorted(front + back) == list(range(300))
    assert claims.meeting() == len(front)
    assert len(front) > len(back) > 0
    assert claims.front() is None and claims.back() is None
    claims.close()


def test_a_forked_copy_gives_one_process_outputs_records_and_counts(forking):
    (one, r1) = _resolve(1, SpillFile())
    assert forking == []
    (two, r2) = _resolve(2, SpillFile())
    assert len(forking) == 1
    assert r2.files.paths == r1.files.paths
    assert len(r2.files.paths) == 14
    assert _outputs(r2) == _outputs(r1)
    assert r2.call_outcomes == r1.call_outcomes and sum(r1.call_outcomes.values()) > 0
    assert two.recorded() == one.recorded()
    assert r2.link_outcomes == r1.link_outcomes
    calls = {(e.src.rsplit(":", 1)[-1], e.dst.rsplit(":", 1)[-1]) for i in range(len(r2.files))
             for e in r2.files[i].edges if e.kind == "CALLS"}
    assert ("shop/m11.f11(0)", "shop/m10.f10(0)") in calls  # bound in the copy (the last files)
    assert ("shop/m0.f0(0)", "shop/m1.f1(0)") not in calls  # never the other way


def _summarise(out):
    return (out.file.path, len(out.nodes), len(out.edges)), (out.file.path.encode() if "m1" in out.file.path else None)


def test_the_copy_summarises_its_outputs_and_the_parent_does_not_unpickle_them(forking, monkeypatch):
    def resolved(processes, summarise=_summarise):
        resolver = RepositoryResolver("r")
        extractions = extract_fixture(_fixture(12))
        resolver.update(extractions, track=False)
        loads.clear()
        return resolver.resolve([ex.path for ex, _, _ in extractions], spill=SpillFile(), summarise=summarise,
                                processes=processes)

    loads: list[int] = []
    real = fb.pickle.loads
    monkeypatch.setattr(fb.pickle, "loads", lambda data: loads.append(len(data)) or real(data))
    one = resolved(1)
    _after_the_copy_claims(monkeypatch, 3)  # the copy binds m11, m10 and m9 at least
    plain = resolved(2, None)
    unpickled = len(loads)  # the copy's result and index, and each of its outputs
    two = resolved(2)
    assert len(forking) == 2 and unpickled > 2 and len(loads) == 2  # its result and index only
    assert _outputs(plain) == _outputs(one)
    assert two.files.paths == one.files.paths and _outputs(two) == _outputs(one)
    summaries = [(two.files.summary(i), one.files.summary(i)) for i in range(len(one.files))]
    assert [a[0] for a, _ in summaries] == [b[0] for _, b in summaries]
    assert [a[0][0] for a, _ in summaries] == one.files.paths  # every output summarised, in order
    records = [(two.files.spill.get(a[1]) if a[1] else None, one.files.spill.get(b[1]) if b[1] else None)
               for a, b in summaries]
    assert all(x == y for x, y in records)
    assert [x for x, _ in records if x] == [p.encode() for p in one.files.paths if "m1" in p]
    assert len([x for x, _ in records if x]) == 3  # m1, m10, m11: the last two from the copy


def test_records_held_in_memory_are_the_same_too(forking):
    (one, _), (two, _) = _resolve(1), _resolve(2)
    assert two.recorded() == one.recorded()


def _after_the_copy_claims(monkeypatch, n: int) -> None:
    """Make the parent start claiming only once the copy has claimed ``n`` files from the back (or
    10 s passed): what a copy claims before it fails is then exactly ``n``, whatever the timing."""
    real = fb.ForkedBinding.own

    def own(self):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            _, hi = fb._ENDS.unpack(os.pread(self.claims._fd, fb._ENDS.size, 0))
            if hi <= len(self.ctxs) - n:
                break
            time.sleep(0.005)
        yield from real(self)

    monkeypatch.setattr(fb.ForkedBinding, "own", own)


@pytest.mark.parametrize("failure", ["raises", "dies", "killed"])
def test_a_copy_that_fails_leaves_its_files_to_the_parent(forking, monkeypatch, caplog, failure):
    def broken(resolver, ctxs, claims, spill, budget, summarise=None):
        for _ in range(3):  # claims three files, then fails before giving any
            claims.back()
        if failure == "raises":
            raise RuntimeError("binding broke")
        if failure == "dies":
            os._exit(3)
        os.kill(os.getpid(), signal.SIGKILL)

    _, r1 = _resolve(1)
    monkeypatch.setattr(fb, "_bind_claimed", broken)
    _after_the_copy_claims(monkeypatch, 3)
    with caplog.at_level(logging.WARNING, logger="indexer.resolve.forked_binding"):
        _, r2 = _resolve(2)
    assert _outputs(r2) == _outputs(r1)
    assert r2.call_outcomes == r1.call_outcomes
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 1 and "binding in a second process failed" in warned[0]
    assert "its 3 files are bound here" in warned[0]
    assert {"raises": "RuntimeError: binding broke", "dies": "status 3", "killed": "status -9"}[failure] in warned[0]


@pytest.mark.parametrize(("measures", "bound"), [
    ((100.0, 401.0), 1),  # over the budget
    ((100.0, 250.0, 390.0), 2),  # under it, but another 140 MiB would pass it
    ((100.0, 200.0, 300.0, 300.0), 14),  # 300 + another 100 is not over 400, then no growth: every file
])
def test_a_copy_over_the_memory_budget_stops_claiming_and_the_parent_binds_the_rest(
        forking, monkeypatch, caplog, measures, bound):
    _, r1 = _resolve(1)
    measured = []

    def held(copy, parent):  # in the copy, before each claim
        measured.append((copy.pid, parent.pid))
        return measures[min(len(measured), len(measures)) - 1]

    monkeypatch.setattr(fb, "held_mib", held)
    monkeypatch.setattr(fb, "CHECK_S", 0.0)  # measured before every claim
    _after_the_copy_claims(monkeypatch, bound)
    with caplog.at_level(logging.DEBUG, logger="indexer.resolve.forked_binding"):
        _, r2 = _resolve(2)
    assert measured == []  # measured in the copy only
    assert _outputs(r2) == _outputs(r1)
    assert r2.call_outcomes == r1.call_outcomes
    said = [r.getMessage() for r in caplog.records]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    stops = [m for m in said if "then stopped" in m]
    if bound == 14:
        assert stops == []
    else:
        assert stops == [f"the second process bound {bound} of 14 files, then stopped: {measures[-1]:.0f} MiB held by"
                         " both processes (budget 400 MiB); this one bound the rest"]


@pytest.mark.parametrize(("cpu_step", "bound"), [
    (0.0, 14),  # no CPU time spent between claims: measured once, at the start, whatever the clock did
    (1.0, 2),  # a second of CPU per claim: measured before each, and stopped as above
])
def test_the_copy_measures_the_memory_by_its_own_cpu_time_not_the_clock(forking, monkeypatch, caplog, cpu_step, bound):
    from types import SimpleNamespace

    _, r1 = _resolve(1)
    measures = (100.0, 250.0, 390.0)  # the second measure would stop it after two files (above)
    measured = []

    def held(copy, parent):
        measured.append(1)
        return measures[min(len(measured), len(measures)) - 1]

    spent = [0.0]

    def process_time():
        spent[0] += cpu_step
        return spent[0]

    monkeypatch.setattr(fb, "held_mib", held)
    monkeypatch.setattr(fb, "CHECK_S", 1e-9)  # any time at all passed is due a measure
    monkeypatch.setattr(fb, "time", SimpleNamespace(**{**vars(time), "process_time": process_time}))
    _after_the_copy_claims(monkeypatch, bound)
    with caplog.at_level(logging.DEBUG, logger="indexer.resolve.forked_binding"):
        _, r2 = _resolve(2)
    assert _outputs(r2) == _outputs(r1)
    stops = [r.getMessage() for r in caplog.records if "then stopped" in r.getMessage()]
    if bound == 14:
        assert stops == []
    else:
        assert stops == ["the second process bound 2 of 14 files, then stopped: 390 MiB held by both processes"
                         " (budget 400 MiB); this one bound the rest"]


def test_the_parent_freezes_what_it_shares_with_the_copy_until_the_binding_ends(forking, monkeypatch):
    import gc

    seen = []
    real = fb.ForkedBinding.own

    def own(self):
        seen.append(gc.get_freeze_count())
        yield from real(self)

    monkeypatch.setattr(fb.ForkedBinding, "own", own)
    assert gc.get_freeze_count() == 0
    _, r2 = _resolve(2)
    assert len(seen) == 1 and seen[0] > 1000  # the resolver's objects, frozen while both bind
    assert gc.get_freeze_count() == 0  # and given back to the collector once it is over
    assert len(r2.files.paths) == 14


def test_the_copy_measures_itself_and_its_parent():
    import psutil

    def measure():
        return fb.held_mib(psutil.Process(), psutil.Process(os.getppid()))

    held = ForkedCall(measure).result(30)
    parent = psutil.Process().memory_info().rss / (1 << 20)
    assert parent < held < parent + 200  # the parent's resident set plus the copy's few own pages


def test_a_copy_past_its_deadline_is_killed_and_its_files_bound_here(forking, monkeypatch, caplog):
    def hangs(resolver, ctxs, claims, spill, budget, summarise=None):
        claims.back()
        claims.back()
        time.sleep(60)

    message = _stuck_copy(monkeypatch, caplog, hangs, "DEADLINE_MIN_S")
    assert "did not finish within" in message and "its 2 files are bound here" in message


def _stuck_copy(monkeypatch, caplog, copy, wait: str) -> str:
    """Resolve with ``copy`` as the copy's work (it claims two files, then never ends) and the
    parent's wait ``wait`` (a module constant) set to 0.5 s: the outputs and counts must be one
    process's, within 30 s; returns the one warning."""
    _, r1 = _resolve(1)
    monkeypatch.setattr(fb, "_bind_claimed", copy)
    _after_the_copy_claims(monkeypatch, 2)
    monkeypatch.setattr(fb, wait, 0.5)
    t0 = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="indexer.resolve.forked_binding"):
        _, r2 = _resolve(2)
    assert time.monotonic() - t0 < 30
    assert _outputs(r2) == _outputs(r1)
    assert r2.call_outcomes == r1.call_outcomes
    assert len(caplog.records) == 1
    return caplog.records[0].getMessage()


def test_a_copy_stopped_while_it_holds_the_list_of_claims_is_killed_and_its_files_bound_here(
        forking, monkeypatch, caplog):
    """A copy stopped (SIGSTOP, a debugger) or hung while it holds the claims' lock: the parent waited
    in ``lockf`` forever, past any deadline, since the lock is freed only when its holder dies."""
    def stopped(resolver, ctxs, claims, spill, budget, summarise=None):
        claims.back()
        claims.back()
        fcntl.lockf(claims._fd, fcntl.LOCK_EX)  # as in a claim, then stopped before it lets go
        os.kill(os.getpid(), signal.SIGSTOP)

    message = _stuck_copy(monkeypatch, caplog, stopped, "CLAIM_WAIT_S")
    assert "list of claims was held for over" in message and "its 2 files are bound here" in message


def test_whole_runs_write_the_same_index_with_and_without_the_copy(forking, tmp_path, monkeypatch):
    root = tmp_path / "repo"
    for block in _fixture(30).split("# --- path: ")[1:]:
        path, _, text = block.partition(" ---\n")
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    dbs = []
    for jobs in (1, 2):
        db = tmp_path / f"j{jobs}.db"
        store = EmbeddedStore(str(db))
        monkeypatch.setattr(IndexOptions, "extraction_jobs", lambda self, cores, j=jobs: j)
        index_repository(root, store, store, IndexOptions(repo="r", state_dir=str(tmp_path / f"state{jobs}")))
        store.close()
        dbs.append(dump(db))
        assert len(forking) == jobs - 1  # the run with two processes forked one copy
    assert dbs[0] == dbs[1]
    assert len(dbs[0]["files"]) == 32


def test_forked_call_returns_and_reports():
    assert ForkedCall(lambda: {"a": [1, 2]}).result(10) == {"a": [1, 2]}
    with pytest.raises(ForkFailed, match="ValueError: no"):
        ForkedCall(lambda: (_ for _ in ()).throw(ValueError("no"))).result(10)
    call = ForkedCall(lambda: time.sleep(30))
    call.cancel()
    call.cancel()  # idempotent
    with pytest.raises(ForkFailed, match="cancelled"):
        call.result(1)


def test_the_copy_reads_a_spill_file_the_parent_writes_meanwhile():
    spill = SpillFile()
    refs = [spill.put(bytes([i % 256]) * 1000) for i in range(200)]

    def read_all():
        out = []
        for _ in range(20):
            out.append(all(spill.get(ref) == bytes([i % 256]) * 1000 for i, ref in enumerate(refs)))
        return out

    call = ForkedCall(read_all)
    for i in range(2000):  # moves the shared file position all the while
        spill.put(b"x" * 777)
        spill.get(refs[i % 200])
    assert call.result(60) == [True] * 20


def test_ctrl_c_just_after_the_fork_never_runs_the_callers_code_in_the_copy(tmp_path):
    """A Ctrl-C reaches the whole process group, so the copy may get its SIGINT a few microseconds
    after ``os.fork`` returned, before it gives SIGINT its default action: the KeyboardInterrupt
    must not surface in the copy where the caller's code (``except`` and ``finally`` clauses, the
    pipeline's interrupt handling, ``atexit``) would run it as though it were the parent."""
    me = os.getpid()
    marker = tmp_path / "escaped"
    previous = signal.signal(signal.SIGALRM, lambda *_: os.kill(os.getpid(), signal.SIGINT))
    delay = [0.0]
    os.register_at_fork(after_in_child=lambda: os.getpid() != me and delay[0] and
                        signal.setitimer(signal.ITIMER_REAL, delay[0]))
    results = []
    try:
        for i in range(300):
            delay[0] = 1e-6 * (1 + i % 100)  # SIGINT 1 to 100 microseconds after the fork
            try:
                call = ForkedCall(lambda: 42)
                if os.getpid() != me:
                    marker.write_text("after ForkedCall()")
                    os._exit(7)
                try:
                    results.append(call.result(10))
                except ForkFailed as exc:
                    results.append(str(exc))
            except KeyboardInterrupt:
                if os.getpid() != me:
                    marker.write_text("in the caller's except clause")
                    os._exit(7)
                raise
    finally:
        delay[0] = 0.0
        signal.signal(signal.SIGALRM, previous)
    assert not marker.exists(), f"the copy ran the caller's code: {marker.read_text()}"
    assert all(r == 42 or "status -2" in r or "KeyboardInterrupt" in r for r in results), set(map(str, results))



def test_outputs_of_a_copy_whose_spill_file_the_disk_refused_still_reach_the_parent(forking, monkeypatch, caplog):
    """The copy's spill file is in the state folder; when that folder fills up while the copy binds,
    the copy's spill file moves to the temporary folder or to memory (:meth:`SpillFile.put`), in the
    copy only: the parent reads the file it made, which ends where the disk refused. The outputs the
    copy made must still reach the parent, not be bound again there (the parent waited for the copy,
    then bound its whole share: slower than one process)."""
    class Full:
        def __init__(self, fh):
            self.fh = fh

        def write(self, data):
            raise OSError(28, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.fh, name)

    real = fb.SpillFile

    def full_folder(directory=None):
        spill = real(directory or tempfile.gettempdir())  # a state folder that is full
        spill._fh = Full(spill._fh)
        return spill

    _, r1 = _resolve(1)
    monkeypatch.setattr(fb, "SpillFile", full_folder)
    with caplog.at_level(logging.WARNING, logger="indexer.resolve.forked_binding"):
        two, r2 = _resolve(2)
    assert len(forking) == 1
    assert [r.getMessage() for r in caplog.records] == []
    assert _outputs(r2) == _outputs(r1)
    assert r2.call_outcomes == r1.call_outcomes


def test_a_copy_forked_in_a_forked_child_counts_what_the_first_process_holds_alone(monkeypatch):
    # The one-shot run binds in a child (indexer.forked_resolve), which may fork the binding copy: the
    # run's own process holds, beside both, the pages the child wrote since (here 32 MiB it rewrites).
    assert lineage() == () and fb.ancestors_mib() == 0  # no fork: nothing beside this process
    top, dirty = os.getpid(), bytearray(b"\2") * (32 << 20)  # resident here before the fork
    monkeypatch.setattr(fb, "_rss_mib", lambda: 150.0)

    def copy():
        me, parent = psutil.Process(), psutil.Process(os.getppid())
        return lineage(), fb.ancestors_mib(skip=os.getppid()), fb.held_mib(me, parent), parent.memory_info().rss

    def child():
        for i in range(0, len(dirty), 4096):  # every page of it written: the first process's copy is its own now
            dirty[i] = 1
        held_beside = fb.ancestors_mib()
        return (os.getpid(), lineage(), held_beside, fb.should_fork(3510, 2, 150 + fb.FORK_HEADROOM_MIB),
                ForkedCall(copy).result())

    pid, seen, beside, forks_there, (seen_by_copy, beside_copy, held, child_rss) = ForkedCall(child).result()
    assert seen == (top,) and seen_by_copy == (top, pid)
    assert 32 <= beside < psutil.Process().memory_info().rss / (1 << 20)
    assert 32 <= beside_copy and held >= child_rss / (1 << 20) + 32  # the copy's budget counts the first process
    assert forks_there is False  # 150 MiB + headroom fit the budget alone, not beside the first process's 32
    assert fb.should_fork(3510, 2, 150 + fb.FORK_HEADROOM_MIB) is True  # (here, nothing is beside)


_ROUTED = """
# --- path: shop/views.py ---
from shop.m3 import f3, C3


def item(request, n):
    return f3()


class ItemView(C3):
    def get(self, request):
        return self.step()

# --- path: shop/urls.py ---
from django.urls import path
from shop import views

urlpatterns = [
    path("items/<int:n>/", views.item),
    path("view/", views.ItemView.as_view()),
]

# --- path: shop/client.py ---
import requests


def fetch():
    return requests.get("http://localhost/items/3/")
"""


_LINKED = {"calls_http": 1, "exposes": 2, "calls_http_literal": 1}  # GET /items/3 reaches the view's * /items/{}


@pytest.mark.parametrize("budget", [400, 65])
def test_with_a_copy_the_linker_runs_first_beside_it_and_the_outputs_and_records_are_one_process(
        forking, monkeypatch, budget):
    # (the fixture's resident set is 1 MiB: 65 MiB lets the copy start, 1 + 64 MiB, and leaves
    # no room beside it, 1.7 + 64 MiB: the linker then runs after the binding, as in one process)
    import indexer.resolve.repository as repository

    bound_before_link: list[int] = []
    outputs_made: list[str] = []
    link, file_output = repository.link_frameworks, repository.Resolver.file_output

    def spied_link(*args, **kwargs):
        bound_before_link.append(len(outputs_made))
        return link(*args, **kwargs)

    def spied_output(self, fc, outcomes):
        outputs_made.append(fc.path)
        return file_output(self, fc, outcomes)

    monkeypatch.setattr(repository, "link_frameworks", spied_link)
    monkeypatch.setattr(repository.Resolver, "file_output", spied_output)
    runs, bound_here = [], []
    for processes in (1, 2):
        outputs_made.clear()
        resolver = RepositoryResolver("r", park=SpillFile())
        extractions = extract_fixture(_fixture(12) + _ROUTED)
        resolver.update(extractions, track=False)
        runs.append((resolver, resolver.resolve([ex.path for ex, _, _ in extractions], spill=SpillFile(),
                                                processes=processes, memory_budget_mib=budget)))
        bound_here.append(len(outputs_made))
    (one, r1), (two, r2) = runs
    assert len(forking) == 1
    if budget == 65:  # no room beside the copy: after every file, as in one process, with what it read there
        # (the copy may claim some of the 17 files when it starts in time: this process links after its last)
        assert bound_before_link == bound_here and bound_here[0] == 17 and 0 < bound_here[1] <= 17
        (records, link_deps, shares, names), (one_records, one_link_deps, one_shares, one_names) = two.recorded(), one.recorded()
        assert dict(records.items()) == dict(one_records.items())
        assert (shares, names) == (one_shares, one_names)
        # what the linker read: the same when this process bound every file; when the copy bound some, the linker
        # reads again what the copy's memo entries read for it here (more reads, never fewer: a safe superset)
        assert link_deps == one_link_deps if bound_here[1] == 17 else set(link_deps) >= set(one_link_deps)
        assert _outputs(r2) == _outputs(r1) and r1.link_outcomes == r2.link_outcomes == _LINKED
        return
    assert bound_before_link == [17, 0]  # in one process after every file; with the copy before this one's first
    assert r2.files.paths == r1.files.paths and len(r1.files.paths) == 17
    assert _outputs(r2) == _outputs(r1)
    assert r1.link_outcomes == r2.link_outcomes == _LINKED
    assert r2.call_outcomes == r1.call_outcomes
    records, link_deps, shares, names = two.recorded()
    one_records, one_link_deps, one_shares, one_names = one.recorded()
    assert dict(records.items()) == dict(one_records.items()) and (shares, names) == (one_shares, one_names)
    assert ("file", "shop/views.py", "") in link_deps  # the linker read the routed views whole
    # Ahead of the binding the linker finds no memo entry the binding made (in one process it reuses
    # them, with what they read outside its whole-files mode): it records a read those hid, never fewer.
    assert link_deps - one_link_deps == {("file", "shop/__init__.py", "")} and one_link_deps < link_deps
    # no file's own record holds what only the linker's whole-files mode reads
    assert all(("file", "shop/views.py", "") not in record_tokens(r) for r in records.values())
    linked = {(e.kind, e.src, e.dst) for i in range(len(r2.files)) for e in r2.files[i].edges if e.kind == "EXPOSES"}
    assert linked == {("EXPOSES", "r:shop/views.item(2)", "endpoint:* /items/{}"),
                      ("EXPOSES", "r:shop/views.ItemView.get(1)", "endpoint:GET /view")}


def test_room_beside_the_copy_counts_the_copy_s_share_the_ancestors_and_the_budget(forking, monkeypatch):
    monkeypatch.setattr(fb, "_rss_mib", lambda: 100.0)
    monkeypatch.setattr(fb, "ancestors_mib", lambda skip=None: 30.0)
    resolver = RepositoryResolver("r")
    extractions = extract_fixture(_fixture(3))
    resolver.update(extractions, track=False)
    ctxs = [resolver.files[ex.path] for ex, _, _ in extractions]
    forked = fb.ForkedBinding(resolver._current(), ctxs, None, budget_mib=300)
    try:
        assert (forked.rss_at_fork, forked.ancestors_at_fork) == (100.0, 30.0)
        # 100 + 70 (the copy's share) + 30 (ancestors) = 200 held: 100 MiB of room under 300
        assert forked.room_beside(100) is True
        assert forked.room_beside(100.5) is False
        assert forked.room_beside() is True  # 64 MiB by default
        forked.budget_mib = 263
        assert forked.room_beside() is False
        list(forked.own())
        list(forked.outputs(defaultdict(int), 0.0))
    finally:
        forked.close()
    monkeypatch.setattr(fb, "_rss_mib", lambda: None)  # memory not known: no room
    unknown = fb.ForkedBinding(resolver._current(), ctxs, None, budget_mib=10_000)
    try:
        assert unknown.rss_at_fork is None and unknown.room_beside(0) is False
    finally:
        unknown.close()
