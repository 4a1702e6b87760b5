"""Clients generated from an OpenAPI spec (openapi-generator's ``typescript-axios``,
``typescript-fetch``, ``typescript-angular``, and alike) -> API-first
:class:`~indexer.model.HttpCall` facts (framework ``openapi-client``, ``operation`` set), whose
HTTP method and URL the linker takes from the repository's OpenAPI specs
(:mod:`indexer.frameworks.openapi`).

A call ``X.op(...)`` is one when the receiver is an instance of a generated API class:

* ``new PetsApi(config).listPets()``, or a name / ``this.field`` whose declared or constructed type
  (the extractor's bindings, constructor parameter properties included) is that class:
  ``const api = new PetsApi(cfg); api.listPets()``, ``constructor(private pets: PetsService)``;
* the class is imported (never defined in this file): a name ``XxxApi`` from any module, or a name
  ``XxxService`` from a module whose path names a generated client (a segment ``api``, ``apis``,
  ``generated``, ``openapi``, ``client``, ``sdk``: ``../generated/api/pets.service``,
  ``@acme/petstore-client``), as typescript-angular writes its services.

``operation`` is ``"<class>.<called name>"``; the linker matches the name to an operationId (and the
class to the operation's tag when it can). Nothing here reads the spec.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import FileExtraction, HttpCall, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")
_API = re.compile(r"^[A-Z]\w*Api$")
_SERVICE = re.compile(r"^[A-Z]\w*Service$")
_GENERATED_MODULE = re.compile(r"(?:^|[/@.-])(?:api|apis|generated|openapi|client|sdk)(?:[/.-]|$)", re.I)
_NEW = re.compile(r"^new ([A-Z]\w*)\(")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's calls of generated API clients to ``out.http_calls``."""
    generated = {i.local for i in out.imports
                 if _API.match(i.local) or (_SERVICE.match(i.local) and _GENERATED_MODULE.search(i.module))}
    generated -= {d.name for d in out.definitions if d.parent is None}
    if not generated:
        return
    types: dict[tuple[str | None, str], str] = {}
    for b in out.bindings:
        if b.how in ("declared", "constructed"):
            types.setdefault((b.scope, b.name), b.type.split("<", 1)[0].strip())
    for c in out.calls:
        if not c.receiver or c.is_new:
            continue
        m = _NEW.match(c.receiver)
        cls = m.group(1) if m else _declared(types, c.receiver, c.caller)
        if cls in generated:
            out.http_calls.append(HttpCall("openapi-client", "*", Template(), c.caller, c.line, c.col,
                                           operation=f"{cls}.{c.name}"))


def _declared(types: dict[tuple[str | None, str], str], name: str, scope: str | None) -> str | None:
    """The declared or constructed type of ``name`` in ``scope`` or an enclosing scope."""
    s = scope
    while True:
        t = types.get((s, name))
        if t is not None:
            return t
        if not s:
            return None
        s = s.rpartition(".")[0] or None
