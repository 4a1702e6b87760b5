"""Lombok: the members its annotations generate, as definitions (``Definition.generated = "lombok"``).

Lombok writes getters, setters, constructors and builders into the class file at compile time, so
the source calls methods it never declares (``user.getName()``, ``User.builder().name(n).build()``).
This module gives the Java extractor those members, so the resolver binds such calls like any
other. What is generated (Lombok's documented defaults, see https://projectlombok.org/features/):

* ``@Getter`` / ``@Setter`` on a class: an accessor per non-static field (setters: non-final
  fields only); on a field: that field's. ``AccessLevel.NONE`` turns one off. Names: ``getX`` /
  ``setX``; a primitive ``boolean`` field's getter is ``isX`` (``isActive`` keeps its name, its
  setter is ``setActive``); ``@Accessors(fluent = true)`` names both after the field, and a fluent or
  ``chain = true`` setter returns the class.
* ``@Data``: ``@Getter`` + ``@Setter`` + ``@RequiredArgsConstructor`` (the latter only when the class
  writes no constructor, no other constructor annotation and no ``@Builder``).
* ``@Value``: every field is final: getters, and an all-arguments constructor (same condition).
* ``@RequiredArgsConstructor`` (final or ``@NonNull`` fields without initialiser),
  ``@AllArgsConstructor`` (non-static fields, but initialised final ones), ``@NoArgsConstructor``;
  ``staticName = "of"`` adds a static factory ``of`` taking the same parameters.
* ``@Builder`` on a class: a static ``builder()`` returning the nested class ``XBuilder`` (generated
  unless the class writes it, then only its missing members are), one step per field (returning the
  builder) and ``build()`` returning the class; plus the all-arguments constructor it calls, when the
  class writes no constructor.
* ``@Builder`` on a constructor or a static method: the same builder, named after the class the
  constructor builds or the type the method returns (``XBuilder``), one step per parameter (a
  constructor's step naming the field of the same name) and ``build()`` returning that type.
* ``@Slf4j``, ``@Log``, ``@Log4j``, ``@Log4j2``, ``@CommonsLog``, ``@JBossLog``, ``@XSlf4j``,
  ``@Flogger``: a ``private static final`` field ``log`` of the framework's logger type, written
  fully qualified (a library type: ``log.info(...)`` is a call outside the repository, never one
  bound by name to a repository method).

A member the class already writes (same name and parameter count) is not generated, as Lombok does.
Accessors and builder steps name the field they read or write (``accessor_of``). Getters and
setters span their field (the name is the field's); constructors, factories and the builder span the
annotation that generates them (the name is the annotation's).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from indexer.model import Definition, Param

__all__ = ["GENERATOR", "LOGGER_TYPES", "LombokField", "LombokClass", "generated_members", "Span"]

GENERATOR = "lombok"

_STATIC_NAME = re.compile(r"staticName\s*=\s*\"([A-Za-z_$][\w$]*)\"")
_TRUE = r"\s*=\s*true"


@dataclass(frozen=True, slots=True)
class Span:
    """Where a generated member is written: the whole span and its name (1-based lines, code-point
    columns, as :class:`~indexer.model.Definition`)."""

    start_line: int
    start_col: int
    end_line: int
    end_col: int
    name_line: int
    name_col: int


@dataclass(slots=True)
class LombokField:
    """A field declaration's field: its record, its annotation texts (no ``@``), whether it has an
    initialiser."""

    rec: Definition
    decorators: Sequence[str]
    initialised: bool


@dataclass(slots=True)
class LombokClass:
    """A class as Lombok reads it: its record, its annotations (``decorators`` texts) with the span of
    each (by annotation name), its fields in order and the members it writes."""

    rec: Definition
    annotations: dict[str, tuple[str, Span]]
    fields: list[LombokField]
    members: list[Definition] = field(default_factory=list)


def _name(deco: str) -> str:
    return deco.split("(", 1)[0].strip().rsplit(".", 1)[-1]


def _off(deco: str) -> bool:
    """``@Getter(AccessLevel.NONE)``, ``@Setter(value = AccessLevel.NONE)``."""
    return "NONE" in deco.split("(", 1)[-1] if "(" in deco else False


def _cap(name: str) -> str:
    return name[:1].upper() + name[1:]


def _field_span(f: Definition) -> Span:
    return Span(f.start_line, f.start_col, f.end_line, f.end_col, f.name_line, f.name_col)


def _def(kind: str, name: str, cls: Definition, span: Span, *, parent: str | None = None,
         params: Sequence[Param] = (), return_type: str | None = None, static: bool = False,
         accessor_of: str | None = None) -> Definition:
    parent = parent or cls.qualname
    mods = ["public", "static"] if static else ["public"]
    args = ", ".join(f"{p.type} {p.name}" for p in params)
    head = " ".join(mods) + (f" {return_type}" if return_type and kind == "method" else "")
    return Definition(
        kind=kind, name=name, qualname=f"{parent}.{name}", parent=parent,
        start_line=span.start_line, start_col=span.start_col, end_line=span.end_line, end_col=span.end_col,
        name_line=span.name_line, name_col=span.name_col,
        signature=f"{head} {name}({args})" if kind != "class" else f"{head} class {name}",
        params=list(params), return_type=return_type if kind == "method" else None, modifiers=mods,
        generated=GENERATOR, accessor_of=accessor_of,
    )


_LOGGERS = {
    "Slf4j": "org.slf4j.Logger",
    "XSlf4j": "org.slf4j.ext.XLogger",
    "Log": "java.util.logging.Logger",
    "Log4j": "org.apache.log4j.Logger",
    "Log4j2": "org.apache.logging.log4j.Logger",
    "CommonsLog": "org.apache.commons.logging.Log",
    "JBossLog": "org.jboss.logging.Logger",
    "Flogger": "com.google.common.flogger.FluentLogger",
}
"""Lombok's logger annotations and the type of the ``log`` field each generates."""

