"""Name and scope lookup of the resolver core: what a name means where it is read.

Mixed into :class:`~indexer.resolve.interpreter.Resolver` (which provides ``use``, ``_memoised``,
``classes``, ``def_value``, ``resolve_import``, ``resolve_expr``, ``resolve_type``, ``typed_value``,
``follow``, ``call_result``, ``called``, ``iterated`` and ``is_constructor``). Lexical scope first (the
enclosing function's bindings and nested definitions, then its enclosing scopes, the file's top level
and its imports, then what the language adds), a name bound several ways deciding by statement order
and type tests (:meth:`ScopeLookup.resolve_expr_at`), a binding's kinds ranked by strength
(:meth:`ScopeLookup.binding_value`), and the owner ``this`` / ``self`` stands for in a scope.
"""

from __future__ import annotations

from indexer.model import LITERAL_RECEIVER, NARROWED, Binding, Import, base_type
from indexer.resolve.context import FileCtx
from indexer.resolve.dotted import split_dotted
from indexer.resolve.either import methods_last
from indexer.resolve.generic_calls import generic_binding
from indexer.resolve.member_flow import in_method_before
from indexer.resolve.multimap import entries
from indexer.resolve.values import BUILTIN, EXTERNAL, MAP, ClassV, Def, InstV, ObjV, QueryV, Value

__all__ = ["ScopeLookup"]

_TIERS = ("declared", "injected", "copy", "entered", "constructed", "alias", "item", "element", "literal")
"""The kinds of :class:`~indexer.model.Binding` :meth:`ScopeLookup.binding_value` reads, strongest first."""
_INSTANCE_TIERS = ("related", *_TIERS)
"""The same read on an instance (:meth:`ScopeLookup.binding_value`)."""


