#!/usr/bin/env python3
"""Build an embedding model: runs :mod:`stores.model_build` (read its docstring), ``--model minilm``
(the bundled all-MiniLM-L6-v2, the default) or ``--model mpnet`` (all-mpnet-base-v2 into the user's
model folder). Run it in the throwaway build venv, from the repository root::

    /tmp/modelbuild-venv/bin/python tools/build_embedding_model.py [--model mpnet] [--check]
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

if __name__ == "__main__":
    # Run as a file, not imported as stores.model_build: the build venv does not hold ripplegraph.
    sys.argv[0] = str(Path(__file__).resolve().parent.parent / "stores" / "model_build.py")
    runpy.run_path(sys.argv[0], run_name="__main__")
