"""Python values reached through chains (pycg48): calls of a call's result's result (``f()()()``),
chained tuple assignments (``a, b = c, d = f, g``) and starred names of an unpacked display
(``a, *rest = f, g, h``). Exact edges expected, and what must not bind."""

from tests.resolution_harness import check, edges, resolve_fixture, short


def test_a_call_of_what_a_returned_function_returns_is_followed_one_call_per_parentheses():
    check(
        """
        # --- path: m.py ---
        def return_func():
            def nested():
                pass
            return nested

        def func():
            return return_func

        class Maker:
            def make(self):
                return func

        def two():
            func()()

        def three():
            func()()()

        def four():
            func()()()()  # nested returns nothing: no fourth target

        def method_chain():
            Maker().make()()()
        """,
        [
            "m.four(0) -> m.func(0) [exact]",
            "m.four(0) -> m.return_func(0) [exact]",
            "m.four(0) -> m.return_func.nested(0) [inferred]",
            "m.method_chain(0) -> m.Maker [exact]",
            "m.method_chain(0) -> m.Maker.make(0) [exact]",
            "m.method_chain(0) -> m.func(0) [exact]",
            "m.method_chain(0) -> m.return_func(0) [inferred]",
            "m.three(0) -> m.func(0) [exact]",
            "m.three(0) -> m.return_func(0) [exact]",
            "m.three(0) -> m.return_func.nested(0) [inferred]",
            # `func()()` calls return_func only: never the nested function it would return
            "m.two(0) -> m.func(0) [exact]",
            "m.two(0) -> m.return_func(0) [exact]",
        ],
    )


def test_a_chained_tuple_assignment_binds_both_patterns_to_the_last_value():
    check(
        """
        # --- path: m.py ---
        def f1():
            pass
        def f2():
            pass
        class A:
            def ping(self):
                pass
        class B:
            def ping(self):
                pass

        def first_pattern():
            x, y = c, d = f1, f2
            x()

        def second_pattern():
            x, y = c, d = f1, f2
            d()

        def items_of_a_call():
            a, b = c, d = A(), B()
            b.ping()  # a B: never A.ping
        """,
        [
            "m.first_pattern(0) -> m.f1(0) [exact]",
            "m.items_of_a_call(0) -> m.A [exact]",
            "m.items_of_a_call(0) -> m.B [exact]",
            "m.items_of_a_call(0) -> m.B.ping(0) [inferred]",
            "m.second_pattern(0) -> m.f2(0) [exact]",
        ],
    )


def test_a_starred_name_holds_the_values_between_as_a_list():
    check(
        """
        # --- path: m.py ---
        def f1():
            pass
        def f2():
            pass
        def f3():
            pass
        def f4():
            pass

        def middle():
            a, *rest, z = f1, f2, f3, f4
            rest[1]()  # f3 only: never f1, f2 or f4

        def leading():
            *rest, last = f1, f2, f3
            rest[0]()
            last()

        def empty():
            x, *y = (f1,)
            y[0]()  # y is empty: nothing
        """,
        [
            "m.leading(0) -> m.f1(0) [inferred]",
            "m.leading(0) -> m.f3(0) [exact]",
            "m.middle(0) -> m.f3(0) [inferred]",
        ],
    )


def test_functions_handed_to_map_filter_sorted_and_reduce_are_called_by_the_caller():
    result = check(
        """
        # --- path: m.py ---
        import functools

        def f(x):
            pass
        def g(x):
            pass
        def k(x):
            return x

        class C:
            def key(self, x):
                pass
            def run(self, xs):
                return sorted(xs, key=self.key)

        def use(xs):
            list(map(f, xs))
            filter(g, xs)
            functools.reduce(k, xs)
            xs.sort(key=g)

        def not_called(xs):
            map(xs, f)  # the second argument is iterated, never called
            sorted(xs, reverse=g)
            map(C, xs)  # a class handed: builds instances, calls no function
            print(k)

        # --- path: own.py ---
        from m import f

        def map(fn, xs):  # a repository's own map: its body decides, and it calls nothing
            pass

        def own_map(xs):
            map(f, xs)
        """,
        [
            "m.C.run(1) -> m.C.key(1) [inferred]",
            "m.use(1) -> m.f(1) [inferred]",
            "m.use(1) -> m.g(1) [inferred]",
            "m.use(1) -> m.k(1) [inferred]",
            "own.own_map(1) -> own.map(2) [exact]",
        ],
    )
    # a function handed but not called stays a reference, and a called one is listed once
    assert edges(result, "REFERENCES") == [
        "m.not_called(1) -> m.f(1)", "m.not_called(1) -> m.g(1)", "m.not_called(1) -> m.k(1)",
        "own.own_map(1) -> m.f(1)",
    ]


