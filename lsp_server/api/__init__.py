"""``ripple api``: the REST front end (FastAPI + uvicorn) over the configured stores.

:mod:`lsp_server.api.app` builds the application and its routes, :mod:`lsp_server.api.analysis_routes`
the analysis routes, :mod:`lsp_server.api.models` the request and response bodies (the OpenAPI
document), :mod:`lsp_server.api.jobs` the ingest jobs, :mod:`lsp_server.api.guard` what is refused
(bind address without a key, wrong key, large bodies) and how errors read (problem+json).
"""
