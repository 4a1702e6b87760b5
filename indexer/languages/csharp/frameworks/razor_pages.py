"""ASP.NET Core Razor Pages: the page handlers of a page model are routes (framework ``aspnet``).

A Razor page is ``Pages/<folder>/<Name>.cshtml`` with its page model in ``<Name>.cshtml.cs`` beside it; the
routing convention (``PageRouteModelProvider``, "Razor Pages route and app conventions" in the ASP.NET Core
documentation) gives it the path of its file below the ``Pages`` root: ``Pages/Basket/Checkout.cshtml`` ->
``/Basket/Checkout``; an ``Index`` page answers its folder too (``Pages/Basket/Index.cshtml`` -> ``/Basket``
and ``/Basket/Index``, ``Pages/Index.cshtml`` -> ``/`` and ``/Index``); a page of an area
(``Areas/Identity/Pages/Account/Login.cshtml``) is under the area's name (``/Identity/Account/Login``).
Paths are lower-cased as the controllers' tokens are (:mod:`indexer.languages.csharp.frameworks.aspnet`:
ASP.NET Core matches them case-insensitively).

The page model is the class of a ``<Name>.cshtml.cs`` file below a ``Pages`` folder that derives from
``PageModel`` (by its base's last name) or, with any base, is named ``<Name>Model`` (the template's
convention, for a project's own page base class); never an abstract or static class. Its handlers are its
public, non-static methods named ``On<Verb>[<Handler>][Async]`` (``OnGet``, ``OnPostAsync``,
``OnPostUpdate``), ``<Verb>`` one of Get, Post, Put, Delete, Patch, Head, Options: each is a route of that
verb at the page's paths. A named handler (``OnPostUpdate``) is requested as ``?handler=Update`` on the same
path, so it serves the same routes as the unnamed one. The ``@page`` directive of the ``.cshtml`` file is
another file and is not read here: a page route template (``@page "{id:int}"``, ``@page "{handler?}"``,
``@page "/other"``) is not applied.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from indexer.model import FileExtraction, Route, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "page_paths"]

LANGUAGES = ("csharp",)
FRAMEWORK = "aspnet"
_SUFFIX = ".cshtml.cs"
_HANDLER = re.compile(r"^On(Get|Post|Put|Delete|Patch|Head|Options)(\w*?)(?:Async)?$")


def page_paths(path: str) -> list[str]:
    """The request paths (lower-cased) of the Razor page whose page model file is ``path`` (a repository
    path, ``/``-separated): ``src/Web/Pages/Basket/Index.cshtml.cs`` -> ``["/basket", "/basket/index"]``,
    ``Areas/Identity/Pages/Account/Login.cshtml.cs`` -> ``["/identity/account/login"]``; ``[]`` for a file
    that is no page model file (not ``*.cshtml.cs``, or below no ``Pages`` folder). The last ``Pages``
    folder of the path is the root; an ``Areas/<Area>`` right above it prefixes the area's name."""
    if not path.endswith(_SUFFIX):
        return []
    parts = path.split("/")
    roots = [i for i, p in enumerate(parts[:-1]) if p == "Pages"]
    if not roots:
        return []
    at = roots[-1]
    area = [parts[at - 1]] if at >= 2 and parts[at - 2] == "Areas" else []
    name = parts[-1][: -len(_SUFFIX)]
    if not name:
        return []
    segments = [s.lower() for s in area + parts[at + 1:-1]]
    page = "/" + "/".join(segments + [name.lower()])
    if name.lower() != "index":
        return [page]
    folder = "/" + "/".join(segments)
    return [folder, page] if folder != page else [page]


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the routes of the page model of a ``*.cshtml.cs`` file (module docstring) to ``out.routes``."""
    paths = page_paths(out.path)
    if not paths or b"On" not in src.data:
        return
    stem = posixpath.basename(out.path)[: -len(_SUFFIX)]
    for cls in out.definitions:
        if cls.kind != "class" or {"abstract", "static"} & set(cls.modifiers) or not cls.bases:
            continue
        bases = [_base_name(b) for b in cls.bases]
        if "PageModel" not in bases and cls.name != f"{stem}Model":
            continue
        for m in out.definitions:
            if m.parent != cls.qualname or m.kind != "method" or "static" in m.modifiers or "public" not in m.modifiers:
                continue
            found = _HANDLER.match(m.name)
            if found is None:
                continue
            verb = found.group(1).upper()
            for p in paths:
                out.routes.append(Route(FRAMEWORK, [verb], Template.of(p), m.qualname, m.name_line, m.name_col))


def _base_name(base: str) -> str:
    """A base type's last name without generic arguments: ``Microsoft.AspNetCore.Mvc.RazorPages.PageModel`` ->
    ``PageModel``; ``BasePage<T>`` -> ``BasePage``."""
    return base.split("<", 1)[0].rsplit(".", 1)[-1].strip()
