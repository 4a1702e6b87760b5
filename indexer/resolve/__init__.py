"""Resolution: bind every file's call sites, base types, injections and type uses to definitions.

The language-neutral resolver core. Each language plugs in through the
:class:`~indexer.resolve.language.ModuleSystem` its folder implements (registered in
:mod:`indexer.languages`); nothing here imports a language folder.

- :mod:`~indexer.resolve.values`: the values of the abstract interpreter and :class:`Def`.
- :mod:`~indexer.resolve.context`: ``FileCtx``, one file's lookup tables and interface digests.
- :mod:`~indexer.resolve.language`: the ``ModuleSystem`` protocol and the ``Lookup`` surface.
- :mod:`~indexer.resolve.tracking`: memoisation and dependency recording.
- :mod:`~indexer.resolve.tables`: module, package and short-name tables.
- :mod:`~indexer.resolve.interpreter`: ``Resolver``, names and expressions to values.
- :mod:`~indexer.resolve.hierarchy`: bases, MRO, lookup, overriders (dispatch).
- :mod:`~indexer.resolve.calls`: call sites to targets with their resolution.
- :mod:`~indexer.resolve.output`: one file's nodes, owned edges and unresolved calls.
- :mod:`~indexer.resolve.repository`: ``RepositoryResolver``, the resolve step of a run (full and
  incremental), then the framework linker. Its public entry points: ``RepositoryResolver``,
  ``resolve_repository``, ``ResolvedRepository``, ``FileChange``.

This package module imports nothing, so that importing one of its modules (the framework linker and
the language folders import ``values``, ``context`` and ``language``) does not load the rest.
"""
