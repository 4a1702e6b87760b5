"""Functions a JavaScript / TypeScript function returns uncalled: :attr:`indexer.model.Definition.returned_refs`.

``function foo() { return bar; }`` then ``foo()(1)`` or ``const x = foo(); x(1)``: calling ``foo``
yields ``bar``, and the resolver binds the call of that result to ``bar`` as it does for Python's
``return inner`` (:meth:`indexer.resolve.interpreter.Resolver.call_result`, ``inferred``). Rules in
``queries/returns.scm`` (a ``return``'s value, an arrow function's expression body); this module
keeps, per definition, the values written as a name or dotted name (each branch of ``c ? f : g``
and of ``a || b`` / ``a ?? b``) whose first part names a function or class the file defines or a
name it imports, and no parameter of the function; in a method, also ``this.x`` (a bound
method handed back). Any other returned value (a call, a literal, a parameter) sets
``returns_other``. A ``return`` inside an anonymous callback is the callback's, not the enclosing
definition's (the walk up stops at the first function), and a generator's values are no returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from indexer.languages.ecmascript.syntax import spelled

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.model import Definition

__all__ = ["factories", "returned_refs"]

_FUNCTIONS = frozenset({
    "function_declaration", "function_expression", "arrow_function", "method_definition", "function",
    "generator_function_declaration", "generator_function",
})
_GENERATORS = frozenset({"generator_function_declaration", "generator_function"})
_BRANCHES = {"ternary_expression": ("consequence", "alternative"), "binary_expression": ("left", "right")}
_MAX_BRANCHES = 8


def returned_refs(fr: Any, matches: list[dict[str, list[Node]]], by_function: dict[int, Definition]) -> None:
    """Fill ``returned_refs`` / ``returns_other`` of the definitions of ``fr`` (the extractor's file
    run: ``text``, ``out``) from the ``returns.scm`` ``matches``; ``by_function`` maps the node id of
    each definition's function node (the node holding its parameters and body) to the definition."""
    known = {d.name for d in fr.out.definitions if d.kind != "field"} | {i.local for i in fr.out.imports}
    names: dict[int, list[str]] = {}
    other: set[int] = set()
    owners: dict[int, Definition] = {}
    for caps in matches:
        if "arrow" in caps:
            fn, value = caps["arrow"][0], caps["body"][0]
            if value.type == "statement_block":
                continue
        else:
            fn, value = _function_of(caps["return"][0]), caps["value"][0]
        d = by_function.get(fn.id) if fn is not None else None
        if d is None or fn.type in _GENERATORS or "*" in d.signature.split("(", 1)[0] or value.type == "comment":
            continue
        owners[id(d)] = d
        params = {p.name for p in d.params}
        found: list[str] = []
        if _names(fr, value, found, 0):
            kept = [n for n in found if (head := n.split(".", 1)[0]) not in params
                    and (head in known or (head == "this" and n != "this" and d.kind == "method"))]
            names.setdefault(id(d), []).extend(kept)
            if len(kept) < len(found):
                other.add(id(d))
        else:
            other.add(id(d))
    for key, d in owners.items():
        refs = list(dict.fromkeys(names.get(key, ())))
        if refs:
            d.returned_refs = refs
            d.returns_other = key in other


def factories(fr: Any, matches: list[dict[str, list[Node]]]) -> set[str]:
    """The names of the module-level functions of ``fr``'s file (``function f``, ``const f = () =>``)
    that return a function written in the file uncalled: a named function expression (``return
    function inner() {}``) or the name of a function the file declares (``return bar``), not a
    parameter. Read from the ``returns.scm`` ``matches`` before any definition is made: the
    extractor leaves ``const g = f(h)`` of such an ``f`` to the resolver, which follows what ``f``
    returns (:func:`returned_refs`), instead of making ``g`` a value definition of its own."""
    declared: dict[str, bool] = {}  # name -> whether the file declares a function of that name
    out: set[str] = set()
    for caps in matches:
        if "arrow" in caps:
            fn, value = caps["arrow"][0], caps["body"][0]
        else:
            fn, value = _function_of(caps["return"][0]), caps["value"][0]
        name = _module_function_name(fr, fn) if fn is not None and fn.type not in _GENERATORS else None
        if name is None or name in out:
            continue
        while value.type == "parenthesized_expression" and value.named_child_count == 1:
            value = value.named_children[0]
        if value.type in ("function_expression", "generator_function") and value.child_by_field_name("name"):
            out.add(name)
        elif value.type == "identifier" and _declared(fr, fr.text(value), declared) \
                and fr.text(value) not in _param_names(fr, fn):
            out.add(name)
    return out


