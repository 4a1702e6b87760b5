"""Indexer: discovery, per-language extraction, resolution, chunking and the index pipeline.

Architecture invariant: the indexer talks to storage only through the contracts in
:mod:`stores.contracts`; it never imports a backend module.
"""
