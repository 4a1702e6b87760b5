"""Python: a bare decorator is evaluated where the decorated definition is written (PyCG's
``decorators/assigned``): a name re-bound above it takes the binding written last before it, and a
decorator in a class body sees the class body's names. Exact edges, and the ones that must not bind."""

from tests.resolution_harness import check


def test_a_decorator_name_rebound_above_takes_the_binding_written_last_before_it():
    check(
        """
        # --- path: main.py ---
        def dec1(f):
            return f

        def dec2(f):
            return f

        a = dec1
        a = dec2

        @a
        def func():
            pass

        func()
        """,
        [
            # dec2, written last before the decorator line; dec1 never
            "main.func(0) -> main.dec2(1) [exact]",
            "main.py -> main.func(0) [exact]",
        ],
    )


def test_a_decorator_in_a_class_body_sees_the_class_body_names():
    check(
        """
        # --- path: m.py ---
        def outer(f):
            return f

        class C:
            def register(f):
                return f

            tag = register

            @tag
            def handler(self):
                pass
        """,
        [
            # `tag` is the class body's (register), hidden from the method's own body but not from
            # its decorator line; `outer` is never reached
            "m.C.handler(0) -> m.C.register(0) [exact]",
        ],
    )


def test_a_class_body_name_bound_below_the_decorator_is_not_yet_seen():
    # celery/bin/multi.py: `@splash` above the method `splash` is the module's function
    check(
        """
        # --- path: m.py ---
        def splash(fun):
            return fun

        class TermLogger:
            @splash
            def usage(self):
                pass

            def splash(self):
                pass
        """,
        [
            # the module's splash; TermLogger.splash (written below) never
            "m.TermLogger.usage(0) -> m.splash(1) [exact]",
        ],
    )
