"""Django REST framework views as the framework linker (:mod:`indexer.frameworks.link`) expands them:
a viewset registered on a router, and a generic API view routed with ``as_view()``.

A viewset registration (``router.register(r"articles", ArticleViewSet)``: a route of framework
``drf``, :mod:`indexer.languages.python.frameworks.drf_routers`) makes, as DRF's ``SimpleRouter``
does, one route per action the class has:

* ``list`` (GET) and ``create`` (POST) on ``prefix/``; ``retrieve`` (GET), ``update`` (PUT),
  ``partial_update`` (PATCH) and ``destroy`` (DELETE) on ``prefix/{pk}/``;
* an ``@action(detail=..., methods=[...], url_path=...)`` method on ``prefix/{pk}/<url_path>/``
  (``detail=True``) or ``prefix/<url_path>/``, for each of its methods (``get`` when none is given;
  ``url_path`` defaults to the method's name), and ``@<action>.mapping.<verb>`` methods on their
  action's path; DRF 3.8's ``@detail_route`` / ``@list_route`` likewise.

The class has an action when it or a base of the repository defines the method (the method then
exposes the endpoint), or when a base it lists is a DRF mixin or viewset that provides it
(:data:`LIBRARY_ACTIONS`: ``mixins.DestroyModelMixin``, ``ModelViewSet``...): the class itself
then exposes the endpoint, as the library's implementation runs for it. A viewset without
``destroy`` gets no DELETE route; one defining ``update`` without the mixin gets PUT but no PATCH.

A generic API view (``generics.RetrieveAPIView``, ``ListCreateAPIView``...; :data:`GENERIC_VIEWS`)
routed with ``as_view()`` answers the verbs its base provides besides the ``get`` / ``post`` / ...
methods it defines itself: each through the action method the verb calls (``retrieve``, ``create``)
when the class defines it, else the class.

A library ``partial_update`` (PATCH) calls the view's ``update``: when the class defines ``update``
but not ``partial_update``, PATCH is exposed through its ``update``.
"""

from __future__ import annotations

import ast
from typing import Any

from indexer.resolve.multimap import entries
from indexer.resolve.values import Def

__all__ = ["GENERIC_VIEWS", "LIBRARY_ACTIONS", "ViewSetLinks"]

_LIST = (("GET", "list"), ("POST", "create"))
_DETAIL = (("GET", "retrieve"), ("PUT", "update"), ("PATCH", "partial_update"), ("DELETE", "destroy"))
_ALL = ("list", "create", "retrieve", "update", "partial_update", "destroy")

LIBRARY_ACTIONS: dict[str, tuple[str, ...]] = {
    "ListModelMixin": ("list",), "CreateModelMixin": ("create",), "RetrieveModelMixin": ("retrieve",),
    "UpdateModelMixin": ("update", "partial_update"), "DestroyModelMixin": ("destroy",),
    "ModelViewSet": _ALL, "ReadOnlyModelViewSet": ("list", "retrieve"),
}
"""The viewset actions a DRF base class provides, by its name as a base list spells it (last part)."""

GENERIC_VIEWS: dict[str, tuple[tuple[str, str], ...]] = {
    "CreateAPIView": (("POST", "create"),),
    "ListAPIView": (("GET", "list"),),
    "RetrieveAPIView": (("GET", "retrieve"),),
    "DestroyAPIView": (("DELETE", "destroy"),),
    "UpdateAPIView": (("PUT", "update"), ("PATCH", "partial_update")),
    "ListCreateAPIView": (("GET", "list"), ("POST", "create")),
    "RetrieveUpdateAPIView": (("GET", "retrieve"), ("PUT", "update"), ("PATCH", "partial_update")),
    "RetrieveDestroyAPIView": (("GET", "retrieve"), ("DELETE", "destroy")),
    "RetrieveUpdateDestroyAPIView": (("GET", "retrieve"), ("PUT", "update"), ("PATCH", "partial_update"),
                                     ("DELETE", "destroy")),
}
"""DRF's generic views: the verbs each answers and the action method each verb calls."""

_CALLS_BACK = {"partial_update": "update"}
"""The library action that calls another action of the view: DRF's ``UpdateModelMixin.partial_update``
runs ``self.update(request, partial=True)``, so a PATCH reaches a class's own ``update``."""

_ACTION_DECORATORS = {"action": None, "detail_route": True, "list_route": False}
_PK = "{pk}"


