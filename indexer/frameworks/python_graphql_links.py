"""Linking of Python GraphQL types across files (Graphene, Strawberry): merged root types and the
methods an inherited resolver dispatches to.

Mixed into the linker of :mod:`indexer.frameworks.link` (which provides ``r``, ``ctxs`` and
``result``). Two rules of the libraries, both cross-file, hence not the detectors':

* **Merged roots.** A schema's root type is commonly one class named ``Query`` / ``Mutation`` /
  ``Subscription`` inheriting the object types of each app (Graphene's documentation: ``class
  Query(ingredients.schema.Query, graphene.ObjectType)``; Saleor's ``class Query(AccountQueries,
  ProductQueries, ...)``; NetBox 3's ``class Query(CircuitsQuery, DCIMQuery, ...)``; Strawberry's
  ``@strawberry.type class Query(UserQuery, ProductQuery)``). A field the detector found on such a
  base (``ProductQueries.products``, a ``FIELD``) is a field of the root (``QUERY Query.products``):
  :meth:`PythonGraphqlLinks.merged_root`.
* **Inherited dispatch.** A mutation field ``X.Field()`` runs ``X.mutate``; when ``X`` inherits
  ``mutate`` from a base of the repository (``BaseMutation.mutate`` calling ``cls.perform_mutation``),
  the methods that base code calls on ``cls`` / ``self`` run ``X``'s overrides (``X.perform_mutation``,
  and, one more step down, ``X.clean_input`` called by an inherited ``ModelMutation.perform_mutation``).
  The static call graph binds those calls to the base's own methods (it cannot know ``cls``), so the
  overrides are handlers of the operation too: :meth:`PythonGraphqlLinks.dispatched_overrides`
  (Python's attribute lookup on ``cls``, the Template Method pattern; Gamma et al., *Design Patterns*, 1994).
  An override calling ``super().perform_mutation(...)`` is followed into the next class of ``X``'s MRO, whose
  ``cls.`` calls dispatch to ``X`` again.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from indexer.resolve.context import FileCtx
from indexer.resolve.multimap import entries
from indexer.resolve.values import Def

__all__ = ["MERGING_FRAMEWORKS", "PythonGraphqlLinks", "ROOT_TYPE_NAMES"]

ROOT_TYPE_NAMES = ("Query", "Mutation", "Subscription")
"""The class names of the root types a schema's classes merge into (the default root type names)."""
MERGING_FRAMEWORKS = frozenset({"graphene", "strawberry"})
"""The Python GraphQL libraries whose object types merge their bases' fields."""
_SELF = frozenset({"cls", "self"})
_SUPER = frozenset({"super", "super()"})
_DISPATCH_DEPTH = 3
"""Steps of ``cls.`` / ``self.`` calls followed from an inherited handler (``mutate`` ->
``perform_mutation`` -> ``clean_input``)."""
_DISPATCH_LIMIT = 32
"""At most this many methods visited from one handler (a base class calling dozens of hooks)."""


