"""Python star imports bind in statement order: of two ``from m import *`` bringing the same name, the
later one's wins (``from .base import *`` then ``from .local import *``), also through a module that
re-exports by star imports. Found on the Jarvis micro-benchmark (``imports/import_all``,
``new_imports/import_all``, ``new_imports/chain_import``). Exact edges, and the shadowed ones never."""

from __future__ import annotations

from tests.resolution_harness import check


def test_the_later_star_import_of_a_name_wins():
    check(
        """
        # --- path: app/__init__.py ---
        # --- path: app/base.py ---
        def setup():
            pass

        def only_base():
            pass

        # --- path: app/local.py ---
        def setup():
            pass

        # --- path: app/settings.py ---
        from app.base import *
        from app.local import *

        # --- path: app/main.py ---
        from app.base import *
        from app.local import *

        def main():
            setup()
            only_base()

        # --- path: app/other.py ---
        from app.settings import setup

        def run():
            setup()
        """,
        [
            "app/main.main(0) -> app/base.only_base(0) [exact]",  # only the base has it
            "app/main.main(0) -> app/local.setup(0) [exact]",  # never app/base.setup
            "app/other.run(0) -> app/local.setup(0) [exact]",  # through app.settings' star imports
        ],
    )
