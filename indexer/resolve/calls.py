"""Binding call sites to their targets, with how each was bound (``exact`` / ``inferred`` /
``name``): receivers, ``super``, constructors, dynamic dispatch and the short-name fallback.
Language-neutral; the language's differences come from ``FileCtx.rules``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.model import NARROWED, CallSite, NamedArgument, base_type
from indexer.resolve.dotted import calls_off, split_dotted
from indexer.resolve.either import either_values
from indexer.resolve.generic_calls import generic_call, generic_receiver
from indexer.resolve.context import MAX_NAMESAKES, overload_candidates, overloads_cut
from indexer.resolve.hierarchy import same_parameter_types
from indexer.resolve.multimap import entries, every
from indexer.resolve.name_patterns import pattern_targets
from indexer.resolve.overloads import by_argument_types, none_applicable
from indexer.resolve.structural import reach_token
from indexer.resolve.values import BUILTIN, EXTERNAL, ClassV, Def, External, FuncV, InstV, ModuleV, ObjV, QueryV, Value

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver

__all__ = ["CallBinder", "Targets", "arity_ok", "by_arity", "chosen", "same_parameter_types"]

Targets = list[tuple[Def, str]] | External | None
"""A call's targets with their resolution; ``EXTERNAL``: the callee lives outside the repository;
``None``: nothing could bind it."""


class CallBinder:
    """Binds the call sites of files through a :class:`~indexer.resolve.interpreter.Resolver`."""

    def __init__(self, resolver: Resolver) -> None:
        self.r = resolver
        self.classes = resolver.classes
        self.receiver: tuple[Def, bool] | None = None
        """The receiver of the last call :meth:`bind_call` bound, when its class is known: ``(class,
        on_this)``, ``on_this`` when it is the caller's own instance (``this`` / ``self``, implicit,
        ``super``); ``None`` otherwise. What :func:`receiver_props` records on the call's edges."""
        self._pending: tuple[Def, bool] | None = None

    def bind_call(self, fc: FileCtx, cs: CallSite) -> Targets:
        """Targets of a call site with their resolution, ``EXTERNAL`` when the callee is known to
        live outside the repository, ``None`` when nothing could bind it; :attr:`receiver` says on
        what it was bound."""
        outer, self._pending = self._pending, None  # a receiver's own calls bind inside this one
        try:
            return self._bind(fc, cs)
        finally:
            self.receiver, self._pending = self._pending, outer

    def _bind(self, fc: FileCtx, cs: CallSite) -> Targets:
        r, classes, rules = self.r, self.classes, fc.rules
        scope = cs.caller
        if cs.via == "decorator" and scope is not None:  # evaluated where the definition is written
            scope = fc.parent_scope(scope)
            if scope is not None and fc.is_class_scope(scope) and not _bound_above(fc, scope, cs.name, cs.line):
                scope = fc.parent_scope(scope)  # the class body binds the name only below the decorator
        recv = cs.receiver
        if cs.via == "member":  # `self.routes[k](x)`: a table a class of the MRO holds
            return self._member_table(fc, cs, scope)
        if cs.via == "pattern":  # `getattr(self, "render_" + name)()`: the methods matching
            return pattern_targets(r, fc, cs, scope)
        if cs.via == "result" or (cs.via == "element" and cs.name.endswith("()")):
            return self._result_targets(fc, cs)  # an element held as a call's result: `{"a": make()}`
        if recv is None:
            if cs.name in ("super", "this") and rules.implicit_this:
                cls = r.enclosing_class(fc, scope)
                if cls is None:
                    return None
                if cs.name == "this":
                    return self._constructors(cls, cs.arity, "exact", cs, fc)
                bases = classes.bases(cls)
                if not bases:
                    return EXTERNAL if cls.external_base else None
                return self._constructors(bases[0], cs.arity, "inferred", cs, fc)
            union = self._union(either_values(r, fc, scope, cs.name, cs.line),
                                lambda v: self._callee_targets(v, cs, "inferred", fc=fc))
            if union:  # `const t = c ? a : b; t()`: either may run
                return union
            if len(fc.bindings.get((scope, cs.name), ())) > 1 or fc.bindings.at_line(scope, cs.name, cs.line):
                # re-bound: statement order decides; a callback's parameter holds on its lines
                v = r.resolve_expr_at(fc, scope, cs.name, cs.line)
            else:
                v = _defined_before(r, fc, scope, cs) or r.resolve_name(fc, scope, cs.name)
            if v is not None and not isinstance(v, FuncV | ClassV) and not cs.is_new and \
                    getattr(rules, "methods_apart", False) and _variable(fc, scope, cs.name):
                # Java's `output(node)` names a method, never the local `output` (JLS 6.5.7.1): the
                # enclosing classes' (below) or one the file imports (`import static a.B.output`)
                top = r.resolve_name(fc, None, cs.name)
                v = top if isinstance(top, FuncV) else None
            if v is None and rules.implicit_this and (scope, "this") in fc.bindings:
                # an extension function's body: ``this`` is its receiver (Kotlin ``fun User.f()``)
                recv_v = r.binding_value(fc, fc.bindings[(scope, "this")])
                if isinstance(recv_v, InstV):
                    t = self._method_targets(recv_v, cs, fc=fc)
                    if t:
                        return t
            unbound_external = v is EXTERNAL and getattr(rules, "unbound_types_external", False)
            if (v is None or unbound_external) and rules.implicit_this:
                # Java / TS implicit ``this``: the enclosing class, then the classes enclosing it (C#:
                # also when the name is bound nowhere, which its rules call a library's type).
                outcome: Targets = EXTERNAL if unbound_external else None
                cls = innermost = r.enclosing_class(fc, scope)
                while cls is not None:
                    t = self._method_targets(InstV(cls, "exact"), cs, fc=fc)
                    if isinstance(t, list) and t:
                        self._pending = (cls, True) if cls is innermost else None
                        return t
                    outcome = outcome or t
                    cls = r.enclosing_class(fc, cls.parent)
                if outcome is None and rules.is_builtin(cs.name):
                    return EXTERNAL  # a built-in called inside a class (Kotlin's println)
                return outcome
            if v is None and rules.is_builtin(cs.name):
                return EXTERNAL
            out = self._callee_targets(v, cs, "exact", fc=fc)
            if rules.implicit_this and isinstance(v, FuncV) and isinstance(out, list) and v.f.kind == "method":
                chosen = {id(d): d for d, _ in out if d.kind == "method"}
                if len(chosen) == 1:  # several overloads kept: dispatching from each would link every override
                    out += self._implicit_this_dispatch(fc, cs, next(iter(chosen.values())))
                cls = r.enclosing_class(fc, scope)
                if cls is not None and any(m is v.f for m in classes.lookup(cls, v.f.name)[0]):
                    self._pending = (cls, True)  # `step()` in a method of `cls`: `this.step()`
            return out
        if cs.via == "class" or (cs.via == "reflect" and cs.is_new):
            # `Class.forName("a.b.C")`: the class itself (loading it runs its initialiser);
            # `....getDeclaredConstructor(..).newInstance(..)`: its constructor
            named = r.resolve_expr(fc, scope, f"{recv}.{cs.name}" if recv else cs.name)
            if not isinstance(named, ClassV):
                return None
            return [(named.c, "exact")] if cs.via == "class" else self._constructors(named.c, cs.arity, "exact")
        if recv == "super":
            # The next class after the enclosing one in its MRO having the member (C3: in a diamond
            # ``D(B, C)`` a ``super()`` call in ``D`` reaches ``C`` before the shared base).
            cls = r.enclosing_class(fc, scope)
            if cls is None:
                return None
            for base in classes.mro(cls)[1:]:
                r.use(("name", base.file.path, cs.name))
                if not base.member(cs.name):
                    continue
                t = self._method_targets(InstV(base, "inferred"), cs, dispatch=False, fc=fc)
                if t:
                    self._pending = (cls, True)  # `super.run()`: the base's method, on this instance
                    return [(d, "inferred") for d, _ in t] if isinstance(t, list) else t
            return EXTERNAL if classes.has_external_ancestor(cls) else None
        union = self._union(either_values(r, fc, scope, recv, cs.line),  # a type test already narrowed it
                            lambda v: self._receiver_targets(fc, cs, scope, recv, v, narrowing=False))
        if union:  # `const s = a ?? new B(); s.run()`: the method of either value may run
            self._pending = None
            return union
        rv = r.resolve_expr_at(fc, scope, recv, cs.line)
        if (rv is None or rv is EXTERNAL) and "()" in recv:  # `first(users).save()`: a generic function's result
            rv = generic_receiver(r, fc, scope, recv, cs.line, cs.col) or rv
        if rv is None and getattr(rules, "subclass_members", False):
            held = recv if recv.startswith(rules.instance_prefix) else self._held_from_self(fc, scope, recv)
            below = self._receiver_below(fc, cs, scope, held[len(rules.instance_prefix):]) if held else None
            if below:
                return below
        return self._receiver_targets(fc, cs, scope, recv, rv)

    def _member_table(self, fc: FileCtx, cs: CallSite, scope: str | None) -> list[tuple[Def, str]] | None:
        """Targets of ``self.<name>[k](...)`` (``CallSite.via == "member"``): the values the nearest class
        of the enclosing class's MRO giving ``<name>`` a value holds in its display (bindings ``self.<name>[]``,
        :mod:`indexer.languages.python.containers`), each resolved in that class's body and called,
        ``inferred``; ``None`` when that class gives it another value or none does."""
        r = self.r
        cls = r.enclosing_class(fc, scope)
        member = fc.rules.instance_prefix + cs.name
        for c in r.mro(cls) if cls is not None else ():
            r.use(("name", c.file.path, cs.name))
            r.use(("name", c.file.path, cs.name + "[]"))  # the display's names (`self.x[]` digests as `x[]`)
            held = c.file.bindings.get((c.qualname, member + "[]"))
            if held:
                out: dict[int, tuple[Def, str]] = {}
                for b in held:
                    v = r.resolve_expr(c.file, b.scope, b.type)
                    t = self._callee_targets(v, cs, "inferred", fc=c.file) if v is not None else None
                    for d, _ in t if isinstance(t, list) else ():
                        out.setdefault(id(d), (d, "inferred"))
                return list(out.values()) or None
            if c.member(cs.name) or c.file.bindings.get((c.qualname, member)):
                return None  # the nearest class giving it a value gives no display of names
        return None

    @staticmethod
    def _union(values: list[Value] | None, targets: Callable[[Value], Targets]) -> list[tuple[Def, str]]:
        """Every target ``targets`` gives one of ``values`` (:func:`indexer.resolve.either.either_values`:
        the values a name holding one of several may have), each once and ``inferred`` (one possible
        value of several); empty when ``values`` is ``None`` or none binds to the repository."""
        out: dict[int, tuple[Def, str]] = {}
        for v in values or ():
            t = targets(v)
            for d, how in t if isinstance(t, list) else ():
                if id(d) not in out:
                    out[id(d)] = (d, "inferred" if how == "exact" else how)
        return list(out.values())

    def _receiver_below(self, fc: FileCtx, cs: CallSite, scope: str | None, name: str) -> list[tuple[Def, str]]:
        """A call ``self.name.m()`` whose receiver has no value in the method's own class (missing
        from its MRO, or a placeholder: ``model = None``): the targets ``m`` has on the value each
        subclass gives ``name`` (``model = Post`` in one, ``model = Note`` in another:
        :meth:`ClassHierarchy.provided_below`), ``inferred``; ``name`` may go on through attributes
        (``self.repo.session.add()``: ``session`` of each subclass's ``repo``). Empty when ``self`` is
        no instance of a class known inexactly or no subclass gives a value."""
        segments = split_dotted(name)
        if not segments or not all(calls_off(x)[0].isidentifier() for x in segments):
            return []
        head = calls_off(segments[0])[0]
        inst = self.r.resolve_expr_at(fc, scope, fc.rules.instance_prefix[:-1], cs.line)
        if not isinstance(inst, InstV) or inst.concrete:
            return []
        members, _ = self.classes.lookup(inst.c, head)
        if any(m.file.bindings.get((m.parent, head)) for m in members if m.kind == "field"):
            return []  # a value the class body gives it, if unknown (`pk = property(...)`), is no placeholder
        out: list[tuple[Def, str]] = []
        seen: set[int] = set()
        for s, _ in self.classes.provided_below(inst.c, head):
            v = self.r.follow(InstV(s, "inferred"), segments)
            t = self._receiver_targets(fc, cs, scope, None, v) if v is not None else None
            # one of several guesses: of the call's arity only (on a class, with or without an explicit self)
            arities = (cs.arity,) if isinstance(v, InstV) else (cs.arity, cs.arity - 1)
            for d, _ in t if isinstance(t, list) else ():
                if id(d) not in seen and (not d.is_callable or d.is_type or any(arity_ok(d, a) for a in arities)):
                    seen.add(id(d))
                    out.append((d, "inferred"))
        return out

    @staticmethod
    def _held_from_self(fc: FileCtx, scope: str | None, recv: str) -> str | None:
        """The receiver text ``recv`` with its head, a local every binding of which in ``scope`` builds
        or names the same ``self.`` attribute (``obj = self.model(**kw)``: ``constructed``; ``m =
        self.model``: ``alias``), spelled through that attribute: ``obj`` -> ``self.model()``, ``m().x``
        -> ``self.model().x``. ``None`` for any other receiver."""
        segments = split_dotted(recv)
        if not segments:
            return None
        head, calls = calls_off(segments[0])
        bound = fc.bindings.get((scope, head), ()) if head.isidentifier() else ()
        if not bound or len({(b.how, b.type) for b in bound}) != 1 or bound[0].how not in ("constructed", "alias"):
            return None
        text, prefix = bound[0].type, fc.rules.instance_prefix
        if not text.startswith(prefix) or not all(x.isidentifier() for x in text[len(prefix):].split(".")):
            return None
        built = "()" if bound[0].how == "constructed" else ""
        return ".".join([text + built + "()" * calls, *segments[1:]])

    def _receiver_targets(self, fc: FileCtx, cs: CallSite, scope: str | None, recv: str | None, rv: Value,
                          narrowing: bool = True) -> Targets:
        """Targets of a call ``recv.name(...)`` whose receiver ``recv`` (its text; ``None``: a
        value that no text of the file names) evaluated to ``rv``; ``narrowing``: where a type test
        guards ``recv``, add what its value without the test binds (:meth:`_narrowed_targets`)."""
        r, rules = self.r, fc.rules
        if isinstance(rv, QueryV) and rv.manager is not None and not rv.method:
            t = self._method_targets(rv.manager, cs, fc=fc)  # `Profile.objects.for_user(u)`: the manager's own
            if isinstance(t, list) and t:
                return t
        if rv is EXTERNAL or rv is BUILTIN or isinstance(rv, QueryV):
            return EXTERNAL  # `", ".join(x)`, `kwargs.pop(k)`, `q.filter()`: the language's or a library's methods
        if rv is None:
            return None if cs.via is not None else self._name_fallback(fc, cs)
        if isinstance(rv, InstV):
            narrowed = narrowing and recv is not None and _narrowed(fc, scope, recv)
            t = self._narrowed_targets(fc, cs, rv) if narrowed else self._method_targets(rv, cs, fc=fc)
            if not narrowed:  # `c.run()`, `new C().run()`, `self.run()`: on a `C`
                self._pending = (rv.c, recv is not None and rules.instance_prefix == recv + ".")
            return t
        if cs.via == "dunder":  # iterating a class runs its metaclass's __iter__, not the class's own
            return None
        if isinstance(rv, FuncV) and cs.name in rules.deferred_calls and rv.f.heads.decorators:
            return [(rv.f, "inferred")]  # `task.delay(...)` runs the task
        v = r.attr(rv, cs.name)
        if v is None and cs.name in getattr(rules, "invoking_members", ()):
            # JS `Base.call(this, x)`, `fn.apply(ctx, args)`: the function runs (a module: the
            # function it exports, `module.exports = Base`)
            f = r.module_member(rv.ns, rv.key, "default") if isinstance(rv, ModuleV) else rv
            if isinstance(f, FuncV) and f.f.is_callable:
                return [(f.f, "exact")]
        if v is None:  # a property of a plain object that is no definition: matched by name as before,
            # unless the object has no properties but its literal's (a factory's returned object)
            closed = getattr(rules, "closed_objects", None)
            if isinstance(rv, ObjV) and not (closed and rv.qualname.rpartition(".")[2] == closed):
                return self._name_fallback(fc, cs)
            return None
        t = self._callee_targets(v, cs, "exact", dispatch=False, fc=fc)
        if isinstance(rv, ClassV) and rv.dynamic:  # `cls.request(...)` in a classmethod: on the caller's class
            self._pending = (rv.c, True)
        return t

    def _result_targets(self, fc: FileCtx, cs: CallSite) -> Targets:
        """A call of what calling ``cs``'s callee returns (``CallSite.via == "result"``: FastAPI runs
        the dependency ``Depends(factory(...))`` gives it, the result of ``factory(...)``): for a
        class, its instance's ``__call__``; for a function, each function it returns uncalled
        (``return inner``) and the constructors of each class it returns (``return Repo``: FastAPI
        builds it), ``inferred`` when it returns several or something else too (``returns_other``); for
        a function returning its parameter (``returned_param``), what the inner call's argument there is,
        ``inferred``; else what its return type or inferred return says (an instance: its
        ``__call__``); ``None`` when nothing of the repository runs."""
        r = self.r
        text = f"{cs.receiver}.{cs.name}" if cs.receiver else cs.name
        if cs.via == "element":  # a container's element held as `make()`: what calling make returns
            text = text.removesuffix("()")
        v = r.resolve_expr_at(fc, cs.caller, text, cs.line)
        any_arity = CallSite(cs.caller, cs.name, None, -1, cs.line, cs.col)
        if isinstance(v, ClassV):
            return self._callee_targets(InstV(v.c, "exact", concrete=not v.dynamic), any_arity, "exact") or None
        if not isinstance(v, FuncV):
            return None
        returned = r.returned_values(v.f)
        if returned and any(a.text.startswith(NamedArgument.DECORATED) for a in cs.handed):
            # a decorator factory (`@register.tag("x")`): only the one function it returns on every path
            one = r.only_returned(v.f, None, applied=True)
            return [(one.f, v.how)] if isinstance(one, FuncV) else None
        how = v.how if len(returned) == 1 and not v.f.d.returns_other else "inferred"  # one of several: a guess
        out: list[tuple[Def, str]] = []
        for value in returned:
            t = self._callee_targets(value, any_arity, how)
            out += t if isinstance(t, list) else []
        if out or returned:
            return out or None
        if cs.via == "result" and v.f.d.returned_param:  # `register(f)()`: the argument it hands back
            handed = generic_call(r, fc, cs.caller, text, (cs.line, cs.col), after=True)
            t = self._callee_targets(handed, any_arity, "inferred") if handed is not None else None
            return t if isinstance(t, list) and t else None
        result = r.call_result(v, "inferred")
        if isinstance(result, InstV | FuncV):
            t = self._callee_targets(result, any_arity, "inferred")
            return t if isinstance(t, list) and t else None
        return None

    def _narrowed_targets(self, fc: FileCtx, cs: CallSite, rv: InstV) -> Targets:
        """The targets of ``cs`` on ``rv``, its receiver's value where a type test may narrow it
        (:data:`~indexer.model.NARROWED`): the narrowed class's methods and their overrides, and
        the methods the receiver's declared type binds without dispatch (what the compiler binds,
        the declared method impact analysis starts from, as for any call on that type). A target
        the declared type also reaches keeps that resolution (``node.getParentNode()`` after ``node
        instanceof VariableDeclarator`` stays ``exact`` to ``Node.getParentNode``); the declared
        type's other overrides are not reached (``type.describe()`` after ``type instanceof
        ResolvedUnionType`` reaches ``ResolvedType.describe`` and ``ResolvedUnionType.describe``)."""
        targets = self._method_targets(rv, cs, fc=fc)
        plain = self.r.resolve_expr_at(fc, cs.caller, cs.receiver or "", cs.line, narrowing=False)
        if not isinstance(targets, list) or not isinstance(plain, InstV) or plain == rv:
            return targets
        known = self._method_targets(plain, cs, fc=fc)
        hows = {id(d): how for d, how in known} if isinstance(known, list) else {}
        out = [(d, hows.get(id(d), how)) for d, how in targets]
        declared = self._method_targets(plain, cs, dispatch=False, fc=fc)
        seen = {id(d) for d, _ in out}
        return out + [(d, how) for d, how in declared if id(d) not in seen] if isinstance(declared, list) else out

    def _implicit_this_dispatch(self, fc: FileCtx, cs: CallSite, m: Def) -> list[tuple[Def, str]]:
        """The overrides a bare call (Java / Kotlin / C# ``tmpl()`` in ``Base.go``) binding method
        ``m`` of an enclosing class may run, ``inferred``, as ``this.tmpl()`` reaches them: those
        below the innermost enclosing class that has ``m`` (an inner class calling its outer class's
        method dispatches on the outer instance). An override declares the same parameter types
        (:func:`same_parameter_types`: ``translate(int, Writer)`` does not override
        ``translate(CharSequence, Writer)``). None for a ``private``, ``static`` or ``final`` method,
        which no subclass overrides. ``m`` is the one overload the call's arity and argument types
        chose (:meth:`_overloads`; the caller does not dispatch when several stay, as dispatching
        from each would link every subclass's overloads of the name: 17 targets a call of
        commons-lang's ``appendDetail``); in a language that chooses none (no
        ``overloads_by_signature``), none unless ``m`` is the one overload the call's arity fits."""
        r, classes = self.r, self.classes
        cls = r.enclosing_class(fc, cs.caller)
        while cls is not None:
            members = self._member_overloads(cls, m.name)
            if any(x is m for x in members):
                chosen = getattr(m.file.rules, "overloads_by_signature", False)  # else the name's last one
                if any(mod in _NOT_OVERRIDDEN for mod in m.d.modifiers) or not (
                        chosen or [x for x in members if arity_ok(x, cs.arity)] == [m]):
                    return []
                return [(o, "inferred") for o in classes.overriders(m, cls) if o is not m and same_parameter_types(o, m)]
            cls = r.enclosing_class(fc, cls.parent)
        return []

    def _member_overloads(self, c: Def, name: str) -> list[Def]:
        """The methods named ``name`` that class ``c`` has: those of the first class of its MRO
        declaring any (:meth:`ClassHierarchy.lookup`) and, in a language whose methods overload by
        signature (the module system's optional ``overloads_by_signature``: Java), those its further
        ancestors declare that no method already collected overrides (JLS 8.4.8: a class's members
        include the methods it inherits; an override repeats the parameter types,
        :func:`same_parameter_types`). ``Sub`` declaring ``detail(b, f, Object)`` still has
        ``Base``'s ``detail(b, f, int, Object)``. Constructors are no members here. Memoised per
        class and name: every call of the name reads them (a hostile file repeating one method 3,000
        times, each copy calling it, compared 256 of them per call)."""
        found = self.r.memoised((id(c), name, "member overloads"), lambda: self._declared_overloads(c, name))
        return found if isinstance(found, list) else self._declared_overloads(c, name)  # type: ignore[return-value]

    def _declared_overloads(self, c: Def, name: str) -> list[Def]:
        """:meth:`_member_overloads` computed."""
        classes = self.classes
        found = [m for m in classes.lookup(c, name)[0] if m.is_callable and m.kind != "constructor"]
        if not found or not getattr(found[0].file.rules, "overloads_by_signature", False):
            return found
        out: list[Def] = []
        for x in classes.mro(c):
            self.r.use(("name", x.file.path, name))
            nearer = len(out)  # a class's own overloads never hide each other
            # every overload up to MAX_OVERLOADS, not a lookup's last MAX_NAMESAKES: the call's
            # arguments choose among them first (``chosen`` bounds what is bound)
            out += [m for m in overload_candidates(x, name) if m.is_callable and m.kind != "constructor"
                    and m.parent == x.qualname and not any(same_parameter_types(m, o) for o in out[:nearer])]
        return out

    def run_targets(self, inst: InstV, name: str, cs: CallSite, arity: int = 0) -> list[tuple[Def, str]]:
        """The methods ``name`` that calling it on ``inst`` with ``arity`` arguments (none unless said)
        reaches, from ``cs``'s place, with dispatch to overrides unless ``inst`` is concrete; empty when
        none binds."""
        t = self._method_targets(inst, CallSite(cs.caller, name, None, arity, cs.line, cs.col))
        return t if isinstance(t, list) else []

    def _callee_targets(self, v: Value, cs: CallSite, how: str, dispatch: bool = False, fc: FileCtx | None = None
                        ) -> Targets:
        if isinstance(v, ModuleV):  # a CommonJS module called or built: `module.exports = f` is `f`
            v = self.r.module_member(v.ns, v.key, "default")
        if v is None or v is EXTERNAL:
            return v
        if v is BUILTIN or isinstance(v, QueryV):  # `set(x)`, `str(x)`: a builtin class built; a query's method
            return EXTERNAL
        if isinstance(v, FuncV):
            out = [(f, how if v.how == "exact" else "inferred") for f in self._overloads(v.f, cs, fc)]
            if dispatch:
                out += [(o, "inferred") for o in self.classes.overriders(v.f)]
            return self._wrapped(out)
        if isinstance(v, ClassV):
            return self._constructors(v.c, cs.arity, how, cs, fc)
        call = v.c.file.rules.call_method if isinstance(v, InstV) else None
        if call:  # calling an instance runs its class's __call__
            inst = InstV(v.c, "exact" if v.how == how == "exact" else "inferred", v.concrete)
            return self._method_targets(inst, CallSite(cs.caller, call, None, -1, cs.line, cs.col))
        return None

    def _overloads(self, f: Def, cs: CallSite, fc: FileCtx | None) -> list[Def]:
        """``f`` (a name's value: the last definition of that name) or, in a language whose methods
        overload (the module system's optional ``overloads_by_signature``: Java), the overloads
        declared with it that ``cs``'s arity and, with its file ``fc``, its arguments' types select."""
        if not getattr(f.file.rules, "overloads_by_signature", False) or f.parent is None:
            return [f]
        owner = entries(f.file.by_qualname, f.parent)
        if f.kind == "method" and owner and owner[0].is_type:  # with the overloads it inherits
            defs = self._member_overloads(owner[0], f.name)
        else:
            defs = [d for d in entries(f.file.by_qualname, f.qualname) if d.is_callable and d.kind == f.kind]
        if len(defs) <= 1:
            return [f]
        defs = by_arity(defs, cs.arity)
        if fc is None:
            return chosen(defs)
        c = owner[0] if f.kind == "method" and owner and owner[0].is_type else None
        return chosen(self._unless_cut(c, f.name, defs, by_argument_types(self.r, fc, cs, defs)))

    def _unless_cut(self, c: Def | None, name: str, fitting: list[Def], picked: list[Def]) -> list[Def]:
        """``picked`` (what the argument types chose among the overloads ``fitting`` a call's arity),
        or none when the choice kept them all while class ``c`` or one of its bases had more overloads
        of ``name`` than the choice read (:func:`~indexer.resolve.context.overloads_cut`): the one the
        arguments select may be among those left out, and binding the others would be wrong (brk46)."""
        if c is None or len(picked) <= 1 or [id(d) for d in picked] != [id(d) for d in fitting]:
            return picked
        return [] if any(overloads_cut(x, name) for x in self.classes.mro(c)) else picked

    def _method_targets(self, inst: InstV, cs: CallSite, dispatch: bool = True, fc: FileCtx | None = None) -> Targets:
        """The methods a call ``cs`` of ``inst``'s class reaches (its overrides too, with ``dispatch``
        unless the instance is concrete); ``fc``: the call's file, where its arguments' types are
        read to choose among overloads of the call's arity (none chosen without it)."""
        classes = self.classes
        members, inherited = classes.lookup(inst.c, cs.name)
        methods = [m for m in members if m.is_callable]
        if methods:
            methods = self._member_overloads(inst.c, cs.name) or methods
        if not methods:
            if members:  # a field holding a callable (`self.strategy = f`), a nested class: call its value
                t = self._callee_targets(self.r.attr(inst, cs.name), cs, inst.how)
                # a placeholder (`model = None`) that subclasses give a value: theirs
                return t if t is not None else self._provided_below(inst, cs)
            bound = self.r.attr(inst, cs.name)  # an instance member bound to a function (JS `X.prototype.m = f`)
            if isinstance(bound, FuncV):
                return self._callee_targets(bound, cs, inst.how)
            implied = self._runtime_call(inst, cs) or self._extension_call(inst, cs) or self._provided_below(inst, cs)
            if implied:
                return implied
            if classes.has_external_ancestor(inst.c):
                return EXTERNAL
            below = not inst.concrete and getattr(inst.c.file.rules, "subclass_members", False)
            return EXTERNAL if below and classes.external_below(inst.c, cs.name) else None  # a library's, through a subclass
        if fc is not None and self._library_overload(inst.c, cs, fc, methods):
            return EXTERNAL
        fitting = by_arity(methods, cs.arity)
        methods = chosen(fitting if fc is None else self._unless_cut(
            inst.c, cs.name, fitting, by_argument_types(self.r, fc, cs, fitting)))
        own = {id(m) for m in members} if not inherited else set()
        own.update(id(m) for m in methods if m.parent == inst.c.qualname and m.file is inst.c.file)  # past the lookup's bound
        out = self._wrapped([(m, inst.how if id(m) in own else "inferred") for m in methods])
        if dispatch and not inst.concrete:
            seen = {id(m) for m in methods}
            structural = classes.structural
            if getattr(inst.c.file.rules, "structural_interfaces", False):
                ns = inst.c.file.rules.namespace
                self.r.use(reach_token(ns))  # which modules' implementations
                for name in sorted(structural.type_reads.get(id(inst.c), ())):  # the types keyed to find them
                    self.r.use(("n", ns, name))
            for m in methods:
                for o in classes.overriders(m, inst.c):
                    if id(o) not in seen and (fc is None or structural.together(fc.rules.namespace, fc.path, o.file.path)):
                        seen.add(id(o))
                        out.append((o, "inferred"))
        return out

    def _library_overload(self, c: Def, cs: CallSite, fc: FileCtx, methods: list[Def]) -> bool:
        """Whether call ``cs`` on an instance of ``c`` is of an overload a library supertype declares:
        in a language whose methods overload by signature, ``c`` has an ancestor outside the
        repository (whose methods are members of ``c`` too, JLS 8.4.8) and none of the repository's
        ``methods`` of that name can take the arguments (:func:`none_applicable`): ``repo.forEach(h ->
        h.handle())`` on a ``class Repo implements Iterable<Handler>`` declaring only
        ``forEach(String)`` is ``Iterable.forEach``. Not when the lookup left overloads out."""
        if not getattr(c.file.rules, "overloads_by_signature", False) or not self.classes.has_external_ancestor(c):
            return False
        if any(overloads_cut(x, cs.name) for x in self.classes.mro(c)):
            return False
        return none_applicable(self.r, fc, cs, methods)

    def _wrapped(self, out: list[tuple[Def, str]]) -> list[tuple[Def, str]]:
        """``out`` (a call's targets) and, for each decorated one, the wrapper its decorators
        return that runs first (:meth:`~indexer.resolve.interpreter.Resolver.wrapper`), ``inferred``:
        the decorated function stays a target (what impact analysis follows), its wrapper is one too."""
        extra = [(w.f, "inferred") for d, _ in out if d.shape.decorated and isinstance(w := self.r.wrapper(d), FuncV)]
        return out + extra if extra else out

    def _runtime_call(self, inst: InstV, cs: CallSite) -> list[tuple[Def, str]] | None:
        """The repository method a runtime method outside the repository calls back (the module
        system's optional ``runtime_calls``: Java ``Thread.start()`` -> ``run()``), ``inferred``,
        with its overriders unless the instance's class is known exactly; ``None`` when no rule applies."""
        rule = getattr(inst.c.file.rules, "runtime_calls", {}).get(cs.name)
        if rule is None or cs.arity != 0:
            return None
        base, target = rule
        mro = self.classes.mro(inst.c)
        if not any((base_type(b) or "").rsplit(".", 1)[-1] == base for c in mro for b in c.heads.bases):
            return None
        members, _ = self.classes.lookup(inst.c, target)
        runs = [m for m in members if m.is_callable and arity_ok(m, 0)]
        out = [(m, "inferred") for m in runs]
        if not inst.concrete:
            for m in runs:
                out += [(o, "inferred") for o in self.classes.overriders(m, inst.c)]
        return out or None

    def _provided_below(self, inst: InstV, cs: CallSite) -> list[tuple[Def, str]] | None:
        """In a language whose classes may call what only their subclasses provide (the module
        system's optional ``subclass_members``: Python, JavaScript), a method ``cs.name`` that no class
        of an instance's MRO has (or only as a placeholder without a value: `model = None`) but subclasses of its class do (:meth:`ClassHierarchy.provided_below`:
        a mixin's ``self.get_object()`` runs the ``get_object`` of the class it is mixed into, a
        template method's ``self.hook()`` each subclass's hook), ``inferred``: the callable members of
        the call's arity, and the function a subclass's field holds (``self.child = self.func2``).
        ``None`` for an instance whose class is known exactly (no subclass of it runs) or when none
        provides it."""
        if inst.concrete or not getattr(inst.c.file.rules, "subclass_members", False):
            return None
        out: list[tuple[Def, str]] = []
        seen: set[int] = set()
        for s, members in self.classes.provided_below(inst.c, cs.name):
            callables = [m for m in members if m.is_callable]
            if callables:  # of the call's arity only: no fallback to every namesake here
                found = [m for m in callables if arity_ok(m, cs.arity)]
            elif any(m.is_type for m in members):
                continue  # a nested class named so: building it is no method call of the instance
            else:
                t = self._callee_targets(self.r.attr(InstV(s, "inferred"), cs.name), cs, "inferred")
                found = [d for d, _ in t] if isinstance(t, list) else []
            for m in found:
                if id(m) not in seen:
                    seen.add(id(m))
                    out.append((m, "inferred"))
        return self._wrapped(out) if out else None

    def _extension_call(self, inst: InstV, cs: CallSite) -> list[tuple[Def, str]] | None:
        """Extension functions of that name (``Definition.receiver_type``: Kotlin ``fun User.f()``)
        whose receiver type, resolved in their own file, is the instance's class or an ancestor of
        it: ``exact`` on the class itself when the instance's type is, else ``inferred``; ``None``
        when none fits (an extension of another type is no candidate)."""
        rules = inst.c.file.rules
        if not getattr(rules, "extension_functions", False):  # the namespace has none (optional flag)
            return None
        r = self.r
        ns = rules.namespace
        r.use(("n", ns, cs.name))
        out: list[tuple[Def, str]] = []
        mro = self.classes.mro(inst.c)
        for rd in r.tables.callables_by_name.get((ns, cs.name), ()):
            if not rd.shape.extension or not arity_ok(rd, cs.arity):
                continue
            t = r.resolve_type(rd.file, rd.parent, rd.d.receiver_type)
            if isinstance(t, ClassV) and any(t.c is c for c in mro):
                out.append((rd, inst.how if t.c is inst.c else "inferred"))
        return out or None

    def _constructors(self, c: Def, arity: int, how: str, cs: CallSite | None = None, fc: FileCtx | None = None
                      ) -> list[tuple[Def, str]]:
        """The constructors (and construction hooks) building ``c`` with ``arity`` arguments, or ``c``
        itself when it declares none; with the call ``cs`` and its file ``fc``, the overloads its
        arguments' types select."""
        name = c.file.rules.constructor_name or c.name
        members, inherited = self.classes.lookup(c, name)
        ctors = [m for m in members if m.kind == "constructor" or (m.is_callable and m.name == name)]
        ctors = by_arity(ctors, arity)
        if cs is not None and fc is not None:
            ctors = by_argument_types(self.r, fc, cs, ctors)
        out = [(m, "inferred" if inherited else how) for m in ctors] if ctors else [(c, how)]
        for hook in c.file.rules.construction_hooks:
            found, inherited = self.classes.lookup(c, hook)
            out += [(m, "inferred" if inherited else how) for m in found if m.is_callable]
        return out

    def _name_fallback(self, fc: FileCtx, cs: CallSite) -> list[tuple[Def, str]] | None:
        r = self.r
        ns = fc.rules.namespace
        r.use(("n", ns, cs.name))
        # A call on a receiver (``rv.update(...)``) is a method call: a free function of that name
        # is no candidate (README: ``name`` binds to exactly one *method* of that name and arity),
        # except a JS function assigned to an object's property (``res.send = function () {}``).
        # Members a tool generates (Lombok's `getX`) are no candidates: their names are as common
        # in libraries as they are certain on a receiver whose type is known. Nor are extension
        # methods (`receiver_type`): they bind only on a receiver known to be of their type.
        properties = fc.rules.property_functions
        closed = getattr(fc.rules, "closed_objects", None)
        candidates = [rd for rd in r.tables.callables_by_name.get((ns, cs.name), ())
                      if arity_ok(rd, cs.arity) and not rd.shape.generated and not rd.shape.extension and (
                          cs.receiver is None or rd.kind == "method"
                          or (properties and rd.parent is not None))
                      and not (closed and _unnamed_result(r, fc, cs, rd, closed))]
        for rd in candidates:
            r.use(("name", rd.file.path, rd.name))
        # In JS/TS (``property_functions``) an interface member is a type signature with no code:
        # whatever runs a call on an unknown receiver, it is never that member (tRPC's
        # `trpc.useUtils()` on a proxy matched `CreateTRPCNextBase.useUtils` of another package).
        # It still counts as a candidate, so that it keeps a same-named function from binding alone.
        # Nor does a method of a class extending a builtin type that has it (`class Marked(str)`'s
        # `split`): the unknown receiver is as likely that builtin type's own instance.
        # Nor does a function assigned to a property of its enclosing function's parameter (a test
        # helper's mock, `(req, res) => { res.setHeader = (k, v) => ... }`) from a file that does not
        # import its module: it patches the objects handed to that function, which such a file's
        # objects (`ctx.res` of a middleware, the library's own `this.res`) never went through.
        if len(candidates) == 1 and not (properties and (_interface_member(r, candidates[0])
                                                         or _foreign_patch(r, fc, candidates[0]))) \
                and not _builtin_namesake(r, candidates[0]) and not _unreached_member(r, fc, cs, candidates[0]):
            return [(candidates[0], "name")]
        return None


