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


def test_python_call_result_handed_to_a_parameter_the_callee_calls():
    # `run(make())`: what `make` returns (a function it names, a bound method) is handed over
    check(
        """
        # --- path: m.py ---
        def run(cb):
            cb()

        def handler():
            pass

        def make():
            return handler

        def make_data():
            return 1             # no function: nothing handed

        class Svc:
            def on_done(self):
                pass
            def callback(self):
                return self.on_done
            def go(self):
                run(self.callback())

        def go():
            run(make())
            run(make_data())
        """,
        [
            "m.Svc.go(0) -> m.Svc.callback(0) [exact]",
            "m.Svc.go(0) -> m.run(1) [exact]",
            "m.go(0) -> m.make(0) [exact]",
            "m.go(0) -> m.make_data(0) [exact]",
            "m.go(0) -> m.run(1) [exact]",
            "m.run(1) -> m.Svc.on_done(0) [inferred]",
            "m.run(1) -> m.handler(0) [inferred]",
        ],
    )


def test_python_closure_calls_the_parameter_of_its_enclosing_function():
    # `def wrap(f): def inner(): f()`: the function handed to wrap runs from inner, not from wrap
    check(
        """
        # --- path: m.py ---
        def wrap(f):
            def inner():
                f()
            return inner

        def shadowed(f):
            def inner(f):        # its own parameter f: not wrap's
                f()
            def other():
                f = g            # re-bound in the closure
                f()
            return inner

        def g():
            pass

        def go():
            wrap(g)
            shadowed(g)
        """,
        [
            "m.go(0) -> m.shadowed(1) [exact]",
            "m.go(0) -> m.wrap(1) [exact]",
            "m.shadowed.other(0) -> m.g(0) [exact]",
            "m.wrap.inner(0) -> m.g(0) [inferred]",
        ],
    )


def test_python_decorated_function_is_handed_to_its_decorator():
    # `@dec` calls dec(f); `@factory(x)` calls what factory returns with f; stacked decorators
    # hand the wrapper the one below returns; async and sync wrappers are told apart
    check(
        """
        # --- path: m.py ---
        import functools

        def calls(f):
            f()
            return f

        def wraps_it(f):
            def inner():
                return f()
            return inner

        def factory(x):
            def dec(f):
                return f
            return dec

        def either(f):
            if functools.iscoroutinefunction(f):
                async def wrapper():
                    await f()
            else:
                def wrapper():
                    f()
            return wrapper

        def chooses(name=None):
            if name is None:
                return wraps_it
            def dec(f):
                return f
            return dec

        @calls
        def a():
            pass

        @factory(1)
        def b():
            pass

        @wraps_it
        @wraps_it
        def c():
            pass

        @either
        async def d():
            pass

        # returns one of two functions: neither is linked
        @chooses("x")
        def e():
            pass
        """,
        [
            "m.a(0) -> m.calls(1) [exact]",
            "m.b(0) -> m.factory(1) [exact]",
            "m.b(0) -> m.factory.dec(1) [exact]",
            "m.c(0) -> m.wraps_it(1) [exact]",
            "m.calls(1) -> m.a(0) [inferred]",
            "m.d(0) -> m.either(1) [exact]",
            "m.e(0) -> m.chooses(1) [exact]",
            "m.either.wrapper(0) -> m.d(0) [inferred]",
            "m.wraps_it.inner(0) -> m.c(0) [inferred]",   # the upper one's inner calls the lower one's: no loop
        ],
    )


def test_python_calling_a_decorated_function_also_runs_the_wrapper_its_decorator_returns():
    # the decorated function stays the target; the wrapper its decorators return on every path is
    # one too: not when the decorator may hand back its argument, nor for a library's decorator
    check(
        """
        # --- path: m.py ---
        import functools

        def timed(f):
            def inner():
                return f()
            return inner

        def maybe(f):
            def inner():
                return f()
            return inner if f else f      # may return f itself: no wrapper

        def register(f):
            return f

        def either(f):
            if functools.iscoroutinefunction(f):
                async def wrapper():
                    await f()
            else:
                def wrapper():
                    f()
            return wrapper

        @register
        @timed
        def a():
            pass

        @maybe
        def b():
            pass

        def marks(f):
            if functools.iscoroutinefunction(f):
                wrapper = f                # a coroutine function is returned as it is
            else:
                def wrapper():
                    f()
            return wrapper

        @functools.lru_cache
        def c():
            pass

        @marks
        async def e():             # marks's wrapper is no coroutine: not defined for e
            pass

        @marks
        def h():
            pass

        @either
        def d():
            pass

        def go():
            a()
            b()
            c()
            d()
            e()
        """,
        [
            "m.a(0) -> m.register(1) [exact]",
            "m.a(0) -> m.timed(1) [exact]",
            "m.b(0) -> m.maybe(1) [exact]",
            "m.d(0) -> m.either(1) [exact]",
            "m.either.wrapper(0)#2 -> m.d(0) [inferred]",
            "m.go(0) -> m.a(0) [exact]",
            "m.go(0) -> m.b(0) [exact]",
            "m.go(0) -> m.c(0) [exact]",
            "m.go(0) -> m.d(0) [exact]",
            "m.go(0) -> m.e(0) [exact]",
            "m.e(0) -> m.marks(1) [exact]",
            "m.h(0) -> m.marks(1) [exact]",
            "m.marks.wrapper(0) -> m.h(0) [inferred]",
            "m.go(0) -> m.either.wrapper(0)#2 [inferred]",   # d is no coroutine: the sync wrapper
            "m.go(0) -> m.timed.inner(0) [inferred]",        # register hands timed's wrapper on
            "m.maybe.inner(0) -> m.b(0) [inferred]",
            "m.timed.inner(0) -> m.a(0) [inferred]",
        ],
    )


def test_python_function_handed_on_to_the_handed_function_one_level_further():
    # `def apply(f, g): f(g)`: apply runs f, and f runs g when it calls its parameter; f keeping
    # its parameter without calling it runs nothing
    check(
        """
        # --- path: m.py ---
        def apply(f, g):
            f(g)

        def fixed(f):
            f(target)

        def star(*args, f=None):
            f()

        def caller(cb):
            cb()

        def keeper(cb):
            return cb

        def target():
            pass

        def other():
            pass

        class Job:
            def run(self, a):
                a()
            def start(self, a, b):
                a(b)

        def go(job: Job):
            apply(caller, other)
            apply(keeper, other)
            fixed(caller)
            star(other, target)         # both go to *args, not to f
            job.start(job.run, target)
        """,
        [
            "m.apply(2) -> m.caller(1) [inferred]",
            "m.apply(2) -> m.keeper(1) [inferred]",
            "m.caller(1) -> m.other(0) [inferred]",
            "m.caller(1) -> m.target(0) [inferred]",
            "m.fixed(1) -> m.caller(1) [inferred]",
            "m.go(1) -> m.Job.start(2) [exact]",
            "m.go(1) -> m.apply(2) [exact]",
            "m.go(1) -> m.fixed(1) [exact]",
            "m.go(1) -> m.star(2) [exact]",
            "m.Job.run(1) -> m.target(0) [inferred]",
            "m.Job.start(2) -> m.Job.run(1) [inferred]",
        ],
    )