LOGGER_TYPES = frozenset(_LOGGERS.values())
"""The logger types, fully qualified: library types the Java module system knows as such."""


def generated_members(cls: LombokClass) -> list[Definition]:
    """The members Lombok generates for ``cls`` (none without a Lombok annotation), in order:
    the logger field, getters and setters by field, constructors and factories, the builder class
    and its members, then the builders of annotated constructors and static methods."""
    out = _logger(cls)
    anns = {name: text for name, (text, _) in cls.annotations.items()}
    built = [m for m in cls.members if m.kind in ("constructor", "method") and any(_name(d) == "Builder" for d in m.decorators)]
    if not anns.keys() & {"Getter", "Setter", "Data", "Value", "Builder", "RequiredArgsConstructor",
                          "AllArgsConstructor", "NoArgsConstructor"} and not any(
            _name(d) in ("Getter", "Setter") for f in cls.fields for d in f.decorators):
        return out + _member_builders(cls, built, {(m.name, len(m.params)) for m in cls.members})
    return out + _class_members(cls, anns) + _member_builders(
        cls, built, {(m.name, len(m.params)) for m in cls.members} | {(d.name, len(d.params)) for d in out})


def _logger(cls: LombokClass) -> list[Definition]:
    """The ``log`` field a logger annotation generates (none when the class writes ``log``)."""
    c = cls.rec
    for ann, (_, span) in cls.annotations.items():
        ftype = _LOGGERS.get(ann)
        if ftype is None or any(f.rec.name == "log" for f in cls.fields):
            continue
        mods = ["private", "static", "final"]
        return [Definition(
            kind="field", name="log", qualname=f"{c.qualname}.log", parent=c.qualname,
            start_line=span.start_line, start_col=span.start_col, end_line=span.end_line, end_col=span.end_col,
            name_line=span.name_line, name_col=span.name_col, signature=f"private static final {ftype} log",
            field_type=ftype, modifiers=mods, generated=GENERATOR)]
    return []


def _member_builders(cls: LombokClass, built: list[Definition], written: set[tuple[str, int]]) -> list[Definition]:
    """The builders of ``@Builder`` constructors and static methods of ``cls``: ``builder()`` on the
    class, the nested ``XBuilder`` (X: the type built), a step per parameter and ``build()``."""
    c = cls.rec
    out: list[Definition] = []
    fields = {f.rec.name: f.rec.qualname for f in cls.fields}
    for m in built:
        made = c.name if m.kind == "constructor" else (m.return_type or "").split("<", 1)[0].rsplit(".", 1)[-1]
        if not made or made == "void":
            continue
        span = Span(m.start_line, m.start_col, m.end_line, m.end_col, m.name_line, m.name_col)
        builder = f"{made}Builder"
        bq = f"{c.qualname}.{builder}"
        if ("builder", 0) not in written:
            written.add(("builder", 0))
            out.append(_def("method", "builder", c, span, return_type=builder, static=True))
        if any(d.kind == "class" and d.qualname == bq for d in (*cls.members, *out)):
            continue  # the class writes its builder (or another member already made it)
        out.append(_def("class", builder, c, span, static=True))
        for p in m.params:
            of = fields.get(p.name) if m.kind == "constructor" else None
            out.append(_def("method", p.name, c, span, parent=bq, params=[Param(p.name, p.type or "Object")],
                            return_type=builder, accessor_of=of))
        out.append(_def("method", "build", c, span, parent=bq, return_type=made))
    return out


