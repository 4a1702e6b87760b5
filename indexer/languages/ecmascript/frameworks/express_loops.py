"""What an Express / Koa ``use`` argument stands for when it is written through a loop over a list of
the same file (``for (const r of [a, b]) app.use(r)``, ``routers.forEach((r) => app.use(r))`` with
``const routers = [a, b]`` at module level, ``for (const { prefix, router } of mounts) app.use(prefix,
router.routes())``): the list's elements, or the arguments once per element of a list of object
literals. :class:`LoopedUses` is a mixin of :mod:`indexer.languages.ecmascript.frameworks.express`'s
detector (it reads the file through ``jf``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import FUNCTION_NODES, JsFile, unwrap

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["LoopedUses"]


class LoopedUses:
    """The loop-reading methods of the Express detector (see the module docstring)."""

    jf: JsFile

    def _looped(self, node: Node) -> list[Node]:
        """The elements a ``use`` argument stands for when it is the variable of a loop over a list
        of this file (``for (const r of [a, b]) app.use(r)``, ``routers.forEach((r) => app.use(r))``
        with ``const routers = [a, b]`` at module level; ``r.routes()`` of koa-router alike: the
        elements); else ``[node]``. Spread elements are left out."""
        inner = unwrap(node) or node
        if inner.type == "call_expression":  # r.routes() / r.middleware()
            fn = inner.child_by_field_name("function")
            if fn is None or fn.type != "member_expression" or self.jf.text(fn.child_by_field_name("property")) not in (
                    "routes", "middleware"):
                return [node]
            inner = fn.child_by_field_name("object")  # type: ignore[assignment]
        if inner is None or inner.type != "identifier":
            return [node]
        items = self._loop_list(inner)
        return items if items is not None else [node]

    def _loop_list(self, ident: Node) -> list[Node] | None:
        """The list literal the loop binding ``ident``'s name iterates (see :meth:`_looped`)."""
        bound = self._loop_binding(ident)
        return bound[0] if bound is not None and bound[1] is None else None

    def _loop_binding(self, ident: Node) -> tuple[list[Node], str | None] | None:
        """(elements, key) of the loop that binds ``ident``'s name: a ``for (... of list)`` or the
        first parameter of a ``list.forEach(...)`` callback, ``list`` a list literal of this file
        (:meth:`_list`). ``key`` is ``None`` when the name is the element itself (``for (const r of
        routes)``), else the property of the element a destructuring pattern binds it to (``for
        (const { path, route: r } of routes)``: ``path`` -> ``"path"``, ``r`` -> ``"route"``). ``None``
        when the nearest binding of the name is no such loop (a function's other parameter, ``for ...
        in``, ``load().forEach``)."""
        name = self.jf.text(ident)
        n = ident.parent
        while n is not None:
            if n.type == "for_in_statement":
                key = self._bound_key(n.child_by_field_name("left"), name)
                if key is not False:
                    op = n.child_by_field_name("operator")
                    items = self._list(n.child_by_field_name("right")) if op is not None and op.type == "of" else None
                    return (items, key) if items is not None else None  # type: ignore[return-value]
            if n.type in FUNCTION_NODES:
                param = n.child_by_field_name("parameter")
                if param is None:
                    params = n.child_by_field_name("parameters")
                    param = params.named_children[0] if params is not None and params.named_children else None
                key = self._bound_key(param, name)
                if key is False:
                    return None
                call = n.parent.parent if n.parent is not None and n.parent.type == "arguments" else None
                fn = call.child_by_field_name("function") if call is not None else None
                if fn is None or fn.type != "member_expression" or self.jf.text(fn.child_by_field_name("property")) != "forEach":
                    return None
                items = self._list(fn.child_by_field_name("object"))
                return (items, key) if items is not None else None  # type: ignore[return-value]
            n = n.parent
        return None

    def _bound_key(self, pattern: Node | None, name: str) -> str | None | bool:
        """How the binding ``pattern`` (a loop's left side, a parameter) binds ``name``: ``None`` as
        the whole value, the property's name through an object pattern (``{ path }``, ``{ route: r }``),
        ``False`` not at all. A ``const`` / ``let`` declaration and a default value are looked through."""
        if pattern is None:
            return False
        if pattern.type == "assignment_pattern":
            pattern = pattern.child_by_field_name("left")
            if pattern is None:
                return False
        if pattern.type in ("identifier", "shorthand_property_identifier_pattern"):
            return None if self.jf.text(pattern) == name else False
        if pattern.type == "object_pattern":
            for part in pattern.named_children:
                if part.type == "object_assignment_pattern":
                    part = part.child_by_field_name("left") or part
                if part.type == "shorthand_property_identifier_pattern" and self.jf.text(part) == name:
                    return name
                if part.type == "pair_pattern":
                    value = part.child_by_field_name("value")
                    if value is not None and value.type == "assignment_pattern":
                        value = value.child_by_field_name("left")
                    if value is not None and value.type == "identifier" and self.jf.text(value) == name:
                        return _property_key(self.jf, part.child_by_field_name("key"))
            return False
        return False

    def _per_element(self, args: list[Node]) -> list[list[Node]]:
        """``args`` once per element of the loop over a list of object literals they read
        (``routes.forEach((r) => router.use(r.path, r.route))``, ``for (const { prefix, router } of
        mounts) app.use(prefix, router.routes())``): in each copy an argument ``r.p`` (``r.p.routes()``
        alike), or a name destructured from the element's ``p``, is the value the element gives ``p``;
        an element without ``p``, or that is no object literal, is left out. ``[args]`` when no
        argument reads such a loop's element."""
        reads: list[tuple[int, Node]] = []  # (argument position, the loop binding node read)
        loop: list[Node] | None = None
        for i, arg in enumerate(args):
            read = self._element_read(arg)
            if read is None:
                continue
            items, key = read
            if loop is not None and items is not loop and [e.id for e in items] != [e.id for e in loop]:
                return [args]  # two loops: not modelled
            loop = items
            reads.append((i, key))  # type: ignore[arg-type]
        if loop is None:
            return [args]
        out: list[list[Node]] = []
        for element in loop:
            element = unwrap(element) or element
            if element.type != "object":
                continue
            values = _object_values(self.jf, element)
            given = list(args)
            for i, key in reads:
                if key not in values:
                    break
                given[i] = values[key]
            else:
                out.append(given)
        return out

    def _element_read(self, arg: Node) -> tuple[list[Node], str] | None:
        """(loop elements, property) when ``arg`` reads a property of a loop's element: ``r.p`` or
        ``r.p.routes()`` with ``r`` the element, or a name destructured from the element's ``p``."""
        node = unwrap(arg) or arg
        if node.type == "call_expression":
            fn = node.child_by_field_name("function")
            if fn is None or fn.type != "member_expression" or self.jf.text(fn.child_by_field_name("property")) not in (
                    "routes", "middleware"):
                return None
            node = unwrap(fn.child_by_field_name("object")) or fn.child_by_field_name("object")  # type: ignore[assignment]
            if node is None:
                return None
        if node.type == "member_expression":
            obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
            if obj is None or obj.type != "identifier" or prop is None or prop.type != "property_identifier":
                return None
            bound = self._loop_binding(obj)
            if bound is None or bound[1] is not None:
                return None
            return bound[0], self.jf.text(prop)
        if node.type == "identifier":
            bound = self._loop_binding(node)
            if bound is None or bound[1] is None:
                return None
            return bound  # type: ignore[return-value]
        return None

    def _list(self, node: Node | None) -> list[Node] | None:
        """The elements of an array literal, or of the one a module-level ``const`` of that name holds."""
        node = unwrap(node) or node if node is not None else None
        if node is not None and node.type == "identifier":
            name, node = self.jf.text(node), None
            for stmt in self.jf.root.named_children:
                decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
                if decl is not None and decl.type == "lexical_declaration":
                    for d in decl.named_children:
                        if d.type == "variable_declarator" and self.jf.text(d.child_by_field_name("name")) == name:
                            node = unwrap(d.child_by_field_name("value")) or d.child_by_field_name("value")
        if node is None or node.type != "array":
            return None
        return [e for e in node.named_children if e.type != "spread_element"]


def _property_key(jf: JsFile, key: Node | None) -> str | None:
    """The name of an object literal's or pattern's key (``path``, ``"path"``), ``None`` if computed."""
    if key is None:
        return None
    if key.type in ("property_identifier", "identifier", "shorthand_property_identifier"):
        return jf.text(key)
    return jf.string(key) if key.type == "string" else None


def _object_values(jf: JsFile, obj: Node) -> dict[str, Node]:
    """The value node of each named property of an object literal (``{ path: "/a", route }``: the
    string and the identifier ``route``); spreads and methods are left out."""
    out: dict[str, Node] = {}
    for part in obj.named_children:
        if part.type == "shorthand_property_identifier":
            out[jf.text(part)] = part
        elif part.type == "pair":
            key, value = _property_key(jf, part.child_by_field_name("key")), part.child_by_field_name("value")
            if key is not None and value is not None:
                out[key] = value
    return out
