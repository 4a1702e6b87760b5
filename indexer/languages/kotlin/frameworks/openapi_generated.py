"""openapi-generator's ``kotlin-spring`` server code, as an API-first Kotlin service implements it ->
API-first :class:`~indexer.model.Route` facts (framework ``openapi-generator``, ``operation`` set),
whose HTTP method and path the linker takes from the repository's OpenAPI specs
(:mod:`indexer.frameworks.openapi`), as for Java (:mod:`indexer.languages.java.frameworks.openapi_generated`).

A class whose supertypes name a generated interface or delegate, ``XxxApi`` / ``XxxApiDelegate``
(:data:`~indexer.frameworks.GENERATED_API`; ``class ArticleController(...) : ArticlesApi``, the
interface generated into the build folder, not in the repository): each of its ``override``
functions that is not private is a route candidate ``"ArticlesApi.getArticles"`` (function name =
operationId; the interface name, tag ``articles``, disambiguates). Kotlin requires ``override`` on a
function implementing an interface's, so the class's own helpers, exception handlers and property
getters are never candidates. The class's own ``@RequestMapping`` path is the route's ``path`` (the
base path in place of the spec's); empty when it has none.

Generated Kotlin clients are not read yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import GENERATED_API, rooted
from indexer.languages.kotlin.frameworks.common import declarations, definition_of, template
from indexer.model import FileExtraction, Route, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("kotlin",)


def _simple(type_text: str) -> str:
    return type_text.split("<", 1)[0].split("(", 1)[0].strip().rpartition(".")[2]


def _prefixes(root: Node, src: SourceText, out: FileExtraction, apis: dict[str, str]) -> dict[str, list[Template]]:
    """The ``@RequestMapping`` paths of the implementing classes of ``apis`` that carry one, rooted;
    an empty mapping (``@RequestMapping("/")``) is no prefix."""
    found: dict[str, list[Template]] = {}
    for decl, anns in declarations(src, root):
        ann = next((a for a in anns if a.name == "RequestMapping"), None)
        if decl.type != "class_declaration" or ann is None:
            continue
        d = definition_of(out, src, decl)
        if d is None or d.qualname not in apis:
            continue
        paths = [rooted(template(src, v)) for v in ann.values("value", "path")]
        found[d.qualname] = [p if p.literal() not in ("", "/") else Template() for p in paths] or [Template()]
    return found


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's generated-API implementations to ``out.routes``."""
    apis: dict[str, str] = {}  # class qualname -> the generated API it implements
    for d in out.definitions:
        if d.kind == "class":
            api = next((_simple(t) for t in (*d.implements, *d.bases) if GENERATED_API.match(_simple(t))), None)
            if api is not None:
                apis[d.qualname] = api
    if not apis:
        return
    prefixes = _prefixes(root, src, out, apis)
    for d in out.definitions:
        if d.kind == "method" and d.parent in apis and "override" in d.modifiers and "private" not in d.modifiers:
            for prefix in prefixes.get(d.parent, [Template()]):
                out.routes.append(Route("openapi-generator", [], prefix, d.qualname, d.name_line, d.name_col,
                                        operation=f"{apis[d.parent]}.{d.name}"))
