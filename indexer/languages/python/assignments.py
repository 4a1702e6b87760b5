"""The Python extractor's walk of assignments: bindings of names and ``self.<attr>`` (assignments and
``with ... as``), class fields, and the type uses of annotations.

Mixed into the extractor (:mod:`indexer.languages.python.extractor`, which provides ``src``, ``out``,
``root``, ``scopes``, ``receiver_text``, ``_type_uses`` and ``_dynamically_imported``). A binding
records how a name got its value (:class:`~indexer.model.Binding`: ``declared`` by an annotation or an
annotated parameter, ``constructed`` by a call, ``alias`` of a dotted name or a literal, ``item`` of a
subscript, ``copy`` of an iterable a builtin container is built from); the resolver ranks them.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from indexer.languages.base import query, run_query
from indexer.languages.python.implied import CALL_THROUGH, ITEM_SOURCE
from indexer.languages.python.operands import either_bindings, is_either
from indexer.languages.python.scopes import Scope
from indexer.languages.python.syntax import CHAIN, DOTTED, GRAMMAR, LITERAL_NODES, STATEMENT_PARENTS, WS, collapse
from indexer.model import LITERAL_RECEIVER, Binding, Definition

__all__ = ["Assignments"]

_COPIES = frozenset({"list", "sorted", "tuple"})
"""Builtins building a container of an iterable's elements, in order (``x = list(q)``: a ``copy`` binding)."""


@dataclass(slots=True)
class _FieldCandidate:
    """An assignment that may declare a field of the class at scope index ``class_index``."""

    class_index: int
    in_class_body: bool  # False: a `self.<attr>` assignment in a method
    statement: Node
    name: Node
    annotation: Node | None


