"""The ``ripple api`` application: FastAPI routes over the configured stores.

Each route translates its request into calls of the analysis layer (search, similar code, symbol,
callers, references, impact) or of the indexer (ingest jobs, :mod:`lsp_server.api.jobs`) and its
answer into the pydantic models of :mod:`lsp_server.api.models`; errors go through
:mod:`lsp_server.api.guard` as problem documents. The stores are opened once, by the factory the CLI
uses (:func:`stores.factory.open_stores`), and serve every repository they hold.

Routes (all JSON; OpenAPI at ``/openapi.json``): ``GET /v1/health``; ``GET /v1/repositories``,
``GET|DELETE /v1/repositories/{name}``, ``POST /v1/repositories/{name}/ingest``,
``GET /v1/jobs/{id}``; ``POST /v1/search``, ``GET /v1/search/similar/{chunk_id}``,
``GET /v1/search/models``; ``POST /v1/symbol``, ``/v1/callers``, ``/v1/references``, ``/v1/impact``;
``GET /v1/endpoints``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Path as PathParam, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from analysis.agent_queries import AgentQueries, IndexSource
from lsp_server.api import analysis_routes
from lsp_server.api.guard import PROBLEM_JSON, ApiProblem, BodyLimit, install_handlers, key_matches
from lsp_server.api.jobs import JobConflict, Jobs, PathRefused, validate_root
from lsp_server.api.search_models import list_models
from lsp_server.freshness_support import recorded_states
from lsp_server.api.models import (MAX_MAX_TOKENS, NAME_PATTERN, Deleted, Health, IngestRequest, Job, ModelsResponse,
                                   Problem, RepositoryList, RepositoryStats, StoreHealth)
from stores.config import Config
from stores.errors import StoreError
from stores.factory import Stores, index_written_at, open_stores, repository_roots

__all__ = ["ApiSettings", "Service", "create_app", "DEFAULT_MAX_BODY", "PROBLEMS", "BEARER", "authorized"]

DEFAULT_MAX_BODY = 1 << 20
"""Largest request body read (1 MiB: every request is a small JSON document)."""


NameParam = Annotated[str, PathParam(pattern=NAME_PATTERN, description="The repository's name.")]


def _problem_doc(description: str) -> dict[str, Any]:
    return {"description": description, "content": {PROBLEM_JSON: {"schema": Problem.model_json_schema()}}}


PROBLEMS: dict[int | str, dict[str, Any]] = {
    400: _problem_doc("The body is not valid JSON."),
    401: _problem_doc("The API key is missing or wrong (when the server has one)."),
    413: _problem_doc("The request body is too large."),
    422: _problem_doc("The request is not valid; `detail` names the fields."),
    500: _problem_doc("The server failed; its log has the details."),
    503: _problem_doc("A store is down, damaged or read-only."),
}
"""The problem responses every route may answer (published in the OpenAPI document)."""


BEARER = HTTPBearer(auto_error=False, description="The server's API key ($RIPPLE_API_KEY or [api] key).")
"""The security scheme of a server with an API key (published in the OpenAPI document)."""


def authorized(request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]) -> None:
    """Every route's dependency on a server with an API key: raises :class:`ApiProblem` 401
    ``unauthorized`` (with ``WWW-Authenticate: Bearer``) unless ``Authorization: Bearer KEY`` carries it
    (compared in constant time, :func:`lsp_server.api.guard.key_matches`); no key configured: every
    request passes."""
    key = request.app.state.service.settings.api_key
    if key is not None and not key_matches(request.headers.get("authorization"), key):
        raise ApiProblem(401, "unauthorized", "send the server's API key as `Authorization: Bearer KEY`",
                         headers={"WWW-Authenticate": "Bearer"})


@dataclass
class ApiSettings:
    """What a server serves: the configuration (backends, credentials, API key), the embedded index
    file ``db`` (``None`` with team backends only), the embedding model for queries, the API key, the
    largest request body (bytes) and the folders ingest may read."""

    config: Config
    db: Path | None
    model: str | None = None
    api_key: str | None = None
    max_body: int = DEFAULT_MAX_BODY
    roots: list[Path] = field(default_factory=lambda: [Path.cwd()])
    """Folders ingest paths must lie in (``ripple api --root``; default: the server's current folder)."""


class Service:
    """The server's state: the stores (opened once), the ingest jobs and the query engine."""

    def __init__(self, settings: ApiSettings, open_fn: Callable[..., Stores] = open_stores) -> None:
        self.settings = settings
        db = settings.db
        create = db is not None and not db.exists()
        self.stores = open_fn(settings.config, db, create=create)
        self.jobs = Jobs(settings.config, db, settings.model, open_fn)
        self.query_lock = threading.Lock()
        """Held around every facade call: one query at a time (the query embedder is not thread-safe)."""
        self._queries: AgentQueries | None = None
        self._embedded = False

    @property
    def model(self) -> str | None:
        """The embedding model of queries (``None``: the bundled one)."""
        return self.settings.model or self.settings.config.embedding_model

    def queries(self) -> AgentQueries:
        """The agent facade over the stores, made anew when the index gains its first embeddings (its
        query engine then embeds queries too) and with the index's current freshness (``sources``)."""
        embedded = bool(self.stores.search.chunk_count()["embedded"])
        if self._queries is None or embedded != self._embedded:
            config = self.settings.config
            self._queries = AgentQueries(self.stores.graph, self.stores.search, model=self.model,
                                         services=config.http_services, models=config.search.models,
                                         models_folder=str(config.models_dir) if config.models_dir else None)
            self._embedded = embedded
        self._queries.sources = self.sources()
        return self._queries

    def sources(self) -> list[IndexSource]:
        """The embedded index as the facade's :class:`IndexSource` (when it was written, the folder of
        each repository); none with team backends only."""
        db = self.settings.db
        if db is None:
            return []
        roots = repository_roots(self.stores.graph, db)
        return [IndexSource(str(db), index_written_at(db), roots, recorded_states(db, list(roots), self.stores.graph))]

    def close(self) -> None:
        """Stop the job worker (after the job under way), then close the stores."""
        self.jobs.close()
        self.stores.close()


def create_app(settings: ApiSettings, open_fn: Callable[..., Stores] = open_stores) -> FastAPI:
    """The FastAPI application serving ``settings`` (stores opened at start-up, closed at shutdown).
    ``open_fn`` opens stores (tests pass a failing one). Raises what :func:`stores.factory.open_stores`
    raises when the stores cannot be opened."""
    service = Service(settings, open_fn)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Iterator[None]:  # type: ignore[misc]
        try:
            yield
        finally:
            service.close()

    deps = [Depends(authorized)] if settings.api_key is not None else []
    app = FastAPI(title="ripplegraph", version=_version(), lifespan=lifespan, docs_url=None, redoc_url=None,
                  summary="Code graph and hybrid search of your repositories: search, similar code, symbols, "
                          "callers, references, blast radius, ingest.",
                  responses=PROBLEMS, dependencies=deps)
    app.state.service = service
    install_handlers(app)
    app.add_middleware(BodyLimit, max_body=settings.max_body)

    @app.get("/v1/health", response_model=Health, tags=["service"],
             responses={503: {"model": Health, "description": "A store did not answer."}})
    def health(response: Response) -> Health:
        """Whether the configured stores answer (the graph store and the search index)."""
        checks = []
        cfg = settings.config
        for role, backend, probe in (("graph", cfg.graph.backend, lambda: service.stores.graph.repos()),
                                     ("search", cfg.search.backend, lambda: service.stores.search.chunk_count())):
            try:
                probe()
                checks.append(StoreHealth(role=role, backend=backend, ok=True))
            except StoreError as exc:
                checks.append(StoreHealth(role=role, backend=backend, ok=False, detail=str(exc)))
        ok = all(c.ok for c in checks)
        if not ok:
            response.status_code = 503
        return Health(status="ok" if ok else "degraded", version=_version(), stores=checks)

    def known(name: str) -> None:
        if name not in service.stores.graph.repos():
            raise ApiProblem(404, "unknown-repository", f"no repository {name!r} is indexed; GET /v1/repositories "
                             "lists them, POST /v1/repositories/{name}/ingest adds one", "Unknown repository")

    def listed() -> dict[str, Any]:
        data = analysis_routes.answer(service, lambda q: q.repositories(MAX_MAX_TOKENS))
        for repo in data["repositories"]:
            repo["ingesting"] = service.jobs.busy(repo["name"]) is not None
        return data

    @app.get("/v1/repositories", response_model=RepositoryList, tags=["repositories"])
    def repositories() -> RepositoryList:
        """Every repository the stores hold (files, folder, freshness, whether it is being ingested)
        and the index-wide totals."""
        return RepositoryList.model_validate(listed())

    @app.get("/v1/repositories/{name}", response_model=RepositoryStats, tags=["repositories"],
             responses={404: _problem_doc("No repository of that name is indexed.")})
    def repository_stats(name: NameParam) -> RepositoryStats:
        """One repository: files (by language), folder, freshness, nodes by label."""
        known(name)
        entry = next((r for r in listed()["repositories"] if r["name"] == name), None)
        if entry is None:  # gone between the two reads
            known("")
        return RepositoryStats.model_validate({**entry, **analysis_routes.repository_counts(service.stores, name)})

    @app.delete("/v1/repositories/{name}", response_model=Deleted, tags=["repositories"],
                responses={404: _problem_doc("No repository of that name is indexed."),
                           409: _problem_doc("An ingest job is running on it.")})
    def delete_repository(name: NameParam) -> Deleted:
        """Remove a repository from the stores: its files, nodes, edges and chunks."""
        known(name)
        running = service.jobs.busy(name)
        if running is not None:
            raise ApiProblem(409, "ingest-running", f"repository {name!r} is being ingested (job {running.id}); "
                             "delete it once the job is over", "Conflict")
        paths = list(service.stores.graph.file_checksums(name))
        db = settings.db
        if db is not None:
            with service.jobs.writing(db):
                _delete(service.stores, name, paths)
        else:
            _delete(service.stores, name, paths)
        return Deleted(name=name, files_deleted=len(paths))

    @app.post("/v1/repositories/{name}/ingest", response_model=Job, status_code=202, tags=["repositories"],
              responses={403: _problem_doc("The path is outside the folders the server may index."),
                         404: _problem_doc("There is no folder at the path."),
                         409: _problem_doc("The repository is already being ingested.")})
    def ingest(name: NameParam, body: IngestRequest, response: Response) -> Job:
        """Index (or re-index) the folder ``path`` as repository ``name``, in the background; the answer
        is the job, whose progress ``GET /v1/jobs/{id}`` shows."""
        try:
            root = validate_root(body.path, settings.roots)
        except PathRefused as exc:
            raise ApiProblem(exc.status, "path-refused", f"cannot ingest {body.path!r}: {exc}", "Path refused") from exc
        try:
            job = service.jobs.submit(name, root, body.clear_existing, body.skip_embeddings)
        except JobConflict as exc:
            raise ApiProblem(409, "ingest-running", str(exc), "Conflict") from exc
        response.headers["Location"] = f"/v1/jobs/{job.id}"
        return Job(**job.as_dict())

    @app.get("/v1/jobs/{job_id}", response_model=Job, tags=["repositories"],
             responses={404: _problem_doc("No job of that id (or it was forgotten).")})
    def job(job_id: Annotated[str, PathParam(max_length=64)]) -> Job:
        """An ingest job's state and progress."""
        found = service.jobs.get(job_id)
        if found is None:
            raise ApiProblem(404, "unknown-job", f"no job {job_id!r}: the server forgets jobs when it restarts "
                             "and keeps the last 200 finished ones", "Unknown job")
        return Job(**found.as_dict())

    @app.get("/v1/search/models", response_model=ModelsResponse, tags=["search"])
    def models() -> ModelsResponse:
        """Every embedding model the index can answer with (the bundled one, each built local model, the
        index's fastembed model): which embeds queries, which are configured, how many chunks have a
        vector of each (:mod:`lsp_server.api.search_models`)."""
        config = service.settings.config
        return list_models(service.stores.search, service.model, config.search.models,
                           str(config.models_dir) if config.models_dir else None)

    analysis_routes.install(app, service)
    return app


def _delete(stores: Stores, name: str, paths: list[str]) -> None:
    """Remove repository ``name`` whole (graph, chunks, vectors, registry entry): one unit of work per store."""
    if stores.search is not stores.graph:
        stores.search.delete_repository(name)
    stores.graph.remove_repository(name)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ripplegraph")
    except PackageNotFoundError:
        return "0.0.0"
