"""openapi-generator's Java code, as an API-first service and its clients use it -> API-first
:class:`~indexer.model.Route` / :class:`~indexer.model.HttpCall` facts (``operation`` set), whose
HTTP method and path the linker takes from the repository's OpenAPI specs
(:mod:`indexer.frameworks.openapi`).

* server (framework ``openapi-generator``): a class that ``implements`` a generated interface or
  delegate, a type named ``XxxApi`` or ``XxxApiDelegate`` (``class PetsController implements
  PetsApi``; the generated interface is usually not in the repository): each of its methods that is
  neither private nor static is a route candidate ``"PetsApi.listPets"`` (method name = operationId;
  the interface name, tag ``pets``, disambiguates). A method whose name is no operationId is counted
  by the linker, not linked.
* client (framework ``openapi-client``): a call on a receiver whose declared type (field, parameter,
  local) is an ``XxxApi`` type imported from another package (openapi-generator's ``java`` client:
  ``PetsApi api = new PetsApi(client); api.listPets()``; a Feign client generated with the
  ``feign`` library is such an interface too): ``"PetsApi.listPets"``.

Nothing here reads the spec: a file is read alone, as every detector's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import JavaFile
from indexer.model import FileExtraction, HttpCall, Route, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "GENERATED_API", "detect"]

LANGUAGES = ("java",)
GENERATED_API = re.compile(r"^[A-Z]\w*Api(?:Delegate)?$")
"""The simple name of an openapi-generator interface (``PetsApi``) or delegate (``PetsApiDelegate``)."""
_CLIENT_API = re.compile(r"^[A-Z]\w*Api$")


def _simple(type_text: str) -> str:
    return type_text.split("<", 1)[0].strip().rpartition(".")[2]


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's generated-API implementations to ``out.routes`` and its generated-client
    calls to ``out.http_calls``."""
    routes: list[Route] = []
    apis: dict[str, str] = {}  # class qualname -> the generated API it implements
    for d in out.definitions:
        if d.kind == "class":
            api = next((_simple(t) for t in d.implements if GENERATED_API.match(_simple(t))), None)
            if api is not None:
                apis[d.qualname] = api
    for d in out.definitions:
        if d.kind == "method" and d.parent in apis and not {"private", "static"} & set(d.modifiers):
            routes.append(Route("openapi-generator", [], Template(), d.qualname, d.name_line, d.name_col,
                                operation=f"{apis[d.parent]}.{d.name}"))
    out.routes.extend(routes)
    imported = {i.local for i in out.imports if _CLIENT_API.match(i.local)}
    if not imported:
        return
    jf = JavaFile.of(root, src, out)
    for c in out.calls:
        if not c.receiver or c.is_new:
            continue
        head = c.receiver.removeprefix("this.").split(".", 1)[0].split("(", 1)[0]
        declared = jf.declared_type(head, c.caller) if head else None
        if declared is None and c.receiver.startswith("new"):
            declared = c.receiver[3:].split("(", 1)[0].strip()
        if declared in imported:
            out.http_calls.append(HttpCall("openapi-client", "*", Template(), c.caller, c.line, c.col,
                                           operation=f"{declared}.{c.name}"))
