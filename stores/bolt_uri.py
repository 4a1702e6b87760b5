"""Bolt URIs: :func:`parse_bolt_uri` splits one into the driver's address and the credentials and
database it carries; :func:`redact` hides its password in messages. Re-exported by
:mod:`stores.memgraph`."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

__all__ = ["SCHEMES", "parse_bolt_uri", "redact"]

SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
"""The URI schemes the ``neo4j`` driver accepts."""


def parse_bolt_uri(uri: str) -> tuple[str, str | None, str | None, str | None]:
    """``(address, user, password, database)`` of ``scheme://[user[:password]@]host[:port][/database]``.

    ``address`` is the URI without credentials and database (what the driver connects to); user and
    password are percent-decoded; the path, if any, names the database. Schemes: ``bolt``,
    ``bolt+s``, ``bolt+ssc``, ``neo4j``, ``neo4j+s``, ``neo4j+ssc``. Raises ``ValueError`` for anything
    else."""
    if not isinstance(uri, str):
        raise ValueError(f"not a Bolt URI: {uri!r}; expected bolt://host:7687")
    try:
        parts = urlsplit(uri.strip())
        port = parts.port
    except ValueError as exc:  # not chained: a port error quotes the netloc, which may hold the password
        detail = "the port is not a number from 0 to 65535" if "port" in str(exc).lower() else str(exc)
        raise ValueError(f"not a Bolt URI: {redact(uri)!r} ({detail})") from None
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise ValueError(
            f"not a Bolt URI: {redact(uri)!r}; expected bolt://host:7687 (schemes: {', '.join(SCHEMES)})"
        )
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    address = f"{parts.scheme}://{host}" + (f":{port}" if port else "")
    if parts.query:
        address += f"?{parts.query}"
    database = unquote(parts.path.strip("/")) or None
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password is not None else None
    return address, user, password, database


def redact(uri: str) -> str:
    """``uri`` with its password replaced by ``***``: everything from the first ``:`` of the
    authority to its last ``@``, so a password holding an unescaped ``@`` or ``/`` is hidden whole
    (a URI without a password but with an ``@`` later may lose its port in the message, never more)."""
    return re.sub(r"(//[^:/@]*:).*@", r"\1***@", uri)
