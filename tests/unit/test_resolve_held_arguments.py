"""Constructor arguments kept in an attribute and called through it (:mod:`indexer.resolve.held_arguments`,
:func:`indexer.resolve.callbacks.held_calls`): ``B(A())`` with ``self.a = a`` makes ``B``'s methods
calling ``self.a.ping()`` call ``A.ping``. Exact edges, and what must stay unlinked."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.index_dump import calls
from tests.resolution_harness import check
from tests.unit.test_incremental import Workspace


def test_an_instance_handed_to_a_constructor_runs_where_its_attribute_is_called():
    check(
        """
        # --- path: app/parts.py ---
        class A:
            def ping(self):
                pass

            def pong(self, x, y):
                pass

        class C:
            def ping(self):
                pass

            def pong(self, x, y):
                pass

        # --- path: app/holder.py ---
        class B:
            def __init__(self, a, c=None):
                self.a = a
                self.c = c

            def run(self):
                self.a.ping()

            def later(self):
                def inner():
                    self.c.pong(1, 2)
                inner()

        # --- path: app/use.py ---
        from app.holder import B
        from app.parts import A, C

        class Owner:
            def __init__(self):
                self.part = C()

            def build(self):
                return B(self.part)

        def main():
            B(A(), c=C())
        """,
        [
            "app/holder.B.later(0) -> app/holder.B.later.inner(0) [exact]",
            # from Owner.build, the argument `self.part` (a C): at that argument
            "app/holder.B.run(0) -> app/parts.C.ping(0) [inferred]",
            # from main: a by position, c by keyword
            "app/holder.B.run(0) -> app/parts.A.ping(0) [inferred]",
            "app/holder.B.later.inner(0) -> app/parts.C.pong(2) [inferred]",  # never A.pong: c is handed a C
            "app/use.Owner.__init__(0) -> app/parts.C [exact]",
            "app/use.Owner.build(0) -> app/holder.B.__init__(2) [exact]",
            "app/use.main(0) -> app/holder.B.__init__(2) [exact]",
            "app/use.main(0) -> app/parts.A [exact]",
            "app/use.main(0) -> app/parts.C [exact]",
        ],
    )


def test_what_a_held_argument_never_links():
    check(
        """
        # --- path: m.py ---
        class A:
            def ping(self):
                pass

        class Other:
            def ping(self):
                pass

        class Typed:
            def __init__(self, a: Other):
                self.a = a

            def run(self):
                self.a.ping()  # typed: Other.ping where written, never A.ping

        class Reassigned:
            def __init__(self, a):
                self.a = a

            def reset(self):
                self.a = Other()

            def run(self):
                self.a.ping()  # two bindings: never linked from the argument

        class Rebound:
            def __init__(self, a):
                a = wrap(a)
                self.a = a

            def run(self):
                self.a.ping()

        class Deeper:
            def __init__(self, a):
                self.a = a

            def run(self):
                self.a.inner.ping()  # an attribute of the attribute: unknown

            class Nested:
                def run(self):
                    self.a.ping()  # another class's `self`

        class Spread:
            def __init__(self, *a):
                self.a = a

            def run(self):
                self.a.ping()

        def f():
            Typed(A())
            Reassigned(A())
            Rebound(A())
            Deeper(A())
            Spread(A())
            Deeper("text")
        """,
        [
            "m.Reassigned.reset(0) -> m.Other [exact]",
            "m.Reassigned.run(0) -> m.Other.ping(0) [inferred]",  # never A.ping
            "m.Typed.run(0) -> m.Other.ping(0) [exact]",
            "m.f(0) -> m.A [exact]",
            "m.f(0) -> m.Deeper.__init__(1) [exact]",
            "m.f(0) -> m.Reassigned.__init__(1) [exact]",
            "m.f(0) -> m.Rebound.__init__(1) [exact]",
            "m.f(0) -> m.Spread.__init__(1) [exact]",
            "m.f(0) -> m.Typed.__init__(1) [exact]",
        ],
    )


HOLDER = "class B:\n    def __init__(self, a):\n        self.a = a\n\n    def run(self):\n        self.a.ping()\n"
PARTS = ("class A:\n    def ping(self): pass\n\n    def pong(self): pass\n\n\n"
         "class Z:\n    def ping(self): pass\n\n    def pong(self): pass\n")  # two of each name: no name match
USE = "from app.holder import B\nfrom app.parts import A\n\n\ndef main():\n    B(A())\n"


def test_an_edit_of_the_class_or_of_the_constructing_call_rebinds(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, {"app/__init__.py": "", "app/holder.py": HOLDER, "app/parts.py": PARTS, "app/use.py": USE})
    held = lambda: [c for c in calls(ws.db) if c.startswith("app/holder.B.run")]  # noqa: E731
    try:
        assert held() == ["app/holder.B.run(0) -> app/parts.A.ping(0) [inferred]"]
        ws.edit({"app/holder.py": HOLDER.replace("self.a.ping()", "self.a.pong()")})  # the held call
        assert held() == ["app/holder.B.run(0) -> app/parts.A.pong(0) [inferred]"]
        ws.edit({"app/use.py": USE.replace("B(A())", "B(None)")})  # the argument handed
        assert held() == []
    finally:
        ws.close()


def test_an_instance_handed_to_a_function_runs_the_protocol_calls_it_makes_on_the_parameter():
    check(
        """
        # --- path: m.py ---
        def total(items):
            for x in items:
                pass
            return len(items)

        class Cart:
            def __iter__(self):
                return self

            def __next__(self):
                raise StopIteration

            def __len__(self):
                return 0

        class Lock:
            def __enter__(self):
                return self

            def __exit__(self, kind, value, tb):
                pass

        class Money:
            def __add__(self, other):
                return self

        def guarded(lock, amount, typed: list):
            with lock:
                amount + 1
            for y in typed:  # typed: never Cart.__iter__
                pass

        def nested(items):
            def inner():
                for z in items:  # a nested function's call: left out
                    pass
            inner()

        def rebound(items):
            items = list(items)
            for z in items:
                pass

        def main():
            total(Cart())
            guarded(Lock(), Money(), Cart())
            nested(Cart())
            rebound(Cart())
            total([1, 2])
        """,
        [
            "m.guarded(3) -> m.Lock.__enter__(0) [inferred]",
            "m.guarded(3) -> m.Lock.__exit__(3) [inferred]",
            "m.guarded(3) -> m.Money.__add__(1) [inferred]",
            "m.main(0) -> m.Cart [exact]",
            "m.main(0) -> m.Lock [exact]",
            "m.main(0) -> m.Money [exact]",
            "m.main(0) -> m.guarded(3) [exact]",
            "m.main(0) -> m.nested(1) [exact]",
            "m.main(0) -> m.rebound(1) [exact]",
            "m.main(0) -> m.total(1) [exact]",
            "m.nested(1) -> m.nested.inner(0) [exact]",
            "m.total(1) -> m.Cart.__iter__(0) [inferred]",
            "m.total(1) -> m.Cart.__len__(0) [inferred]",
            "m.total(1) -> m.Cart.__next__(0) [inferred]",
        ],
    )


def test_a_class_attribute_read_on_an_instance_hands_no_known_instance():
    """``t.num`` with ``class Thing: num = IntegerField()``: a metaclass or descriptor may replace it
    on instances (a Django model's field reads as its column's value), so neither rule links it; an
    attribute the instance sets itself (``self.own = IntegerField()``) does."""
    check(
        """
        # --- path: m.py ---
        class IntegerField:
            def __eq__(self, other):
                return True

            def ping(self):
                pass

        class Thing:
            num = IntegerField()

            def __init__(self):
                self.own = IntegerField()

        class Other:
            def ping(self):
                pass

        def notify(id_):
            if id_ == "error":
                pass

        class Holder:
            def __init__(self, a):
                self.a = a

            def run(self):
                self.a.ping()

        def main(t: Thing):
            notify(t.num)
            Holder(t.num)
            notify(t.own)
            Holder(t.own)
        """,
        [
            "m.Holder.run(0) -> m.IntegerField.ping(0) [inferred]",
            "m.Thing -> m.IntegerField [exact]",
            "m.Thing.__init__(0) -> m.IntegerField [exact]",
            "m.main(1) -> m.Holder.__init__(1) [exact]",
            "m.main(1) -> m.notify(1) [exact]",
            "m.notify(1) -> m.IntegerField.__eq__(1) [inferred]",
        ],
    )


def test_a_constructor_parameter_both_iterated_and_kept_runs_both():
    """``__init__(self, items)`` iterates ``items`` and keeps it in ``self.items``: a caller handing a
    ``Bag`` gets both the protocol calls and the held attribute's call (one table did not hide the other)."""
    check(
        """
        # --- path: m.py ---
        class Bag:
            def __iter__(self):
                return self

            def __next__(self):
                raise StopIteration

            def clear(self):
                pass

        class Other:
            def clear(self):
                pass

        class Holder:
            def __init__(self, items):
                for x in items:
                    pass
                self.items = items

            def reset(self):
                self.items.clear()

        def main():
            Holder(Bag())
        """,
        [
            "m.Holder.__init__(1) -> m.Bag.__iter__(0) [inferred]",
            "m.Holder.__init__(1) -> m.Bag.__next__(0) [inferred]",
            "m.Holder.reset(0) -> m.Bag.clear(0) [inferred]",
            "m.main(0) -> m.Bag [exact]",
            "m.main(0) -> m.Holder.__init__(1) [exact]",
        ],
    )


