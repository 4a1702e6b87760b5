"""What ``ripple api`` refuses, and how: bind addresses, API keys, request sizes, and errors as
``application/problem+json`` (RFC 9457).

- A bind address that is not loopback needs an API key (:func:`check_bind`); clients send it as
  ``Authorization: Bearer KEY``, compared in constant time (:func:`hmac.compare_digest`); a wrong or
  missing key is a 401 problem with ``WWW-Authenticate: Bearer``.
- A request body larger than ``max_body`` bytes is a 413 problem before it is read whole
  (:class:`BodyLimit`, a pure ASGI middleware counting the bytes as they arrive).
- Every error is a problem document: ``type``, ``title``, ``status`` and a ``detail`` a person can act
  on; a store that is down is a 503 (:class:`stores.errors.StoreUnavailable`), an unexpected failure
  a 500 that says to read the server's log, never a stack trace.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from lsp_server.api.models import PATTERN_HINTS
from stores.errors import QueryFailed, StoreCorrupt, StoreError, StoreReadOnly, StoreUnavailable

__all__ = ["PROBLEM_JSON", "ApiProblem", "BindRefused", "MIN_KEY_LENGTH", "is_loopback", "check_bind", "key_matches",
           "BodyLimit", "install_handlers", "problem_response"]

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
MIN_KEY_LENGTH = 16
"""Shortest API key accepted (a short key can be guessed over the network)."""
PROBLEM_BASE = "https://ripplegraph.dev/problems/"
"""Prefix of the ``type`` URI of ripple's own problems (a name, not fetched by anyone)."""

_TITLES = {400: "Bad request", 401: "Unauthorized", 404: "Not found", 405: "Method not allowed",
           409: "Conflict", 413: "Request too large", 415: "Unsupported media type", 422: "Invalid request",
           500: "Internal error", 503: "Store unavailable"}


_PLACES = ("body", "path", "query", "header", "cookie")
"""Where a request value comes from: the first part of a validation error's location, not shown."""


class ApiProblem(Exception):
    """An error answered as a problem document: ``status``, a ``kind`` (the last part of its ``type``
    URI: ``unknown-repository``), and ``detail`` saying what to do; ``headers`` go with the response."""

    def __init__(self, status: int, kind: str, detail: str, title: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status, self.kind, self.detail = status, kind, detail
        self.title = title or _TITLES.get(status, "Error")
        self.headers = headers
        self.extra: dict[str, Any] = {}
        """Extension members of the problem document (RFC 9457 section 3.2), e.g. ``candidates``."""


class BindRefused(ValueError):
    """``ripple api`` must not start with this bind address and key; the message says why and what to do."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an IP address or ``localhost``) only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, key: str | None) -> None:
    """Refuse (:class:`BindRefused`) a non-loopback ``host`` without an API key, and any key shorter than
    :data:`MIN_KEY_LENGTH` characters; loopback without a key is allowed."""
    if key is not None and len(key) < MIN_KEY_LENGTH:
        raise BindRefused(f"the API key must have at least {MIN_KEY_LENGTH} characters (it has {len(key)}); "
                          "generate one with `python -c 'import secrets; print(secrets.token_urlsafe(32))'`")
    if key is None and not is_loopback(host):
        raise BindRefused(f"{host} is not a loopback address: anyone who reaches it could read and change the index. "
                          "Set an API key ($RIPPLE_API_KEY, or key in the [api] table of your configuration file), "
                          "or bind to 127.0.0.1")


def key_matches(header: str | None, key: str) -> bool:
    """Whether the ``Authorization`` header value is ``Bearer <key>``, compared in constant time."""
    if not header:
        return False
    scheme, _, given = header.partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode("utf-8", "surrogateescape"), key.encode("utf-8", "surrogateescape"))


def problem_response(status: int, kind: str, detail: str, title: str | None = None,
                     headers: dict[str, str] | None = None, extra: dict[str, Any] | None = None) -> JSONResponse:
    """A problem document response (``application/problem+json``) with ``extra`` members."""
    body = {"type": f"{PROBLEM_BASE}{kind}" if kind != "about:blank" else kind,
            "title": title or _TITLES.get(status, "Error"), "status": status, "detail": detail, **(extra or {})}
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: a request whose body is larger than ``max_body`` bytes is answered 413 (by its
    ``Content-Length`` before reading, else as soon as the bytes received pass the limit). Not
    FastAPI's ``max_body_size``: Starlette's limiter answers some of its 413s in plain text, and every
    error here is a problem document."""

    def __init__(self, app: Any, max_body: int) -> None:
        self.app, self.max_body = app, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection, refusing a body that passes the limit."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = problem_response(413, "request-too-large", f"the request body is larger than {self.max_body:,} "
                                     "bytes, the most this server reads; send a smaller request")
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    if int(value) > self.max_body:
                        await too_large(scope, receive, send)
                        return
                except ValueError:
                    await problem_response(400, "bad-request", "the Content-Length header is not a number")(
                        scope, receive, send)
                    return
        seen = 0
        started = False

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge
            return message

        async def tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, tracking)
        except _TooLarge:
            if not started:
                await too_large(scope, receive, send)


