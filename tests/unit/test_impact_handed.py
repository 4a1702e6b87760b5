"""The upward walk through what another file hands a callable (newcomer finding of round 50 on
Netflix dispatch): ``@background_task`` wraps 61 flows in one ``wrapper`` that calls ``func``, so the
index has an edge ``wrapper -> flow`` at each decoration and one ``caller -> wrapper`` at each call of
a flow. Walking up from one flow through the wrapper reached every caller of every flow (38 endpoints
for a property read by one flow, 37 of them wrong). The wrapper's callers are followed only at the
site of the edge that led to it (:func:`analysis.impact.handed`): none for a decoration (the flow's
real callers call it directly), the call handing the function for a higher-order function.
"""

from __future__ import annotations

from pathlib import Path

from analysis.impact import SymbolQuery, blast_radius, handed
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.contracts import Edge
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree

_TREE = {
    "app/__init__.py": "",
    "app/decorators.py": """import functools


def background_task(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    return wrapper


def run(f):
    return f()


def make(f):
    def inner():
        return f()
    return inner
""",
    "app/flows.py": """from app.decorators import background_task, make, run


def remind():
    pass


def unrelated_job():
    pass


@background_task
def update_flow(incident_id):
    remind()


@background_task
def create_flow(incident_id):
    pass


def handed_job():
    remind()


def nightly():
    run(handed_job)


def weekly():
    run(unrelated_job)


def factory_job():
    pass


later = make(factory_job)


def hourly():
    later()
""",
    "app/views.py": """from app.flows import create_flow, update_flow


def update_incident(incident_id):
    update_flow(incident_id)


def create_incident(incident_id):
    create_flow(incident_id)


def create_organization(slug):
    create_flow(slug)
""",
}


def _reached(tmp_path: Path, target: str) -> list[tuple[str, int]]:
    root = write_tree(tmp_path / "svc", _TREE)
    store = EmbeddedStore(tmp_path / "svc.db")
    try:
        index_repository(root, store, store, IndexOptions(repo="svc", jobs=1))
        report = blast_radius(store, SymbolQuery(target))
        return sorted((r.node.name, r.hops) for hop in report.hops for r in hop)
    finally:
        store.close()


def test_a_decorated_function_reaches_only_its_own_callers_through_its_wrapper(tmp_path: Path) -> None:
    # remind <- update_flow <- update_incident, and the wrapper running update_flow (not walked on:
    # create_incident and create_organization call the wrapper, but for create_flow).
    assert _reached(tmp_path, "remind") == [
        ("handed_job", 1), ("nightly", 3), ("run", 2), ("update_flow", 1), ("update_incident", 2), ("wrapper", 2)]


def test_a_higher_order_function_is_followed_to_the_call_handing_the_function(tmp_path: Path) -> None:
    # run(handed_job) in nightly: run's callers are followed at that call only, weekly is not reached.
    reached = _reached(tmp_path, "handed_job")
    assert reached == [("nightly", 2), ("run", 1)]
    assert ("weekly", 2) not in reached


def test_a_closure_a_factory_returns_keeps_the_callers_of_the_closure(tmp_path: Path) -> None:
    # later = make(factory_job): hourly calls `later`, bound to make's `inner` (no call of inner at the
    # site handing factory_job, no decoration): its callers are all followed, as before.
    assert _reached(tmp_path, "factory_job") == [("hourly", 2), ("inner", 1)]


def test_the_wrapper_as_the_target_keeps_every_caller(tmp_path: Path) -> None:
    # Asked about the wrapper itself, every call of a decorated function runs it.
    assert _reached(tmp_path, "background_task.wrapper") == [
        ("create_incident", 1), ("create_organization", 1), ("update_incident", 1)]


def test_handed_edges_are_the_calls_located_outside_their_callers_file() -> None:
    def calls(src: str, file: str) -> Edge:
        return Edge("CALLS", src, "svc:app/flows.update_flow(1)", "svc", file, 12, 1, "inferred")

    assert handed(calls("svc:app/decorators.background_task.wrapper(2)", "app/flows.py"))
    assert not handed(calls("svc:app/views.update_incident(1)", "app/views.py"))
    assert not handed(calls("svc:app/views", "app/flows.py"))  # a file's module-level code: no callable
    assert not handed(calls("svc:app/flows.nightly(0)", "app/flows.py"))
    assert not handed(Edge("WRAPS", "svc:app/deps.auth(0)", "endpoint:GET /x", "svc", "app/main.py", 3, 1, None))