def _unnamed_result(r: Resolver, fc: FileCtx, cs: CallSite, rd: Def, closed: str) -> bool:
    """Whether ``rd`` is a member of a factory's returned object (its parent ``F.<closed>``, the
    module system's ``closed_objects``: JS ``CartGateway.return``) that a call matched by name alone
    is not seen to reach: the call is written in another file, its receiver's last name is not the
    factory's (``editor.commands.nextSearchMatch()`` may be ``commands() { return {...} }``'s result),
    and the calling file does not import the factory's (a module using a factory's result imports it:
    octokit's ``client.requestRepos()`` of a plugin). Such a member is no name candidate: chrono's
    ``result.start.date()`` bound to outline's ``DateTime.commands.return.date``, and
    ``Placeholder.schema.return.toPlainText`` hid the one class method ``comment.toPlainText()``
    reaches (js60). The other direction (the factory's file importing the caller's: react-redux's
    ``mapDispatchToProps`` handing ``props.onClickTag`` to the ``Tags`` it renders) is taken only for
    a receiver the module system says a rendering module hands down (its optional ``handed_down``: JS
    ``props`` / ``this.props``, acc62): a test file imports the module it tests, whose
    ``handle.cleanup()`` bound to the test's factory (outline). The reads are recorded."""
    parent = rd.parent or ""
    owner, dot, tail = parent.rpartition(".")
    if not dot or tail != closed or rd.file is fc or parent not in rd.file.owners:
        return False  # (a parent that is a definition is a real member of that name: `Cursor.return`)
    factory = owner.rpartition(".")[2]
    if cs.receiver and re.split(r"[.(\[]", cs.receiver)[-1] == factory:
        return False
    if _imports(r, fc, rd.file):
        return False
    if cs.receiver not in getattr(fc.rules, "handed_down", ()):
        return True
    r.use(("file", rd.file.path, ""))  # the factory's file's imports
    return not _imports(r, rd.file, fc)


