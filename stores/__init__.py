"""Stores: the GraphStore / SearchIndex contracts, their backends, and the analysis built on them.

Architecture invariant: nothing under ``stores/`` imports ``indexer`` or ``lsp_server``; a backend
module is the only place that knows its database.
"""
