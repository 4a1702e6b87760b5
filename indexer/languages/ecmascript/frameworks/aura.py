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

The framework hands each function of the controller its bundle's helper object (``function
(component, event, helper)``; a renderer's: ``(component, helper)``): a call ``helper.load(...)`` on
that parameter (and ``this.load(...)`` in a top-level function of the helper itself, called on the
helper object) is a call of the helper file's top-level function ``load`` (the call site's receiver
becomes :data:`HELPER`, imported from :data:`AURA_HELPER` + the bundle folder: the bundle's helper, or
the helper of the component it ``extends`` when its own has no ``load``, as :mod:`indexer.languages.aura`
resolves it), so a server action's caller in the helper reaches the controller's action handler.

Every top-level function of a controller (an action: markup's ``{!c.doInit}``, an event handler) or
renderer (``render``, ``afterRender``...) is run by the framework: an
:class:`~indexer.model.EntryRegistration` of kind ``runtime``, framework ``aura``, named ``action`` or
``renderer``; a helper's functions are not (only the bundle's code calls them).

Not linked: ``v.attr`` (attribute values) and ``e.x`` / ``c:x`` (events, child components: other
value providers); a string built at run time; any JavaScript file outside a bundle's naming.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from indexer.model import CallSite, EntryRegistration, FileExtraction, Import

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["AURA_HELPER", "AURA_SPECIFIER", "HELPER", "LANGUAGES", "RECEIVER", "bundle_folder", "detect"]

LANGUAGES = ("javascript",)
AURA_SPECIFIER = "aura-bundle:"
"""The module specifier of a bundle's markup (a prefix no package or relative path has), its folder after it."""
AURA_HELPER = "aura-helper:"
"""The module specifier of a bundle's helper as the framework hands it (its own helper, then its base
component's), the bundle folder after it."""
RECEIVER = "aura$c"
"""The receiver of a server action's call site, bound to the bundle's Apex controller: a name no code
writes (the component parameter is often ``c`` itself)."""
HELPER = "aura$helper"
"""The receiver of a call of the bundle's helper, bound to the helper file's module."""
_ROLES = ("Controller", "Helper", "Renderer")
_HELPER_PARAMETER = {"Controller": 2, "Renderer": 1}
_RUN_BY_FRAMEWORK = {"Controller": "action", "Renderer": "renderer"}
"""Where the framework hands a function of the controller / renderer the bundle's helper: ``(component, event, helper)``, ``(component, helper)``."""
_ACTION = re.compile(r"c\.([A-Za-z_]\w*)")
_NESTED_THIS = "function.this"
"""The receiver the extractor writes for ``this`` in a function nested in the caller (its own ``this``)."""
_OWN_THIS = frozenset({"function_expression", "function", "function_declaration", "generator_function",
                       "generator_function_declaration", "method_definition"})
"""Functions with a ``this`` of their own (arrow functions take the one around them)."""


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
    _helper_calls(folder, out, _scoped_callback_calls(root, src) if _role(folder, out.path) == "Helper" else frozenset())
    role = _role(folder, out.path)
    if role in _RUN_BY_FRAMEWORK:
        for d in out.definitions:
            if d.parent is None and d.kind == "function":
                out.entries.append(EntryRegistration("aura", "runtime", d.qualname, d.name_line, d.name_col,
                                                     name=_RUN_BY_FRAMEWORK[role]))


def _role(folder: str, path: str) -> str:
    """``Controller``, ``Helper`` or ``Renderer``: what a bundle file of ``folder`` at ``path`` is."""
    return posixpath.basename(path)[len(posixpath.basename(folder)):-len(".js")]


def _helper_calls(folder: str, out: FileExtraction, scoped: frozenset[tuple[int, int]]) -> None:
    """In a controller or renderer, make ``helper.f(...)`` (``helper`` the parameter the framework
    hands each top-level function of the bundle object) a call on :data:`HELPER`, which one import
    binds to the bundle's helper (its top-level function ``f``, else its base component's); in a
    helper, ``this.f(...)`` written in a top-level function (``this`` is the helper object the
    function is called on: ``helper.load(...)``) likewise, and in a callback it hands
    ``action.setCallback(this, function () {...})`` (at the positions ``scoped``: Aura runs the
    callback with the scope given, also wrapped in ``$A.getCallback``) and a call on a variable set to
    ``this`` in the function (:func:`_scoped_callback_calls`). ``this`` in any other nested function is not
    read (it depends on how that function is called)."""
    role = _role(folder, out.path)
    at = _HELPER_PARAMETER.get(role)
    if role == "Helper":
        handed = {d.qualname: "this" for d in out.definitions if d.parent is None and d.kind == "function"}
    elif at is None:
        return
    else:
        handed = {d.qualname: d.params[at].name for d in out.definitions
                  if d.parent is None and d.kind == "function" and len(d.params) > at}
    line = 0
    for cs in out.calls:
        if cs.caller in handed and (cs.receiver == handed[cs.caller] or
                                    (cs.receiver == _NESTED_THIS and (cs.line, cs.col) in scoped)):
            cs.receiver = HELPER
            line = line or cs.line
        elif cs.caller in handed and role == "Helper" and (cs.line, cs.col) in scoped:
            cs.receiver = HELPER  # `var self = this; ... self.f()`
            line = line or cs.line
    if line:
        out.imports.append(Import(HELPER, AURA_HELPER + folder, None, line=line))