def _imports(r: Resolver, fc: FileCtx, other: FileCtx) -> bool:
    """Whether ``fc`` imports a module one of whose files is ``other``."""
    return any(any(f is other for f in fc.rules.import_target(r, fc, imp).files) for imp in every(fc.imports))


def _narrowed(fc: FileCtx, scope: str | None, receiver: str) -> bool:
    """Whether the head name of ``receiver`` (or its ``self.x``) has a :data:`~indexer.model.NARROWED`
    binding in ``scope``."""
    head = re.split(r"[.(\[]", receiver, maxsplit=1)[0]
    prefix = fc.rules.instance_prefix
    if prefix and head == prefix[:-1]:
        head = prefix + re.split(r"[.(\[]", receiver[len(prefix):], maxsplit=1)[0]
    return any(b.how == NARROWED for b in fc.bindings.get((scope, head), ()))


def _defined_before(r: Resolver, fc: FileCtx, scope: str | None, cs: CallSite) -> Value:
    """In a language whose scopes run their statements in order (the module system's optional
    ``definitions_in_order``: Python), the definition of ``cs.name`` written last before the call
    when ``scope`` itself defines that name several times and binds it no other way (``@deco`` above a
    second ``def deco`` applies the first); ``None`` otherwise (the scope's last definition decides,
    as for a call in a function body run later)."""
    if not getattr(fc.rules, "definitions_in_order", False) or fc.bindings.get((scope, cs.name)):
        return None
    kept = entries(fc.top, cs.name) if scope is None else entries(fc.by_qualname, f"{scope}.{cs.name}")
    if not kept or max(d.line for d in kept) < cs.line:  # the common case: defined above, no scan
        return None
    r.use(("name", fc.path, cs.name))  # the lookups hold no shadowed definition: the file's own list does
    before = [d for d in fc.defs if d.name == cs.name and d.parent == scope and d.line < cs.line]
    return r.def_value(max(before, key=lambda d: d.line)) if before else None


