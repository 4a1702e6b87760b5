"""A module imported on the first read of one of its attributes, not when the importing module loads.

Why: numpy (84 modules, about 8.5 MiB of anonymous memory and 15 MiB of resident set in a fresh
interpreter) was imported by every store module at start-up, so a one-shot ``ripple index`` held it in
the parent process while the forked resolve child ran, though nothing reads it before the write phase
(docs/benchmarks.md, sessions 62 and 63). The store modules bind ``np`` to a :class:`LazyModule` instead.

``importlib.util.LazyLoader`` (the standard library's lazy import) does not serve here: it puts a
placeholder module in ``sys.modules``, and on CPython 3.11 any later ``import numpy`` in another module
(a third-party library's, say) reads the placeholder's ``__spec__``, which loads it there and then.
:class:`LazyModule` puts nothing in ``sys.modules``: the module is imported the ordinary way the first
time an attribute is read through it, and ``import numpy`` elsewhere is unaffected.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["LazyModule"]


class LazyModule:
    """Stands for the module named ``name`` (``LazyModule("numpy")``): reading an attribute imports the
    module (``importlib.import_module``, so an ``ImportError`` is raised at that first read, not before)
    and returns the module's attribute, which is then kept on this object so that later reads are
    plain attribute reads (no import machinery, no ``__getattr__`` call). Thread-safe: the import
    system serialises concurrent first imports; keeping an attribute twice keeps the same value."""

    def __init__(self, name: str) -> None:
        self.__dict__["__lazy_name"] = name

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)  # copy, pickle and introspection probes do not import the module
        value = getattr(importlib.import_module(self.__dict__["__lazy_name"]), attr)
        self.__dict__[attr] = value
        return value

    def __repr__(self) -> str:
        return f"<LazyModule {self.__dict__['__lazy_name']!r}>"
