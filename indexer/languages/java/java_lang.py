"""The final classes of ``java.lang``, which every Java compilation unit imports on demand (JLS 7.3).

A name none of the file's imports, its package or its wildcard imports declares, and that is one of
these, is the JDK's class: ``String.valueOf(x)``, ``System.out.println(x)``, ``Math.max(a, b)``,
``new StringBuilder()``, ``sb.append(x)`` are calls of the library, not call sites a later file of
the repository may bind (by name: ``Integer.parseInt(s)`` is no repository ``parseInt``). Only final
classes (and ``Math`` / ``System`` / ``Runtime``, which no code can extend: no accessible
constructor): no class of the repository extends one, so no method of the repository runs for a
call on one. The interfaces and the classes a repository may extend (``CharSequence``, ``Runnable``,
``Thread``, ``Exception``, ``Number``) are left as before: a call on one may run a repository's
override.
"""

from __future__ import annotations

__all__ = ["JAVA_LANG"]

JAVA_LANG = frozenset({
    "String", "StringBuilder", "StringBuffer", "Boolean", "Byte", "Character", "Short", "Integer",
    "Long", "Float", "Double", "Void", "Class", "Math", "StrictMath", "System", "Runtime",
    "ProcessBuilder", "StackWalker",
})
