"""API-first Python: connexion applications and openapi-python-client clients -> API-first facts
(``operation`` set) whose HTTP methods and paths the linker takes from the repository's OpenAPI specs
(:mod:`indexer.frameworks.openapi`).

* connexion (framework ``connexion``): ``app.add_api("openapi.yaml")`` in a file importing
  ``connexion`` is a :class:`~indexer.model.Route` with ``operation="*"`` and ``path`` the spec file,
  relative to the repository (the file's folder, then the ``specification_dir=`` given to
  ``connexion.App`` / ``FlaskApp`` / ``AsyncApp`` in the same file, then the argument); a spec named
  by anything but a literal leaves ``path`` empty (the linker then takes every spec). The linker
  resolves each operation's dotted ``operationId`` (or ``x-openapi-router-controller`` +
  ``operationId``) to the function that handles it, as a Django ``urls.py`` routes a view: the
  registering file owns the EXPOSES edges.
* openapi-python-client (framework ``openapi-client``): ``list_pets.sync(client=c)`` (and
  ``sync_detailed``, ``asyncio``, ``asyncio_detailed``) where ``list_pets`` is imported from a
  generated ``<package>.api.<tag>`` module: an :class:`~indexer.model.HttpCall` with
  ``operation="<tag>.<module>"`` (``animals.list_animals``: the module is the snake-cased operationId).
"""

from __future__ import annotations

import posixpath

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import Args, ImportTable, compact, string_value
from indexer.model import FileExtraction, HttpCall, Route, Template

__all__ = ["LANGUAGES", "CLIENT_FUNCTIONS", "detect"]

LANGUAGES = ("python",)
CLIENT_FUNCTIONS = frozenset({"sync", "sync_detailed", "asyncio", "asyncio_detailed"})
_APPS = ("App", "FlaskApp", "AsyncApp")
_MAX_NODES = 200_000


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append connexion ``add_api`` registrations to ``out.routes`` and generated-client calls to
    ``out.http_calls``."""
    _clients(out)
    names = {c.name for c in out.calls}
    if "add_api" not in names or not ImportTable.of(out).uses("connexion"):
        return
    calls: list[Node] = []
    stack, seen = [root], 0
    while stack and seen < _MAX_NODES:
        node = stack.pop()
        seen += 1
        if node.type == "call":
            calls.append(node)
        stack.extend(reversed(node.named_children))
    spec_dir = ""
    for call in calls:
        fn = compact(src, call.child_by_field_name("function"))
        if fn.rpartition(".")[2] in _APPS:
            d = Args.of(src, call.child_by_field_name("arguments")).get(-1, "specification_dir")
            spec_dir = string_value(src, d) or "" if d is not None else spec_dir
    folder = posixpath.dirname(out.path)
    for call in calls:
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "attribute" or compact(src, fn).rpartition(".")[2] != "add_api":
            continue
        spec = string_value(src, Args.of(src, call.child_by_field_name("arguments")).get(0, "specification"))
        path = Template()
        if spec:
            joined = posixpath.normpath(posixpath.join(folder, spec_dir, spec))
            if not joined.startswith(".."):
                path = Template((("lit", joined),))
        attr = fn.child_by_field_name("attribute") or fn
        out.routes.append(Route("connexion", [], path, None, src.line(attr), src.col(attr), operation="*"))


def _clients(out: FileExtraction) -> None:
    modules: dict[str, tuple[str, str]] = {}  # local name -> (tag, operation module)
    for imp in out.imports:
        parts = imp.module.split(".")
        if imp.name and len(parts) >= 2 and parts[-2] == "api" and imp.level == 0:
            modules[imp.local] = (parts[-1], imp.name)
    if not modules:
        return
    for c in out.calls:
        if c.name in CLIENT_FUNCTIONS and c.receiver in modules:
            tag, op = modules[c.receiver]
            out.http_calls.append(HttpCall("openapi-client", "*", Template(), c.caller, c.line, c.col,
                                           operation=f"{tag}.{op}"))
