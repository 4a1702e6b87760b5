"""openapi-generator's Java code, as an API-first service and its clients use it -> API-first
:class:`~indexer.model.Route` / :class:`~indexer.model.HttpCall` facts (``operation`` set), whose
HTTP method and path the linker takes from the repository's OpenAPI specs
(:mod:`indexer.frameworks.openapi`).

* server (framework ``openapi-generator``): a class that ``implements`` a generated interface or
  delegate, a type named ``XxxApi`` or ``XxxApiDelegate`` (``class PetsController implements
  PetsApi``; the generated interface is usually not in the repository): each of its methods that is
  neither private nor static is a route candidate ``"PetsApi.listPets"`` (method name = operationId;
  the interface name, tag ``pets``, disambiguates). A method whose name is no operationId is counted
  by the linker, not linked. The class's own ``@RequestMapping`` prefix (openapi-generator's
  ``interfaceOnly`` code leaves the base path to the controller: ``@RequestMapping("/api")``) is the
  route's ``path``; empty when it has none.
* client (framework ``openapi-client``): a call on a receiver whose declared type (field, parameter,
  local) is an ``XxxApi`` type imported from another package (openapi-generator's ``java`` client:
  ``PetsApi api = new PetsApi(client); api.listPets()``; a Feign client generated with the
  ``feign`` library is such an interface too): ``"PetsApi.listPets"``.
* a Feign client of the ``spring-cloud`` library: ``@FeignClient interface PetsClient extends PetsApi
  {}`` declares nothing itself; a call on a receiver whose declared type is an imported ``XxxClient``
  (framework :data:`FEIGN_API_CLIENT`, ``"PetsClient.listPets"``) is a candidate the linker keeps only
  when that type is such an interface of the repository.

Nothing here reads the spec: a file is read alone, as every detector's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.frameworks import GENERATED_API
from indexer.languages.java.frameworks.common import JavaFile, rooted
from indexer.languages.java.frameworks.spring_web import mapping_paths
from indexer.model import FileExtraction, HttpCall, Route, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "GENERATED_API", "FEIGN_API_CLIENT", "detect"]

LANGUAGES = ("java",)
_CLIENT_API = re.compile(r"^[A-Z]\w*Api$")
_FEIGN_CANDIDATE = re.compile(r"^[A-Z]\w*Client$")
FEIGN_API_CLIENT = "openapi-feign"
"""The framework of a call on an imported ``XxxClient`` that may be a ``@FeignClient`` interface
extending a generated ``XxxApi`` (the linker decides from the interface's declaration)."""


def _simple(type_text: str) -> str:
    return type_text.split("<", 1)[0].strip().rpartition(".")[2]


def _class_prefixes(jf: JavaFile, apis: dict[str, str]) -> dict[str, list[Template]]:
    """The ``@RequestMapping`` paths of the implementing classes of ``apis`` that carry one, rooted
    (``"api"`` -> ``/api``); an empty mapping (``@RequestMapping("/")``) is no prefix."""
    out: dict[str, list[Template]] = {}
    for decl, anns in jf.annotated("RequestMapping"):
        if decl.type != "class_declaration":
            continue
        q = jf.qualname(decl)
        ann = next((a for a in anns if a.name == "RequestMapping"), None)
        if q in apis and ann is not None:
            paths = [rooted(p) for p in mapping_paths(jf, ann)]
            out[q] = [p if p.literal() not in ("", "/") else Template() for p in paths] or [Template()]
    return out


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
    prefixes = _class_prefixes(JavaFile.of(root, src, out), apis) if apis else {}
    for d in out.definitions:
        if d.kind == "method" and d.parent in apis and not {"private", "static"} & set(d.modifiers):
            for prefix in prefixes.get(d.parent, [Template()]):
                routes.append(Route("openapi-generator", [], prefix, d.qualname, d.name_line, d.name_col,
                                    operation=f"{apis[d.parent]}.{d.name}"))
    out.routes.extend(routes)
    imported = {i.local for i in out.imports if _CLIENT_API.match(i.local)}
    feign = {i.local for i in out.imports if _FEIGN_CANDIDATE.match(i.local)} - imported
    if not imported and not feign:
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
        elif declared in feign:
            out.http_calls.append(HttpCall(FEIGN_API_CLIENT, "*", Template(), c.caller, c.line, c.col,
                                           operation=f"{declared}.{c.name}"))
