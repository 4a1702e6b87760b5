"""The JSON-RPC layer of the language server: framing, validation and the session's state machine,
in one place, so that every request gets exactly one response whatever arrives.

pygls 2.1.1 parses a message with ``json.loads(body, object_hook=protocol.structure_message)``: the
typed structuring happens inside the JSON parser, and when it fails (a position ``line: -1``, a
string where a number belongs, missing or ``null`` params) the exception leaves ``json.loads``
before the request's id was read, so pygls logs it and answers nothing. It also answers nothing to
requests after ``shutdown``, serves requests before ``initialize``, runs a second ``initialize``,
sends nothing when a result cannot be serialised, and allocates whatever a ``Content-Length`` header
claims. :class:`RippleProtocol` replaces those paths:

* :func:`read_frames` reads ``Content-Length`` frames from an :class:`asyncio.StreamReader` (stdio
  is fed into one by a daemon thread; TCP gives one): bodies of at most :data:`MAX_MESSAGE_BYTES`
  (a larger one is read in pieces and discarded, answered with an ``InvalidRequest`` error of id
  ``null``), at most :data:`MAX_UNAUTHENTICATED_BYTES` before a token-protected ``initialize``;
  after a header it cannot size it finds the next frame's header again.
* :meth:`RippleProtocol.handle_body` parses the JSON *without* structuring, so the id is known
  before anything can fail: not JSON -> ``ParseError`` (id ``null``, as JSON-RPC 2.0 says); not a
  request object -> ``InvalidRequest``; params that do not structure into the method's lsprotocol
  type -> ``InvalidParams`` with the request's id.
* Lifecycle (LSP 3.17): before ``initialize`` a request is answered ``ServerNotInitialized``
  (-32002) and a notification dropped (``exit`` aside); a second ``initialize`` is refused with
  ``InvalidRequest``; after ``shutdown`` every request but ``exit`` gets ``InvalidRequest``.
* ``initialize`` must carry the session's token in ``initializationOptions.token`` when the server
  was given one (``ripple serve --tcp``): without it the request is refused and the connection
  closed (compared in constant time, on the UTF-8 bytes). Whatever fails while a message is handled
  costs that message an ``InternalError``, never the session.
* A result that cannot be serialised, or whose JSON exceeds :data:`MAX_RESPONSE_BYTES`, is replaced
  by an error response for the same id (``InternalError`` / ``RequestFailed``).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
from collections.abc import Callable
from typing import Any

import attrs
from cattrs import transform_error
from cattrs.v import format_exception
from cattrs.errors import ClassValidationError
from lsprotocol import types
from lsprotocol.types import ResponseErrorMessage
from pygls.protocol import (JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage, LanguageServerProtocol,
                            default_converter)

__all__ = ["RippleProtocol", "read_frames", "strict_converter", "MAX_MESSAGE_BYTES", "MAX_UNAUTHENTICATED_BYTES",
           "MAX_HEADER_BYTES", "MAX_RESPONSE_BYTES",
           "PARSE_ERROR", "INVALID_REQUEST", "INVALID_PARAMS", "INTERNAL_ERROR", "SERVER_NOT_INITIALIZED",
           "REQUEST_FAILED", "TOKEN_OPTION"]

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 64 << 20
"""Largest message body read (64 MiB); a larger one is discarded unread and answered with an error."""

MAX_UNAUTHENTICATED_BYTES = 1 << 20
"""Largest message body read before a token-protected connection has initialized (1 MiB: an
``initialize`` is a few KiB); a larger one is answered with an error and the connection closed
unread, so an unauthenticated peer cannot make the server allocate and parse 64 MiB."""

MAX_HEADER_BYTES = 8 << 10
"""Bytes of a header line searched for ``Content-Length`` (its last 8 KiB)."""

MAX_RESPONSE_BYTES = 32 << 20
"""Largest answer sent (32 MiB of JSON); a larger one becomes a ``RequestFailed`` error."""

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002
REQUEST_FAILED = -32803

TOKEN_OPTION = "token"
"""Key of ``initializationOptions`` that carries the session token (``ripple serve --tcp``)."""

_CONTENT_LENGTH = re.compile(rb"(?:^|[^a-z0-9-])content-length:[ \t]*([0-9]{1,20})[ \t]*$", re.IGNORECASE)
"""A ``Content-Length`` header: at the start of its line, or at the end of a line that began
inside a frame the reader could not size (the next frame's header follows the unsized body
without a line break: finding it there resynchronises the stream)."""


def _describe(exc: BaseException, type_: Any) -> str:
    """A validation failure as text: a validator's own message (\"depth must be between 1 and
    20\"), else cattrs' description."""
    if type(exc) is ValueError and str(exc):
        return str(exc)
    return format_exception(exc, type_)


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def strict_converter() -> Any:
    """pygls' converter (lsprotocol's hooks) with exact JSON scalars: an ``int`` field takes a JSON
    integer only (not ``"1"``, ``1.5`` or ``true``), a ``str`` field a string, a ``bool`` field a
    boolean, a ``float`` field a number; cattrs would otherwise coerce them with ``int()`` /
    ``str()``."""
    converter = default_converter()

    def exact(kind: type, accepts: tuple[type, ...]) -> Callable[[Any, Any], Any]:
        def structure(value: Any, _: Any) -> Any:
            if isinstance(value, bool) and kind is not bool or not isinstance(value, accepts):
                raise TypeError(f"expected {kind.__name__}, got {type(value).__name__}")
            return kind(value)
        return structure

    converter.register_structure_hook(int, exact(int, (int,)))
    converter.register_structure_hook(str, exact(str, (str,)))
    converter.register_structure_hook(bool, exact(bool, (bool,)))
    converter.register_structure_hook(float, exact(float, (int, float)))
    return converter


