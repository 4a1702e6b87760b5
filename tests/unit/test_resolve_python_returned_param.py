"""A Python function returning its own parameter as it was handed (``def register(f): ...; return f``):
the extractor's :attr:`indexer.model.Definition.returned_param` and what a call of such a function
gives (:mod:`indexer.resolve.generic_calls`): the argument bound to that parameter. Exact edges, and
what must stay unlinked (another parameter, a re-bound one, a variadic one, a method called through
its class, a literal argument)."""

from __future__ import annotations

from pathlib import Path

from indexer.languages import extractor_for_path
from tests.index_dump import calls
from tests.resolution_harness import check
from tests.unit.test_incremental import Workspace


def _returned_params(source: str) -> dict[str, str | None]:
    ex = extractor_for_path("m.py").extract("m.py", source.encode())
    return {d.qualname: d.returned_param for d in ex.definitions if d.kind != "class"}


def test_the_extractor_keeps_a_parameter_returned_on_every_path_and_never_rebound():
    assert _returned_params(
        "def plain(x): return x\n"
        "def both_branches(x, y): return x if y else x\n"
        "def stores_into_it(x):\n    x.calls = 0\n    x[0] = 1\n    return x\n"
        "def nested_scope_binds_its_own(x):\n    def inner(): x = 5\n    return x\n"
        "named = lambda q: q\n"
        "class C:\n    def m(self, v):\n        return v\n"
    ) == {"plain": "x", "both_branches": "x", "stores_into_it": "x", "nested_scope_binds_its_own": "x",
          "nested_scope_binds_its_own.inner": None, "named": "q", "C.m": "v"}


def test_the_extractor_drops_a_parameter_returned_with_anything_else_or_rebound():
    assert _returned_params(
        "def other_param(x, y): return x if x else y\n"
        "def none_too(x):\n    if x: return None\n    return x\n"
        "def a_call_too(x):\n    if x: return make()\n    return x\n"
        "def assigned(x):\n    x = wrap(x)\n    return x\n"
        "def augmented(x):\n    x += 1\n    return x\n"
        "def loop(x):\n    for x in xs: pass\n    return x\n"
        "def unpacked(x, y):\n    (x, y) = y, x\n    return x\n"
        "def starred(x):\n    a, *x = xs\n    return x\n"
        "def with_as(x):\n    with open(p) as x: pass\n    return x\n"
        "def except_as(x):\n    try: pass\n    except E as x: pass\n    return x\n"
        "def walrus(x):\n    if (x := 5): pass\n    return x\n"
        "def comprehension(x):\n    [x for x in xs]\n    return x\n"
        "def deleted(x):\n    del x\n    return x\n"
        "def imported(x):\n    import x\n    return x\n"
        "def matched(x):\n    match y:\n        case x: pass\n    return x\n"
        "def variadic(*x): return x\n"
        "def keywords(**x): return x\n"
        "def generator(x):\n    yield 1\n    return x\n"
        "class C:\n    def me(self):\n        return self\n"
    ) == {"other_param": None, "none_too": None, "a_call_too": None, "assigned": None, "augmented": None,
          "loop": None, "unpacked": None, "starred": None, "with_as": None, "except_as": None, "walrus": None,
          "comprehension": None, "deleted": None, "imported": None, "matched": None, "variadic": None,
          "keywords": None, "generator": None, "C.me": None}


def test_a_call_gives_the_argument_bound_to_the_returned_parameter():
    check(
        """
        # --- path: m.py ---
        def func():
            pass

        def other():
            pass

        def func2(a):
            return a

        def func3():
            return func2

        def check(obj, strict=False):
            return obj

        class User:
            def save(self):
                pass

        class Group:
            def save(self):
                pass

        def result_of_a_returned_function():
            func3()(func)()

        def local():
            x = func2(func)
            x()

        def called_at_once():
            func2(func)()

        def receiver(u: User):
            check(u).save()

        def by_keyword():
            v = check(strict=True, obj=User())
            v.save()

        def twice():
            h = func2(func2)
            h = h(other)
            h()
        """,
        [
            "m.by_keyword(0) -> m.User [exact]",
            "m.by_keyword(0) -> m.User.save(0) [inferred]",
            "m.by_keyword(0) -> m.check(2) [exact]",
            "m.called_at_once(0) -> m.func(0) [inferred]",
            "m.called_at_once(0) -> m.func2(1) [exact]",
            "m.local(0) -> m.func(0) [inferred]",
            "m.local(0) -> m.func2(1) [exact]",
            "m.receiver(1) -> m.User.save(0) [inferred]",  # never Group.save
            "m.receiver(1) -> m.check(2) [exact]",
            "m.result_of_a_returned_function(0) -> m.func(0) [inferred]",
            "m.result_of_a_returned_function(0) -> m.func2(1) [exact]",
            "m.result_of_a_returned_function(0) -> m.func3(0) [exact]",
            "m.twice(0) -> m.func2(1) [exact]",
            "m.twice(0) -> m.func2(1) [inferred]",
            "m.twice(0) -> m.other(0) [inferred]",
        ],
    )


