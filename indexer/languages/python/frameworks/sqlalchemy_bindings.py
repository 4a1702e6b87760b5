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
"'User'", "reverse")``, so ``current_user.profile.follow(...)`` binds to ``M.follow``. A backref
without ``uselist=False`` (``backref="articles"``) is a collection of ``M``: the type text is
prefixed ``*`` (no instance). The target is the first argument (or ``argument=``): a string literal
is recorded quoted (the class of that name, SQLAlchemy's registry being repository-wide), a name or
dotted name as written; anything else records nothing, and so does a relationship outside a class
body.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.python.frameworks.common import Args, CallLocator, compact, scope_of, string_value
from indexer.model import Binding, FileExtraction

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
_MANY = "*"


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the ``model_class`` alias and a ``reverse`` binding for each relationship backref in a
    class body of one parsed Python file to ``out``."""
    if b"model_class" in src.data:
        _model_class(root, src, out)
    if b"backref" not in src.data:
        return
    classes = {d.qualname for d in out.definitions if d.kind == "class"}
    locate = CallLocator(root, src)
    for c in out.calls:
        if c.name != "relationship":
            continue
        call = locate.call_at(c.line, c.col)
        scope = scope_of(call, src) if call is not None else None
        if call is None or scope not in classes:
            continue
        args = Args.of(src, call.child_by_field_name("arguments"))
        target, backref = args.get(0, "argument"), args.keywords.get("backref")
        if target is None or backref is None:
            continue
        literal = string_value(src, target)
        if literal is not None:
            text = f"'{literal}'"
        elif target.type in ("identifier", "attribute"):
            text = compact(src, target)
        else:
            continue
        name, many = _backref(src, backref)
        if name and name.isidentifier():
            out.bindings.append(Binding(scope, "~" + name, (_MANY if many else "") + text, "reverse", c.line))


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


def _backref(src: SourceText, node: Node) -> tuple[str | None, bool]:
    """The backref's name and whether it is a collection: ``"name"`` (a list), ``backref("name",
    uselist=False)`` (one object)."""
    literal = string_value(src, node)
    if literal is not None:
        return literal, True
    if node.type != "call" or compact(src, node.child_by_field_name("function")).rsplit(".", 1)[-1] != "backref":
        return None, True
    args = Args.of(src, node.child_by_field_name("arguments"))
    uselist = args.keywords.get("uselist")
    return string_value(src, args.get(0, "name")), not (uselist is not None and src.text(uselist) == "False")
