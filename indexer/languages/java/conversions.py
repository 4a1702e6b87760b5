"""Java's conversions between its value types (primitives, their boxes, ``String``), as overload
selection reads them (:mod:`indexer.resolve.overloads`, through ``JavaModuleSystem.value_assignable``):
JLS 5.3 invocation contexts, strict (identity, widening primitive, widening reference) and loose
(strict plus boxing and unboxing, each possibly followed by a widening), and those of arrays (JLS
4.10.3)."""

from __future__ import annotations

__all__ = ["VALUE_TYPES", "array_assignable", "combined_type", "functional_assignable", "member_type", "value_assignable"]

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
_SUPERS = ("Object", "Serializable", "Comparable", "Constable", "ConstantDesc")
_REFERENCE_SUPERS = {
    **{box: (*_SUPERS, *(("Number",) if box in _NUMBER else ())) for box in _UNBOXED},
    "String": (*_SUPERS, "CharSequence"),
    **{b: ("Object", "Serializable", "Comparable", "CharSequence", "Appendable") for b in ("StringBuilder", "StringBuffer")},
}
"""The library supertypes of each boxed type, of ``String`` and of ``StringBuilder`` / ``StringBuffer``
(all final classes; ``Constable`` and ``ConstantDesc`` since Java 12, the builders ``Comparable`` since
Java 11)."""

VALUE_TYPES = frozenset({*_WIDER, *_UNBOXED, "String", "StringBuilder", "StringBuffer"})
"""The types :func:`value_assignable` knows every conversion of: no other class is one of them or
converts to one (the boxes, ``String`` and the string builders are final)."""


def value_assignable(arg: str, param: str, loose: bool) -> bool | None:
    """Whether an argument of type ``arg`` (a value type of :data:`VALUE_TYPES` or ``null``) may be
    passed to a parameter of type ``param`` (simple names), in a strict or, ``loose``, a loose
    invocation context; ``False`` for another class passed as a value type (those are final and
    convert from no other class); ``None`` when ``param`` is a type this table does not know (a class
    of the repository or a library's, or a type variable): the caller decides."""
    if arg == param or (param == "Object" and arg not in _WIDER):  # every class's ancestor
        return True
    if arg == "null":
        return param not in _WIDER
    if arg not in VALUE_TYPES:  # another class (or a type variable) is none of them, nor converts to one
        return False if param in VALUE_TYPES else None
    if arg in _WIDER:  # a primitive
        if param in _WIDER[arg]:
            return True
        if not loose:
            return False if param in VALUE_TYPES or param in _REFERENCE_SUPERS["Integer"] else _other(param)
        box = _BOXES[arg]
        return param == box or param in _REFERENCE_SUPERS[box] or (_other(param) if param not in VALUE_TYPES else False)
    if param in _REFERENCE_SUPERS[arg]:
        return True
    if param in VALUE_TYPES:
        prim = _UNBOXED.get(arg)
        return loose and prim is not None and (param == prim or param in _WIDER[prim])
    return _other(param)


def _other(param: str) -> bool | None:
    """Whether a value of :data:`VALUE_TYPES` may be passed to ``param``, a type none of whose
    conversions :func:`value_assignable` lists: no (another library or repository class: the boxes and
    ``String`` are final, their supertypes listed), unless ``param`` may be a type variable (``T``,
    ``ID``: ``None``, the caller decides)."""
    return None if len(param) <= 2 and param.isupper() else False


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


def _numeric(t: str | None) -> str | None:
    """``t``'s primitive numeric type after unboxing (JLS 5.1.8), or ``None``."""
    prim = _UNBOXED.get(t, t) if t else None
    return prim if prim in _WIDER and prim != "boolean" else None


_RANK = ("int", "long", "float", "double")


def _promoted(types: list[str | None]) -> str | None:
    """Binary numeric promotion (JLS 5.6): the widest of ``types`` (``int`` at least), ``None`` unless
    every one is numeric."""
    prims = [_numeric(t) for t in types]
    if not prims or any(p is None for p in prims):
        return None
    return max((p if p in _RANK else "int" for p in prims if p), key=_RANK.index)


def combined_type(kind: str, operands: list[str | None]) -> str | None:
    """The type of an operation over ``operands`` (each a simple type name, ``""`` for a class of the
    repository, ``None`` unknown): ``kind`` ``"+"`` a ``+`` chain (``String`` when an operand is one,
    JLS 15.18.1, else numeric), ``"%"`` another arithmetic, bitwise or shift operation (binary numeric
    promotion, JLS 5.6; ``&`` ``|`` ``^`` of booleans: ``boolean``), ``"?"`` a conditional ``c ? a :
    b`` (JLS 15.25: the one type of both, a boxed type against ``null``, numeric promotion of numeric
    operands); ``None`` when unknown."""
    if kind == "+" and "String" in operands:
        return "String"
    if kind in ("+", "%"):
        if operands and all(o in ("boolean", "Boolean") for o in operands):
            return "boolean" if kind == "%" else None
        return _promoted(operands)
    if kind != "?" or len(operands) != 2 or None in operands or "" in operands:
        return None
    a, b = operands
    if a == b:
        return a
    if "null" in (a, b):
        t = b if a == "null" else a
        return _BOXES.get(t or "", t)
    if {a, b} == {"boolean", "Boolean"}:
        return "boolean"
    return _promoted(operands)


