"""ASP.NET Core route token transformers: ``RouteTokenTransformerConvention`` applied to an application's
attribute routes, so that ``[Route("[controller]/[action]")]`` on ``ManageController.MyAccount`` serves
``/manage/my-account`` ("Use a parameter transformer to customize token replacement" in the ASP.NET Core
routing documentation; eShopOnWeb's ``SlugifyParameterTransformer``).

Two facts, each a :class:`~indexer.model.StringConstant` a C# detector records
(:mod:`indexer.languages.csharp.frameworks.aspnet`), are joined here at link time:

* :data:`TOKEN_CONVENTION`: a file registers ``new RouteTokenTransformerConvention(new X())``; the value is
  ``X``. It holds for the routes of the .NET project (innermost ``*.csproj`` folder) of that file.
* :data:`TRANSFORMER` + ``X``: the class ``X`` implements ``IOutboundParameterTransformer`` with the
  documented slugify body, ``Regex.Replace(value, "([a-z])([A-Z])", "$1-$2").ToLower()`` (any one-character
  separator between ``$1`` and ``$2``); the value is the separator.

:func:`transform_tokens` then rewrites the segments of a route that came from ``[controller]`` / ``[action]``
(its handler's class or method declares the token): ``myaccount`` -> ``my-account``. A transformer whose
body is another one is not known, and its tokens stay as the detector wrote them (lower-case).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING

from indexer.symbols import ROUTE_TOKEN_CONVENTION, ROUTE_TOKEN_TRANSFORMER

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["TOKEN_CONVENTION", "TRANSFORMER", "project_of", "slug", "token_separators", "transform_tokens"]

TOKEN_CONVENTION = ROUTE_TOKEN_CONVENTION
"""The qualname of the constant naming the transformer class a file's ``RouteTokenTransformerConvention`` uses."""
TRANSFORMER = ROUTE_TOKEN_TRANSFORMER
"""The head of the qualname of the constant giving a slugifying transformer class's separator."""
_BOUNDARY = re.compile(r"([a-z])([A-Z])")


def slug(name: str, separator: str) -> str:
    """``name`` as the slugify transformer writes it: ``MyAccount`` -> ``my-account`` (``separator`` ``-``)."""
    return _BOUNDARY.sub(rf"\1{separator}\2", name).lower()


def project_of(projects: Collection[str], path: str) -> str | None:
    """The innermost of the .NET project folders ``projects`` (repository-relative, ``""``: the root; a set or
    mapping, asked ``in``) holding the repository-relative ``path``; ``None``: none. The folders above ``path``
    are asked innermost first, so the cost is the path's depth, not the number of projects (a file of 2,000
    projects was compared with each of them, for every route and test file)."""
    folder = path
    while True:
        folder = folder.rpartition("/")[0]  # "" (the root) last
        if folder in projects:
            return folder
        if not folder:
            return None


def transform_tokens(path: str, separator: str, tokens: Mapping[str, str]) -> str:
    """``path`` with each segment that is a replaced token, lower-cased (a key of ``tokens``: the token's
    name as written, ``MyAccount``, by its lower-case form), written as the transformer writes it."""
    if not tokens:
        return path
    segments = path.split("/")
    return "/".join(slug(tokens[s], separator) if s in tokens else s for s in segments)


def token_separators(ctxs: Iterable[FileCtx], projects: Iterable[str]) -> dict[str | None, str]:
    """Per .NET project folder (:func:`project_of` of the registering file; ``None``: a file in no project), the
    separator of the route token transformer its ``RouteTokenTransformerConvention`` registers, when that
    transformer is a known slugifying class of the repository (:data:`TRANSFORMER`); projects registering
    none, an unknown one or two different ones are left out."""
    folders = set(projects)
    transformers: dict[str, str] = {}
    conventions: dict[str | None, set[str]] = {}
    for fc in ctxs:
        for c in fc.ex.constants:
            if c.qualname == TOKEN_CONVENTION and c.value.literal():
                conventions.setdefault(project_of(folders, fc.path), set()).add(c.value.literal() or "")
            elif c.qualname.startswith(TRANSFORMER) and c.value.literal():
                transformers[c.qualname[len(TRANSFORMER):]] = c.value.literal() or ""
    out: dict[str | None, str] = {}
    for project, names in conventions.items():
        found = {transformers.get(n) for n in names}
        if len(found) == 1 and None not in found:
            out[project] = found.pop() or ""
    return out
