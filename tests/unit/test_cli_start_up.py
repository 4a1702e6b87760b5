"""The query commands (`ripple callers`, `references`, `impact`, `stats`...) start without the index
pipeline: importing the CLI must not import `indexer.pipeline` (its frameworks, linker and sqlglot
were 0.3 s of a 0.6 s `ripple callers`; docs/benchmarks.md, session 45)."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_cli_leaves_the_index_pipeline_unimported() -> None:
    probe = "import sys, lsp_server.cli; print(sorted(m for m in sys.modules if m in {'indexer.pipeline', 'indexer.incremental', 'indexer.frameworks.link'}))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    # the checker can fail: the pipeline module itself pulls them in
    probe = "import sys, indexer.pipeline; print('indexer.incremental' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip() == "True"
