"""Objects a JavaScript / TypeScript function returns, and names destructured from a value.

A custom React hook (or any factory of functions) hands its functions back in an object literal,
and its callers destructure it::

    const useCustomToast = () => {
      const showSuccessToast = (d) => { ... }
      return { showSuccessToast, fail: showErrorToast }
    }
    const { showSuccessToast } = useCustomToast()   // or: const t = useCustomToast(); t.fail()
    showSuccessToast("saved")

:func:`returned_objects`: a ``return { ... }`` (or an arrow's ``() => ({ ... })``) whose properties
name functions (as :mod:`indexer.languages.ecmascript.objects` decides for ``const o = { ... }``)
becomes an object of the function's scope, bound under the name :data:`RETURNED` (a reserved word of
the language: no variable of the source can have it), with one ``alias`` binding per such property
in the object's scope (``useCustomToast.return``); the function's ``returned_refs`` names it, so
the resolver's ``call_result`` of the function is that object
(:class:`indexer.resolve.values.ObjV`). Several returned literals of one function are one object
(the union of their properties). A returned name whose nearest declaration in the function is a
``const`` holding an object literal (``const api = { open, close }; return api``) returns that
literal; a ``let`` / ``var`` (which may be reassigned), a parameter or a ``catch`` / ``for`` variable
of that name returns no known object.

Functions written in a returned literal (``() => ({ get() {} })``, ``return { put: () => ... }``)
are definitions of their own under that object (``F.return.get``, the extractor's ``_returned``
rule of ``definitions.scm``), so such a literal is an object even with no property naming a
function; a ``const`` object with such functions returned by name (``const api = { get() {} };
return api``) is ``F.api`` itself, its name the definition's ``returned_refs``.
:func:`exported_results`: ``export default F()`` of such a factory ``F`` exports what the call returns.

:func:`destructured`: ``const { a, b: c, d = x } = f()`` / ``= await f()`` / ``= obj`` binds each
name as the ``item`` ``f().a`` (``f().b`` for ``c``, ``obj.d``), which the resolver evaluates as
it does Python's ``a, b = f()`` (``f()[0]``): a call of ``a`` binds the function the object's
property names. ``require(...)`` / ``import(...)`` are imports, not this. Rest elements (``...rest``) and nested patterns are left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from indexer.languages.ecmascript.assignments import function_of
from indexer.languages.ecmascript.local_scopes import BLOCK_TYPES, HEAD_TYPES, ScopeTables
from indexer.model import CALLABLE_KINDS, Binding, Export

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.model import Definition

__all__ = ["GENERATORS", "RETURNED", "destructured", "destructured_names", "exported_results", "function_names", "local_shadows", "returned_objects"]

RETURNED = "return"
"""The name a function's returned object literal is bound under in the function's scope: a reserved
word of JavaScript and TypeScript, so no name of the source shadows or collides with it."""

GENERATORS = frozenset({"generator_function_declaration", "generator_function"})
"""Generator functions: what they return is an iterator, not the object literal they ``return``."""
_MODULE_LOADERS = frozenset({"require", "import"})
"""Callees whose destructured names are imports (``const { Router } = require("express")``), read
as such by ``imports.scm``."""
_SOURCES = frozenset({"call_expression", "identifier", "member_expression", "await_expression"})


def function_names(fr: Any) -> set[str]:
    """The names a property of an object literal in ``fr``'s file (the extractor's file run, its
    definitions and imports read, ``objects`` its object bindings so far) may name as a function: the
    file's functions at top level or nested in a function (not its methods), its imported names and
    its objects."""
    kinds = {d.qualname: d.kind for d in fr.out.definitions}
    known = {d.name for d in fr.out.definitions
             if d.kind in CALLABLE_KINDS and (d.parent is None or kinds.get(d.parent) in CALLABLE_KINDS)}
    return known | {i.local for i in fr.out.imports} | {name for _, name in fr.objects}


def local_shadows(fr: Any) -> ScopeTables:
    """The :class:`~indexer.languages.ecmascript.local_scopes.ScopeTables` of ``fr``'s file for
    :meth:`~indexer.languages.ecmascript.local_scopes.ScopeTables.shadowed` (the extractor's file run:
    ``text`` and ``fn_defs`` read): a declarator's function value is a definition when the extractor
    made one of it."""
    return ScopeTables(fr.text, defines=lambda node: node.id in fr.fn_defs)


def returned_objects(fr: Any, matches: list[dict[str, list[Node]]]) -> None:
    """Bind the object literals returned by the definitions of ``fr`` (the extractor's file run:
    definitions, imports and ``fn_defs`` read; ``text``, ``receiver``, ``src``, ``out``) from the
    ``returns.scm`` ``matches``: an ``object`` binding :data:`RETURNED` in the function's scope, an
    ``alias`` binding per property naming a function, and :data:`RETURNED` appended to the
    definition's ``returned_refs``. Properties naming anything else (a variable, a literal, a call)
    are left out, and so is a name a local of the function shadows (``const go = useCallback(...);
    return { go }``: :mod:`indexer.languages.ecmascript.local_scopes`); a literal with none is no
    object."""
    if not matches:
        return
    known = function_names(fr)
    locals_ = local_shadows(fr)
    bound: dict[int, Definition] = {}
    for caps in matches:
        if "arrow" in caps:
            fn, value = caps["arrow"][0], caps["body"][0]
        else:
            fn, value = function_of(caps["return"][0]), caps["value"][0]
        value = held = _unwrapped(value)
        if value.type == "identifier" and fn is not None:  # `const api = { open }; return api`
            value = _held_literal(fr, locals_, fn, value) or value
        d = fr.fn_defs.get(fn.id) if fn is not None else None
        if value.type != "object" or d is None or fn.type in GENERATORS:
            continue
        methods = any(child.id in fr.def_ids for child in value.named_children)
        if methods and held is not value:  # `const api = { get() {} }; return api`: the object f.api itself
            if not d.returned_refs:
                d.returned_refs.append(fr.text(held))
            continue
        props = [(key, value) for key, value in named_properties(value)
                 if (head := fr.receiver(value).split(".", 1)[0]) in known and not locals_.shadowed(value, head)]
        if not props and not methods:  # `return { get() {} }`: its functions are F.return.get (extractor)
            continue
        scope = f"{d.qualname}.{RETURNED}"
        if id(d) not in bound:
            bound[id(d)] = d
            fr.out.bindings.append(Binding(d.qualname, RETURNED, RETURNED, "object", fr.src.line(value)))
            if RETURNED not in d.returned_refs:
                d.returned_refs.append(RETURNED)
        for key, prop in props:
            text = fr.receiver(prop)
            if "(" not in text and "[" not in text:
                fr.out.bindings.append(Binding(scope, fr.text(key), text, "alias", fr.src.line(key)))


def exported_results(fr: Any, matches: list[dict[str, list[Node]]]) -> None:
    """Make the default export of ``export default F()`` / ``module.exports = F()`` (``F(config)``)
    what the call returns, and of ``export default new X()`` / ``module.exports = new X()`` the
    instance (``exports.scm``'s ``@default_factory`` captures of ``matches``; ``fr``: the extractor's
    file run, after :func:`returned_objects`), when the callee is
    - for a call, a top-level function of the file returning an object (its ``returned_refs`` name
      one: :data:`RETURNED` or a ``const`` object), or a name the file imports (the resolver follows
      the import to the factory and reads what it returns; a library's function resolves nothing);
    - for ``new``, a top-level class of the file or an imported name (its methods are the class's);
    as a ``constructed`` :class:`~indexer.model.Binding` of the word ``default`` (reserved, so no name
    of the source is it) at module level to the callee, and ``Export("default", local="default")``,
    so that an importer's ``X.get()`` resolves through the resolver's call result of ``F`` (the
    instance of ``X``). A file already exporting a default (``export default memo(Page)``: the
    wrapped ``Page``) keeps it; a call of a nested function, of ``require``, or of a function of the
    file returning anything else exports nothing new. A Vue component's script is left alone (its
    default export is the component, ``vue.py``)."""
    if fr.out.path.endswith(".vue"):
        return
    imported = {i.local for i in fr.out.imports}
    for caps in matches:
        if "default_factory" not in caps:
            continue
        node = caps["default_factory"][0]
        callee = fr.text(node)
        if any(e.exported == "default" for e in fr.out.exports):
            return
        built = node.parent is not None and node.parent.type == "new_expression"
        local = any(d.parent is None and d.name == callee and (d.kind == "class" if built else _returns_object(fr, d))
                    for d in fr.out.definitions)
        if local or (callee in imported and callee != "require"):
            fr.out.bindings.append(Binding(None, "default", callee, "constructed", fr.src.line(node)))
            fr.out.exports.append(Export("default", local="default"))
            return


def _returns_object(fr: Any, d: Definition) -> bool:
    """Whether the definition ``d`` returns an object literal of its own: :data:`RETURNED`, or one
    ``const`` object of its body (``return api``) bound ``object`` in its scope."""
    refs = d.returned_refs
    return len(refs) == 1 and (refs[0] == RETURNED or (d.qualname, refs[0]) in fr.objects)


def _unwrapped(value: Node) -> Node:
    """``value`` without the parentheses around it."""
    while value.type == "parenthesized_expression" and value.named_child_count == 1:
        value = value.named_children[0]
    return value


def _held_literal(fr: Any, tables: ScopeTables, fn: Node, use: Node) -> Node | None:
    """The object literal the name ``use`` returns (``return api`` / ``() => api``) holds: the value of
    the nearest ``const`` declarator of that name in a block of ``fn`` around ``use`` written before it
    (:meth:`~indexer.languages.ecmascript.local_scopes.ScopeTables.declarator_before`), when that value
    is an object literal. ``None`` when the nearest declaration is a ``let`` / ``var`` (it may be
    reassigned), a parameter, a ``catch`` or ``for`` variable, or of another value, or when there is none."""
    name = fr.text(use)
    node = use.parent
    while node is not None:
        if node.type in HEAD_TYPES or node.id == fn.id:
            if name in tables.bound_words(node):
                return None
            if node.id == fn.id:
                return None
        elif node.type in BLOCK_TYPES:
            found = tables.declarator_before(node, name, use.start_byte)
            if found is not None:
                declaration = found.parent
                if declaration is None or declaration.type != "lexical_declaration" or \
                        declaration.child(0) is None or declaration.child(0).type != "const":
                    return None
                value = found.child_by_field_name("value")
                value = _unwrapped(value) if value is not None else None
                return value if value is not None and value.type == "object" else None
        node = node.parent
    return None


def destructured(fr: Any, matches: list[dict[str, list[Node]]]) -> None:
    """Bind each name of the object patterns of ``matches`` (``objects.scm``'s ``@pattern`` /
    ``@source`` captures: ``const { a, b: c } = f()``) as an ``item`` of its source's property:
    ``a`` -> ``f().a``, ``c`` -> ``f().b``, in the scope the declaration is written in. A source
    that is no call, name or member (a literal, an operator) binds nothing."""
    for caps in matches:
        if "pattern" not in caps:
            continue
        pattern, source = caps["pattern"][0], caps["source"][0]
        if source.type not in _SOURCES:
            continue
        text = fr.receiver(source)
        if not text or "[" in text or text.split("(", 1)[0] in _MODULE_LOADERS:  # `require("x")`: imports.scm
            continue
        scope = fr.code_scope(pattern)
        for key, local in _pattern_names(pattern):
            name = fr.text(local)
            if text.split(".", 1)[0].split("(", 1)[0] != name:  # `const { a } = a()`: nothing new of a
                fr.out.bindings.append(Binding(scope, name, f"{text}.{fr.text(key)}", "item", fr.src.line(local)))


def destructured_names(fr: Any, matches: list[dict[str, list[Node]]]) -> frozenset[str]:
    """The local names :func:`destructured` binds from ``matches`` (``fr``: the extractor's file run):
    the names a bare identifier handed on may take a function of the repository by."""
    out: set[str] = set()
    for caps in matches:
        if "pattern" in caps and caps["source"][0].type in _SOURCES:
            out.update(fr.text(local) for _, local in _pattern_names(caps["pattern"][0]))
    return frozenset(out)


def named_properties(obj: Node) -> list[tuple[Node, Node]]:
    """``(key, value)`` of each property of the object literal ``obj`` whose value is a name or a
    member expression: ``{ a }`` (the name is both), ``{ b: foo }``, ``{ c: util.bar }``."""
    out = []
    for prop in obj.named_children:
        if prop.type == "shorthand_property_identifier":
            out.append((prop, prop))
        elif prop.type == "pair":
            key, value = prop.child_by_field_name("key"), prop.child_by_field_name("value")
            if key is not None and value is not None and key.type == "property_identifier" \
                    and value.type in ("identifier", "member_expression"):
                out.append((key, value))
    return out


def _pattern_names(pattern: Node) -> list[tuple[Node, Node]]:
    """``(key, local)`` of each plain property of the object pattern ``pattern``: ``{ a }`` and
    ``{ a = 1 }`` (key and local are ``a``), ``{ a: b }`` (key ``a``, local ``b``)."""
    out = []
    for prop in pattern.named_children:
        if prop.type == "shorthand_property_identifier_pattern":
            out.append((prop, prop))
        elif prop.type == "object_assignment_pattern":
            left = prop.child_by_field_name("left")
            if left is not None and left.type == "shorthand_property_identifier_pattern":
                out.append((left, left))
        elif prop.type == "pair_pattern":
            key, value = prop.child_by_field_name("key"), prop.child_by_field_name("value")
            if key is not None and value is not None and key.type == "property_identifier" \
                    and value.type == "identifier":
                out.append((key, value))
    return out
