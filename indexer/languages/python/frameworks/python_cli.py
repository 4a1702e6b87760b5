"""Python program entry points -> :class:`~indexer.model.EntryRegistration`.

Rules in ``indexer/languages/python/queries/python_cli.scm``:

* ``if __name__ == "__main__":`` (either side, either quote) at module level: kind ``main``,
  framework ``python-main``, no owner: the module-level code (the File node) runs when the module is
  executed, and owns the calls of that block;
* argparse ``subparser.set_defaults(func=handler)`` in a file importing ``argparse``: kind ``cli``,
  framework ``argparse``, the handler a function of the file or a reference;
* a Django management command, a class deriving ``BaseCommand`` / ``LabelCommand`` / ``AppCommand``
  (as the file imports them from ``django.core.management``): its ``handle`` (``handle_label``,
  ``handle_app_config``) method, kind ``cli``, framework ``django-command``, ``name`` the command
  (the module's name, as ``manage.py`` calls it).

Click and Typer commands (``@click.command``, ``@cli.command()``, ``@app.command()``) are decorators
the analysis reads (:mod:`analysis.impact`). Position: the ``if`` / ``set_defaults``.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Context, scope_of
from indexer.model import EntryRegistration, FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
_MAIN = re.compile(r"""^(__name__\s*==\s*(['"])__main__\2|(['"])__main__\3\s*==\s*__name__)$""")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's ``__main__`` block and argparse command handlers."""
    data = src.data
    commands = b"Command" in data
    if not commands and b"__main__" not in data and b"set_defaults" not in data:
        return  # nothing below can match: skip building the context
    ctx = Context(src, out)
    if commands:
        _django_commands(ctx)
    if b"__main__" not in data and b"set_defaults" not in data:
        return
    argparse = ctx.imports.uses("argparse")
    for _, caps in run_query(query("python", "python/queries", "python_cli"), root):
        if "main" in caps:
            if _MAIN.match(" ".join(src.text(caps["cond"][0]).split())):
                node = caps["main"][0]
                out.entries.append(EntryRegistration("python-main", "main", None, src.line(node), src.col(node),
                                                     name="__main__"))
        elif argparse:
            call = caps["call"][0]
            owner, ref = ctx.handler(caps["handler"][0], scope_of(call, src))
            at = caps["method"][0]
            out.entries.append(EntryRegistration("argparse", "cli", owner, src.line(at), src.col(at), ref,
                                                 scope_of(call, src)))


_COMMANDS = frozenset({"BaseCommand", "LabelCommand", "AppCommand"})
_HANDLES = ("handle", "handle_label", "handle_app_config")


def _django_commands(ctx: Context) -> None:
    if not ctx.imports.uses("django"):
        return
    defs = ctx.out.definitions
    commands = {d.qualname for d in defs if d.kind == "class" and any(
        ctx.imports.qualify(b).startswith("django.core.management") and b.rsplit(".", 1)[-1] in _COMMANDS
        for b in d.bases)}
    command = ctx.out.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    for d in defs:
        if d.kind == "method" and d.parent in commands and d.name in _HANDLES:
            ctx.out.entries.append(EntryRegistration("django-command", "cli", d.qualname, d.name_line, d.name_col,
                                                     name=command))