def _builtin_namesake(r: Resolver, rd: Def) -> bool:
    """Whether the method ``rd`` belongs to a class one of whose bases is a builtin type of its language
    having a member of the same name (the module system's optional ``builtin_type_member``: Python's
    ``class Marked(str): def split(...)``); the read is recorded."""
    member = getattr(rd.file.rules, "builtin_type_member", None)
    if member is None or not rd.parent:
        return False
    r.use(("name", rd.file.path, rd.parent.rpartition(".")[2]))
    parents = entries(rd.file.by_qualname, rd.parent)
    bases = parents[0].heads.bases if parents and parents[0].is_type else ()
    return any(member(base_type(b) or "", rd.name) and not entries(rd.file.by_qualname, base_type(b) or "")
               for b in bases)


def _unreached_member(r: Resolver, fc: FileCtx, cs: CallSite, rd: Def) -> bool:
    """Whether the module system of the calling file says the method ``rd`` cannot be what the call
    ``cs`` on its unknown receiver runs (its optional ``unreached_member(r, receiver, rd)``: Python's
    Django related managers, :func:`indexer.languages.python.django_models.unreached_manager_method`)."""
    unreached = getattr(fc.rules, "unreached_member", None)
    return unreached is not None and cs.receiver is not None and unreached(r, cs.receiver, rd)


