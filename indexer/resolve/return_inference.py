"""Return inference of the resolver core: what calling a function yields beyond its declared type.

Mixed into :class:`~indexer.resolve.interpreter.Resolver` (which provides ``use``, ``_memoised``,
``classes``, ``def_value``, ``resolve_expr``, ``call_result`` and ``called``). Reads what the
extractor recorded of a function's body (:attr:`indexer.model.Definition.returned_refs`,
``yielded_refs``, ``returns_other``, ``applies_refs``): the functions and classes it returns
uncalled (closures, factories), what a generator yields and an iterable class's iteration protocol,
and what a decorator turns a function into (the wrapper a call of the decorated name runs first).
"""

from __future__ import annotations

from collections.abc import Sequence

from indexer.resolve.multimap import entries
from indexer.resolve.values import ClassV, Def, FuncV, InstV, ObjV, Value

__all__ = ["MAX_RETURNED_VALUES", "ReturnInference"]

MAX_RETURNED_VALUES = 64
"""Functions and classes returned uncalled that :meth:`Resolver.returned_values` gives of one function
at most: the first ones in source order. A call of the function's result binds each one given
(``pick(c)(1)``), so a dispatcher returning thousands of functions, called thousands of times, made
the CALLS edges grow with the product (brk43: 1,000 of each, a million edges, 212 s). What is lost:
calls of such a result miss the functions returned after the 64th. 64 as :data:`MAX_NAMESAKES
<indexer.resolve.context.MAX_NAMESAKES>`: above what a real dispatcher returns."""