class ViewSetLinks:
    """Mixin of the framework linker for DRF viewsets and generic views (see the module docstring)."""

    r: Any

    def viewset_handlers(self, c: Def) -> list[tuple[str, list[str], str]]:
        """The routes a viewset class ``c`` registered on a router makes, as ``(exposing node id,
        [HTTP method], path below the registration's prefix)``, in DRF's order (list route, detail
        route, then the extra actions by method name)."""
        members, provided = self._drf_members(c)
        out: list[tuple[str, list[str], str]] = []
        for mapping, tail in ((_LIST, ""), (_DETAIL, _PK)):
            for verb, action in mapping:
                if action in members:
                    out.append((members[action].id, [verb], tail))
                elif action in provided:  # the library's action: through the method it calls back, if any
                    back = _CALLS_BACK.get(action)
                    out.append((members[back].id if back in members else c.id, [verb], tail))
        paths: dict[str, str] = {}
        for name, m in sorted(members.items()):
            for text in m.heads.decorators:
                found = _action(text, name)
                if found is not None:
                    detail, verbs, url_path = found
                    paths[name] = f"{_PK}/{url_path}" if detail else url_path
                    out.extend((m.id, [verb], paths[name]) for verb in verbs)
        for _, m in sorted(members.items()):  # @follow.mapping.delete: another verb on follow's path
            for text in m.heads.decorators:
                owner, _, verb = text.split("(", 1)[0].strip().partition(".mapping.")
                if verb and owner in paths:
                    out.append((m.id, [verb.upper()], paths[owner]))
        return out

    def generic_view_verbs(self, c: Def, defined: set[str]) -> list[tuple[str, list[str]]]:
        """The verbs a DRF generic view ``c`` answers through its library base, those of ``defined``
        (the verbs its own ``get`` / ``post`` / ... methods answer) aside, as ``(node id, [verb])``:
        the action method the verb calls when the class defines it, else the class."""
        members, _ = self._drf_members(c)
        out: list[tuple[str, list[str]]] = []
        seen = set(defined)
        for base in self._library_bases(c):
            for verb, action in GENERIC_VIEWS.get(base, ()):
                if verb not in seen:
                    seen.add(verb)
                    back = action if action in members else _CALLS_BACK.get(action)
                    out.append((members[back].id if back in members else c.id, [verb]))
        return out

    def _drf_members(self, c: Def) -> tuple[dict[str, Def], set[str]]:
        """The callables ``c`` has (its own and its repository bases', nearest first) by name, and the
        actions its DRF library bases provide."""
        members: dict[str, Def] = {}
        for k in self.r.mro(c):
            self.r.use(("file", k.file.path, ""))  # its members and decorators
            table = k.members
            for name in table:
                callables = [m for m in entries(table, name) if m.is_callable]
                if callables and name not in members:
                    members[name] = callables[-1]
        provided = {a for base in self._library_bases(c) for a in LIBRARY_ACTIONS.get(base, ())}
        return members, provided

    def _library_bases(self, c: Def) -> list[str]:
        """The last names of the bases ``c`` and its repository ancestors list (``mixins.ListModelMixin``
        -> ``ListModelMixin``), in MRO order."""
        return [text.split("[", 1)[0].strip().rpartition(".")[2] for k in self.r.mro(c) for text in k.heads.bases]


def _action(text: str, name: str) -> tuple[bool, list[str], str] | None:
    """``(detail, verbs, url_path)`` of an ``@action(...)`` decorator's text on method ``name``;
    ``None`` for any other decorator, or one whose arguments are not literals."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    func = node.func if isinstance(node, ast.Call) else node
    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if last not in _ACTION_DECORATORS:
        return None
    detail = _ACTION_DECORATORS[last]
    verbs = ["GET"]
    url_path = name
    for kw in node.keywords if isinstance(node, ast.Call) else ():
        value = kw.value
        if kw.arg == "detail" and isinstance(value, ast.Constant) and isinstance(value.value, bool):
            detail = value.value
        elif kw.arg == "methods" and isinstance(value, (ast.List, ast.Tuple)):
            found = [e.value.upper() for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(found) != len(value.elts):
                return None
            verbs = found
        elif kw.arg == "url_path" and isinstance(value, ast.Constant) and isinstance(value.value, str):
            url_path = value.value
    if detail is None:  # DRF requires detail=; a decorator without it is not a route
        return None
    return detail, list(dict.fromkeys(verbs)), url_path.strip("/")
