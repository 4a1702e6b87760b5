"""Python runs a module's and a class's statements in order (session 47): a decorator, or a call in
the module or class body, naming a function defined twice in that scope applies the definition written
last before it (``@deco`` above a second ``def deco`` is the first); a call in a function body, run
later, reaches the last one. JavaScript hoists its function declarations: the last one decides
everywhere. Node ids of a redefined function carry ``#2`` for the second definition."""

from __future__ import annotations

from tests.resolution_harness import check


def test_a_decorator_applies_the_definition_visible_at_its_line() -> None:
    check(
        """
        # --- path: app/__init__.py ---
        # --- path: app/m.py ---
        def deco(f):
            return f

        @deco
        def first():
            pass

        register = deco(first)

        def deco(f):
            return f

        @deco
        def second():
            pass

        class View:
            def wrap(f):
                return f

            @wrap
            def get(self):
                pass

            def wrap(f):
                return f

        def run():
            deco(run)
        """,
        [
            "app/m.first(0) -> app/m.deco(1) [exact]",  # not the deco defined below it
            "app/m.py -> app/m.deco(1) [exact]",  # register = deco(first), between the two
            "app/m.second(0) -> app/m.deco(1)#2 [exact]",
            "app/m.View.get(0) -> app/m.View.wrap(0) [exact]",  # a class body runs in order too
            "app/m.run(0) -> app/m.deco(1)#2 [exact]",  # a function body runs after both: the last
        ],
    )


def test_javascript_function_declarations_are_hoisted_the_last_one_decides() -> None:
    check(
        """
        // --- path: app/m.js ---
        function helper() {}
        helper();
        function helper() {}
        """,
        ["app/m.js -> app/m.helper(0)#2 [exact]"],
    )
