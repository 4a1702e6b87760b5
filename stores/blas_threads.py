"""One BLAS thread per process for the embedded store's exact kNN (a matrix-vector product).

Exact kNN multiplies every stored vector by the query (100,000 x 384 float32 at 100k chunks: 150 MB
read per query). That product is bound by memory bandwidth, so a second BLAS thread adds little to
it, while OpenBLAS's worker threads spin on the CPU that the search's BM25 list, read at the same
time on another thread (:mod:`stores.embedded_lexical`), needs. Measured with
``bench/search_bench.py --serve`` at 100,000 chunks on 2 cores, alternating, load 8-10: hybrid search
p50 130 / 130 ms with one BLAS thread against 176 / 184 ms with OpenBLAS's default two, p95 216 / 213
against 286 / 262 ms, kNN alone unchanged (56-57 vs 60 ms p50).

The front ends (``ripple``'s command group: the language server, MCP, REST, ``ripple search``) call
:func:`use_one_blas_thread` once at start-up, through `threadpoolctl
<https://github.com/joblib/threadpoolctl>`_ (it finds the BLAS libraries numpy loaded, whichever
vendor). Nothing else in the product uses BLAS: query and chunk embeddings run in onnxruntime's own
thread pool, the ANN index in usearch's.
"""

from __future__ import annotations

import logging

__all__ = ["use_one_blas_thread"]

log = logging.getLogger(__name__)


def use_one_blas_thread() -> bool:
    """Limit the BLAS libraries loaded in this process (numpy's: OpenBLAS, MKL or BLIS) to one thread
    each, for the rest of the process. Returns ``False`` (logged at DEBUG, nothing changed) when
    threadpoolctl finds no BLAS or cannot set it; never raises."""
    try:
        import numpy  # noqa: F401  (loads its BLAS, which threadpoolctl then finds)
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")
        return True
    except Exception as exc:  # a missing or unusual BLAS must not stop a front end from starting
        log.debug("BLAS threads not limited: %s", exc)
        return False