def test_what_a_returned_parameter_never_links():
    check(
        """
        # --- path: m.py ---
        def func():
            pass

        def first(a, b):
            return a

        def rebound(f):
            f = wrap(f)
            return f

        def spread(*fs):
            return fs

        def maybe(f):
            if f is None:
                return None
            return f

        class K:
            def m(self, v):
                return v

        def another_parameter():
            first(1, func)()  # `a` is handed 1: never func

        def not_as_handed():
            rebound(func)()

        def variadic():
            spread(func)()

        def with_none_too():
            maybe(func)()

        def through_the_class():
            K.m(K(), func)()  # positions shift past the receiver: nothing

        def no_argument():
            first(b=func)()
        """,
        [
            "m.another_parameter(0) -> m.first(2) [exact]",
            "m.no_argument(0) -> m.first(2) [exact]",
            "m.not_as_handed(0) -> m.rebound(1) [exact]",
            "m.through_the_class(0) -> m.K [exact]",
            "m.through_the_class(0) -> m.K.m(1) [exact]",
            "m.variadic(0) -> m.spread(1) [exact]",
            "m.with_none_too(0) -> m.maybe(1) [exact]",
        ],
    )


def test_a_method_returning_its_parameter_called_on_an_instance():
    check(
        """
        # --- path: app/reg.py ---
        class Registry:
            def add(self, handler):
                self.items = [handler]
                return handler

        # --- path: app/use.py ---
        from app.reg import Registry

        def on_save():
            pass

        def run():
            registry = Registry()
            registry.add(on_save)()
        """,
        [
            "app/use.run(0) -> app/reg.Registry [exact]",
            "app/use.run(0) -> app/reg.Registry.add(1) [inferred]",
            "app/use.run(0) -> app/use.on_save(0) [inferred]",
        ],
    )


REG = "def register(f):\n    return f\n"
USE = ("from app.reg import register\n\n\ndef a():\n    pass\n\n\ndef b():\n    pass\n\n\n"
       "def run():\n    h = register(a)\n    h()\n")


def test_an_edit_of_the_returning_function_or_of_the_argument_rebinds(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, {"app/__init__.py": "", "app/reg.py": REG, "app/use.py": USE})
    edge = "app/use.run(0) -> app/use.{}(0) [inferred]"
    try:
        assert [c for c in calls(ws.db) if c.endswith("[inferred]")] == [edge.format("a")]
        ws.edit({"app/use.py": USE.replace("register(a)", "register(b)")})  # the argument handed
        assert [c for c in calls(ws.db) if c.endswith("[inferred]")] == [edge.format("b")]
        ws.edit({"app/reg.py": REG.replace("return f", "return None")})  # no longer returns its parameter
        assert [c for c in calls(ws.db) if c.endswith("[inferred]")] == []
        ws.edit({"app/reg.py": REG})
        assert [c for c in calls(ws.db) if c.endswith("[inferred]")] == [edge.format("b")]
    finally:
        ws.close()


def test_a_name_passed_through_and_bound_again_ends():
    """``x = register(x)`` reads the ``x`` it binds: the argument's value is looked up once per call,
    and a cycle yields nothing rather than recursing without end (Django's ``for`` loops over such
    calls did)."""
    check(
        """
        # --- path: m.py ---
        def func():
            pass

        def ident(a):
            return a

        def again(x):
            x = ident(x)
            x = ident(x)
            x()

        def from_a_function():
            x = func
            x = ident(x)
            x()

        def other():
            return func

        def two_kinds(v):
            v = ident(v)  # v's value at this line is this binding's own: recursed without end before
            v()
            v = other()
            v()

        for y in ident(z):
            y = ident(y)
            y()
        """,
        [
            "m.again(1) -> m.ident(1) [exact]",
            "m.from_a_function(0) -> m.func(0) [inferred]",
            "m.from_a_function(0) -> m.ident(1) [exact]",
            "m.py -> m.ident(1) [exact]",
            "m.two_kinds(1) -> m.func(0) [inferred]",  # the second v(): what other returns
            "m.two_kinds(1) -> m.ident(1) [exact]",
            "m.two_kinds(1) -> m.other(0) [exact]",
        ],
    )