class ScopeLookup:
    """Mixin of :class:`~indexer.resolve.interpreter.Resolver`: names to values through scopes and
    bindings (see the module's docstring for what the host provides)."""

    def resolve_name(self, fc: FileCtx, scope: str | None, name: str) -> Value:
        """The value ``name`` has in ``scope`` (a qualname; ``None``: top level) of ``fc``."""
        return self._memoised((id(fc), scope, name, "name"), lambda: self._resolve_name(fc, scope, name))

    def _resolve_name(self, fc: FileCtx, scope: str | None, name: str) -> Value:
        use = self.use
        use(("name", fc.path, name))
        class_body_hidden = fc.rules.class_body_hidden
        scoped_imports = fc.rules.scoped_imports
        s = scope
        while True:
            if s is not None:  # the scopes' own definitions: their kinds and nesting decide
                use(("name", fc.path, s.rpartition(".")[2]))
            # Python: a class body's names are not visible from the functions nested in it (a bare
            # ``tuple(...)`` in method ``tuple`` is the builtin); its nested types stay visible, as
            # annotations in a method's signature are evaluated in the class body.
            hidden_class = class_body_hidden and s != scope and s is not None and fc.is_class_scope(s)
            bindings = None if hidden_class else fc.bindings.get((s, name))
            if bindings:
                v = self.binding_value(fc, bindings)
                if v is not None:
                    return v
                if s is not None and any(b.how == "item" for b in bindings) and not entries(fc.by_qualname, f"{s}.{name}"):
                    return None  # unpacked or subscripted in a function: a local, unknown
            if s is not None and scoped_imports and not hidden_class:
                imp = self._scoped_import(fc, s, name)
                if imp is not None:  # `from app.services import send` in this function's body: a local name
                    return self.resolve_import(fc, imp)
            if s is None:
                defs = entries(fc.top, name)
            else:
                defs = entries(fc.by_qualname, f"{s}.{name}")
                if defs and hidden_class:
                    defs = [rd for rd in defs if rd.is_type]
                if defs:  # Java's constructor ``C.C`` is no name: ``C`` inside class C is the class
                    defs = [rd for rd in defs if rd.kind != "constructor"]
            if defs:
                return self.def_value(defs[-1])
            if fc.rules.implicit_this and s is not None and fc.is_class_scope(s):
                inherited = self._inherited_field(entries(fc.by_qualname, s)[0], name)
                if inherited is not None:
                    return inherited
            if s is not None and (bindings is None or all(b.how == "element" for b in bindings)):
                param = fc.parameter(s, name)
                if param is not None and param.type and not param.variadic and \
                        base_type(param.type) in getattr(fc.rules, "library_primitives", ()):
                    return EXTERNAL  # optional: TypeScript's `index: number`, `ids: string[]`: the language's own
                if param is not None:  # an untyped parameter shadows the enclosing scopes' names; a variadic one
                    # (`*args`, `...rest`) is the language's tuple, dict or array; the optional `injected`: pytest's
                    injected = None if param.variadic else getattr(fc.rules, "injected", None)
                    return injected(self, fc, s, name) if injected else BUILTIN if param.variadic else None
            if bindings and any(b.how == "object" for b in bindings):  # `const api = { list() {} }`
                q = name if s is None else f"{s}.{name}"
                if q in fc.owners or q in fc.bindings.objects:
                    return ObjV(fc.path, q)
            if s is None:
                break
            s = fc.parent_scope(s)
        imps = entries(fc.imports, name)
        if imps:
            return self.resolve_import(fc, imps[-1])
        use(("name", fc.path, "*"))
        return fc.rules.resolve_unbound(self, fc, name)

    def _scoped_import(self, fc: FileCtx, scope: str, name: str) -> Import | None:
        """The last import of ``name`` written in the body of the function ``scope`` itself (not in a
        function nested in it), or ``None``. Python binds a function-local import in the function's
        own scope, so it hides a top-level definition of the same name there (a Celery task
        ``email_send`` calling ``from app.services import email_send``), and the functions nested in it
        see it; the file's other functions do not bind it first (their lookup ends at the file's
        imports as before)."""
        imps = entries(fc.imports, name)
        if not imps:
            return None
        defs = entries(fc.by_qualname, scope)
        if not defs or imps[-1].line <= min(x.line for x in defs):
            return None  # every import of the name is above the function (a name's imports are in source order)
        rd = fc.def_at(scope, imps[-1].line)
        if rd is None or not rd.is_callable:
            return None
        d = rd.d
        inside = [i for i in imps if d.start_line < i.line <= d.end_line]
        if not inside:
            return None
        prefix = scope + "."
        nested = [(n.d.start_line, n.d.end_line) for n in fc.defs
                  if n.is_callable and n.qualname.startswith(prefix) and d.start_line < n.line <= d.end_line]
        own = [i for i in inside if not any(a <= i.line <= b for a, b in nested)]
        return own[-1] if own else None

    def _inherited_field(self, cls: Def, name: str) -> Value:
        """A field ``name`` a base of ``cls`` declares (Java: used without ``this.`` in a subclass),
        from the bases' class-scope bindings, nearest first; ``None`` when none declares it."""
        for c in self.classes.mro(cls)[1:]:
            self.use(("name", c.file.path, name))
            bindings = c.file.bindings.get((c.qualname, name))
            if bindings:
                v = self.binding_value(c.file, bindings)
                if v is not None:
                    return v
        return None

    def resolve_expr_at(self, fc: FileCtx, scope: str | None, text: str, line: int, narrowing: bool = True) -> Value:
        """:meth:`resolve_expr` at ``line``: a binding of the head name holding on its lines only and
        holding on ``line`` (:meth:`~indexer.resolve.bindings.ScopedBindings.at_line`: a callback's
        parameter) gives its value before anything else (``None`` when unknown: it hides the name's
        other bindings and imports there); a type test guarding ``line`` narrows the head name
        (:meth:`_narrowed`, unless not ``narrowing``); when the head name of ``text`` is bound several ways in
        ``scope`` itself (``x = A()`` ... ``x = B()``), the binding written last before ``line``
        decides (statement order; a binding in a loop body after the use is not seen); when its value
        is unknown, the others written before it, never one written after (``None``; a text repeated: a join). A call
        expression bound as a whole on ``line`` (``db.get_or_404()`` of ``db.get_or_404(User,
        id).to_dict()``, see :mod:`indexer.languages.python.frameworks.orm_results`) is that binding's value."""
        if text.endswith("()"):
            whole = fc.bindings.get((scope, text))
            here = [b for b in whole if b.line == line] if whole else None
            if here:
                v = self.binding_value(fc, here)
                if v is not None:
                    return v
        segments = split_dotted(text)
        head = segments[0] if segments else ""
        called = head.endswith("()")
        name = head[:-2] if called else head
        prefix = fc.rules.instance_prefix
        if prefix and name == prefix[:-1] and not called and len(segments) > 1 and segments[1].isidentifier():
            member = self._member_at(fc, scope, prefix + segments[1], line, narrowing)
            if member is not None:  # `self.x.m` where a guard or this method's flow decides `self.x`
                return self.follow(member, segments[2:])
        held = fc.bindings.at_line(scope, name, line) if name else None
        if held:  # a callback's parameter, a loop's variable: only its lines, there before any other
            v = self.binding_value(fc, held)
            if v is None:  # of an unknown value: unknown, not the import or outer name it hides
                return None
            return self.follow(self.call_result(v, "exact") if called else v, segments[1:])
        bindings = fc.bindings.get((scope, name))
        if bindings and any(b.how == NARROWED for b in bindings):
            plain = [b for b in bindings if b.how != NARROWED]
            narrowed = None if called or not narrowing else self._narrowed(fc, scope, name, bindings, plain, line)
            if narrowed is not None:
                return self.follow(narrowed, segments[1:])
            bindings = plain
        if bindings and any(b.how == "item" for b in bindings):  # `a, b = f()` of an unknown f: as if unbound
            bindings = [b for b in bindings if b.how != "item" or self.binding_value(fc, [b]) is not None]
        if not bindings or len({(b.type, b.how) for b in bindings}) < 2:
            return self.resolve_expr(fc, scope, text)
        before = [b for b in bindings if b.line < line] or [b for b in bindings if b.line <= line]
        if not before:
            return self.resolve_expr(fc, scope, text)
        # `c = Context()` in one branch, `c = {}` in another: the literal decides only when nothing
        # else may be bound (a literal's methods are never the repository's)
        before = [b for b in before if b.type != LITERAL_RECEIVER] or before
        last = max(b.line for b in before)
        v = self.binding_value(fc, [b for b in before if b.line == last])
        if v is None:  # unknown: a binding of another branch written before may hold, never one written after
            v = self.binding_value(fc, before)
        if v is None:  # unknown here, one written after known (`t = get(n); t.render()` ... `except: t = E()`)
            after = [b for b in bindings if b.line > line and all(x.type != b.type or x.line >= line for x in bindings)]
            if not after or self.binding_value(fc, after) is None:
                return self.resolve_expr(fc, scope, text)
        if called:
            v = self.call_result(v, "exact")
        return self.follow(v, segments[1:])

    def _member_at(self, fc: FileCtx, scope: str | None, member: str, line: int, narrowing: bool) -> Value:
        """The value of the instance attribute ``member`` (``self.x``) at ``line`` of the method
        ``scope``, where something other than its class's bindings taken together decides: a type test
        guarding it there (a :data:`~indexer.model.NARROWED` binding of ``self.x`` in ``scope``, unless
        not ``narrowing``), else the bindings of the nearest class of the enclosing class's MRO binding
        it that decide at ``line`` (:func:`indexer.resolve.member_flow.in_method_before` in this
        method, else each method's last, :func:`indexer.resolve.either.methods_last`). ``None`` when
        none of these says more than before (the caller reads ``self.x`` as an attribute)."""
        bound = fc.bindings.get((scope, member))
        if bound and narrowing:
            held = [b for b in bound if b.how == NARROWED]
            narrowed = self._narrowed(fc, scope, member, held, [], line) if held else None
            if narrowed is not None:
                return narrowed
        cls = self.enclosing_class(fc, scope)
        for c in self.classes.mro(cls) if cls is not None else ():
            self.use(("name", c.file.path, member))
            bindings = c.file.bindings.get((c.qualname, member))
            if not bindings:
                continue
            group = (in_method_before(c, bindings, scope, line) if c is cls else None) or methods_last(c, bindings)
            if len(group) == len(bindings):
                return None
            return self.binding_value(c.file, group)
        return None

    def _narrowed(self, fc: FileCtx, scope: str | None, name: str, bindings: list[Binding], plain: list[Binding],
                  line: int) -> InstV | None:
        """The instance ``name`` is at ``line`` of ``scope`` where a type test guards it (a
        :data:`~indexer.model.NARROWED` binding of ``bindings`` holding there, the innermost if
        several), ``inferred``; ``None`` when none holds, when the type tested is no class of the
        repository, or when it is no subclass of the class the name is otherwise known as (its
        ``plain`` binding written last up to ``line``, else its value in the scopes: ``Circle c``
        tested against an interface stays a ``Circle``). A name declared with the type tested (a
        pattern variable, ``case Circle c``) keeps its declaration's ``exact``."""
        held = [b for b in bindings if b.how == NARROWED and b.line <= line <= b.end]
        if not held:
            return None
        b = max(held, key=lambda b: (b.line, -b.end))
        if any(h.line == b.line and h.end == b.end and h.type != b.type for h in held):
            return None  # a tuple of classes: one of several (the union, :mod:`indexer.resolve.either`)
        t = self.resolve_type(fc, b.scope, b.type)
        if not isinstance(t, ClassV):
            return None
        before = [p for p in plain if p.line <= line]
        known = self.binding_value(fc, [before[-1]]) if before else self.resolve_expr(fc, scope, name)
        if isinstance(known, InstV):
            if known.c is t.c:
                return known
            if not any(c is known.c for c in self.classes.mro(t.c)):
                return None
        return InstV(t.c, "inferred")

    def binding_value(self, fc: FileCtx, bindings: list[Binding], instance: bool = True) -> Value:
        """Value of a name from its bindings: a declared type beats a query's rows copied into a builtin
        container (``copy``: ``list(q)``) beats a constructor call beats an alias beats an element of
        what a loop iterates beats a literal (:data:`~indexer.model.LITERAL_RECEIVER`,
        an external value); a declared top type is no declaration. ``instance``: the name is read on an instance, where a relation field
        (``related``: Django's ``owner = ForeignKey(Check)``) beats them all (the related model's
        instance); read on the class it is not read (the field's own binding is)."""
        for tier in _INSTANCE_TIERS if instance else _TIERS:
            for b in bindings:
                literal = b.type == LITERAL_RECEIVER
                if literal != (tier == "literal") or (not literal and b.how != tier):
                    continue
                how = b.how
                if how == "declared":  # a top type (optional `top_types`: `x: Any = make()`) says nothing
                    v: Value = None if b.type in getattr(fc.rules, "top_types", ()) else self.typed_value(fc, b.scope, b.type, "exact")
                elif how == "entered":  # `with X() as y`: what the repository's `X.__enter__` returns
                    v = self.entered(fc, b.scope, b.type)
                elif how == "constructed":
                    v = self.called(fc, b.scope, b.type)
                    if v is None or v is EXTERNAL:  # `u = first(users)`: a generic function's result
                        v = generic_binding(self, fc, b.scope, b.type, b.line) or v
                elif how == "element":
                    v = self.iterated(fc, b.scope, b.type)
                elif how == "item":  # `a, b = f()` -> `f()[0]`; `for k, v in d.items()` -> `d.items()[*][1]`
                    head = b.type[:len(b.name) + 1]  # `v = v[1:]`, `a, v = v.split()`: nothing new of v
                    v = None if head in (b.name + "[", b.name + ".") else self.resolve_expr(fc, b.scope, b.type)
                elif how == "copy":  # `list(q)`: a query's rows stay them; anything else is the builtin's
                    v = self.resolve_expr(fc, b.scope, b.type)
                    v = QueryV(v.c, view=v.view, inner=v.inner) if isinstance(v, QueryV) and not v.method and v.view != MAP \
                        else None
                elif how == "related":
                    related = getattr(fc.rules, "related_value", None)  # optional: Django's relation fields
                    v = related(self, fc, b) if related is not None else None
                elif how == "injected":  # optional: a value a framework hands in from another file (Apollo's context)
                    inject = getattr(fc.rules, "injected_binding", None)
                    v = inject(self, fc, b) if inject is not None else None
                else:
                    v = self.resolve_expr(fc, b.scope, b.type)
                if v is not None:
                    return v
        return None

    def entered(self, fc: FileCtx, scope: str | None, callee: str) -> Value:
        """What ``with callee() as y`` binds ``y`` to when the instance's class (or a base) of the repository
        defines ``__enter__``: the value calling it returns (``return self`` -> the instance of the class built,
        a subclass's too; ``return self.operate`` -> that method; an annotated or inferred return type), as
        Python's ``with`` statement binds (PEP 343); ``None`` when no such ``__enter__`` exists or its return is
        not known: the ``constructed`` binding written beside it (the instance) then decides."""
        built = self.called(fc, scope, callee)
        if not isinstance(built, InstV):
            return None
        found, _ = self.lookup(built.c, "__enter__")  # type: ignore[attr-defined]
        if not any(d.is_callable for d in found):
            return None
        v = self.resolve_expr(fc, scope, f"{callee}().__enter__()")
        if isinstance(v, InstV) and any(c is v.c for c in self.classes.mro(built.c)):  # type: ignore[attr-defined]
            return built  # `return self` of a base's __enter__: the instance built, not the base's
        return v if v is not None and v is not EXTERNAL else None

    def _prototype_owner(self, fc: FileCtx, scope: str | None) -> Def | None:
        """The constructor function whose prototype method ``scope`` is (JS ``View.prototype.render
        = function () {}``: a method whose parent is a function), or ``None``."""
        defs = entries(fc.by_qualname, scope) if scope is not None else ()
        if not defs or defs[0].kind != "method" or not defs[0].parent:
            return None
        self.use(("name", fc.path, defs[0].parent.rpartition(".")[2]))
        owners = entries(fc.by_qualname, defs[0].parent)
        return owners[0] if owners and owners[0].kind == "function" else None

    def _constructor_function(self, fc: FileCtx, scope: str | None) -> Def | None:
        """The function ``scope`` itself when it is a JavaScript constructor (:meth:`is_constructor`:
        ``function View() { this.render(); }`` with ``View.prototype.render = ...``), whose ``this``
        is the instance ``new View()`` builds; else ``None``. A function nested in it has its own
        ``this`` (an arrow's calls belong to the constructor already)."""
        defs = entries(fc.by_qualname, scope) if scope is not None else ()
        return defs[0] if len(defs) == 1 and self.is_constructor(defs[0]) else None

    def _property_owner(self, fc: FileCtx, scope: str | None) -> ObjV | None:
        """The plain object a function was assigned to as a property (JS ``app.enabled = function
        () { return this.set(...) }``: ``this`` is ``app`` when called as ``app.enabled()``, the way
        such functions are called), or ``None``."""
        defs = entries(fc.by_qualname, scope) if scope is not None else ()
        if not defs or defs[0].kind != "function" or not defs[0].parent:
            return None
        parent = defs[0].parent
        self.use(("name", fc.path, parent.rpartition(".")[2]))
        owners = entries(fc.by_qualname, parent)
        if parent not in fc.owners and (not owners or owners[0].is_type):  # a class's: enclosing_class's
            return None
        return ObjV(fc.path, parent)

    def enclosing_class(self, fc: FileCtx, scope: str | None) -> Def | None:
        """The innermost class lexically enclosing ``scope`` (itself included), or ``None``."""
        s = scope
        while s is not None:
            self.use(("name", fc.path, s.rpartition(".")[2]))
            rd = entries(fc.by_qualname, s)
            if rd and rd[0].is_type:
                return rd[0]
            s = fc.parent_scope(s)
        return None
