"""The local bindings and type uses of an ECMAScript file, from the matches of
``queries/bindings.scm`` and ``queries/type_uses.scm``: :class:`~indexer.model.Binding` (a name
declared with a type, constructed, an alias, either operand of ``??`` / ``||``; ``this.x = new
Foo()`` and ``this.x = y`` bound in its class; a name assigned in ``if`` / ``else`` branches joined) and
:class:`~indexer.model.TypeUse` (a TypeScript type named outside its own type parameters)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from indexer.languages.ecmascript.assignments import BranchJoin, own_target
from indexer.languages.ecmascript.operands import either_bindings
from indexer.languages.ecmascript.refs import boxed_call_type
from indexer.languages.ecmascript.syntax import bindable, inside
from indexer.model import Binding, TypeUse

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["binding_records", "type_use_records"]

_WS = re.compile(r"\s+")


def binding_records(fr: Any, matches: list[dict[str, list[Node]]]) -> None:
    """Append ``matches`` (bindings.scm) to ``fr.out.bindings`` as :class:`~indexer.model.Binding` records
    (``fr``: the extractor's file run, definitions already read, with ``text``, ``flat``, ``src``,
    ``out``, ``def_ids``, ``scope_of``, ``code_scope`` and ``receiver``)."""
    bindings = fr.out.bindings
    joins = BranchJoin()
    for caps in matches:
        name = caps["name"][0]
        line = fr.src.line(name)
        if name.type == "member_expression":  # this.x = new Foo() / this.x = y: bound in the class
            scope = fr.scope_of(name)
            owner = (scope.class_qualname or scope.code_scope) if scope else None
            if "alias" in caps:
                target = fr.receiver(caps["alias"][0])
                if "(" not in target and "[" not in target:  # `this.x = a.b().c` / `a[0]` are not aliases
                    bindings.append(Binding(owner, fr.receiver(name), target, "alias", line))
                continue
            ctor = fr.receiver(caps["constructed"][0])
            bindings.append(Binding(owner, fr.receiver(name), ctor, "constructed", line))
            continue
        scope_name, local = fr.code_scope(name), fr.text(name)
        assign = name.parent if name.parent is not None and name.parent.type == "assignment_expression" else None
        if assign is not None and not joins.declared_here(name):  # `x = ...` of a name not its function's
            continue
        start = len(bindings)
        if "declared" in caps:
            bound = bindable(fr.flat(caps["declared"][0]))
            if bound:
                bindings.append(Binding(scope_name, local, bound, "declared", line))
        elif "either" in caps:  # `const s = cached ?? new Service()`: either operand
            bindings.extend(either_bindings(scope_name, local, caps["either"][0], line, fr.receiver))
        elif "constructed" in caps:
            built = caps["constructed"][0]
            if built.parent is not None and built.parent.type == "call_expression" and name.parent is not None \
                    and name.parent.id in fr.def_ids:
                continue  # `const X = call(f)` made a definition (values.scm): X is that, not the call's result
            ctor = fr.receiver(built)
            args = built.parent.child_by_field_name("type_arguments") if built.parent is not None else None
            boxed = bindable(boxed_call_type(ctor, fr.text(args))) if args is not None else None
            if boxed:  # `const form = ref<Form>()`: a ref of a Form (refs.py); else what the call returns
                bindings.append(Binding(scope_name, local, boxed, "declared", line))
            bindings.append(Binding(scope_name, local, ctor, "constructed", line))
        else:
            target = fr.receiver(caps["alias"][0])
            if "(" not in target and "[" not in target:  # `a.b().c` / `a[0]` are not aliases
                bindings.append(Binding(scope_name, local, target, "alias", line))
        if assign is not None:  # `node = node.parent` says nothing new; `if ... h = f; else h = g`: joined
            bindings[start:] = [b for b in bindings[start:] if not own_target(local, b.type)]
            joins.add(assign, bindings[start:])
    bindings.extend(joins.joined(bindings))


def type_use_records(fr: Any, matches: list[dict[str, list[Node]]]) -> None:
    """Append the type names of ``matches`` (type_uses.scm) to ``fr.out.type_uses``, sorted by position,
    leaving out type parameters (added to ``fr.type_params``) and what a ``skip`` capture spans
    (``fr``: the extractor's file run, with ``text``, ``src``, ``out``, ``type_params`` and ``scope_of``)."""
    uses: list[Node] = []
    skips: list[tuple[int, int]] = []
    type_params = fr.type_params
    for caps in matches:
        if "type" in caps:
            uses.append(caps["type"][0])
        elif "skip" in caps:
            n = caps["skip"][0]
            skips.append((n.start_byte, n.end_byte))
        else:
            n = caps["type_param"][0]
            type_params.add(fr.text(n))
            skips.append((n.start_byte, n.end_byte))
    skips.sort()
    out = fr.out.type_uses
    for n in uses:
        if n.parent is not None and n.parent.type == "nested_type_identifier":
            continue  # reported as part of the qualified name
        text = fr.text(n)
        if text in type_params or inside(skips, n.start_byte):
            continue
        scope = fr.scope_of(n)
        owner = scope.qualname if scope else None
        out.append(TypeUse(owner, _WS.sub("", text), fr.src.line(n), fr.src.col(n)))
    out.sort(key=lambda u: (u.line, u.col))