_OBJECT_METHODS = {"toString()": "String", "hashCode()": "int", "equals()": "boolean", "getClass()": "Class"}
"""``java.lang.Object``'s methods whose return types no class changes (an override of ``toString``
returns a ``String``)."""

_STRING_METHODS = {
    **dict.fromkeys(("length()", "indexOf()", "lastIndexOf()", "compareTo()", "compareToIgnoreCase()",
                     "codePointAt()"), "int"),
    **dict.fromkeys(("isEmpty()", "isBlank()", "startsWith()", "endsWith()", "contains()", "matches()",
                     "equalsIgnoreCase()", "contentEquals()"), "boolean"),
    **dict.fromkeys(("substring()", "trim()", "strip()", "toLowerCase()", "toUpperCase()", "replace()",
                     "replaceAll()", "replaceFirst()", "concat()", "intern()", "repeat()", "formatted()"), "String"),
    "charAt()": "char", "toCharArray()": "char[]", "getBytes()": "byte[]", "split()": "String[]",
}
_MEMBERS: dict[tuple[str, bool], dict[str, str]] = {
    ("String", False): _STRING_METHODS,
    ("String", True): {"valueOf()": "String", "format()": "String", "join()": "String", "copyValueOf()": "String"},
    **{(box, True): {"valueOf()": box, "toString()": "String", "MAX_VALUE": prim, "MIN_VALUE": prim,
                     f"parse{box if box != 'Integer' else 'Int'}()": prim, "compare()": "int"}
       for prim, box in _BOXES.items()},
    **{(box, False): {**{f"{p}Value()": p for p in ("byte", "short", "int", "long", "float", "double")},
                      "compareTo()": "int"} for box in _NUMBER},
    ("Boolean", False): {"booleanValue()": "boolean", "compareTo()": "int"},
    ("Character", False): {"charValue()": "char", "compareTo()": "int"},
}
_MEMBERS[("Boolean", True)].update({"TRUE": "Boolean", "FALSE": "Boolean"})
_MEMBERS[("Character", True)].update(dict.fromkeys(("isDigit()", "isLetter()", "isWhitespace()", "isUpperCase()",
                                                    "isLowerCase()", "isLetterOrDigit()"), "boolean"))
_MEMBERS[("Character", True)].update({"toUpperCase()": "char", "toLowerCase()": "char"})


def member_type(owner: str, member: str, static: bool) -> str | None:
    """The type of ``member`` (``length()`` a method called, ``MAX_VALUE`` a field) read on a value
    of library type ``owner`` (``""``: any object) or, ``static``, on that class (``Integer.valueOf()``):
    what the JDK declares for ``String``, the boxes and ``Object`` (JLS 4.3.2); ``None`` for any other."""
    found = _MEMBERS.get((owner, static), {}).get(member)
    return found or (None if static else _OBJECT_METHODS.get(member))


_FUNCTIONAL = {
    **dict.fromkeys(("Runnable", "Callable", "Supplier", "BooleanSupplier", "IntSupplier", "LongSupplier",
                     "DoubleSupplier"), 0),
    **dict.fromkeys(("Consumer", "Function", "Predicate", "UnaryOperator", "IntFunction", "IntPredicate",
                     "IntConsumer", "IntUnaryOperator", "ToIntFunction", "ToLongFunction", "ToDoubleFunction",
                     "LongFunction", "DoubleFunction", "LongPredicate", "DoublePredicate", "LongConsumer",
                     "DoubleConsumer", "LongUnaryOperator", "DoubleUnaryOperator"), 1),
    **dict.fromkeys(("BiFunction", "BiConsumer", "BiPredicate", "BinaryOperator", "Comparator",
                     "IntBinaryOperator", "LongBinaryOperator", "DoubleBinaryOperator", "ToIntBiFunction",
                     "ToLongBiFunction", "ToDoubleBiFunction", "ObjIntConsumer", "ObjLongConsumer",
                     "ObjDoubleConsumer"), 2),
}
"""The parameters of ``java.lang`` / ``java.util`` / ``java.util.function`` functional interfaces'
one abstract method."""


_CLASSES = frozenset({"Number", "Class", "Enum"})
"""``java.lang`` classes (no interfaces) parameters are often declared with."""


def functional_assignable(arg: str, param: str) -> bool | None:
    """Whether a lambda (``arg`` ``->N``: ``N`` parameters) or a method reference (``::``) may be
    passed to a parameter of library type ``param`` (a simple name): never to a value type, an array
    or ``Object`` / ``Cloneable`` / ``Serializable`` / ``Number`` / ``Class`` / ``Enum`` (no functional
    interfaces, JLS 9.8); to a known
    functional interface when its method takes ``N`` parameters (a method reference: any);
    ``None`` for another type (the caller decides)."""
    if param.endswith("[]") or param in VALUE_TYPES or param in _ARRAY_SUPERS or param in _CLASSES:
        return False
    n = _FUNCTIONAL.get(param)
    if n is None:
        return None
    return arg == "::" or arg == f"->{n}"