class PythonGraphqlLinks:
    """Mixin of the framework linker for Python GraphQL types (see the module's docstring)."""

    r: Any
    ctxs: Any

    def merged_root(self, fc: FileCtx, type_name: str) -> str:
        """The root type name (``Query``, ``Mutation``, ``Subscription``) a Python object type named
        ``type_name`` (a class defined in ``fc``) is merged into: a repository class of that name
        lists it among its ancestors (its MRO); ``type_name`` when none does, when it is a root
        itself, or when classes of two different root names inherit it. Records the files of the
        roots read, for the file being linked."""
        if type_name in ROOT_TYPE_NAMES:
            return type_name
        own = [d for d in entries(fc.top, type_name) if d.is_type]
        if not own:
            return type_name
        roots = self._python_roots()
        found = set()
        for root in roots:
            self.r.use(("file", root.file.path, ""))
            if any(a is d for a in self.r.mro(root)[1:] for d in own):
                found.add(root.name)
        return found.pop() if len(found) == 1 else type_name

    def has_library_base(self, fc: FileCtx, handler: str | None, line: int, names: tuple[str, ...]) -> bool:
        """Whether the class of the method ``handler`` (a qualname of ``fc`` at ``line``) has, among the
        bases written by the classes of its MRO, one that the imports of the file writing it qualify to
        one of ``names`` (:attr:`~indexer.model.Route.library_bases`). Records the files read."""
        rd = fc.def_at(handler, line) if handler else None
        owner = next((d for d in entries(fc.by_qualname, rd.parent) if d.is_type), None) if rd and rd.parent else None
        if owner is None:
            return False
        for k in self.r.mro(owner):
            self.r.use(("file", k.file.path, ""))
            if any(_qualified(k.file, base) in names for base in k.heads.bases):
                return True
        return False

    def _python_roots(self) -> list[Def]:
        """The repository's Python classes named like a root type, once per linker."""
        roots = getattr(self, "_roots_memo", None)
        if roots is None:
            roots = [d for c in self.ctxs if c.lang == "python" for name in ROOT_TYPE_NAMES
                     for d in entries(c.top, name) if d.is_type]
            self._roots_memo = roots
        return roots

    def dispatched_overrides(self, cls: Def, handler: Def) -> list[Def]:
        """The methods of ``cls``'s lineage that run, when ``handler`` (a method ``cls`` inherits) is
        called on ``cls``, in place of what its ``cls.`` / ``self.`` calls bind to statically: each
        such call (followed :data:`_DISPATCH_DEPTH` steps, into the methods ``cls`` resolves them to)
        is looked up in ``cls``'s MRO, and the repository method found is kept when it differs from
        the one the same lookup in the calling method's own class finds (an override below it); a
        ``super().name(...)`` call is followed into the next class of ``cls``'s MRO defining ``name``
        (a statically bound call already: followed, not kept).
        In first-found order, each once; ``[]`` when ``handler`` is ``cls``'s own method."""
        if handler.parent is None or handler.file.repo != self.r.repo:
            return []
        seen, out, frontier = {id(handler)}, [], [handler]
        for _ in range(_DISPATCH_DEPTH):
            following = []
            for m in frontier:
                owner = next((d for d in entries(m.file.by_qualname, m.parent or "") if d.is_type), None)
                if owner is None:
                    continue
                for name, above in self._self_calls(m):
                    if above:  # `super().name(...)`: the next class of cls's MRO after the caller's defining it
                        found, statically = self._above(cls, owner, name), None
                    else:
                        found = self.r.lookup(cls, name)[0]
                        statically = {id(d) for d in self.r.lookup(owner, name)[0]}
                    for d in found:
                        if not d.is_callable or d.file.repo != self.r.repo or id(d) in seen or len(seen) >= _DISPATCH_LIMIT:
                            continue
                        seen.add(id(d))
                        following.append(d)
                        if statically is not None and id(d) not in statically:
                            out.append(d)
            frontier = following
        return out

    def _above(self, cls: Def, owner: Def, name: str) -> tuple[Def, ...]:
        """The members ``name`` of the first class after ``owner`` in ``cls``'s MRO that has any (what
        ``super().name`` in a method of ``owner`` runs when called on ``cls``)."""
        mro = self.r.mro(cls)
        at = next((i for i, k in enumerate(mro) if k is owner), None)
        for k in mro[at + 1:] if at is not None else ():
            found = k.file.member(k.qualname, name)
            if found:
                return found
        return ()

    def _self_calls(self, m: Def) -> list[tuple[str, bool]]:
        """The names ``m`` calls on ``cls`` / ``self`` or on ``super()`` (``True``), written calls in source
        order, each once; records ``m``'s file as read."""
        memo = getattr(self, "_self_calls_memo", None)
        if memo is None:
            memo = self._self_calls_memo = {}
        fc = m.file
        self.r.use(("file", fc.path, ""))
        table = memo.get(id(fc))
        if table is None or table[0] is not fc:
            calls: dict[str, list[tuple[str, bool]]] = defaultdict(list)
            for cs in fc.ex.calls:
                if cs.via is not None or cs.caller is None or cs.receiver not in _SELF and cs.receiver not in _SUPER:
                    continue
                call = (cs.name, cs.receiver in _SUPER)
                if call not in calls[cs.caller]:
                    calls[cs.caller].append(call)
            table = memo[id(fc)] = (fc, dict(calls))
        return table[1].get(m.qualname, [])



def _qualified(fc: FileCtx, base: str) -> str:
    """A Python base expression's dotted name as the imports of ``fc`` spell it (``ObjectType`` imported from
    ``graphene.types.objecttype`` -> ``graphene.types.objecttype.ObjectType``; a subscript dropped); ``""`` for a
    name no absolute import binds (a class of the file, a relative import: the repository's)."""
    text = "".join(base.split("[", 1)[0].split())
    head, dot, rest = text.partition(".")
    for imp in fc.ex.imports:
        if imp.local == head and not imp.level:
            full = imp.module if imp.name is None else f"{imp.module}.{imp.name}"
            return f"{full}{dot}{rest}"
    return ""
