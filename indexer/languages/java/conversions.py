"""Java's conversions between its value types (primitives, their boxes, ``String``), as overload
selection reads them (:mod:`indexer.resolve.overloads`, through ``JavaModuleSystem.value_assignable``):
JLS 5.3 invocation contexts, strict (identity, widening primitive, widening reference) and loose
(strict plus boxing and unboxing, each possibly followed by a widening), and those of arrays (JLS
4.10.3)."""

from __future__ import annotations

__all__ = ["VALUE_TYPES", "array_assignable", "value_assignable"]

_WIDER = {
    "byte": ("short", "int", "long", "float", "double"),
    "short": ("int", "long", "float", "double"),
    "char": ("int", "long", "float", "double"),
    "int": ("long", "float", "double"),
    "long": ("float", "double"),
    "float": ("double",),
    "double": (),
    "boolean": (),
}
"""Widening primitive conversions (JLS 5.1.2)."""

_BOXES = {"byte": "Byte", "short": "Short", "char": "Character", "int": "Integer", "long": "Long",
          "float": "Float", "double": "Double", "boolean": "Boolean"}
_UNBOXED = {v: k for k, v in _BOXES.items()}
_NUMBER = frozenset({"Byte", "Short", "Integer", "Long", "Float", "Double"})
_REFERENCE_SUPERS = {
    **{box: ("Object", "Serializable", "Comparable", *(("Number",) if box in _NUMBER else ())) for box in _UNBOXED},
    "String": ("Object", "Serializable", "Comparable", "CharSequence"),
}
"""The library supertypes of each boxed type and of ``String`` (all final classes)."""

VALUE_TYPES = frozenset({*_WIDER, *_UNBOXED, "String"})
"""The types :func:`value_assignable` knows every conversion of: no other class is one of them or
converts to one (the boxes and ``String`` are final)."""


def value_assignable(arg: str, param: str, loose: bool) -> bool | None:
    """Whether an argument of type ``arg`` (a value type of :data:`VALUE_TYPES` or ``null``) may be
    passed to a parameter of type ``param`` (simple names), in a strict or, ``loose``, a loose
    invocation context; ``None`` when ``param`` is a type this table does not know (a class of the
    repository or a library's, or a type variable): the caller decides."""
    if arg == param:
        return True
    if arg == "null":
        return param not in _WIDER
    if arg not in VALUE_TYPES:
        return None
    if arg in _WIDER:  # a primitive
        if param in _WIDER[arg]:
            return True
        if not loose:
            return False if param in VALUE_TYPES or param in _REFERENCE_SUPERS["Integer"] else None
        box = _BOXES[arg]
        return param == box or param in _REFERENCE_SUPERS[box] or (None if param not in VALUE_TYPES else False)
    if param in _REFERENCE_SUPERS[arg]:
        return True
    if param in VALUE_TYPES:
        prim = _UNBOXED.get(arg)
        return loose and prim is not None and (param == prim or param in _WIDER[prim])
    return None


_ARRAY_SUPERS = frozenset({"Object", "Cloneable", "Serializable"})
"""The types besides arrays an array may be passed as (JLS 4.10.3)."""


def array_assignable(arg: str, param: str) -> bool:
    """Whether an argument of type ``arg`` may be passed to a parameter of type ``param`` when either
    is an array, on simple names (``byte[]``, ``Owner[][]``; ``""``: a class of the repository):
    ``null`` to any array; an array to ``Object``, ``Cloneable``, ``Serializable``, to an array of the
    same element type, or one of a reference element type to ``Object[]``. Two other reference
    element types fit unless both are value types (``String[]`` is no ``Integer[]``; the classes of
    other elements are not compared here). Nothing else is an array or takes one."""
    if not param.endswith("[]"):
        return param in _ARRAY_SUPERS
    if arg == "null":
        return True
    if not arg.endswith("[]"):
        return False
    a, p = arg[:-2], param[:-2]
    if a == p:
        return True
    if a in _WIDER or p in _WIDER:
        return False
    return p == "Object" or not (a in VALUE_TYPES and p in VALUE_TYPES)
