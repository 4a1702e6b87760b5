"""What a TypeORM query builder joins: the entity behind each alias, and the columns its strings name.

TypeORM's ``SelectQueryBuilder`` names every table it touches by an alias: the builder's own
(``repo.createQueryBuilder("u")``, ``manager.createQueryBuilder(User, "u")``, ``.from(User, "u")``), an
entity class it joins (``.innerJoin(Photo, "p", "p.userId = u.id")``, ``.leftJoinAndMapMany("u.pics",
Photo, "p")``), or a **relation path** of an alias already known (``.leftJoinAndSelect("u.photos",
"p")``: the entity ``User``'s relation property ``photos``; ``.innerJoin("p.tags", "t")`` then goes on
from that one). The relation's entity is the declared type of the property, which another file holds:
the join is recorded as the alias's entity with the relation path (``User`` + ``photos``,
``User`` + ``photos.tags``) for the linker to follow (:class:`indexer.model_services.TableUse`
``relation``). Columns: every ``alias.name`` the chain's string arguments write (``.where("p.isRemoved =
:r")``, ``.orderBy("p.createdAt")``, ``.select(["p.id"])``), read from the alias's table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.ecmascript.frameworks.common import JsFile

__all__ = ["Join", "builder_joins"]

CLASS_JOINS = {**dict.fromkeys(("innerJoin", "leftJoin", "innerJoinAndSelect", "leftJoinAndSelect"), 0),
               **dict.fromkeys(("innerJoinAndMapOne", "innerJoinAndMapMany", "leftJoinAndMapOne",
                                "leftJoinAndMapMany"), 1)}
"""The joins of TypeORM's ``SelectQueryBuilder`` and the position of the argument naming what is joined
(``innerJoin(entityOrRelationPath, alias, condition)``, ``leftJoinAndMapOne(mapTo, entity, alias, ...)``);
the alias follows it."""
_ENTITY_ARGUMENT = frozenset(("from",))
"""Builder methods whose arguments are ``(entity, alias)`` (``.from(User, "u")``)."""
_PROPERTY_PATHS = frozenset(("loadRelationIdAndMap", "loadRelationCountAndMap", "loadAllRelationIds"))
"""Builder methods whose strings are property paths (``"category.imageIds"``), no columns."""
_QUALIFIED = re.compile(r"(?<![\w.$:])([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)\b(?!\s*\()")
MAX_RELATION_DEPTH = 8
"""Relation paths followed past this many properties (``u.a``, ``a.b``, ...) are dropped."""


@dataclass(slots=True)
class Join:
    """One joined alias: the entity text (a class name the linker resolves), the relation path from it
    (``""``: the entity itself), the node naming it (where the access is recorded) and the columns
    the chain's strings name on the alias."""

    alias: str
    entity: str
    relation: str
    node: Node
    columns: list[str] = field(default_factory=list)


def _class_name(jf: JsFile, node: Node | None) -> str | None:
    text = jf.text(node) if node is not None and node.type in ("identifier", "member_expression") else ""
    return text if text and text.rsplit(".", 1)[-1][:1].isupper() else None


def builder_joins(jf: JsFile, methods: list[tuple[str, list[Node]]], root: tuple[str, str] | None) -> list[Join]:
    """The joins of a query builder whose methods are ``methods`` (in call order, each with its
    argument nodes) and whose own alias and entity are ``root`` (``None``: unknown; ``.from(E, "a")``
    in the chain names one too), with the columns the chain's strings name on each joined alias. A
    relation path on an alias of no known entity, or a lower-case value, is no join."""
    known: dict[str, tuple[str, str]] = {}
    if root is not None:
        known[root[0]] = (root[1], "")
    joins: list[Join] = []
    strings: list[str] = []
    for m, args in methods:
        at = CLASS_JOINS.get(m)
        for a in args[at + 2:] if at is not None else () if m in _PROPERTY_PATHS else args:  # a join's condition
            s = jf.string(a)
            if s is not None:
                strings.append(s)
            elif a.type == "array":
                strings += [t for t in (jf.string(e) for e in a.named_children) if t is not None]
        if m in _ENTITY_ARGUMENT and len(args) >= 2:
            entity, alias = _class_name(jf, args[0]), jf.string(args[1])
            if entity and alias:
                known[alias] = (entity, "")
            continue
        if at is None or len(args) <= at:
            continue
        alias = jf.string(args[at + 1]) if len(args) > at + 1 else None
        entity = _class_name(jf, args[at])
        if entity is not None:
            joins.append(Join(alias or "", entity, "", args[at]))
        elif at == 0 and (path := jf.string(args[0])) is not None:
            head, _, prop = path.partition(".")
            base = known.get(head)
            if base is None or not prop.isidentifier():
                continue
            relation = f"{base[1]}.{prop}" if base[1] else prop
            if relation.count(".") >= MAX_RELATION_DEPTH:
                continue
            joins.append(Join(alias or "", base[0], relation, args[0]))
        else:
            continue
        if alias:
            known[alias] = (joins[-1].entity, joins[-1].relation)
    by_alias = {j.alias: j for j in joins if j.alias}
    for s in strings:
        for m in _QUALIFIED.finditer(s):
            j = by_alias.get(m.group(1))
            if j is not None and m.group(2) not in j.columns:
                j.columns.append(m.group(2))
    return joins
