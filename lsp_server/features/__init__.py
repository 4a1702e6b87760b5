"""One module per LSP feature. Each exports ``FEATURES``: ``(method, options, handler)`` triples that
:func:`lsp_server.server.build_server` registers (and optionally ``COMMANDS``: ``(name, handler)``).
A handler takes the session (:class:`lsp_server.server.RippleServer`) and the typed params."""