class RippleProtocol(LanguageServerProtocol):
    """pygls' LSP protocol with validation before dispatch and exactly one answer per request (see
    the module docstring). ``token``: the secret ``initialize`` must present (``None``: none asked);
    ``on_refused``: called after a refused ``initialize`` or a pre-``initialize`` ``exit`` on a
    connection that needs the token (the TCP server closes that connection)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.token: str | None = None
        self.on_refused: Callable[[], None] | None = None
        self.initialized = False
        self.message_types: dict[str, type] = {}
        """Request types of custom methods (``{method: attrs class with id, params, method, jsonrpc}``):
        their params are checked like those of LSP methods."""

    def get_message_type(self, method: str) -> Any:
        """The type a message of ``method`` is structured into: a custom method's registered one,
        else lsprotocol's."""
        return self.message_types.get(method) or super().get_message_type(method)

    # ------------------------------------------------------------------------------ receiving

    def structure_message(self, data: dict[str, Any]) -> Any:
        """Keep JSON as parsed (pygls' own read loop calls this as ``object_hook``): structuring
        happens in :meth:`handle_message`, once the id is known."""
        return data

    def handle_body(self, body: bytes) -> None:
        """One frame's body: parse it and handle the message (a ``ParseError`` when it is not
        JSON)."""
        try:
            raw = json.loads(body)
        except (ValueError, RecursionError) as exc:
            self._error(None, PARSE_ERROR, f"not a JSON message: {str(exc)[:200]}")
            return
        try:
            self.handle_message(raw)
        except Exception as exc:  # noqa: BLE001 - a bug here must cost one answer, never the session
            log.exception("could not handle a message")
            if isinstance(raw, dict) and "method" in raw and _valid_id(raw.get("id")):
                self._error(raw["id"], INTERNAL_ERROR, f"the message could not be handled ({type(exc).__name__})")

    def message_limit(self) -> int:
        """The largest message body read now: :data:`MAX_UNAUTHENTICATED_BYTES` while a token is
        required and ``initialize`` has not passed (the peer may be any local process), else
        :data:`MAX_MESSAGE_BYTES`."""
        return MAX_UNAUTHENTICATED_BYTES if self.token is not None and not self.initialized else MAX_MESSAGE_BYTES

    def refuse_oversized(self, size: int) -> None:
        """Answer a message of ``size`` bytes over :meth:`message_limit` (``InvalidRequest``, id
        ``null``); before authentication the connection is closed too (its body is never read)."""
        if self.token is not None and not self.initialized:
            self._error(None, INVALID_REQUEST, f"message of {size} bytes before initialize exceeds the limit of "
                                               f"{MAX_UNAUTHENTICATED_BYTES} bytes")
            self._refuse()
        else:
            self._error(None, INVALID_REQUEST, f"message of {size} bytes exceeds the limit of {MAX_MESSAGE_BYTES} bytes")

    def handle_message(self, message: Any) -> None:
        """Validate, check the session state, structure into the method's type and dispatch; every
        request (a message with ``method`` and ``id``) gets exactly one response."""
        if not isinstance(message, dict):
            self._error(None, INVALID_REQUEST, "a message must be a JSON object")
            return
        if "method" not in message:
            self._response(message)
            return
        has_id = "id" in message
        msg_id = message.get("id")
        method = message["method"]
        if message.get("jsonrpc") != self.VERSION or not isinstance(method, str) or has_id and not _valid_id(msg_id):
            if has_id:
                self._error(msg_id if _valid_id(msg_id) else None, INVALID_REQUEST,
                            "not a JSON-RPC 2.0 request (jsonrpc \"2.0\", a string method, a string or integer id)")
            return
        if method == types.EXIT:
            if not self.initialized and self.token is not None:
                self._refuse()  # an unauthenticated connection may not stop the server
                return
            if has_id:
                self._error(msg_id, INVALID_REQUEST, "exit is a notification: send it without an id")
                return
            typed = self._structure(message, False)
            if typed is not None:
                self._dispatch(typed)
            return
        if self._shutdown:
            if has_id:
                self._error(msg_id, INVALID_REQUEST, f"{method}: the server is shutting down (only exit is accepted)")
            return
        if method == types.INITIALIZE:
            if not has_id:
                return
            if self.initialized:
                self._error(msg_id, INVALID_REQUEST, "initialize was already received: it may be sent once per session")
                return
            if not self._token_ok(message.get("params")):
                self._error(msg_id, INVALID_REQUEST,
                            f"initialize refused: this server needs its token in initializationOptions.{TOKEN_OPTION} "
                            "(printed by `ripple serve --tcp`, or the contents of --token-file / RIPPLE_SERVE_TOKEN)")
                self._refuse()
                return
        elif not self.initialized:
            if has_id:
                self._error(msg_id, SERVER_NOT_INITIALIZED, f"{method}: the server has not been initialized")
            return
        if has_id and self._is_notification(method):
            self._error(msg_id, INVALID_REQUEST, f"{method} is a notification: send it without an id")
            return
        typed = self._structure(message, has_id)
        if typed is None:
            return
        if method == types.INITIALIZE:
            self.initialized = True
        self._dispatch(typed)

    def _token_ok(self, params: Any) -> bool:
        if self.token is None:
            return True
        options = params.get("initializationOptions") if isinstance(params, dict) else None
        given = options.get(TOKEN_OPTION) if isinstance(options, dict) else None
        # surrogatepass: JSON may carry a lone surrogate ("\ud800"), which strict UTF-8 cannot encode
        return isinstance(given, str) and hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                                                              self.token.encode("utf-8", "surrogatepass"))

    def _refuse(self) -> None:
        if self.on_refused is not None:
            self.on_refused()

    def _structure(self, message: dict[str, Any], has_id: bool) -> Any:
        """The message as its lsprotocol type; ``None`` (after an error response for a request)
        when its params do not fit."""
        try:
            return self._typed(message)
        except Exception as exc:  # noqa: BLE001 - whatever the converter raises, the params did not fit
            cause = exc
            if isinstance(cause, ClassValidationError):
                detail = "; ".join(transform_error(cause, path="$", format_exception=_describe))[:300]
            else:
                detail = str(cause).splitlines()[0][:300] if str(cause) else type(cause).__name__
            if has_id:
                self._error(message.get("id"), INVALID_PARAMS, f"{message['method']}: invalid params ({detail})")
            else:
                log.warning("dropped notification %s with invalid params: %s", message["method"], detail)
            return None

    def _is_notification(self, method: str) -> bool:
        """Whether ``method``'s message type has no id (a request of it would be dispatched as a
        notification and never answered)."""
        kind = self.get_message_type(method)
        return kind is not None and attrs.has(kind) and "id" not in attrs.fields_dict(kind)

    def _typed(self, data: dict[str, Any]) -> Any:
        """``data`` as its message type (pygls' own choice of types, without its error log)."""
        if "id" in data:
            if "error" in data:
                return self._converter.structure(data, ResponseErrorMessage)
            if "method" in data:
                return self._converter.structure(data, self.get_message_type(data["method"]) or JsonRPCRequestMessage)
            return self._converter.structure(data, self._result_types.pop(data["id"], None) or JsonRPCResponseMessage)
        return self._converter.structure(data, self.get_message_type(data.get("method", "")) or JsonRPCNotification)

    def _dispatch(self, typed: Any) -> None:
        super().handle_message(typed)

    def _response(self, message: dict[str, Any]) -> None:
        """A response from the client to one of the server's requests."""
        if not _valid_id(message.get("id")) or message.get("jsonrpc") != self.VERSION:
            log.warning("dropped a message without method nor valid id")
            return
        try:
            typed = self._typed(message)
        except Exception:  # noqa: BLE001 - a response that does not fit its type still ends its wait
            typed = None
        if typed is None or not hasattr(typed, "id"):
            self._handle_response(message["id"], None, None)  # resolve the waiting future anyway
            return
        super().handle_message(typed)

    # -------------------------------------------------------------------------------- sending

    def _error(self, msg_id: Any, code: int, message: str) -> None:
        self._write_json({"jsonrpc": self.VERSION, "id": msg_id, "error": {"code": code, "message": message}})

    def _send_data(self, data: Any) -> None:
        """Serialise and write ``data``; a response whose result cannot be serialised or is too
        large is replaced by an error response for its id."""
        if not data:
            return
        is_response = not hasattr(data, "method") and hasattr(data, "id")
        try:
            body = json.dumps(data, default=self._serialize_message)
        except (RecursionError, TypeError, ValueError) as exc:
            if not is_response:
                log.error("could not serialise a message: %s", exc)
                return
            log.error("could not serialise the answer to %s: %s", data.id, exc)
            self._error(data.id, INTERNAL_ERROR, f"the answer could not be serialised ({type(exc).__name__})")
            return
        if is_response and len(body) > MAX_RESPONSE_BYTES:
            self._error(data.id, REQUEST_FAILED, f"the answer ({len(body) >> 20} MiB) exceeds the limit of "
                                                 f"{MAX_RESPONSE_BYTES >> 20} MiB")
            return
        self._write(body)

    def _write_json(self, obj: dict[str, Any]) -> None:
        self._write(json.dumps(obj))

    def _write(self, body: str) -> None:
        if self.writer is None:
            log.error("no transport to send to")
            return
        data = body.encode(self.CHARSET)
        header = f"Content-Length: {len(data)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        try:
            res = self.writer.write(header.encode("ascii") + data)
            if asyncio.iscoroutine(res):
                asyncio.ensure_future(res)
        except BrokenPipeError:
            raise
        except (OSError, RuntimeError) as exc:
            log.error("could not send a message: %s", exc)


