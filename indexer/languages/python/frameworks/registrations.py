"""Functions registered with a library by a call instead of a decorator, as bindings the resolver reads.

``jwt.user_loader_callback_loader(jwt_identity)`` (Flask-JWT-Extended 3.x),
``login_manager.user_loader(load_user)`` (Flask-Login) or ``auth.verify_password(check)``
(Flask-HTTPAuth) register ``f`` exactly as ``@R.name`` on ``def f`` would. A statement ``R.name(f)``
-> a :class:`~indexer.model.Binding` ``(scope, "@R.name", "f", "registers")``: the name is the
decorator text the call stands for, prefixed ``@`` (no code name can collide with it), the type the
handed function as written. The resolver's tables index it under the decorator's name
(:meth:`indexer.resolve.language.Lookup.registrations`), beside the functions so decorated, so a
library proxy (``current_user``, :mod:`indexer.languages.python.modules`) and the guard callbacks
(:mod:`indexer.frameworks.auth_guards`) see both forms.

Rules (few false registrations, since only readers asking for a decorator name see them): the call
is a statement of its own (its value unused), its callee a dotted name ``R.name`` (``R`` any
receiver), its one argument positional, a name or dotted name that names a function: one the file
defines (a ``def`` of that name anywhere in the file) or an imported name (``from m import f``, or
``mod.f`` after ``import mod``). ``db.session.add(user)`` (a local), ``items.append(x)`` register
nothing. The curried form ``R.name(arg)(f)`` is the call ``@R.name(arg)`` would make: decorator text
``R.name(arg)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.python.frameworks.common import CallLocator, compact, scope_of
from indexer.model import Binding, FileExtraction
from indexer.resolve.context import REGISTERS

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a ``registers`` binding for each registration call of one parsed Python file to ``out``."""
    functions = {d.name for d in out.definitions if d.kind in ("function", "method")}
    named = {i.local for i in out.imports if i.name is not None}
    modules = {i.local for i in out.imports if i.name is None}
    locate: CallLocator | None = None
    for c in out.calls:
        if c.receiver is None or c.arity != 1 or c.via is not None:
            continue
        locate = locate or CallLocator(root, src)
        call = locate.call_at(c.line, c.col)
        if call is None:
            continue
        parent = call.parent
        if _statement(call):
            handed_in = call
        elif parent is not None and parent.type == "call" and parent.child_by_field_name("function") == call \
                and _statement(parent):
            handed_in = parent  # R.name(arg)(f)
        else:
            continue
        arg = _single_argument(handed_in)
        if arg is None or not _names_function(src, arg, functions, named, modules):
            continue
        decorator = compact(src, call) if handed_in is parent else compact(src, call.child_by_field_name("function"))
        out.bindings.append(Binding(scope_of(call, src), "@" + decorator, compact(src, arg), REGISTERS, c.line))


def _statement(node: Node) -> bool:
    """Whether ``node`` is an expression statement of its own (grammars differ on an
    ``expression_statement`` around it)."""
    p = node.parent
    return p is not None and (p.type == "expression_statement" or p.type in ("module", "block"))


def _single_argument(call: Node) -> Node | None:
    """The call's only argument when it is positional and a name or dotted name, else ``None``."""
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "argument_list" or len(args.named_children) != 1:
        return None
    arg = args.named_children[0]
    return arg if arg.type in ("identifier", "attribute") else None


def _names_function(src: SourceText, arg: Node, functions: set[str], named: set[str], modules: set[str]) -> bool:
    """Whether ``arg`` names a function as far as the file tells (module docstring)."""
    if arg.type == "identifier":
        name = src.text(arg)
        return name in functions or name in named
    text = compact(src, arg)
    head, _, last = text.rpartition(".")
    return head.split(".", 1)[0] in modules or head.split(".", 1)[0] in named and last.isidentifier()
