"""Lightning Web Components (Salesforce): what the LWC engine calls in a component module.

In a file importing ``lwc``:

* ``@wire(adapter, config)`` on a field or method makes the engine call ``adapter`` for the component:
  a call site of ``adapter`` from the component class at the adapter's name. Imported from
  ``@salesforce/apex/Class.method``, the adapter is that Apex method
  (:func:`indexer.languages.ecmascript.modules.apex_method`), so the Apex method's callers list the
  component; an adapter from a platform module (``lightning/uiRecordApi``) stays external.
  Imperative calls of an imported Apex method (``getContacts({...}).then(...)``) are ordinary calls.
* The lifecycle hooks of a class extending ``LightningElement`` (``constructor`` aside:
  ``connectedCallback``, ``disconnectedCallback``, ``renderedCallback``, ``errorCallback``,
  ``render``) are run by the engine: each is an :class:`~indexer.model.EntryRegistration` of kind
  ``runtime``, framework ``lwc``, named ``lifecycle``.

Not read: event handlers bound in the component's HTML template (``onclick={handleSave}``), which
lives in another file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import enclosing_class
from indexer.model import CallSite, EntryRegistration, FileExtraction

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["HOOKS", "LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")
HOOKS = frozenset({"connectedCallback", "disconnectedCallback", "renderedCallback", "errorCallback", "render"})
_BASE = "LightningElement"


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the ``@wire`` adapter calls and the lifecycle-hook entry points of an LWC module."""
    if not any(i.module == "lwc" for i in out.imports):
        return
    classes = {d.qualname for d in out.definitions if d.kind == "class"}
    wired: list[CallSite] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "decorator":
            call = next((c for c in n.named_children if c.type == "call_expression"), None)
            fn = call.child_by_field_name("function") if call is not None else None
            args = call.child_by_field_name("arguments") if call is not None else None
            if fn is not None and src.text(fn) == "wire" and args is not None and args.named_children \
                    and args.named_children[0].type == "identifier":
                owner = enclosing_class(n, src)
                if owner in classes:
                    adapter = args.named_children[0]
                    wired.append(CallSite(owner, src.text(adapter), None, 1, src.line(adapter), src.col(adapter)))
            continue
        stack.extend(n.named_children)
    out.calls.extend(sorted(wired, key=lambda c: (c.line, c.col)))
    components = {d.qualname for d in out.definitions
                  if d.kind == "class" and any(b.rsplit(".", 1)[-1] == _BASE for b in d.bases)}
    for d in out.definitions:
        if d.kind == "method" and d.parent in components and d.name in HOOKS:
            out.entries.append(EntryRegistration("lwc", "runtime", d.qualname, d.name_line, d.name_col, name="lifecycle"))