def test_a_container_element_held_as_a_call_result_calls_what_the_call_returns():
    check(
        """
        # --- path: m.py ---
        def target():
            pass
        def other():
            pass
        def make():
            return target
        def data():
            return 1

        class Handler:
            def __call__(self):
                pass
            def handle(self):
                pass

        handlers = {"a": make(), "b": Handler(), "c": data(), "d": other}

        def by_key():
            handlers["a"]()  # target only: never make itself, nor other

        def instance():
            handlers["b"]()  # the instance's __call__, never handle

        def no_function():
            handlers["c"]()  # data returns no function: nothing

        def appended():
            ls = [other]
            ls.append(make())
            ls[1]()
        """,
        [
            "m.appended(0) -> m.make(0) [exact]",
            "m.appended(0) -> m.target(0) [inferred]",
            "m.by_key(0) -> m.target(0) [inferred]",
            "m.instance(0) -> m.Handler.__call__(0) [inferred]",
            "m.py -> m.Handler [exact]",
            "m.py -> m.data(0) [exact]",
            "m.py -> m.make(0) [exact]",
        ],
    )


def test_a_key_stored_again_in_the_displays_block_replaces_the_value_for_the_code_after_it():
    result = check(
        """
        # --- path: m.py ---
        def f1():
            pass
        def f2():
            pass
        def f3():
            pass

        d = {"a": f1, "b": f3}
        d["a"] = f2

        def later():
            d["a"]()  # f2 only: the display's f1 was replaced before this runs
            d["b"]()  # another key: kept

        def updated():
            h = {"a": f1}
            h["a"]()  # before the store: f1 only
            h.update({"a": f2})
            h["a"]()

        def replaced_by_data():
            h = {"a": f1}
            h["a"] = None
            h["a"]()  # nothing

        def in_a_branch(c):
            h = {"a": f1}
            if c:
                h["a"] = f2
            h["a"]()  # either

        def in_a_loop(items):
            h = {"a": f1}
            for _ in items:
                h["a"]()  # either: the second pass sees f2
                h["a"] = f2

        def fetched_before(c):
            h = {"a": f1}
            x = h["a"]
            h["a"] = f2
            x()  # x was fetched before the store: f1 (and f2, flow-insensitive for locals)
        """,
        [
            "m.fetched_before(1) -> m.f1(0) [inferred]",
            "m.fetched_before(1) -> m.f2(0) [inferred]",
            "m.in_a_branch(1) -> m.f1(0) [inferred]",
            "m.in_a_branch(1) -> m.f2(0) [inferred]",
            "m.in_a_loop(1) -> m.f1(0) [inferred]",
            "m.in_a_loop(1) -> m.f2(0) [inferred]",
            "m.later(0) -> m.f2(0) [inferred]",
            "m.later(0) -> m.f3(0) [inferred]",
            "m.updated(0) -> m.f1(0) [inferred]",
            "m.updated(0) -> m.f2(0) [inferred]",
        ],
    )
    # in `updated`, the call before the store (line 17) reaches f1, the one after it (line 19) f2
    at = sorted((e.line, short(e.dst)) for f in result.files for e in f.edges
                if e.kind == "CALLS" and short(e.src) == "m.updated(0)")
    assert at == [(17, "m.f1(0)"), (19, "m.f2(0)")]


def test_functions_handed_to_threads_executors_and_the_event_loop_are_called_by_the_caller():
    check(
        """
        # --- path: m.py ---
        import asyncio
        import threading
        from concurrent.futures import ThreadPoolExecutor

        def work():
            pass
        def tick():
            pass
        def unused():
            pass

        class Service:
            def start(self):
                threading.Thread(target=self.loop, daemon=True).start()
            def loop(self):
                pass

        def run(pool: ThreadPoolExecutor):
            pool.submit(work)
            threading.Timer(1.0, tick)
            asyncio.get_running_loop().call_later(1, unused)

        def not_run():
            threading.Thread(name=unused)  # no target
            threading.Timer(1.0, None)
        """,
        [
            "m.Service.start(0) -> m.Service.loop(0) [inferred]",
            "m.run(1) -> m.tick(0) [inferred]",
            "m.run(1) -> m.unused(0) [inferred]",
            "m.run(1) -> m.work(0) [inferred]",
        ],
    )



def test_a_container_with_more_replacing_stores_than_the_bound_replaces_nothing():
    from indexer.languages.python.containers import MAX_REPLACING_STORES

    def fixture(stores: int) -> str:
        body = "".join(f'\n    d["k{i}"] = g' for i in range(stores))
        return f"""
# --- path: m.py ---
def f():
    pass
def g():
    pass
def run():
    d = {{"k0": f}}{body}
    d["k0"]()
"""
    assert edges(resolve_fixture(fixture(MAX_REPLACING_STORES))) == ["m.run(0) -> m.g(0) [inferred]"]
    # one more: flow-insensitive again, the display's f is kept
    assert edges(resolve_fixture(fixture(MAX_REPLACING_STORES + 1))) == [
        "m.run(0) -> m.f(0) [inferred]", "m.run(0) -> m.g(0) [inferred]"]
