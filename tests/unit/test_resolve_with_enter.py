"""``with X() as y`` binds ``y`` to what ``X.__enter__`` returns (PEP 343) when the repository's ``X`` (or a base)
defines ``__enter__`` (:meth:`indexer.resolve.scope_lookup.ScopeLookup.entered`): ``return self`` gives the
instance built (a subclass's too), ``return self.operate`` that method, an annotated return its type; with no
``__enter__`` of the repository, or one whose return is not known, the instance stays (the ``constructed`` binding).
Found on the Jarvis micro-benchmark (``context_managers/function``). Exact edges, and what must not link."""

from __future__ import annotations

from tests.resolution_harness import check


def test_a_with_target_is_what_enter_returns():
    check(
        """
        # --- path: app/managers.py ---
        class Session:
            def query(self):
                pass

        class Base:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                pass

            def operate(self):
                pass

        class Child(Base):
            def operate(self):
                pass

        class Handing(Base):
            def __enter__(self):
                return self.handle

            def handle(self):
                pass

        class Opening(Base):
            def __enter__(self) -> Session:
                return make_session()

            def operate(self):
                pass

        class Plain:
            def operate(self):
                pass

        class Unknown(Base):
            def __enter__(self):
                return make_session()

            def operate(self):
                pass

        # --- path: app/main.py ---
        from app.managers import Child, Handing, Opening, Plain, Unknown

        def main():
            with Child() as c:
                c.operate()
            with Handing() as f:
                f()
            with Opening() as s:
                s.query()
                s.operate()
            with Plain() as p:
                p.operate()
            with Unknown() as u:
                u.operate()

        async def amain():
            async with Handing() as g:
                g()
        """,
        [
            "app/main.main(0) -> app/managers.Base.__enter__(0) [inferred]",
            "app/main.main(0) -> app/managers.Base.__exit__(1) [inferred]",
            "app/main.main(0) -> app/managers.Child [exact]",
            # a base's `return self`: the Child built, not Base (Base.operate never)
            "app/main.main(0) -> app/managers.Child.operate(0) [inferred]",
            "app/main.main(0) -> app/managers.Handing [exact]",
            "app/main.main(0) -> app/managers.Handing.__enter__(0) [exact]",
            "app/main.main(0) -> app/managers.Handing.handle(0) [inferred]",  # f() calls the method __enter__ hands
            "app/main.main(0) -> app/managers.Opening [exact]",
            "app/main.main(0) -> app/managers.Opening.__enter__(0) [exact]",
            "app/main.main(0) -> app/managers.Plain [exact]",
            "app/main.main(0) -> app/managers.Plain.operate(0) [inferred]",  # no __enter__ here: the instance
            "app/main.main(0) -> app/managers.Session.query(0) [inferred]",  # the annotated return
            "app/main.main(0) -> app/managers.Unknown [exact]",
            "app/main.main(0) -> app/managers.Unknown.__enter__(0) [exact]",
            "app/main.main(0) -> app/managers.Unknown.operate(0) [inferred]",  # return not known: the instance
            "app/main.amain(0) -> app/managers.Base.__exit__(1) [inferred]",  # (the statement's calls, as before)
            "app/main.amain(0) -> app/managers.Handing [exact]",
            "app/main.amain(0) -> app/managers.Handing.__enter__(0) [exact]",
            # never: Opening.operate (s is the Session __enter__ returns; base linked it), Base.operate,
            # amain -> Handing.handle (`async with` binds what __aenter__ gives, not __enter__)
        ],
    )
