"""Apex's module system and scoping rules, as the resolver core (:mod:`indexer.resolve`) uses them.

Apex has no imports: every top-level class, interface and enum of the org is visible everywhere by
its name, so every file of the repository is one module (key :data:`ORG_KEY`). Names are
case-insensitive in Apex: a type named ``accountService`` is ``AccountService`` (an exact spelling
wins when both exist), and so are members (``members_fold_case``). A capitalised name the org does not declare is external (the platform's
classes, sObjects, managed packages). A dotted name is a top-level type and its inner types. A bare call may be a
method of the enclosing classes (implicit ``this``); ``super(...)`` / ``this(...)`` call constructors.

Lightning Web Components import Apex methods as ``@salesforce/apex/Class.method``
(:mod:`indexer.languages.ecmascript.modules`): that module system looks the class up in this
namespace under :data:`ORG_KEY`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from indexer.languages.apex.conversions import VALUE_TYPES, array_assignable, indexed_element, value_assignable
from indexer.model import FileExtraction, Import
from indexer.resolve.context import FileCtx
from indexer.resolve.language import Lookup, ModuleSystemDefaults
from indexer.resolve.multimap import entries
from indexer.resolve.values import EXTERNAL, ClassV, Value

__all__ = ["MODULE_SYSTEM", "ORG_KEY", "ApexModuleSystem", "type_name_possible"]

_TYPE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")

ORG_KEY = "org"
"""The module key of every Apex file: the org's single namespace of classes."""


class ApexModuleSystem(ModuleSystemDefaults):
    """Apex's :class:`~indexer.resolve.language.ModuleSystem`."""

    languages = frozenset({"apex"})
    namespace = "apex"
    primitives = frozenset({"void", "Object", "String", "Integer", "Long", "Boolean", "Double", "List", "Map",
                            "Set"})
    instance_prefix = "this."
    implicit_this = True
    members_fold_case = True
    """Apex names are case-insensitive: a call of ``genXnumberOfAccounts`` reaches the declared
    ``genXNumberOfAccounts`` when no member is spelled exactly so (:mod:`indexer.resolve.hierarchy`)."""
    overloads_by_signature = True
    """Apex overloads methods by parameter types, as Java does: a call binds the overloads its
    arguments' types select (:mod:`indexer.resolve.overloads`), not the name's last definition."""
    value_types = VALUE_TYPES
    """Apex's primitives and collections (:mod:`indexer.languages.apex.conversions`)."""
    value_assignable = staticmethod(value_assignable)
    """Whether a value of one type may be passed to a parameter of another (case-insensitive)."""
    array_assignable = staticmethod(array_assignable)
    indexed_element = staticmethod(indexed_element)
    """The element type of a ``List<X>`` an argument indexes (``xs[0]``)."""
    """Whether a list written ``X[]`` fits a parameter, or a parameter so written takes an argument."""

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """:data:`ORG_KEY`: one namespace for every class."""
        return ORG_KEY

    def module_keys(self, fc: FileCtx) -> list[str]:
        """The org namespace."""
        return [ORG_KEY]

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """Apex has no imports: anything recorded as one is external."""
        return EXTERNAL

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """The top-level type ``name`` of the org, compared case-insensitively (an exact spelling
        first); ``None`` at once for a name no Apex type may have (:func:`type_name_possible`:
        ``Property__c``, ``Order_Event__e``), which no file is then read for."""
        if not type_name_possible(name):
            return None
        lower = name.lower()
        fallback = None
        for fc in r.module_files("apex", key):
            r.use(("name", fc.path, name))
            for rd in entries(fc.top, name):
                return ClassV(rd)
            if fallback is None:
                for top in fc.top:
                    if top.lower() == lower:
                        r.use(("name", fc.path, top))
                        fallback = ClassV(entries(fc.top, top)[0])
                        break
        return fallback

    def resolve_unbound(self, r: Lookup, fc: FileCtx, name: str) -> Value:
        """A type of the org; else, for a capitalised name, external: Apex has no imports, so a type
        the repository does not declare is the platform's (``System``, ``EncodingUtil``, an
        ``AuraHandledException``), a standard or custom sObject (``Account``, ``Property__c``) or a
        managed package's."""
        v = r.module_member("apex", ORG_KEY, name)
        if v is None and name[:1].isupper():
            return EXTERNAL
        return v

    def qualified_name(self, r: Lookup, fc: FileCtx, dotted: str) -> Value:
        """``Outer.Inner``: a top-level type, then its inner types."""
        head, *rest = dotted.split(".")
        v = r.module_member("apex", ORG_KEY, head)
        for part in rest:
            if v is None:
                return None
            v = r.attr(v, part)
        return v


def type_name_possible(name: str) -> bool:
    """Whether ``name`` may name an Apex class, interface or enum: letters, digits and underscores,
    starting with a letter, never ending with an underscore nor holding two in a row (Salesforce's
    naming rule for Apex classes). An sObject's API name (``Property__c``, a platform event's
    ``Order_Event__e``, ``Rate__mdt``) never is one: a trigger or DML statement names one per custom
    object, and looking each up read every file of the org (the org is one namespace), the square of
    its size (1,000 triggers on 1,000 custom objects: 1,000,000 reads, 31 of the resolve's 49 s)."""
    return bool(_TYPE_NAME.fullmatch(name)) and "__" not in name and not name.endswith("_")


MODULE_SYSTEM = ApexModuleSystem()
