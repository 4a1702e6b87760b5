"""Values an application writes into its configuration, for client URLs read back from it.

Facts (:class:`~indexer.model.StringConstant` named ``config:<key>``, :data:`~indexer.symbols.CONFIG_KEY`),
which the linker gives to a read of the same key in a file of the same service folder
(:meth:`indexer.frameworks.app_prefixes.AppPrefixLinks.config_constant`):

* Flask ``app.config["TRANSACTIONS_URI"] = 'http://{}/transactions'.format(os.environ.get("ADDR"))`` anywhere
  in the file (a ``create_app`` body included) and ``app.config.update(KEY=value)``: any receiver whose last
  attribute is ``config`` (:func:`~indexer.languages.python.frameworks.common.config_key`); a read is
  ``app.config["K"]`` / ``current_app.config.get("K")``;
* Django: the module-level ``NAME = value`` of a settings module (a file ``settings.py`` or any module of a
  ``settings/`` package), read as ``settings.NAME`` where ``settings`` is imported from ``django.conf``
  (the linker maps that read to ``config:NAME``).

A value counts when its template (:func:`~indexer.languages.python.frameworks.common.template`: an
``os.getenv("X", "http://svc/api")`` default is its literal) has a literal piece; unknown pieces (the host
an environment variable names) stay holes, so ``http://{}/transactions`` still names its path. A key written
several times keeps the last value in the file; a key no file writes leaves the read unknown.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, config_key, template
from indexer.model import FileExtraction, StringConstant, Template
from indexer.symbols import CONFIG_KEY

__all__ = ["LANGUAGES", "detect", "is_settings_module"]

LANGUAGES = ("python",)

def is_settings_module(path: str) -> bool:
    """Whether ``path`` (repository-relative, POSIX) is a Django settings module: ``settings.py`` or a
    module of a ``settings`` package (``config/settings/production.py``)."""
    p = PurePosixPath(path)
    return p.suffix == ".py" and (p.stem == "settings" or "settings" in p.parts[:-1])


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the configuration values one parsed Python file writes to ``out.constants``."""
    if b"config" not in src.data and not is_settings_module(out.path):
        return
    found: dict[str, Template] = {}
    if b"config" in src.data:
        _writes(root, src, found)
    if is_settings_module(out.path):
        for stmt in root.named_children:
            node = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
            if node.type != "assignment":
                continue
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and left.type == "identifier":
                _keep(found, src.text(left), template(src, right))
    out.constants.extend(StringConstant(CONFIG_KEY + k, v) for k, v in found.items())


def _keep(found: dict[str, Template], key: str, value: Template) -> None:
    if any(kind == "lit" for kind, _ in value.parts):
        found.pop(key, None)
        found[key] = value


def _writes(root: Node, src: SourceText, found: dict[str, Template]) -> None:
    """``X.config["K"] = v`` and ``X.config.update(K=v)`` anywhere in the tree, in source order
    (``indexer/languages/python/queries/config_values.scm``)."""
    for _, caps in run_query(query("python", "python/queries", "config_values"), root):
        if "key" in caps:
            key = config_key(src, caps["key"][0])
            if key is not None:
                _keep(found, key, template(src, caps["value"][0]))
        elif "update" in caps:
            for name, value in Args.of(src, caps["update"][0]).keywords.items():
                _keep(found, name, template(src, value))
