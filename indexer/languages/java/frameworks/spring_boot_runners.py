"""Spring Boot start-up runners -> :class:`~indexer.model.EntryRegistration` (kind ``main``, framework ``spring-boot``).

A class implementing ``CommandLineRunner`` or ``ApplicationRunner`` has its ``run`` method called by
Spring Boot at start-up: that method is a ``main`` entry point. A ``@Bean`` method returning one
(``@Bean CommandLineRunner init(Repo r) { return args -> r.save(...); }``) is one too: the lambda's
calls belong to it. The class (or method) is found in its own file; a runner whose interface is
reached only through a superclass is not seen. Position: the class or method name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import EntryRegistration, FileExtraction, base_type

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "spring-boot"
_RUNNERS = frozenset({"CommandLineRunner", "ApplicationRunner"})


def _simple(t: str | None) -> str:
    return (base_type(t) or "").rsplit(".", 1)[-1]


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append an entry registration per Spring Boot runner of the file."""
    runners = {d.qualname for d in out.definitions if d.kind == "class" and any(_simple(i) in _RUNNERS for i in d.implements)}
    for d in out.definitions:
        if d.kind != "method":
            continue
        if d.parent in runners and d.name == "run":
            out.entries.append(EntryRegistration(FRAMEWORK, "main", d.qualname, d.name_line, d.name_col, name=d.parent or ""))
        elif _simple(d.return_type) in _RUNNERS and any(x.split("(", 1)[0].rsplit(".", 1)[-1] == "Bean" for x in d.decorators):
            out.entries.append(EntryRegistration(FRAMEWORK, "main", d.qualname, d.name_line, d.name_col, name=d.name))