class ReturnInference:
    """Mixin of :class:`~indexer.resolve.interpreter.Resolver`: returned, yielded and decorated
    values (see the module's docstring for what the host provides)."""

    def _inferred_return(self, f: Def, ir: str) -> Value:
        """What calling ``f`` yields by its inferred return ``ir`` (a callee text resolved in its body)."""
        return self.called(f.file, f.qualname, ir)

    def yielded(self, f: Def) -> Value:
        """What the generator ``f`` yields when its ``yield`` statements hand out one name
        (:attr:`indexer.model.Definition.yielded_refs`) resolved in its body to a function, class or
        instance of the repository: that value, ``inferred``; ``None`` otherwise (several names, as a
        value stands for one thing). Memoised."""
        self.use(("name", f.file.path, f.name))
        refs = f.d.yielded_refs
        if len(refs) != 1:
            return None
        ref = refs[0]
        v = self._memoised((id(f), f.qualname, ref, "yielded"), lambda: self.resolve_expr(f.file, f.qualname, ref))
        if isinstance(v, FuncV):
            return FuncV(v.f, "inferred")
        if isinstance(v, ClassV | InstV):
            return v
        return None

    def _protocol_element(self, c: Def) -> Value:
        """What iterating an instance of the class ``c`` yields (Python's iteration protocol): a
        generator ``__iter__``'s yielded value; else, when ``__iter__`` returns no other instance
        of the repository (``return self``), what the class's ``__next__`` returns, or that other
        instance's class's. ``None`` when ``c`` (with its bases) defines no ``__iter__``."""
        iters, _ = self.classes.lookup(c, "__iter__")
        it = iters[-1] if iters else None
        if it is None or not it.is_callable:
            return None
        self.use(("name", it.file.path, it.name))
        if it.d.yielded_refs:
            return self.yielded(it)
        result = self.call_result(FuncV(it), "inferred")
        owner = result.c if isinstance(result, InstV) else c if result is None else None
        if owner is None:
            return None
        nexts, _ = self.classes.lookup(owner, "__next__")
        if not nexts or not nexts[-1].is_callable:
            return None
        return self.call_result(FuncV(nexts[-1], "inferred"), "inferred")

    def _returned_function(self, f: Def) -> Value:
        """What calling ``f`` yields when its only ``return`` hands back a function of the repository
        uncalled (a closure, ``return handler``): that function, ``inferred``; an object literal whose
        properties name functions (JavaScript ``return { a, b: f }``,
        :mod:`indexer.languages.ecmascript.returned_objects`): that object; else what the module
        system's optional ``opaque_return`` says (Django: a queryset class's method), or ``None``."""
        refs = f.d.returned_refs
        target = self._memoised((id(f), f.qualname, refs[0], "returned"),
                                lambda: self.resolve_expr(f.file, f.qualname, refs[0])) if len(refs) == 1 else None
        if isinstance(target, FuncV):
            return FuncV(target.f, "inferred")
        if isinstance(target, ObjV):  # JS `return { a, b: f }` (a hook's functions): that object
            return target
        opaque = getattr(f.file.rules, "opaque_return", None)
        return opaque(self, f) if opaque is not None else None

    def returned_values(self, f: Def) -> list[Value]:
        """What ``f`` returns uncalled, one value per name of :attr:`indexer.model.Definition.returned_refs`
        (resolved in ``f``'s own body, in order): a function (``return inner``, a closure) or a class
        (``return Repo``); names that resolve to neither are left out; at most the first
        :data:`MAX_RETURNED_VALUES`. A factory's caller calls these
        (FastAPI's ``Depends(factory(...))``)."""
        out: list[Value] = []
        for ref in f.d.returned_refs:
            if len(out) == MAX_RETURNED_VALUES:
                break
            v = self._memoised((id(f), f.qualname, ref, "returned"),
                               lambda ref=ref: self.resolve_expr(f.file, f.qualname, ref))
            if isinstance(v, FuncV | ClassV):
                out.append(v)
        return out

    def decorated_value(self, rd: Def, decorators: Sequence[str]) -> Value:
        """What applying ``decorators`` (texts of ``rd``'s, in source order: the nearest to the
        result first) to ``rd`` yields: the wrapper the first one of the repository that returns a
        function returns on every path (``def dec(f): ... return inner``: ``inner``,
        :meth:`only_returned`); ``None`` when that one may return something else too (``return
        inner if c else f``); ``rd`` itself when none returns a function (it hands its argument on,
        or is a library's or unknown: called through, as callers of a decorated name are linked to
        it). A decorator written as a call (``@factory(x)``) is what the factory returns on every
        path but those applying it (``return dec(f)``: ``@factory`` written bare), else unknown."""
        for text in decorators:
            head, paren, _ = text.partition("(")
            if paren and not text.endswith(")"):
                continue
            dec = self.resolve_expr(rd.file, rd.parent, head.strip())
            if isinstance(dec, FuncV) and paren:
                dec = self.only_returned(dec.f, None, applied=True)
            if isinstance(dec, FuncV) and any(isinstance(v, FuncV) for v in self.returned_values(dec.f)):
                return self.only_returned(dec.f, rd)
        return self.def_value(rd)

    def only_returned(self, f: Def, like: Def | None, applied: bool = False) -> Value:
        """The one function of the repository ``f`` returns uncalled whatever the path (``FuncV``):
        ``f`` has a single returned name, returns nothing else (``returns_other``; with ``applied``,
        but calls of it: the optional-argument idiom ``return dec if f is None else dec(f)``, whose
        other path a call with no function does not take) and the name is one definition; of an
        ``async def`` and a ``def`` of that name, the one of ``like``'s kind; a name also assigned
        in ``f`` (``wrapper = func`` in one branch) is no one function. ``None`` otherwise."""
        self.use(("name", f.file.path, f.name))
        d = f.d
        if len(d.returned_refs) != 1 or (d.returns_other and not (applied and d.applies_refs)):
            return None
        if (f.qualname, d.returned_refs[0]) in f.file.bindings:  # `wrapper = f` on another path
            return None
        v = self.returned_values(f)
        if len(v) != 1 or not isinstance(v[0], FuncV):
            return None
        w = v[0].f
        self.use(("name", w.file.path, w.name))
        same = [x for x in entries(w.file.by_qualname, w.qualname) if x.is_callable]
        if len(same) > 1 and like is not None:
            wanted = "async" in like.d.modifiers
            same = [x for x in same if ("async" in x.d.modifiers) == wanted]
        return FuncV(same[0], "inferred") if len(same) == 1 else None

    def wrapper(self, f: Def) -> Value:
        """What a call of the decorated callable ``f`` by its name runs first (``FuncV``): the
        wrapper its decorators return when that is another function of the repository
        (:meth:`decorated_value`); ``None`` otherwise. Memoised."""
        return self._memoised((id(f), f.qualname, "", "wrapper"), lambda: self._wrapper(f))

    def _wrapper(self, f: Def) -> Value:
        self.use(("name", f.file.path, f.name))
        decorators = f.heads.decorators
        if not decorators:
            return None
        v = self.decorated_value(f, decorators)
        return v if isinstance(v, FuncV) and v.f is not f else None
