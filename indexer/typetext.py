"""Type texts as extractors write them, reduced to what the resolver looks up: :func:`drop_generics`, :func:`simple_name`
and :func:`base_type` (re-exported by :mod:`indexer.model`, where the IR's conventions are
described)."""

from __future__ import annotations

import re

__all__ = ["base_type", "drop_generics", "simple_name", "unwrapped"]


def drop_generics(text: str) -> str:
    """``text`` without its ``<...>`` groups (nested ones too); an unbalanced ``<`` or ``>`` stays.
    ``Map<K, List<V>>.Entry`` -> ``Map.Entry``. One pass, linear in the text (removing the innermost
    groups pass after pass was quadratic in the nesting: 98 s for 60,000 levels of one Java field)."""
    if "<" not in text:
        return text
    out: list[str] = []
    opened: list[int] = []  # where each open "<" sits in out
    for ch in text:
        if ch == "<":
            opened.append(len(out))
            out.append(ch)
        elif ch == ">" and opened:
            del out[opened.pop():]
        else:
            out.append(ch)
    return "".join(out)


TRANSPARENT_WRAPPERS = frozenset({"Optional", "Mapped", "Annotated", "ClassVar", "Final", "Required",
                                  "NotRequired", "ReadOnly", "InitVar"})
"""Python type wrappers whose value is their first argument (``typing``; SQLAlchemy 2's ``Mapped``, by
its last dotted part: ``so.Mapped[User]`` is a ``User``)."""
_WRAPPED = re.compile(r"(?P<name>[A-Za-z_][\w.]*)\[(?P<args>.*)\]", re.S)


def simple_name(text: str) -> str:
    """The last dotted part of a type text without its generics: ``ms.ClientProxy<T>`` -> ``ClientProxy``,
    ``Map<K, V>.Entry`` -> ``Entry``; ``""`` for ``""``. Never raises."""
    return drop_generics(text).rsplit(".", 1)[-1]


def _first_argument(args: str) -> str:
    """The first top-level comma-separated part of a subscript's text (``A[B, C], D`` -> ``A[B, C]``)."""
    depth = 0
    for i, ch in enumerate(args):
        if ch in "[(<{":
            depth += 1
        elif ch in "])>}":
            depth -= 1
        elif ch == "," and depth == 0:
            return args[:i]
    return args


def unwrapped(text: str) -> str:
    """``text`` looked through its transparent wrappers (:data:`TRANSPARENT_WRAPPERS`, at most 8
    deep): ``Optional[Mapped[list["User"]]]`` -> ``list["User"]``; quotes of a forward reference
    dropped; any other text as it is."""
    t = text.strip().strip("\"'")
    for _ in range(8):
        m = _WRAPPED.fullmatch(t)
        if m is None or m["name"].rsplit(".", 1)[-1] not in TRANSPARENT_WRAPPERS:
            break
        t = _first_argument(m["args"]).strip().strip("\"'")
    return t


def base_type(text: str | None) -> str | None:
    """Reduce a type text to the name the resolver looks up, or ``None`` if nothing is left.

    ``List<Map<K, V>>`` -> ``List``; ``Owner[]`` -> ``Owner``; ``Owner | None`` / ``Optional[Owner]``
    / ``so.Mapped[Owner]`` / ``Annotated[Owner, ...]`` (:data:`TRANSPARENT_WRAPPERS`)
    / ``Owner?`` -> ``Owner``; ``"Owner"`` (a Python forward reference) -> ``Owner``;
    ``java.util.List<X>`` -> ``java.util.List``. Primitive and built-in names are returned as they are;
    callers decide whether to look them up.
    """
    if not text:
        return None
    t = unwrapped(drop_generics(text.strip().strip("\"'")))  # Optional[Mapped[...]]: their first argument
    if "|" in t:
        parts = [p.strip() for p in t.split("|") if p.strip() not in ("None", "null", "undefined", "")]
        if len(parts) != 1:
            return None
        t = parts[0]
    if "[" in t:
        t = t.split("[", 1)[0]
    t = t.rstrip("?").replace("...", "").strip().strip("\"'")
    if t.startswith(("readonly ", "final ")):
        t = t.split(" ", 1)[1]
    return t or None