async def read_frames(reader: asyncio.StreamReader, protocol: RippleProtocol,
                      closed: Callable[[], bool] | None = None) -> None:
    """Read LSP frames from ``reader`` until EOF and hand each body to ``protocol.handle_body``.

    Header lines end with ``\\r\\n`` (a bare ``\\n`` is accepted); ``Content-Length`` is required
    (case-insensitive), other headers are ignored; a block without a usable ``Content-Length``
    (negative, not a number, missing) is skipped, and so is its body, up to a ``Content-Length``
    header at the end of a line (the next frame's: the stream resynchronises there; a line is
    searched in its last :data:`MAX_HEADER_BYTES`). A body over
    :data:`MAX_MESSAGE_BYTES` is read in 1 MiB pieces and discarded, then answered with
    ``InvalidRequest`` (id ``null``); before authentication one over
    :data:`MAX_UNAUTHENTICATED_BYTES` is answered and the connection refused, unread
    (:meth:`RippleProtocol.message_limit`). A body cut short by EOF ends the loop, and so does
    ``closed()`` turning true (the connection was refused: what it sent next is not read)."""
    length: int | None = None
    while True:
        try:
            line = await reader.readuntil(b"\n")
        except asyncio.IncompleteReadError:
            return
        except asyncio.LimitOverrunError as exc:  # a header line without end: skip it
            await reader.readexactly(exc.consumed)
            continue
        if line.strip():
            # a long line is only searched at its end (an unsized body glued to the next header)
            m = _CONTENT_LENGTH.search(line[-MAX_HEADER_BYTES:].rstrip(b"\r\n"))
            if m is not None:
                length = int(m.group(1))
            continue
        if length is None:
            continue  # an empty line without a Content-Length before it: noise between frames
        size, length = length, None
        limit = protocol.message_limit()
        if limit < MAX_MESSAGE_BYTES and size > limit:
            protocol.refuse_oversized(size)  # before authentication: closed, never read
            return
        if size > MAX_MESSAGE_BYTES:
            left = size
            try:
                while left:
                    piece = await reader.readexactly(min(left, 1 << 20))
                    left -= len(piece)
            except asyncio.IncompleteReadError:
                return
            protocol.refuse_oversized(size)
            continue
        try:
            body = await reader.readexactly(size)
        except asyncio.IncompleteReadError:
            return
        if closed is not None and closed():
            return
        protocol.handle_body(body)
        if closed is not None and closed():
            return