def _foreign_patch(r: Resolver, fc: FileCtx, rd: Def) -> bool:
    """Whether ``rd`` is a function assigned to a property of a parameter of the function enclosing it
    (its parent ``f.res`` names ``res``, a parameter of ``f``) and ``fc`` (the calling file) is
    neither its file nor imports a module one of whose files it is; the reads are recorded."""
    owner, _, prop = (rd.parent or "").rpartition(".")
    if not owner or not prop or rd.file is fc:
        return False
    r.use(("name", rd.file.path, owner.rpartition(".")[2]))
    owners = entries(rd.file.by_qualname, owner)
    if not owners or not owners[0].is_callable or not any(p.name == prop for p in owners[0].d.params):
        return False
    return not _imports(r, fc, rd.file)


def _interface_member(r: Resolver, rd: Def) -> bool:
    """Whether ``rd`` is declared in an interface (a signature, no body); the read is recorded."""
    if not rd.parent:
        return False
    r.use(("name", rd.file.path, rd.parent.rpartition(".")[2]))
    parents = entries(rd.file.by_qualname, rd.parent)
    return bool(parents) and parents[0].kind == "interface"


_NOT_OVERRIDDEN = frozenset({"private", "static", "final"})
def arity_ok(rd: Def, arity: int) -> bool:
    """Whether a call with ``arity`` arguments (negative: unknown) fits ``rd``'s parameters."""
    if arity < 0:
        return True
    shape = rd.shape
    hi = shape.max_arity
    return shape.min_arity <= arity and (hi is None or arity <= hi)