_DECLARATIONS = frozenset({"function_declaration", "generator_function_declaration", "function_expression",
                           "generator_function"})


def _declared(fr: Any, name: str, memo: dict[str, bool]) -> bool:
    """Whether ``fr``'s file declares a function ``name`` (a declaration or a named function
    expression): the identifiers spelled ``name`` looked up where the bytes spell it
    (:func:`~indexer.languages.ecmascript.syntax.spelled`), no walk of the tree; memoised in ``memo``."""
    found = memo.get(name)
    if found is None:
        nodes = spelled(fr.root, fr.src.data, name, _IDENTIFIER)
        if nodes is None:  # no byte string to look for: the walk
            found = any(fr.text(n.child_by_field_name("name")) == name for n in _declarations(fr.root))
        else:
            found = any(n.parent is not None and n.parent.type in _DECLARATIONS
                        and n.parent.child_by_field_name("name") == n for n in nodes)
        memo[name] = found
    return found


_IDENTIFIER = frozenset({"identifier"})


def _declarations(node: Node) -> list[Node]:
    """The function declarations and named function expressions in ``node``'s tree."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type in ("function_declaration", "generator_function_declaration", "function_expression",
                      "generator_function") and n.child_by_field_name("name") is not None:
            out.append(n)
        stack.extend(n.named_children)
    return out


def _module_function_name(fr: Any, fn: Node) -> str | None:
    """The name module-level code calls the function node ``fn`` by: a declaration's name, the
    declarator's of ``const f = function () {}`` / ``() => {}``; ``None`` below module level."""
    holder = fn.parent if fn.type != "function_declaration" else fn
    if holder is None:
        return None
    if holder.type == "variable_declarator":
        name = holder.child_by_field_name("name")
        holder = holder.parent
    elif holder.type == "function_declaration":
        name = holder.child_by_field_name("name")
    else:
        return None
    while holder is not None and holder.type in ("lexical_declaration", "variable_declaration", "export_statement",
                                                 "function_declaration"):
        holder = holder.parent
    return fr.text(name) if holder is not None and holder.type == "program" and name is not None else None


def _param_names(fr: Any, fn: Node) -> set[str]:
    """The plain names of ``fn``'s parameters."""
    params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
    if params is None:
        return set()
    if params.type == "identifier":
        return {fr.text(params)}
    out = set()
    for p in params.named_children:
        p = p.child_by_field_name("pattern") or p
        if p.type == "identifier":
            out.add(fr.text(p))
    return out


def _function_of(node: Node) -> Node | None:
    """The innermost function around ``node`` (a ``return`` statement)."""
    cur = node.parent
    while cur is not None and cur.type not in _FUNCTIONS:
        cur = cur.parent
    return cur


def _names(fr: Any, value: Node, out: list[str], depth: int) -> bool:
    """Append to ``out`` the names ``value`` may evaluate to uncalled; ``False`` when some branch of
    it is no name (a call, a literal, an operator other than ``||`` / ``??`` / ``&&``)."""
    t = value.type
    if t == "parenthesized_expression" and value.named_child_count == 1:
        return _names(fr, value.named_children[0], out, depth)
    if t in ("function_expression", "generator_function") and value.id in fr.fn_defs:
        out.append(fr.fn_defs[value.id].name)  # `return function inner() {}`: a definition of its own
        return True
    if t in ("identifier", "member_expression"):
        text = fr.text(value)
        if all(part.isidentifier() or part.replace("$", "_").isidentifier() for part in text.split(".")):
            out.append(text)
            return True
        return False
    fields = _BRANCHES.get(t)
    if fields is None or depth >= _MAX_BRANCHES:
        return False
    if t == "binary_expression":
        op = value.child_by_field_name("operator")
        if op is None or fr.text(op) not in ("||", "??", "&&"):
            return False
    ok = True
    for f in fields:
        branch = value.child_by_field_name(f)
        ok = (branch is not None and _names(fr, branch, out, depth + 1)) and ok
    return ok