class Assignments:
    """Mixin of the Python extractor: :meth:`assignments` fills ``out.bindings`` and the class fields of
    ``out.definitions`` (see the module's docstring for what the host provides)."""

    def assignments(self) -> None:
        """Bindings of names and ``self.<attr>`` (assignments and ``with ... as``), class fields and
        annotation type uses."""
        fields: list[_FieldCandidate] = []
        for _, caps in run_query(query(GRAMMAR, "python/queries", "assignments"), self.root):
            if "with" in caps:
                self._with_binding(caps)
                continue
            candidate = self._assignment(caps)
            if candidate is not None:
                fields.append(candidate)
        self._fields(fields)

    def _assignment(self, caps: dict[str, list[Node]]) -> _FieldCandidate | None:
        """Record the binding and type uses of one assignment; return the field it declares, if any
        (a name assigned in a class body, or ``self.<attr>`` assigned directly in a method)."""
        src, scopes = self.src, self.scopes
        assign = caps["assign"][0]
        type_node = caps["type"][0] if "type" in caps else None
        index = scopes.at(assign.start_byte)
        scope = scopes.items[index] if index >= 0 else None
        method: Scope | None = None
        if "attr" in caps:
            if scope is None or scope.kind not in ("method", "constructor"):
                return None  # self.x outside a method (e.g. in a nested function): not a field
            if src.text(caps["self"][0]) == "cls" and (
                    scope.definition is None or "classmethod" not in scope.definition.modifiers):
                return None  # `cls.x = ...` sets a class attribute only in a classmethod
            # `cls.x = ...` in a classmethod (Django's `_pre_setup`, `setUpTestData`) sets a class
            # attribute, which every instance reads as `self.x`: bound under that name, but no field
            # node (a field whose value is unknown would hide that the class has outside ancestors).
            method, name_node = scope, caps["attr"][0]
            bound = "self." + src.text(name_node)
            candidate = _FieldCandidate(scope.parent, False, assign, name_node, type_node)
            if src.text(caps["self"][0]) == "cls":
                class_scope = scopes.qualname(scope.parent)
                binding = self.binding_type(type_node, caps["value"][0] if "value" in caps else None, method)
                if binding is not None:
                    line = src.line(name_node)
                    self.out.bindings.append(Binding(class_scope, bound, binding[0], binding[1], line))
                    # and as `cls.x`: the class itself has it too (`cls.x` / `Car.x` read elsewhere)
                    self.out.bindings.append(Binding(class_scope, "cls." + src.text(name_node), binding[0], binding[1], line))
                return None
        else:
            if "value" in caps and self._dynamically_imported(caps["value"][0]) is not None:
                return None  # `mod = import_module("a.b")` binds an import (imports.scm), no value
            if "value" in caps and caps["value"][0].type == "lambda" and assign.parent is not None \
                    and assign.parent.type in STATEMENT_PARENTS and (scope is None or scope.kind == "class"):
                return None  # `key = lambda x: ...` is a function definition (definitions.scm), no binding
            name_node = caps["target"][0]
            bound = src.text(name_node)
            in_class = scope is not None and scope.kind == "class"
            candidate = _FieldCandidate(index, True, assign, name_node, type_node) if in_class else None
        if candidate is not None:
            binding_scope = scopes.qualname(candidate.class_index)
            owner = f"{binding_scope}.{src.text(name_node)}"
        else:
            binding_scope = owner = scopes.qualname(index)
        if type_node is not None:
            self._type_uses(type_node, owner)
        value = caps["value"][0] if "value" in caps else None
        binding = self.binding_type(type_node, value, method)
        if binding is not None and binding == (bound, "alias"):
            binding = None  # `f = partial(f, x=1)`: calling f still calls the f from before (the import)
        if binding is not None:
            type_text, how = binding
            line = src.line(name_node)
            self.out.bindings.append(Binding(binding_scope, bound, type_text, how, line))
            if candidate is not None and candidate.in_class_body and how == "declared":
                # an annotated class-body field is also self.<name> (as Java / TS fields are this.<name>)
                self.out.bindings.append(Binding(binding_scope, "self." + bound, type_text, how, line))
            elif candidate is None and how == "constructed" and type_text in _COPIES and value is not None:
                copied = self._copied(value)
                if copied is not None:
                    self.out.bindings.append(Binding(binding_scope, bound, copied, "copy", line))
        if type_node is None and is_either(value):  # `x = a or B()`: each operand
            self.out.bindings.extend(either_bindings(self, binding_scope, bound, value, method, src.line(name_node)))
        return candidate

    def _copied(self, value: Node) -> str | None:
        """``q`` of ``list(q)`` / ``sorted(q[:n], key=k)``: the iterable a builtin container is built
        from, when it is a name, attribute or call chain (a slice of one counts as it); ``None``
        otherwise. The resolver keeps a query's rows through it (``copy`` binding)."""
        while value.type == "assignment":
            value = value.child_by_field_name("right")
        args = value.child_by_field_name("arguments") if value.type == "call" else None
        first = args.named_children[0] if args is not None and args.named_child_count else None
        if first is not None and first.type == "subscript" and first.child_by_field_name("subscript") is not None \
                and first.child_by_field_name("subscript").type == "slice":
            first = first.child_by_field_name("value")
        if first is None or first.type not in ("identifier", "attribute", "call"):
            return None
        text = self.receiver_text(first)
        return text if CHAIN.fullmatch(text) else None

    def _with_binding(self, caps: dict[str, list[Node]]) -> None:
        """``with X(...) as y``: ``y`` bound ``entered`` (what ``X.__enter__`` returns, when the repository defines
        it; not for ``async with``) and ``constructed`` (the instance, else) to the callee text ``X`` (dotted names
        only)."""
        src = self.src
        callee = WS.sub("", src.text(caps["with.callee"][0]))
        if not DOTTED.fullmatch(callee):
            return  # `with a[0]() as y` / `with f()() as y`: no type to name
        target = caps["with.target"][0]
        scope = self.scopes.qualname(self.scopes.at(caps["with"][0].start_byte))
        statement = caps["with"][0].parent.parent if caps["with"][0].parent is not None else None
        if statement is None or not statement.children or statement.children[0].type != "async":
            # (`async with` binds what `__aenter__` awaits to: not followed, the instance decides as before)
            self.out.bindings.append(Binding(scope, src.text(target), callee, "entered", src.line(target)))
        self.out.bindings.append(Binding(scope, src.text(target), callee, "constructed", src.line(target)))

    def binding_type(
        self, type_node: Node | None, value: Node | None, method: Scope | None
    ) -> tuple[str, str] | None:
        """``(type, how)`` of a binding: an annotation, a constructor-style call or the last call of a
        chain (``a.b().c``; also the call in
        ``a or Foo()`` / ``Foo() if c else y``), an annotated parameter (``self.x = p`` in ``method``),
        an alias of a dotted name or of a literal (:data:`~indexer.model.LITERAL_RECEIVER`); ``None``
        otherwise."""
        if type_node is not None:
            return collapse(self.src.text(type_node)), "declared"
        # `x = y = Foo()`: the value of the innermost assignment (a few levels at most).
        while value is not None and value.type == "assignment":
            value = value.child_by_field_name("right")
        if value is not None and value.type in ("boolean_operator", "conditional_expression"):
            value = self._call_operand(value)
        if value is None:
            return None
        if value.type == "call":
            callee = WS.sub("", self.src.text(value.child_by_field_name("function")))
            if callee in CALL_THROUGH:  # `g = partial(f, 1)`, `g = sync_to_async(f)`: calling g calls f
                args = value.child_by_field_name("arguments")
                first = args.named_children[0] if args is not None and args.named_child_count else None
                if first is not None and first.type in ("identifier", "attribute"):
                    target = WS.sub("", self.src.text(first))
                    return (target, "alias") if DOTTED.fullmatch(target) else None
                return None
            if DOTTED.fullmatch(callee):
                return callee, "constructed"
            # `q = Flip.objects.filter(owner=c).order_by("-id")`: what the chain's last call returns
            chain = self.receiver_text(value.child_by_field_name("function"))
            return (chain, "constructed") if CHAIN.fullmatch(chain) else None
        if value.type == "subscript":  # `u = users[0]`, `c = pair()[0]`: what the subscript gives
            text = self.receiver_text(value)
            return (text, "item") if text.endswith("]") and ITEM_SOURCE.fullmatch(text) else None
        if value.type in LITERAL_NODES:  # `opts = {}`, `sep = ", "`: a builtin object, whose methods are no repository's
            return LITERAL_RECEIVER, "alias"
        if value.type in ("identifier", "attribute"):
            text = WS.sub("", self.src.text(value))
            if method is not None and value.type == "identifier" and text in method.param_types:
                return method.param_types[text], "declared"
            return (text, "alias") if DOTTED.fullmatch(text) else None
        return None

    @staticmethod
    def _call_operand(value: Node) -> Node | None:
        """The call a value may evaluate to: the right operand of ``a or Foo()``, else its left one
        (``d.get(k) or Default``: either is the value), else the first branch of ``Foo() if c else y`` /
        ``y if c else Foo()`` that is a call; ``None`` otherwise. Reads the operator's own children."""
        if value.type == "boolean_operator":
            operator, operands = value.child_by_field_name("operator"), (value.child_by_field_name("right"), value.child_by_field_name("left"))
            return next((o for o in operands if o is not None and o.type == "call"), None) if operator is not None and operator.type == "or" else None
        parts = [c for c in value.named_children if c.type != "comment"]  # body, condition, alternative
        if len(parts) == 3:
            for branch in (parts[0], parts[2]):
                if branch.type == "call":
                    return branch
        return None

    def _fields(self, candidates: list[_FieldCandidate]) -> None:
        """Field definitions: class-body assignments first, then ``self.x`` ones; one per name."""
        seen: set[tuple[int, str]] = set()
        candidates.sort(key=lambda c: not c.in_class_body)  # stable: source order kept within
        src = self.src
        for c in candidates:
            name = src.text(c.name)
            if c.class_index < 0 or (c.class_index, name) in seen:
                continue
            seen.add((c.class_index, name))
            class_qual = self.scopes.items[c.class_index].qualname
            self.out.definitions.append(
                Definition(
                    kind="field",
                    name=name,
                    qualname=f"{class_qual}.{name}",
                    parent=class_qual,
                    start_line=src.line(c.statement),
                    start_col=src.col(c.statement),
                    end_line=c.statement.end_point[0] + 1,
                    end_col=src.end_col(c.statement),
                    name_line=src.line(c.name),
                    name_col=src.col(c.name),
                    field_type=collapse(src.text(c.annotation)) if c.annotation is not None else None,
                    shadowed=self.scopes.items[c.class_index].definition.shadowed,
                )
            )
