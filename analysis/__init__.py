"""The analysis layer: what the front ends (CLI, language server, the coming agent interfaces) ask of
an index, computed over the store contracts (:mod:`stores.contracts`) only.

* :mod:`analysis.navigation`: find a symbol, the node at a position, callers, references,
  incoming / outgoing calls, document symbols; :class:`~analysis.navigation.UnionGraph` reads
  several indexes as one.
* :mod:`analysis.impact`: the blast radius of a change across services;
  :mod:`analysis.impact_report` renders it (markdown, summary line, JSON);
  :mod:`analysis.services` reads the service map it follows HTTP calls with.
* :mod:`analysis.retrieval`: the :class:`~analysis.retrieval.QueryEngine` (hybrid search) and
  :func:`~analysis.retrieval.query_engine`, which builds one over the configured stores.

Invariant: nothing here imports a backend module, the indexer or a front end.
"""
