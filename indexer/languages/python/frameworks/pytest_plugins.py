"""pytest's ``pytest_plugins``: the modules whose fixtures a conftest or test module loads.

``pytest_plugins = ["app.tests.fixtures.users", "app.tests.fixtures.db"]`` (a list, a tuple, or one
string, assigned at module level) makes pytest import those modules as plugins, whose module-level
fixtures every test of the run can request (pytest's ``_get_plugin_specs_as_list``: a string is split
at commas). This detector records the list as the module-level :class:`~indexer.model.StringConstant`
``pytest_plugins`` whose value is the names joined by commas, the form pytest accepts itself, so the
resolver finds the files declaring plugins through its constants table (``Lookup.constant_files``) and
:mod:`indexer.languages.python.pytest_fixtures` reads them. A single string is already such a
constant (:mod:`.python_constants`); a list holding anything but string literals is not read.

Only the file's top-level statements are read (their children, not a walk of the tree: the
assignment must be a direct statement of the module, which a query cannot bound cheaper).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import string_list
from indexer.model import FileExtraction, StringConstant, Template

__all__ = ["LANGUAGES", "PLUGINS", "detect"]

LANGUAGES = ("python",)

PLUGINS = "pytest_plugins"
"""The module-level name pytest reads plugin modules from."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the ``pytest_plugins`` list of one parsed Python file to ``out`` as a string constant."""
    if PLUGINS.encode() not in src.data:
        return
    found: list[str] | None = None
    for statement in root.named_children:  # the grammar may wrap an assignment in an expression_statement
        unwrap = statement.type == "expression_statement" and statement.named_child_count == 1
        assign = statement.named_children[0] if unwrap else statement
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if assign.type != "assignment" or left is None or right is None or src.text(left) != PLUGINS:
            continue
        found = string_list(src, right) if right.type in ("list", "tuple") else None  # the last one counts
    if found:
        out.constants.append(StringConstant(PLUGINS, Template.of(",".join(n.strip() for n in found))))
