"""Apex REST services -> :class:`~indexer.model.Route` (framework ``apex-rest``).

A class annotated ``@RestResource(urlMapping='/accounts/*')`` is served under
``/services/apexrest`` + its mapping; each of its methods annotated ``@HttpGet``, ``@HttpPost``,
``@HttpPut``, ``@HttpPatch`` or ``@HttpDelete`` handles that method on that path (one method per
HTTP verb per class, as the platform allows). A ``*`` segment is a path variable
(:func:`stores.contracts.normalise_path`); a trailing ``/*`` also matches the mapping without it
(``/accounts/*`` serves ``/accounts`` and ``/accounts/001...``), so such a method handles two routes.
A mapping that is not a string literal names no route.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import FileExtraction, Route, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["BASE_PATH", "LANGUAGES", "detect"]

LANGUAGES = ("apex",)
BASE_PATH = "/services/apexrest"
"""Where the platform serves Apex REST resources."""
_VERBS = {"HttpGet": "GET", "HttpPost": "POST", "HttpPut": "PUT", "HttpPatch": "PATCH", "HttpDelete": "DELETE"}
_MAPPING = re.compile(r"""^RestResource\s*\(\s*urlMapping\s*=\s*'((?:[^'\\]|\\.)*)'\s*\)$""", re.IGNORECASE)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a route per HTTP-annotated method of each ``@RestResource`` class."""
    mappings: dict[str, str] = {}
    for d in out.definitions:
        if d.kind == "class":
            for deco in d.decorators:
                m = _MAPPING.match(deco)
                if m:
                    mappings[d.qualname] = m.group(1)
    if not mappings:
        return
    for d in out.definitions:
        mapping = mappings.get(d.parent or "") if d.kind == "method" else None
        if mapping is None:
            continue
        for deco in d.decorators:
            verb = _VERBS.get(deco.split("(", 1)[0].strip())
            if not verb:
                continue
            path = BASE_PATH + "/" + mapping.lstrip("/")
            paths = [path.removesuffix("/*"), path] if path.endswith("/*") else [path]
            for p in paths:
                out.routes.append(Route("apex-rest", [verb], Template.of(p), d.qualname, d.name_line, d.name_col))
