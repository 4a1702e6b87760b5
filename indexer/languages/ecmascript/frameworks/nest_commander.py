"""nest-commander commands -> :class:`~indexer.model.EntryRegistration` (kind ``cli``, framework ``nest-commander``).

In a file importing ``nest-commander``, a class decorated ``@Command({ name: ... })`` or
``@SubCommand(...)`` is run through its ``run`` method: that method is a command-line entry point
(the decorator sits on the class, which the walk never reaches; the method is what its callers
reach). ``name`` is the ``name`` option when written as a string literal. Read from the extractor's
definitions and decorator texts (no query: nothing else is needed). Position: the method's name.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import EntryRegistration, FileExtraction

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")
_DECORATOR = re.compile(r"^(?:\w+\.)?(Command|SubCommand)\s*\(")
_NAME = re.compile(r"""\bname\s*:\s*(["'`])([^"'`]*)\1""")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append an entry registration per nest-commander command's ``run`` method."""
    if not any(i.module == "nest-commander" for i in out.imports):
        return
    commands: dict[str, str] = {}
    for d in out.definitions:
        if d.kind == "class":
            for deco in d.decorators:
                if _DECORATOR.match(deco):
                    m = _NAME.search(deco)
                    commands[d.qualname] = m.group(2) if m else ""
    for d in out.definitions:
        if d.kind == "method" and d.name == "run" and d.parent in commands:
            out.entries.append(EntryRegistration("nest-commander", "cli", d.qualname, d.name_line, d.name_col,
                                                 name=commands[d.parent]))