def _class_members(cls: LombokClass, anns: dict[str, str]) -> list[Definition]:
    """What the class-level annotations (and ``@Getter`` / ``@Setter`` on fields) generate."""
    c = cls.rec
    written = {(m.name, len(m.params)) for m in cls.members if m.kind in ("method", "constructor")}
    out: list[Definition] = []

    def add(d: Definition) -> None:
        key = (d.name, len(d.params))
        if d.kind == "class" or key not in written:
            written.add(key)
            out.append(d)

    value = "Value" in anns
    data = "Data" in anns
    accessors = anns.get("Accessors", "")
    fluent = re.search("fluent" + _TRUE, accessors) is not None
    chain = fluent or re.search("chain" + _TRUE, accessors) is not None
    fields = [f for f in cls.fields if "static" not in f.rec.modifiers]
    class_get = value or data or ("Getter" in anns and not _off(anns["Getter"]))
    class_set = not value and (data or ("Setter" in anns and not _off(anns["Setter"])))
    for f in fields:
        rec, ftype = f.rec, f.rec.field_type or "Object"
        own = {_name(d): d for d in f.decorators}
        final = value or "final" in rec.modifiers
        getter = ("Getter" in own and not _off(own["Getter"])) or (class_get and not _off(own.get("Getter", "")))
        setter = not final and (("Setter" in own and not _off(own["Setter"]))
                                or (class_set and not _off(own.get("Setter", ""))))
        is_bool = ftype == "boolean"
        bare = rec.name[2:] if is_bool and len(rec.name) > 2 and rec.name.startswith("is") and rec.name[2].isupper() \
            else rec.name
        span = _field_span(rec)
        if getter:
            gname = rec.name if fluent else (("is" + _cap(bare)) if is_bool and bare == rec.name
                                             else rec.name if is_bool else "get" + _cap(rec.name))
            add(_def("method", gname, c, span, return_type=ftype, accessor_of=rec.qualname))
        if setter:
            sname = rec.name if fluent else "set" + _cap(bare)
            add(_def("method", sname, c, span, params=[Param(rec.name, ftype)],
                     return_type=c.name if chain else "void", accessor_of=rec.qualname))

    def ctor(ann: str, params: list[Param]) -> None:
        text, span = cls.annotations[ann]
        add(_def("constructor", c.name, c, span, params=params))
        m = _STATIC_NAME.search(text)
        if m:
            add(_def("method", m.group(1), c, span, params=params, return_type=c.name, static=True))

    def param(f: LombokField) -> Param:
        return Param(f.rec.name, f.rec.field_type or "Object")

    all_args = [param(f) for f in fields if not (f.initialised and ("final" in f.rec.modifiers or value))]
    required = [param(f) for f in fields if not f.initialised and (
        "final" in f.rec.modifiers or value or any(_name(d) == "NonNull" for d in f.decorators))]
    explicit_ctor = any(m.kind == "constructor" for m in cls.members)
    ctor_anns = [a for a in ("NoArgsConstructor", "RequiredArgsConstructor", "AllArgsConstructor") if a in anns]
    for a in ctor_anns:
        ctor(a, [] if a == "NoArgsConstructor" else required if a == "RequiredArgsConstructor" else all_args)
    if not explicit_ctor and not ctor_anns:  # @Builder's all-arguments constructor wins over @Data's
        if value or "Builder" in anns:
            ctor("Value" if value else "Builder", all_args)
        elif data:
            ctor("Data", required)
    if "Builder" in anns:
        _, span = cls.annotations["Builder"]
        builder = f"{c.name}Builder"
        bq = f"{c.qualname}.{builder}"
        add(_def("method", "builder", c, span, return_type=builder, static=True))
        have = {(m.name, len(m.params)) for m in cls.members if m.parent == bq}
        if not any(m.kind == "class" and m.qualname == bq for m in cls.members):
            out.append(_def("class", builder, c, span, static=True))
        for f in fields:
            if f.initialised and ("final" in f.rec.modifiers or value):
                continue
            if (f.rec.name, 1) not in have:
                out.append(_def("method", f.rec.name, c, span, parent=bq, params=[param(f)],
                                return_type=builder, accessor_of=f.rec.qualname))
        if ("build", 0) not in have:
            out.append(_def("method", "build", c, span, parent=bq, return_type=c.name))
    return out
