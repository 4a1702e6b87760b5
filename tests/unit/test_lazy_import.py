"""Modules read on first use (stores/lazy_import.py): numpy is not loaded by importing the store or
the indexer, nor by `ripple index` before its write phase."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from stores.lazy_import import LazyModule

_IMPORTS = """
import json, sys
import {modules}
print(json.dumps(sorted(m for m in ("numpy",) if m in sys.modules)))
"""


@pytest.mark.parametrize("modules", ["stores.embedded", "indexer.pipeline", "lsp_server.cli",
                                     "stores.vector_index, stores.bm25_pending, stores.embedder, analysis.retrieval"])
def test_importing_the_store_indexer_and_cli_loads_no_numpy(modules: str) -> None:
    out = subprocess.run([sys.executable, "-c", _IMPORTS.format(modules=modules)], capture_output=True, text=True,
                         check=True).stdout
    assert json.loads(out) == []


_FIRST_READ = """
import json, sys
from stores.lazy_import import LazyModule
from stores.vector_index import fingerprint, fingerprints
before = "numpy" in sys.modules
fps = fingerprints(["0123456789abcdef0123", "ffffffffffffffff", "zz"])
print(json.dumps({"before": before, "after": "numpy" in sys.modules, "fps": [int(x) for x in fps],
                  "one_by_one": [fingerprint(c) for c in ["0123456789abcdef0123", "ffffffffffffffff", "zz"]]}))
"""


def test_a_store_function_loads_numpy_when_it_first_uses_it_and_computes_as_before() -> None:
    out = json.loads(subprocess.run([sys.executable, "-c", _FIRST_READ], capture_output=True, text=True,
                                    check=True).stdout)
    assert out["before"] is False and out["after"] is True
    assert out["fps"] == out["one_by_one"]
    assert out["fps"][0] == 0x0123456789ABCDE  # the first 15 hexadecimal digits


def test_lazy_module_imports_on_the_first_attribute_read_and_keeps_the_value() -> None:
    lazy = LazyModule("json.tool")  # a standard module that nothing in the test run imports
    assert "main" not in vars(lazy)
    main = lazy.main
    import json.tool
    assert main is json.tool.main
    assert vars(lazy)["main"] is json.tool.main  # kept: later reads are plain attribute reads
    assert repr(lazy) == "<LazyModule 'json.tool'>"


def test_lazy_module_errors_come_at_the_first_read_and_dunder_probes_do_not_import() -> None:
    missing = LazyModule("no_such_module_ripple_63")
    with pytest.raises(AttributeError):
        missing.__wrapped__  # noqa: B018  (inspect, copy and pickle probe these: no import)
    with pytest.raises(ModuleNotFoundError):
        missing.anything  # noqa: B018
    with pytest.raises(AttributeError):
        LazyModule("json").no_such_attribute  # noqa: B018
    assert "no_such_attribute" not in vars(LazyModule("json"))
