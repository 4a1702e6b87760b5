"""SQLAlchemy facts the resolver reads as bindings: relationship backrefs and Flask-SQLAlchemy's
``model_class``.

* ``db = SQLAlchemy(app, model_class=CRUDMixin)`` (module level, ``SQLAlchemy`` imported from
  ``flask_sqlalchemy``) makes ``db.Model`` a subclass of ``CRUDMixin``: an ``alias`` binding
  ``(None, "db.Model", "CRUDMixin")`` that the module system reads for ``db.Model`` wherever ``db``
  is imported (:func:`indexer.languages.python.modules.model_class`), so models deriving
  ``db.Model`` (or an alias ``Model = db.Model``) inherit the mixin's ``save()``.
* Relationship backrefs, as the reverse bindings
  (:func:`indexer.languages.python.django_models.reverse_member`, shared with Django's relation fields):

``user = relationship("User", backref=backref("profile", uselist=False))`` (also ``db.relationship``,
``orm.relationship``, ``db.backref``) in the body of class ``M`` gives instances of ``User`` the
attribute ``profile``: one instance of ``M`` -> a :class:`~indexer.model.Binding` ``(M, "~profile",
"'User'", "reverse")``, so ``current_user.profile.follow(...)`` binds to ``M.follow``. The target is
the first argument (or ``argument=``): a string literal is recorded quoted (the class of that name,
SQLAlchemy's registry being repository-wide), a name or dotted name as written; anything else records
nothing, and so does a relationship outside a class body.

Which side is one object follows SQLAlchemy's rule, the foreign key's place: a relationship of ``M``
is *many-to-one* when ``M``'s body declares a foreign key to the target's table (a call whose name
holds ``foreign`` or ``ref``, ``ForeignKey("user.id")``, ``ForeignKey(User.id)``,
``reference_col("users")``, whose first argument names the target: its class name or, when this file
maps it, its table, compared without case, underscores or a plural ``s``); then the backref is a
collection of ``M`` (type text prefixed ``*``: no instance). Otherwise (*one-to-many*, the key in the
target's table) the backref is one ``M`` (``Article.comments = relationship("Comment",
backref="article")``: ``comment.article`` is an ``Article``). ``secondary=`` (many-to-many) or a
``backref(..., uselist=True)`` make it a collection, ``uselist=False`` one object.

* The relationship attribute itself, ``M.author = relationship("User")`` (not annotated: a
  ``Mapped[...]`` annotation types it already), is a ``related`` binding ``(M, "author", "'User'")``
  read on an instance, as Django's foreign keys are
  (:func:`indexer.languages.python.django_models.related_value`): one ``User`` for a many-to-one
  relationship or ``uselist=False``, else a collection (``*``), so ``comment.author.follow(...)``
  binds to ``User.follow`` and ``a = comment.article; a.title = t`` writes the ``article`` table
  (:mod:`indexer.languages.python.frameworks.orm_attributes`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import re

from indexer.languages.python.frameworks.common import Args, CallLocator, compact, scope_of, string_value
from indexer.model import Binding, FileExtraction

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
_MANY = "*"


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the ``model_class`` alias, a ``reverse`` binding for each relationship backref and a
    ``related`` binding for each relationship attribute in a class body of one parsed Python file to
    ``out``."""
    if b"model_class" in src.data:
        _model_class(root, src, out)
    if b"relationship" not in src.data:
        return
    classes = {d.qualname for d in out.definitions if d.kind == "class"}
    tables = {td.entity: td.name for td in out.tables if td.entity and td.kind == "table"}
    locate = CallLocator(root, src)
    keys: dict[str, set[str]] = {}  # class -> the tables its foreign keys name, normalised
    for c in out.calls:
        if c.caller in classes and any(w in c.name.lower() for w in ("foreign", "ref")):
            call = locate.call_at(c.line, c.col)
            first = Args.of(src, call.child_by_field_name("arguments")).get(0, "column") if call is not None else None
            named = string_value(src, first) if first is not None else None
            if named is None and first is not None and first.type in ("identifier", "attribute"):
                named = compact(src, first)
            if named:
                keys.setdefault(c.caller, set()).add(_norm(named.split(".")[0]))
    for c in out.calls:
        if c.name != "relationship":
            continue
        call = locate.call_at(c.line, c.col)
        scope = scope_of(call, src) if call is not None else None
        if call is None or scope not in classes:
            continue
        args = Args.of(src, call.child_by_field_name("arguments"))
        target = args.get(0, "argument")
        if target is None:
            continue
        literal = string_value(src, target)
        if literal is not None:
            text = f"'{literal}'"
        elif target.type in ("identifier", "attribute"):
            text = compact(src, target)
        else:
            continue
        named = text.strip("'").rpartition(".")[2]
        to_one = "secondary" not in args.keywords and \
            bool(keys.get(scope, set()) & {_norm(named), _norm(tables.get(named, named))})
        uselist = args.keywords.get("uselist")
        forward_many = not to_one and not (uselist is not None and src.text(uselist) == "False")
        _attribute(call, src, out, scope, (_MANY if forward_many else "") + text, c.line)
        backref = args.keywords.get("backref")
        if backref is None:
            continue
        name, many = _backref(src, backref)
        if many is None:
            many = to_one or "secondary" in args.keywords
        if name and name.isidentifier():
            out.bindings.append(Binding(scope, "~" + name, (_MANY if many else "") + text, "reverse", c.line))


