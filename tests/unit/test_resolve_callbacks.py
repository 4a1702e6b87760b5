"""Functions handed to a function that calls them through its parameter (issue 16 item 2,
:mod:`indexer.resolve.callbacks`): the called function gets a CALLS edge to the handed one,
``inferred``; what is only stored, re-bound or handed to a parameter the body never calls binds
nothing."""

from tests.resolution_harness import check


def test_python_function_handed_to_a_parameter_the_callee_calls():
    check(
        """
        # --- path: lib.py ---
        def run(cb, data=None):
            cb()

        def run_kw(x, on_done=None):
            on_done(x)

        def keeps(cb):
            return cb            # never called: nothing

        def rebinds(cb):
            cb = wrap(cb)        # re-bound before the call: not the argument any more
            cb()

        def wrap(f):
            return f

        class Pool:
            def submit(self, fn):
                fn()
            @staticmethod
            def spawn(fn):
                fn()
        # --- path: app.py ---
        from lib import run, run_kw, keeps, rebinds, Pool

        def handler():
            pass
        def other():
            pass

        class View:
            def on_done(self, x):
                pass
            def go(self, pool: Pool):
                run(handler)
                run_kw(1, on_done=self.on_done)
                keeps(other)
                rebinds(other)
                pool.submit(handler)
                Pool.submit(pool, other)      # through the class: the first argument is self
                Pool.spawn(handler)
                run(data=other, cb=handler)   # by keyword: data is never called
        """,
        [
            "app.View.go(1) -> lib.Pool.spawn(1) [exact]",
            "app.View.go(1) -> lib.Pool.submit(1) [exact]",
            "app.View.go(1) -> lib.keeps(1) [exact]",
            "app.View.go(1) -> lib.rebinds(1) [exact]",
            "app.View.go(1) -> lib.run(2) [exact]",
            "app.View.go(1) -> lib.run_kw(2) [exact]",
            "lib.Pool.spawn(1) -> app.handler(0) [inferred]",
            "lib.Pool.submit(1) -> app.handler(0) [inferred]",
            "lib.Pool.submit(1) -> app.other(0) [inferred]",
            "lib.rebinds(1) -> lib.wrap(1) [exact]",
            "lib.run(2) -> app.handler(0) [inferred]",
            "lib.run_kw(2) -> app.View.on_done(1) [inferred]",
        ],
    )


def test_python_handed_values_that_are_no_repository_function_bind_nothing():
    check(
        """
        # --- path: m.py ---
        import os

        def run(cb):
            cb()

        def outer(cb):
            run(cb)              # a parameter handed on: not followed (one level)

        class Job:
            pass

        def go(unknown):
            run(os.getcwd)       # a library function
            run(unknown)         # an untyped parameter
            run(Job)             # a class: constructing it is no function handed
        """,
        [
            "m.go(1) -> m.run(1) [exact]",
            "m.outer(1) -> m.run(1) [exact]",
        ],
    )


def test_typescript_function_and_bound_method_handed_to_a_parameter_the_callee_calls():
    check(
        """
        // --- path: src/lib.ts ---
        export function run(cb: () => void, data?: number) {
          cb();
        }
        export const later = (fn: () => void) => { fn(); };
        export function keep(cb: () => void) { return cb; }
        // --- path: src/app.ts ---
        import { run, later, keep } from "./lib";
        function handler() {}
        function other() {}
        export class View {
          onDone() {}
          go() {
            run(handler);
            later(this.onDone);
            keep(other);
            [1].forEach(function () { run(this.onDone); });
          }
        }
        """,
        [
            "src/app.View.go(0) -> src/lib.keep(1) [exact]",
            "src/app.View.go(0) -> src/lib.later(1) [exact]",
            "src/app.View.go(0) -> src/lib.run(2) [exact]",
            "src/lib.later(1) -> src/app.View.onDone(0) [inferred]",
            "src/lib.run(2) -> src/app.handler(0) [inferred]",
        ],
    )
