"""brk48's hostile inputs for session 47's work: what held is in docs/benchmarks.md ("brk48"); what
broke is tested here, each with the exact edges expected and what must not be linked."""

from __future__ import annotations

from indexer.resolve.tracking import MAX_MEMO_DEPTH
from tests.resolution_harness import edges, resolve_fixture

SVC = ("# --- path: app/__init__.py ---\n# --- path: app/svc.py ---\n"
       'class Svc:\n    def clone(self) -> "Svc":\n        return self\n\n    def run(self):\n        return 1\n\n\n'
       "class Other:\n    def run(self):\n        return 2\n")


def _function_chain(n: int) -> str:
    """``f0()`` returns ``f1()``, ... ``f{n-1}()`` returns ``Svc()``; ``use`` calls ``f0().run()``."""
    chain = "".join(f"def f{i}():\n    return f{i + 1}()\n\n\n" for i in range(n - 1))
    return (SVC + "# --- path: app/chain.py ---\nfrom app.svc import Svc\n\n\n" + chain
            + f"def f{n - 1}():\n    return Svc()\n\n\ndef use():\n    f0().run()\n")


def _chain_edges(n: int) -> list[str]:
    return sorted([f"app/chain.f{i}(0) -> app/chain.f{i + 1}(0) [exact]" for i in range(n - 1)]
                  + [f"app/chain.f{n - 1}(0) -> app/svc.Svc [exact]", "app/chain.use(0) -> app/chain.f0(0) [exact]"])


def test_a_chain_of_returns_within_the_bound_is_followed_whole():
    n = MAX_MEMO_DEPTH // 4
    assert edges(resolve_fixture(_function_chain(n))) == sorted(
        _chain_edges(n) + ["app/chain.use(0) -> app/svc.Svc.run(0) [inferred]"])


def test_a_chain_of_returns_past_the_bound_ends_no_run():
    """200 functions each returning the next one's call passed Python's 1,000 frames: the
    RecursionError ended the whole index run. Past :data:`MAX_MEMO_DEPTH` nested computations the
    path is cut as a cycle: every call still binds by its name, ``f0().run()`` binds nothing (two
    ``run`` methods: no name match either)."""
    assert edges(resolve_fixture(_function_chain(400))) == _chain_edges(400)


def _fixture_chain(n: int) -> str:
    """pytest fixtures ``f0`` .. ``f{n-1}``, each requesting the next and returning its ``clone()``."""
    fixtures = "".join(f"@pytest.fixture\ndef f{i}(f{i + 1}):\n    return f{i + 1}.clone()\n\n\n" for i in range(n - 1))
    return (SVC + "# --- path: tests/conftest.py ---\nimport pytest\nfrom app.svc import Svc\n\n\n" + fixtures
            + f"@pytest.fixture\ndef f{n - 1}():\n    return Svc()\n"
            + f"# --- path: tests/test_c.py ---\ndef test_chain(f0):\n    f0.run()\n\n\ndef test_last(f{n - 1}):\n"
            f"    f{n - 1}.run()\n")


def test_a_chain_of_fixtures_past_the_bound_ends_no_run():
    """100 fixtures each requesting the next ended the index run with a RecursionError. Within the
    bound the chain is followed; past it the first test's value is unknown, the last fixture's still
    known."""
    got = [e for e in edges(resolve_fixture(_fixture_chain(10))) if e.startswith("tests/test_c")]
    assert got == ["tests/test_c.test_chain(1) -> app/svc.Svc.run(0) [inferred]",
                   "tests/test_c.test_last(1) -> app/svc.Svc.run(0) [inferred]"]
    got = [e for e in edges(resolve_fixture(_fixture_chain(300))) if e.startswith("tests/test_c")]
    assert got == ["tests/test_c.test_last(1) -> app/svc.Svc.run(0) [inferred]"]


def _many_parameters(n: int) -> str:
    tv = "".join(f'T{i} = TypeVar("T{i}")\n' for i in range(n))
    params = ", ".join(f"T{i}" for i in range(n))
    getters = "".join(f"    def get{i}(self) -> T{i}:\n        ...\n\n" for i in range(n))
    ks = "".join(f"class K{i}:\n    def run(self):\n        return {i}\n\n\n" for i in range(n))
    args = ", ".join(f"K{i}" for i in range(n))
    calls = "".join(f"    s.get{i}().run()\n" for i in range(n))
    return ("# --- path: p/__init__.py ---\n# --- path: p/base.py ---\nfrom typing import Generic, TypeVar\n"
            f"{tv}\n\nclass Base(Generic[{params}]):\n{getters}"
            f"# --- path: p/sub.py ---\nfrom p.base import Base\n\n\n{ks}class Sub(Base[{args}]):\n    pass\n\n\n"
            f"def use(s: Sub):\n{calls}")


def test_a_base_of_many_type_arguments_is_parsed_once(monkeypatch):
    """``class Sub(Base[K0, ..., K999])`` and a call of each of Base's thousand getters: the base's
    arguments were split again for every call (1,000 calls: 5.7 s of 7.4). Each getter gives its own
    argument, never another's."""
    from indexer.languages.python.modules import PythonModuleSystem
    parsed = []
    real = PythonModuleSystem.base_type_arguments

    def counted(d):
        parsed.append(d.qualname)
        return real(d)

    monkeypatch.setattr(PythonModuleSystem, "base_type_arguments", staticmethod(counted))
    n = 60
    got = [e for e in edges(resolve_fixture(_many_parameters(n))) if ".run(" in e]
    assert got == sorted(f"p/sub.use(1) -> p/sub.K{i}.run(0) [inferred]" for i in range(n))
    assert parsed.count("Sub") == 1