def test_one_row_per_pair_and_file_at_its_first_argument_however_often_a_file_builds_the_object(tmp_path: Path) -> None:
    """The held call's edge is the constructing file's row, at the first argument handed there
    (``A()`` at line 6, column 6 of each file: a position in the file that owns the row, never one in
    ``app/holder.py``), one row per caller, method and file however many ``B(A())`` the file writes
    (it was one row per argument: 198 rows for one pair on Django). Moving the held call in the
    class's file moves nothing; dropping a file's first ``B(A())`` moves its row to the next one, as
    a fresh index has it."""
    many = USE + "    B(A())\n    B(arg=None) if False else B(A())\n"
    ws = Workspace(tmp_path, {"app/__init__.py": "", "app/holder.py": HOLDER, "app/parts.py": PARTS,
                              "app/use.py": many, "app/other.py": USE})
    rows = lambda: sqlite3.connect(ws.db).execute(  # noqa: E731
        "SELECT file, line, col, dst, resolution FROM edges WHERE kind = 'CALLS' AND src = 'r:app/holder.B.run(0)'"
        " ORDER BY file").fetchall()
    ping = "r:app/parts.A.ping(0)"
    try:
        assert rows() == [("app/other.py", 6, 6, ping, "inferred"), ("app/use.py", 6, 6, ping, "inferred")]
        ws.edit({"app/holder.py": "# moved\n" + HOLDER})  # the held call one line down
        assert rows() == [("app/other.py", 6, 6, ping, "inferred"), ("app/use.py", 6, 6, ping, "inferred")]
        ws.edit({"app/use.py": many.replace("def main():\n    B(A())\n", "def main():\n    pass\n")})
        assert rows() == [("app/other.py", 6, 6, ping, "inferred"), ("app/use.py", 7, 6, ping, "inferred")]
    finally:
        ws.close()