def _scoped_callback_calls(root: Node, src: SourceText) -> frozenset[tuple[int, int]]:
    """The positions of the callee names of calls whose receiver is the helper though not written
    ``this`` in a top-level function of the file (where ``this`` is the helper):

    * ``this.f(...)`` in a callback handed ``action.setCallback(this, function (response) {...})``
      (``Action.setCallback(scope, callback)`` runs the callback with ``this`` = ``scope``), also when the
      callback is wrapped ``$A.getCallback(function () {...})`` (Aura's wrapper calls it with the ``this``
      it is called with), not inside a function nested in the callback;
    * ``self.f(...)`` where the top-level function declares ``var self = this`` (any name), anywhere in
      that function, its callbacks included (``$A.getCallback(function () { helper.f(); })``, greased's
      ``var helper = this``), except in a nested function declaring the same name again."""
    found: set[tuple[int, int]] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type == "variable_declarator":
            _alias_calls(n, src, found)
            continue
        prop = _member_call(n)
        args = n.child_by_field_name("arguments")
        if prop is None or args is None or src.text(prop) != "setCallback":
            continue
        handed = [a for a in args.named_children if a.type != "comment"]
        callback = _unwrapped(handed[1], src) if len(handed) >= 2 else None
        if handed[0].type != "this" or callback is None or not _outermost(n):
            continue
        inner = [callback.child_by_field_name("body")]
        while inner:
            m = inner.pop()
            if m is None or m.type in _OWN_THIS:
                continue  # a function of its own: another `this`
            inner.extend(m.named_children)
            name = _member_call(m)
            if name is not None and name.parent.child_by_field_name("object").type == "this":
                found.add((src.line(name), src.col(name)))
    return frozenset(found)


def _member_call(n: Node) -> Node | None:
    """The property node of call ``n`` written ``x.f(...)`` (``f``), else ``None``."""
    fn = n.child_by_field_name("function") if n.type == "call_expression" else None
    return fn.child_by_field_name("property") if fn is not None and fn.type == "member_expression" else None


def _unwrapped(arg: Node, src: SourceText) -> Node | None:
    """The function ``arg`` is, or wraps as ``$A.getCallback(function () {...})``; else ``None``."""
    if arg.type in _OWN_THIS:
        return arg
    prop = _member_call(arg)
    if prop is None or src.text(prop) != "getCallback" or src.text(prop.parent.child_by_field_name("object")) != "$A":
        return None
    inner = [a for a in arg.child_by_field_name("arguments").named_children if a.type != "comment"]
    return inner[0] if len(inner) == 1 and inner[0].type in _OWN_THIS else None


def _alias_calls(declarator: Node, src: SourceText, found: set[tuple[int, int]]) -> None:
    """Add to ``found`` the callee positions of ``name.f(...)`` in the top-level function where
    ``declarator`` is ``name = this`` (not nested in another function with a ``this`` of its own),
    outside nested functions declaring ``name`` again (a parameter or a variable)."""
    name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
    if name is None or value is None or name.type != "identifier" or value.type != "this" or not _outermost(declarator):
        return
    alias = src.text(name)
    fn = declarator.parent
    while fn is not None and fn.type not in _OWN_THIS:
        fn = fn.parent
    inner = [fn.child_by_field_name("body")] if fn is not None else []
    while inner:
        m = inner.pop()
        if m is None or (m.type in _OWN_THIS or m.type == "arrow_function") and _redeclares(m, alias, src):
            continue
        inner.extend(m.named_children)
        prop = _member_call(m)
        obj = prop.parent.child_by_field_name("object") if prop is not None else None
        if obj is not None and obj.type == "identifier" and src.text(obj) == alias:
            found.add((src.line(prop), src.col(prop)))


def _redeclares(fn: Node, alias: str, src: SourceText) -> bool:
    """Whether the nested function ``fn`` has a parameter or declares a variable named ``alias``."""
    stack = [c for c in fn.named_children if c.type != "statement_block"]
    stack += [fn.child_by_field_name("body")] if fn.child_by_field_name("body") is not None else []
    while stack:
        m = stack.pop()
        if m.type == "identifier" and m.parent is not None and m.parent.type in {"formal_parameters", "arrow_function"} \
                and src.text(m) == alias:
            return True
        if m.type == "variable_declarator" and src.text(m.child_by_field_name("name")) == alias:
            return True
        stack.extend(c for c in m.named_children if c.type not in _OWN_THIS and c.type != "arrow_function")
    return False


def _outermost(node: Node) -> bool:
    """Whether the nearest function around ``node`` with a ``this`` of its own (not an arrow function)
    is itself inside no function: a top-level function of a bundle file."""
    p, functions = node.parent, 0
    while p is not None:
        if p.type in _OWN_THIS:
            functions += 1
        p = p.parent
    return functions == 1
