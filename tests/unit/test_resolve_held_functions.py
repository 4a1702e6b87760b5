"""Functions (and callable instances) kept in an attribute and called through it
(:func:`indexer.resolve.held_arguments.kept_parameters`, :func:`indexer.resolve.callbacks.held_calls`,
:func:`indexer.resolve.callbacks.held_values`): ``Hooks(on_save)`` with ``self.done = done`` makes
``self.done()`` in ``Hooks``'s methods call ``on_save``, a setter ``h.on_error(cb)`` likewise, and
``h = Hooks(on_save); h.done()`` calls ``on_save`` where ``h`` is used. Found on the Jarvis
micro-benchmark (``bench/jarvis_suite.py``, ``new_arguments`` / ``new_direct_calls``). Exact edges, and
what must stay unlinked."""

from __future__ import annotations

from pathlib import Path

from tests.index_dump import calls
from tests.resolution_harness import check
from tests.unit.test_incremental import Workspace


def test_a_function_kept_by_a_constructor_or_a_setter_runs_where_the_class_calls_the_attribute():
    check(
        """
        # --- path: app/handlers.py ---
        def on_save():
            pass

        def on_load():
            pass

        def audit():
            pass

        class Printer:
            def __call__(self, text):
                pass

        # --- path: app/hooks.py ---
        class Hooks:
            def __init__(self, done, log=None):
                self.done = done
                self.log = log

            def on_error(self, cb):
                self.error = cb

            def finish(self):
                self.done()
                self.log("finished")

            def fail(self):
                def report():
                    self.error()
                report()

            def describe(self):
                return self.done.__name__

        class Fixed:
            def __init__(self, cb):
                self.cb = cb

            def reset(self):
                self.cb = print

            def run(self):
                self.cb()

        class Typed:
            def __init__(self, cb: "Printer"):
                self.cb = cb

            def run(self):
                self.cb("x")

        class Own:
            def __init__(self, cb):
                self.cb = cb

            def cb(self):
                pass

            def run(self):
                self.cb()

        # --- path: app/main.py ---
        from app.handlers import Printer, audit, on_load, on_save
        from app.hooks import Fixed, Hooks, Own, Typed

        def main():
            h = Hooks(on_save, log=Printer())
            h.on_error(on_load)
            Fixed(audit)
            Typed(audit)
            Own(audit)
        """,
        [
            "app/hooks.Hooks.fail(0) -> app/hooks.Hooks.fail.report(0) [exact]",
            # the setter's argument, in the function nested in a method
            "app/hooks.Hooks.fail.report(0) -> app/handlers.on_load(0) [inferred]",
            # an instance kept and called: its __call__
            "app/hooks.Hooks.finish(0) -> app/handlers.Printer.__call__(1) [inferred]",
            "app/hooks.Hooks.finish(0) -> app/handlers.on_save(0) [inferred]",
            # a method of the attribute's name binds where written, never the argument
            "app/hooks.Own.run(0) -> app/hooks.Own.cb(0) [exact]",
            "app/main.main(0) -> app/handlers.Printer [exact]",
            "app/main.main(0) -> app/hooks.Fixed.__init__(1) [exact]",
            "app/main.main(0) -> app/hooks.Hooks.__init__(2) [exact]",
            "app/main.main(0) -> app/hooks.Hooks.on_error(1) [inferred]",
            "app/main.main(0) -> app/hooks.Own.__init__(1) [exact]",
            "app/main.main(0) -> app/hooks.Typed.__init__(1) [exact]",
            # never: Fixed.run -> audit (`self.cb = print` is a second binding, no parameter),
            # Typed.run -> audit (a typed parameter binds where written), describe (no call)
        ],
    )


