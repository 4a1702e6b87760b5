"""Razor Pages route templates: the ``@page "template"`` directive of a ``.cshtml`` page, applied to the routes
of its page model (:mod:`indexer.languages.csharp.frameworks.razor_pages`, which reads the ``.cshtml.cs`` file
beside it and gives the page's conventional paths).

The directive is the first Razor directive of the page ("Razor Pages route and app conventions" in the ASP.NET
Core documentation): ``@page`` alone keeps the conventional path, ``@page "{id:int}"`` appends a template to it
(``/orders/detail/{id}``), and a template starting ``/`` or ``~/`` replaces it (``@page "/checkout"``). The
``{handler}`` / ``{handler?}`` parameter is the handler's name: ``@page "{handler?}"`` serves
``OnPostUpdate`` at ``/basket/update`` (and the unnamed ``OnPost`` at ``/basket``). Constraints and optional
markers are dropped as for every ASP.NET route (``{id:int?}`` -> ``{id}``).

:func:`page_directive` reads one file's directive; the files are read once per run with the .NET projects
(:func:`indexer.frameworks.app_settings.load_dotnet_projects`), like settings files: a ``.cshtml`` file is not
indexed as source.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["HEAD_CHARS", "MAX_PAGE_BYTES", "is_page_file", "page_directive", "page_route"]

MAX_PAGE_BYTES = 1_000_000
"""A larger ``.cshtml`` file is not read (its directive stays unknown: the conventional path)."""
_DIRECTIVE = re.compile(r'\A\s*(?:@\*(?:[^*]|\*(?!@))*\*@\s*)*@page(?:[ \t]+"([^"\r\n]*)")?[ \t]*(?:\r?\n|\Z)')
"""``@page`` first (after Razor comments, each ending at its first ``*@``: one way to read a run of comments, so
no backtracking over their splits), with its template string when one is written."""
HEAD_CHARS = 65_536
"""Only the start of a page is read for its directive (``@page`` comes first)."""
_HANDLER_SEGMENT = re.compile(r"\{handler(?::[^{}]*)?\??\}", re.IGNORECASE)
_PARAM = re.compile(r"\{\**(\w+)(?::[^{}]*)?\??\}")
_HANDLER_NAME = re.compile(r"^On(?:Get|Post|Put|Delete|Patch|Head|Options)(\w*?)(?:Async)?$")


def is_page_file(path: str) -> bool:
    """Whether the repository path ``path`` is a Razor page's markup: a ``*.cshtml`` file below a ``Pages``
    folder."""
    return path.endswith(".cshtml") and "Pages" in path.split("/")[:-1]


def page_directive(text: str) -> str | None:
    """The template of the page's ``@page "template"`` directive (``""``: ``@page`` alone), ``None`` when the
    file does not start with ``@page`` (a partial view or layout)."""
    m = _DIRECTIVE.match(text.removeprefix("\ufeff")[:HEAD_CHARS])
    if m is None:
        return None
    return m.group(1) or ""


def page_route(pages: Mapping[str, str], model_path: str, path: str, handler: str | None) -> str:
    """The path a Razor page handler serves: ``path`` (a conventional page path of the page model file
    ``model_path``, ``Pages/Basket/Index.cshtml.cs``) with the ``@page`` template of the ``.cshtml`` beside it
    (``pages``: repository path -> template) applied for the handler method ``handler`` (its qualname or
    name: ``IndexModel.OnPostUpdate``). ``path`` unchanged when the page has no template."""
    template = pages.get(model_path.removesuffix(".cs")) if model_path.endswith(".cshtml.cs") else None
    if not template:
        return path
    named = _HANDLER_NAME.match((handler or "").rsplit(".", 1)[-1])
    name = named.group(1).lower() if named is not None else ""
    if name:
        template = _HANDLER_SEGMENT.sub(name, template)
    else:  # the unnamed handler: an optional {handler?} is left out, a required one stays a parameter
        template = re.sub(r"\{handler(?::[^{}]*)?\?\}", "", template, flags=re.IGNORECASE)
    template = _PARAM.sub(r"{\1}", template)
    if template.startswith(("/", "~/")):
        joined = template.lstrip("~")
    else:
        joined = path.rstrip("/") + "/" + template
    segments = [s for s in joined.split("/") if s]
    return "/" + "/".join(segments)