def chosen(defs: list[Def]) -> list[Def]:
    """What a call binds of the overloads ``defs`` its arity and argument types chose (in source
    order): at most the last :data:`~indexer.resolve.context.MAX_NAMESAKES`, the bound a lookup
    holds (the choice itself reads up to :data:`~indexer.resolve.context.MAX_OVERLOADS`)."""
    return defs[-MAX_NAMESAKES:] if len(defs) > MAX_NAMESAKES else defs


def by_arity(defs: list[Def], arity: int) -> list[Def]:
    """Overloads whose arity accepts the call; all of them when none does (varargs, defaults we
    could not see)."""
    if len(defs) <= 1:
        return defs
    fitting = [rd for rd in defs if arity_ok(rd, arity)]
    return fitting or defs


def _variable(fc: FileCtx, scope: str | None, name: str) -> bool:
    """Whether ``name`` is bound as a variable (a local, a parameter, a field) in ``scope`` or a scope
    enclosing it."""
    s = scope
    while s is not None:
        if fc.bindings.get((s, name)):
            return True
        s = fc.parent_scope(s)
    return bool(fc.bindings.get((None, name)))


def _bound_above(fc: FileCtx, scope: str, name: str, line: int) -> bool:
    """Whether the class body ``scope`` of ``fc`` binds ``name`` (a definition or an assignment)
    above ``line``: a decorator there sees only what is bound before it."""
    if any(rd.line < line for rd in entries(fc.by_qualname, f"{scope}.{name}")):
        return True
    return any(b.line < line for b in fc.bindings.get((scope, name), ()))