def test_a_function_kept_in_an_instance_runs_where_the_variable_holding_it_calls_the_attribute():
    check(
        """
        # --- path: app/jobs.py ---
        def first():
            pass

        def second():
            pass

        def third():
            pass

        class Job:
            def __init__(self, run):
                self.run = run

            def replace(self, run):
                self.run = run

        class Base:
            def __init__(self, step):
                self.step = step

        class Child(Base):
            pass

        class Plain:
            def __init__(self, run):
                self.other = run

        job = Job(second)

        def per_variable():
            a = Job(first)
            b = Job(third)
            b.run()

        def set_later():
            c = Job(first)
            c.replace(third)
            c.run()

        def set_after_the_call():
            d = Job(first)
            d.run()
            d.replace(third)

        def rebuilt():
            e = Job(first)
            e = Job(third)
            e.run()

        def inherited():
            f = Child(third)
            f.step()

        def never():
            p = Plain(first)
            p.run()
            q = Job(first)
            q.missing()

        def module_level():
            job.run()
        """,
        [
            "app/jobs.inherited(0) -> app/jobs.Base.__init__(1) [inferred]",
            "app/jobs.inherited(0) -> app/jobs.third(0) [inferred]",  # kept by the base class
            "app/jobs.module_level(0) -> app/jobs.second(0) [inferred]",  # the module's instance
            "app/jobs.never(0) -> app/jobs.Job.__init__(1) [exact]",
            "app/jobs.never(0) -> app/jobs.Plain.__init__(1) [exact]",
            "app/jobs.per_variable(0) -> app/jobs.Job.__init__(1) [exact]",
            "app/jobs.per_variable(0) -> app/jobs.third(0) [inferred]",  # never first: `a`'s
            "app/jobs.py -> app/jobs.Job.__init__(1) [exact]",
            "app/jobs.rebuilt(0) -> app/jobs.Job.__init__(1) [exact]",
            "app/jobs.rebuilt(0) -> app/jobs.third(0) [inferred]",  # the last construction before the call
            "app/jobs.set_after_the_call(0) -> app/jobs.Job.__init__(1) [exact]",
            "app/jobs.set_after_the_call(0) -> app/jobs.Job.replace(1) [inferred]",
            "app/jobs.set_after_the_call(0) -> app/jobs.first(0) [inferred]",  # never third: stored after
            "app/jobs.set_later(0) -> app/jobs.Job.__init__(1) [exact]",
            "app/jobs.set_later(0) -> app/jobs.Job.replace(1) [inferred]",
            # both stores before the call (flow-insensitive between them)
            "app/jobs.set_later(0) -> app/jobs.first(0) [inferred]",
            "app/jobs.set_later(0) -> app/jobs.third(0) [inferred]",
            # never: p.run() (Plain keeps `run` as `other`), q.missing()
        ],
    )


def test_a_module_level_class_named_cls_is_a_name_like_any_other():
    check(
        """
        # --- path: m.py ---
        class cls:
            def __enter__(self):
                return self

            def __exit__(self, kind, value, tb):
                pass

            def go(self):
                pass

            @classmethod
            def make(cls):
                return cls()

        c = cls()
        c.go()
        with cls() as f:
            f.go()
        """,
        [
            "m.cls.make(0) -> m.cls [exact]",  # the classmethod's `cls` as before
            "m.py -> m.cls [exact]",
            "m.py -> m.cls.__enter__(0) [exact]",
            "m.py -> m.cls.__exit__(3) [exact]",
            "m.py -> m.cls.go(0) [inferred]",  # was a name match only
        ],
    )


JOB = "class Job:\n    def __init__(self, run):\n        self.run = run\n"
TASKS = "def first():\n    pass\n"
USE = "from app.job import Job\nfrom app.tasks import first\n\n\ndef main():\n    j = Job(first)\n    j.run()\n"


def test_an_edit_of_the_class_keeping_the_function_rebinds_the_calls_through_the_instance(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, {"app/__init__.py": "", "app/job.py": JOB, "app/tasks.py": TASKS, "app/use.py": USE})
    held = lambda: [c for c in calls(ws.db) if c.startswith("app/use.main") and "tasks" in c]  # noqa: E731
    try:
        assert held() == ["app/use.main(0) -> app/tasks.first(0) [inferred]"]
        ws.edit({"app/job.py": JOB.replace("self.run = run", "self.other = run")})  # no longer kept as `run`
        assert held() == []
        ws.edit({"app/job.py": JOB})
        assert held() == ["app/use.main(0) -> app/tasks.first(0) [inferred]"]
    finally:
        ws.close()


def test_a_parameter_typed_as_a_callable_is_kept_like_an_untyped_one():
    check(
        """
        # --- path: app/it.py ---
        from typing import Awaitable, Callable, Optional

        class Iter:
            def __init__(self, read_func: Callable[[], Awaitable[bytes]], done: Optional[Callable[[], None]] = None,
                         part: "Stream" = None) -> None:
                self.read_func = read_func
                self.done = done
                self.part = part

            async def next(self):
                await self.read_func()
                self.done()
                self.part()

        class Stream:
            async def readline(self):
                pass

            def close(self):
                pass

            def __call__(self):
                pass

            def lines(self):
                return Iter(self.readline, done=self.close, part=Stream())

        class Again:
            def __init__(self, cb: Callable[[], None]):
                cb = wrap(cb)
                self.cb = cb

            def run(self):
                self.cb()

        def wrap(f):
            return f

        def use(s: Stream):
            Again(s.close)
        """,
        [
            # bound methods handed for Callable-typed parameters
            "app/it.Iter.next(0) -> app/it.Stream.close(0) [inferred]",
            "app/it.Iter.next(0) -> app/it.Stream.readline(0) [inferred]",
            # a parameter typed as a repository class: bound where written (its __call__), not from the argument
            "app/it.Iter.next(0) -> app/it.Stream.__call__(0) [exact]",
            "app/it.Stream.lines(0) -> app/it.Iter.__init__(3) [exact]",
            "app/it.Stream.lines(0) -> app/it.Stream [exact]",
            "app/it.Again.__init__(1) -> app/it.wrap(1) [exact]",
            "app/it.use(1) -> app/it.Again.__init__(1) [exact]",
            # never Again.run -> Stream.close: `cb` is re-bound before it is kept
        ],
    )
