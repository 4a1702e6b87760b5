"""The Aura markup "module system": a bundle's markup file is the module of its bundle folder
(``force-app/main/default/aura/accountList``), and its one member the JavaScript of the bundle asks for
is :data:`~indexer.languages.aura.extractor.SERVER_ACTIONS` (``c``): the Apex controller class the
root tag names, looked up in the org (the ``apex`` namespace, :mod:`indexer.languages.apex.modules`,
by name: language folders never import each other). A controller the repository does not declare
(a managed package's) is external. Markup calls nothing itself.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from indexer.languages.aura.extractor import SERVER_ACTIONS
from indexer.model import FileExtraction, Import
from indexer.resolve.context import FileCtx
from indexer.resolve.language import Lookup, UnboundModuleSystem
from indexer.resolve.values import EXTERNAL, Value

__all__ = ["APEX_NAMESPACE", "APEX_ORG_KEY", "MODULE_SYSTEM", "AuraModuleSystem", "bundle_key"]

APEX_NAMESPACE, APEX_ORG_KEY = "apex", "org"
"""Where the Apex module system keeps the org's classes."""


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
        """The controller import: the Apex class (:meth:`module_member`'s rule)."""
        return _apex_class(r, imp.module) if imp.local == SERVER_ACTIONS else None

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """For ``c``: the Apex controller class of bundle ``key``'s markup (the first markup file in
        path order naming one), external when the org does not declare it; ``None`` when no markup
        of the bundle names a controller, and for any other name."""
        if name != SERVER_ACTIONS:
            return None
        for fc in r.module_files("aura", key):
            r.use(("file", fc.path, ""))
            for imp in fc.ex.imports:
                if imp.local == SERVER_ACTIONS:
                    return _apex_class(r, imp.module)
        return None


def _apex_class(r: Lookup, name: str) -> Value:
    """The org's Apex class ``name``, else external."""
    found = r.module_member(APEX_NAMESPACE, APEX_ORG_KEY, name)
    return EXTERNAL if found is None else found


MODULE_SYSTEM = AuraModuleSystem()
