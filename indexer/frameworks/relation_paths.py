"""The entity class at the end of an ORM relation path (TypeORM ``.leftJoinAndSelect("u.photos", "p")``).

A relation property is a field of the entity class whose declared type is the related entity
(``@ManyToOne(() => User) author: User``), an array of it (``@OneToMany(() => Photo, ...) photos:
Photo[]``) or a promise of either (lazy relations, ``Promise<Photo[]>``); in JavaScript, or when the
type is left out, the relation decorator's first argument names it (``@OneToMany(() => Photo, ...)``,
``@ManyToOne(type => User)``). Each property of the path is looked up (inherited too) on the class the
previous one led to (:class:`indexer.model_services.TableUse` ``relation``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.resolve.values import ClassV, InstV, QueryV

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup
    from indexer.resolve.values import Def

__all__ = ["related_class"]

_RELATION = re.compile(r"^(?:OneToMany|ManyToOne|OneToOne|ManyToMany)\(\s*\(?\s*\w*\s*\)?\s*=>\s*([A-Za-z_$][\w$.]*)")


def _target(r: Lookup, field: Def) -> Def | None:
    """The entity class the relation property ``field`` leads to, or ``None``."""
    v = r.def_value(field)
    if isinstance(v, InstV | QueryV):
        return v.c
    for deco in field.heads.decorators:
        m = _RELATION.match(deco)
        if m is not None:
            t = r.resolve_expr(field.file, field.parent, m.group(1))
            if isinstance(t, ClassV):
                return t.c
    return None


def related_class(r: Lookup, fc: FileCtx, scope: str | None, entity: str, relation: str) -> Def | None:
    """The class the relation path ``relation`` (``photos.tags``) leads to from the entity text
    ``entity`` (resolved in ``scope`` of ``fc``), or ``None`` when a step names no relation property."""
    v = r.resolve_expr(fc, scope, entity)
    c = v.c if isinstance(v, ClassV | InstV) else None
    for prop in relation.split("."):
        if c is None:
            return None
        found, _ = r.lookup(c, prop)
        c = next((t for t in (_target(r, d) for d in found if d.kind == "field") if t is not None), None)
    return c
