"""The Aura markup "module system": a bundle's markup file is the module of its bundle folder
(``force-app/main/default/aura/accountList``), and its one member the JavaScript of the bundle asks for
is :data:`~indexer.languages.aura.extractor.SERVER_ACTIONS` (``c``): the Apex controller class the
root tag names, looked up in the org (the ``apex`` namespace, :mod:`indexer.languages.apex.modules`,
by name: language folders never import each other). A controller the repository does not declare
(a managed package's) is external.

A bundle's JavaScript roles are modules of this namespace too, keyed ``<bundle folder>#controller``
and ``<bundle folder>#helper`` (:func:`role_key`): a member is the top-level function of that name in
the bundle's ``<Name>Controller.js`` / ``<Name>Helper.js`` (the ``ecmascript`` namespace's module
``<folder>/<Name>Controller``), else the base component's (``extends="c:Base"``: the bundle ``Base``
beside this one), and so on up the chain (at most :data:`MAX_EXTENDS` bundles, a cycle stops): Aura
gives a sub-component its base's helper and controller actions. The markup's action expressions
(``{!c.doInit}``) call members of its bundle's ``#controller``; the JavaScript's ``helper.f()`` those of
its ``#helper``. A bundle whose markup names no Apex controller inherits its base's.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from indexer.languages.aura.extractor import ACTIONS, EXTENDS, SERVER_ACTIONS
from indexer.model import FileExtraction, Import
from indexer.resolve.context import FileCtx
from indexer.resolve.language import Lookup, UnboundModuleSystem
from indexer.resolve.values import EXTERNAL, ModuleV, Value

__all__ = ["APEX_NAMESPACE", "APEX_ORG_KEY", "MAX_EXTENDS", "MODULE_SYSTEM", "ROLES", "AuraModuleSystem", "bundle_key",
           "role_key"]

APEX_NAMESPACE, APEX_ORG_KEY = "apex", "org"
"""Where the Apex module system keeps the org's classes."""
ROLES = {"controller": "Controller", "helper": "Helper"}
"""The JavaScript roles of a bundle a key names, and the file name suffix of each."""
MAX_EXTENDS = 8
"""Most bundles of an ``extends`` chain followed."""


def role_key(folder: str, role: str) -> str:
    """The module key of a bundle's JavaScript ``role`` (``controller``, ``helper``): ``<folder>#<role>``."""
    return f"{folder}#{role}"


def bundle_key(path: str) -> str:
    """The module key of a bundle file at repository-relative ``path``: its folder (``""`` at the root)."""
    return posixpath.dirname(path)


class AuraModuleSystem(UnboundModuleSystem):
    """The :class:`~indexer.resolve.language.ModuleSystem` of Aura markup."""

    languages = frozenset({"aura"})
    namespace = "aura"

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """The bundle folder (:func:`bundle_key`)."""
        return bundle_key(ex.path)

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """The controller import: the Apex class (:meth:`module_member`'s rule); the action
        expressions' receiver: the bundle's client-side controller (:func:`role_key`)."""
        if imp.local == SERVER_ACTIONS:
            return _apex_class(r, imp.module)
        if imp.local == ACTIONS:
            return ModuleV(self.namespace, role_key(fc.module_key, "controller"))
        return None

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """For a role key (:func:`role_key`): the function ``name`` of that role's file of the bundle,
        else of its base's, up the ``extends`` chain; ``None`` when none has it. For ``c`` of a
        bundle folder: the Apex controller class its markup names (the first markup file in path
        order naming one), external when the org does not declare it, else its base's; ``None``
        when none names one, and for any other name."""
        folder, _, role = key.rpartition("#")
        seen: set[str] = set()
        at: str | None = folder if role in ROLES else key
        while at is not None and at not in seen and len(seen) < MAX_EXTENDS:
            seen.add(at)
            if role in ROLES:
                found = r.module_member("ecmascript", posixpath.join(at, posixpath.basename(at) + ROLES[role]), name)
                if found is not None:
                    return found
            elif name == SERVER_ACTIONS:
                named = _markup_import(r, at, SERVER_ACTIONS)
                if named is not None:
                    return _apex_class(r, named)
            else:
                return None
            at = _base(r, at)
        return None


def _markup_import(r: Lookup, folder: str, local: str) -> str | None:
    """The module of the first import named ``local`` of bundle ``folder``'s markup (path order)."""
    for fc in r.module_files("aura", folder):
        r.use(("file", fc.path, ""))
        for imp in fc.ex.imports:
            if imp.local == local:
                return imp.module
    return None


def _base(r: Lookup, folder: str) -> str | None:
    """The bundle folder of the component bundle ``folder`` extends (``extends="c:Base"``: ``Base``
    beside it), when some markup holds it; ``None`` otherwise."""
    name = _markup_import(r, folder, EXTENDS)
    if name is None:
        return None
    base = posixpath.join(posixpath.dirname(folder), name)
    return base if r.has_module("aura", base) else None


def _apex_class(r: Lookup, name: str) -> Value:
    """The org's Apex class ``name``, else external."""
    found = r.module_member(APEX_NAMESPACE, APEX_ORG_KEY, name)
    return EXTERNAL if found is None else found


MODULE_SYSTEM = AuraModuleSystem()