class _TooLarge(Exception):
    """Raised inside the application's receive when a streamed body passes the limit."""


def _store_problem(exc: StoreError) -> JSONResponse:
    if isinstance(exc, StoreReadOnly):
        return problem_response(503, "store-read-only", f"{exc}", "Index is read-only")
    if isinstance(exc, StoreUnavailable):
        return problem_response(503, "store-unavailable", f"the store did not answer: {exc}; check it is running "
                                "(`ripple doctor` says what is wrong), then retry")
    if isinstance(exc, StoreCorrupt):
        return problem_response(503, "store-corrupt", f"{exc}", "Index cannot be read")
    if isinstance(exc, QueryFailed):
        return problem_response(503, "query-failed", f"the store refused the query: {exc}", "Query failed")
    return problem_response(503, "store-error", f"{exc}")


def install_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` as a problem document (HTTP errors, validation errors, store
    errors, anything unexpected: logged with its trace on the server, never sent)."""

    @app.exception_handler(ApiProblem)
    async def api_problem(request: Request, exc: ApiProblem) -> JSONResponse:
        return problem_response(exc.status, exc.kind, exc.detail, exc.title, exc.headers, exc.extra)

    @app.exception_handler(StarletteHTTPException)
    async def http_problem(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 400 and detail == "There was an error parsing the body":
            detail = ("the body is not valid JSON: send a JSON object in UTF-8 with `Content-Type: application/json` "
                      "(the route's schema is in /openapi.json)")
        elif exc.status_code == 404 and detail == "Not Found":
            detail = f"no route {request.method} {request.url.path}; the routes are listed at /openapi.json"
        elif exc.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}; the routes are listed at /openapi.json"
        return problem_response(exc.status_code, "about:blank", detail, headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for error in exc.errors()[:10]:
            loc = tuple(error.get("loc", ()))
            if error.get("type") == "json_invalid":
                reason = (error.get("ctx") or {}).get("error", "malformed")
                parts.append(f"the body is not valid JSON ({reason} at character {loc[-1]}); send a JSON object with "
                             "`Content-Type: application/json`")
                continue
            if loc == ("body",) and error.get("type") in ("model_attributes_type", "dict_type", "missing"):
                parts.append("the body must be a JSON object sent with `Content-Type: application/json` "
                             "(the route's schema is in /openapi.json)")
                continue
            where = ".".join(str(p) for p in (loc[1:] if loc and loc[0] in _PLACES else loc)) or "body"
            hint = PATTERN_HINTS.get(str(loc[-1])) if loc and error.get("type") == "string_pattern_mismatch" else None
            parts.append(f"{where}: {hint or error.get('msg', 'invalid')}")
        return problem_response(422, "invalid-request", "; ".join(parts) or "the request is not valid")

    @app.exception_handler(StoreError)
    async def store_down(request: Request, exc: StoreError) -> JSONResponse:
        log.warning("%s %s: %s", request.method, request.url.path, exc)
        return _store_problem(exc)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)
        return problem_response(500, "internal-error", f"the server failed to answer {request.method} "
                                f"{request.url.path} ({type(exc).__name__}); the server's log has the details")
