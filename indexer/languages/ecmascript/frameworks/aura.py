"""Aura components (Salesforce): the server actions a bundle's JavaScript runs on its Apex controller.

In a bundle's client-side controller, helper or renderer (``aura/<Name>/<Name>Controller.js``,
``<Name>Helper.js``, ``<Name>Renderer.js``: the file name is the bundle folder's name plus the
role, as the Aura framework requires), ``x.get("c.getItems")`` (``component.get``, ``cmp.get``:
any receiver, one string literal argument ``c.<name>``) makes the server action of the Apex
controller's ``@AuraEnabled`` method ``getItems``, which ``$A.enqueueAction(action)`` then runs: a
call site of ``getItems`` from the function holding the ``get`` (the same caller the extractor gives
the ``get`` call), at the string literal, with receiver :data:`RECEIVER`. That receiver is bound by
one :class:`~indexer.model.Import` of the module :data:`AURA_SPECIFIER` + the bundle folder, which
the ECMAScript module system resolves through the bundle's markup (the ``controller`` attribute of
its ``.cmp`` / ``.app``: :mod:`indexer.languages.aura`), so an edit of the markup re-binds the calls.
The arguments (``action.setParams({...})``) are not counted: arity unknown.

Not linked: ``v.attr`` (attribute values) and ``e.x`` / ``c:x`` (events, child components: other
value providers); a string built at run time; any JavaScript file outside a bundle's naming.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from indexer.model import CallSite, FileExtraction, Import

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["AURA_SPECIFIER", "LANGUAGES", "RECEIVER", "bundle_folder", "detect"]

LANGUAGES = ("javascript",)
AURA_SPECIFIER = "aura-bundle:"
"""The module specifier of a bundle's markup (a prefix no package or relative path has), its folder after it."""
RECEIVER = "c"
"""The receiver of a server action's call site: Aura's value provider ``c`` (no JavaScript name of the file)."""
_ROLES = ("Controller", "Helper", "Renderer")
_ACTION = re.compile(r"c\.([A-Za-z_]\w*)")


def bundle_folder(path: str) -> str | None:
    """The bundle folder of ``path`` (repository-relative) when it is a bundle's controller, helper
    or renderer (``a/aura/list/listHelper.js`` -> ``a/aura/list``), else ``None``."""
    folder, name = posixpath.split(path)
    bundle = posixpath.basename(folder)
    return folder if bundle and name in {f"{bundle}{role}.js" for role in _ROLES} else None


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the server-action call sites of an Aura bundle's JavaScript file and the one import
    binding their receiver (module docstring)."""
    folder = bundle_folder(out.path)
    if folder is None:
        return
    getters = {(c.line, c.col): c.caller for c in out.calls if c.name == "get" and c.receiver is not None}
    found: list[CallSite] = []
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "call_expression":
            continue
        fn, args = n.child_by_field_name("function"), n.child_by_field_name("arguments")
        prop = fn.child_by_field_name("property") if fn is not None and fn.type == "member_expression" else None
        if prop is None or args is None or src.text(prop) != "get" or len(args.named_children) != 1:
            continue
        literal = args.named_children[0]
        if literal.type != "string":
            continue
        action = _ACTION.fullmatch(src.text(literal)[1:-1])
        at = (src.line(prop), src.col(prop))
        if action is None or at not in getters:
            continue
        found.append(CallSite(getters[at], action.group(1), RECEIVER, -1, src.line(literal), src.col(literal)))
    if found:
        out.imports.append(Import(RECEIVER, AURA_SPECIFIER + folder, None, line=min(c.line for c in found)))
        out.calls.extend(sorted(found, key=lambda c: (c.line, c.col)))