def _norm(name: str) -> str:
    """A table or class name compared loosely: lower case, no underscores, no plural ``s``."""
    low = name.lower().replace("_", "")
    return low[:-1] if low.endswith("s") else low


def _attribute(call: Node, src: SourceText, out: FileExtraction, scope: str, text: str, line: int) -> None:
    """The ``related`` binding of ``name = relationship(...)`` (no annotation) in the class ``scope``."""
    assign = call.parent
    if assign is None or assign.type != "assignment" or assign.child_by_field_name("right") != call \
            or assign.child_by_field_name("type") is not None:
        return
    left = assign.child_by_field_name("left")
    if left is not None and left.type == "identifier" and _PLAIN.fullmatch(text.lstrip(_MANY)):
        out.bindings.append(Binding(scope, src.text(left), text, "related", line))


_PLAIN = re.compile(r"'[\w.]+'|[\w.]+")


def _model_class(root: Node, src: SourceText, out: FileExtraction) -> None:
    """``X = SQLAlchemy(..., model_class=C)`` at module level -> ``(None, "X.Model", C, "alias")``."""
    if not any(i.module.startswith("flask_sqlalchemy") and i.name == "SQLAlchemy" for i in out.imports):
        return
    locate = CallLocator(root, src)
    for c in out.calls:
        if c.name != "SQLAlchemy" or c.receiver is not None or c.caller is not None:
            continue
        call = locate.call_at(c.line, c.col)
        assign = call.parent if call is not None else None
        if assign is None or assign.type != "assignment" or assign.child_by_field_name("right") != call:
            continue
        left = assign.child_by_field_name("left")
        mixin = Args.of(src, call.child_by_field_name("arguments")).keywords.get("model_class")
        if left is not None and left.type == "identifier" and mixin is not None \
                and mixin.type in ("identifier", "attribute"):
            out.bindings.append(Binding(None, f"{src.text(left)}.Model", compact(src, mixin), "alias", c.line))


def _backref(src: SourceText, node: Node) -> tuple[str | None, bool | None]:
    """The backref's name and whether it is a collection as written: ``backref("name", uselist=False)``
    (one object), ``uselist=True`` (a collection); ``None`` when it does not say (``"name"``,
    ``backref("name")``: the relationship's direction decides)."""
    literal = string_value(src, node)
    if literal is not None:
        return literal, None
    if node.type != "call" or compact(src, node.child_by_field_name("function")).rsplit(".", 1)[-1] != "backref":
        return None, None
    args = Args.of(src, node.child_by_field_name("arguments"))
    uselist = args.keywords.get("uselist")
    return string_value(src, args.get(0, "name")), None if uselist is None else src.text(uselist) != "False"
