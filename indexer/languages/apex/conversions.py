"""Apex's conversions between its value types, as overload selection reads them
(:mod:`indexer.resolve.overloads`, through ``ApexModuleSystem.value_assignable`` and
``array_assignable``). From the Apex Developer Guide ("Rules of Conversion", "Primitive Data Types",
"Lists", "sObject Types"):

* the primitives ``Blob``, ``Boolean``, ``Date``, ``Datetime``, ``Decimal``, ``Double``, ``Id``,
  ``Integer``, ``Long``, ``String``, ``Time`` convert implicitly only upwards among the numbers
  (``Integer`` -> ``Long`` -> ``Double`` -> ``Decimal``), ``Id`` to ``String`` and ``String`` to ``Id``;
* the collections ``List`` (also written ``X[]``), ``Set`` and ``Map`` are no primitive and no other
  class; every one of them is an ``Iterable`` (``List`` / ``Set``) or an ``Object``;
* every value may be ``null``, and every type is an ``Object``;
* a concrete sObject type is an ``SObject``: a custom object's API name says so by its suffix
  (``Invoice__c``, ``Order_Shipped__e``, ``Setting__mdt``...); a standard object's name (``Account``)
  does not, so whether it fits ``SObject`` stays open (``None``).

Names are compared case-insensitively, as Apex does (``string`` is ``String``).
"""

from __future__ import annotations

__all__ = ["VALUE_TYPES", "array_assignable", "indexed_element", "value_assignable"]

_WIDER = {
    "integer": ("long", "double", "decimal"),
    "long": ("double", "decimal"),
    "double": ("decimal",),
    "decimal": (),
    "id": ("string",),
    "string": ("id",),
    "blob": (),
    "boolean": (),
    "date": (),
    "datetime": (),
    "time": (),
}
"""Implicit conversions between Apex primitives (lowercased)."""

_COLLECTIONS = frozenset({"list", "set", "map"})
_ITERABLE = frozenset({"list", "set"})
_SOBJECT_SUFFIXES = ("__c", "__e", "__mdt", "__x", "__b", "__kav", "__share", "__history", "__changeevent",
                     "__feed", "__tag", "__hd")

VALUE_TYPES = frozenset({"Blob", "Boolean", "Date", "Datetime", "Decimal", "Double", "Id", "Integer", "Long",
                         "String", "Time", "List", "Set", "Map"})
"""The types :func:`value_assignable` knows every conversion of, as usually written: no class of the
repository is one of them or converts to one."""

_VALUES = frozenset(v.lower() for v in VALUE_TYPES)


def _custom_sobject(name: str) -> bool:
    return name.endswith(_SOBJECT_SUFFIXES)


def value_assignable(arg: str, param: str, loose: bool) -> bool | None:
    """Whether an argument of type ``arg`` (a simple type name, ``null``) may be passed to a parameter
    of type ``param`` (simple name, generics dropped) in Apex (module docstring); ``loose`` is
    accepted for the resolver's phases and changes nothing (Apex has no boxing). ``None`` when neither
    side is a type these rules know (two classes of libraries or sObjects): the caller decides."""
    a, p = arg.lower(), param.lower()
    if a == p or p == "object" or a == "null":
        return True
    if a in _VALUES:
        if p in _VALUES:
            return p in _WIDER.get(a, ())
        if p == "iterable":
            return a in _ITERABLE
        return False  # a primitive or a collection is no sObject and no other class
    if p in _VALUES:
        return False  # no other class converts to a primitive or a collection
    if p == "sobject":
        return True if _custom_sobject(a) else None
    if _custom_sobject(a):
        return False  # a custom object is an SObject and an Object only
    return None


def array_assignable(arg: str, param: str) -> bool:
    """Whether an argument of type ``arg`` may be passed to a parameter of type ``param`` when either is
    written as an array (``Account[]``: in Apex a ``List<Account>``); ``""``: a class of the
    repository. A list fits an array and ``List``, ``Iterable``, ``Object``; ``null`` fits any."""
    a, p = arg.lower(), param.lower()
    if a == "null":
        return True
    if p.endswith("[]"):
        return a.endswith("[]") or a == "list"
    return p in ("list", "iterable", "object")


def indexed_element(type_text: str) -> str | None:
    """The element type of a ``List<X>`` declaration (``xs[0]`` indexes a list in Apex): ``X``;
    ``None`` for any other type (a ``Map`` is read with ``get``, a ``Set`` is not indexed)."""
    t = type_text.replace(" ", "")
    head, sep, rest = t.partition("<")
    if not sep or head.rpartition(".")[2].lower() != "list" or not rest.endswith(">"):
        return None
    return rest[:-1] or None  # a List has one type argument: `List<Map<String, Object>>` -> `Map<String,Object>`
