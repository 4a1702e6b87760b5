"""The held-out retrieval evaluation behind ``bench/retrieval_eval.py`` (see docs/search-quality.md).

Modules: :mod:`bench.reval.strip` (doc removal and doc-sentence queries for Python, Java, TypeScript /
JavaScript), :mod:`bench.reval.build` (corpora indexed through the product into evaluation stores),
:mod:`bench.reval.metrics` (ranks, MRR / R@k / hit@k, bootstrap intervals) and
:mod:`bench.reval.sets` (the hand-written question and identifier sets in ``bench/data``).
"""
