"""Python generic repositories -> :class:`~indexer.model.TableUse` facts (session 68, acc68a).

A generic repository is one class whose methods query the model its subclasses name, as C#'s ``Repository<T>``
(:mod:`indexer.languages.csharp.frameworks.efcore`) and FastCRUD (:mod:`.fastcrud`) do::

    class BaseRepository(Generic[M]):
        model: type[M]
        async def get(self, id):  return await self.session.get(self.model, id)
        async def add(self, obj):  self.session.add(obj)
    class UserRepository(BaseRepository[User]): ...           # or `model = User` in its body
    ... await self.user_repo.get(user_id)                      # reads table users

Three facts, framework ``generic_repository``, which the table linker (:mod:`indexer.frameworks.tables`) joins:

* **a method of the base** whose body reads ``self.model`` / ``cls.model``: a ``reads`` or ``writes`` use owned by
  the method, ``entity`` ``self.model``: ``writes`` when the body also calls a session's write (:data:`WRITE_CALLS`:
  ``add``, ``delete``, ``merge``, ``commit``, ``flush``, SQLAlchemy's ``insert`` / ``update`` / ``delete``...) or
  builds the model (``self.model(**data)``), else ``reads``; a method calling such a method on ``self`` then
  writing (``update_by`` calling ``self.get_by(...)`` then ``commit``) is one too, one level. Recorded in a class whose bases are subscripted
  (``Generic[M]``, ``Base[M]``) or whose name says it is a repository (:func:`names_a_repository`); not in
  Django's own ``QuerySet`` / ``ModelAdmin`` / ``Field``, which read ``self.model`` too.
* **a subclass naming its model**: ``class UserRepository(BaseRepository[User])`` (the first type argument, a name
  or dotted name) or ``model = User`` in the body of a class named as a repository: a ``repository`` use owned by
  the class, ``entity`` the model's text; or **an instance given its model**: ``item = CRUDBase(Item)`` at module
  level (:func:`_instances`), owned by no function, ``receiver`` the variable; or a subclass handing its model to
  the base's constructor (``super().__init__(User, session)``, ``super().__init__(session, model=User)``).
* **a call on a repository**: ``recv.m(...)`` whose receiver names a repository (a part of ``self.user_repo``,
  ``repos.users``, ``crud.user``, ``UserRepository(session)`` for which :func:`names_a_repository` holds): a use owned by the
  caller with ``receiver`` the receiver's text; the linker reads the table of the model the receiver's class (or
  an ancestor) names and the role(s) of the method it calls there, when that method is one of the base's above
  (``match`` through ``via``: that method's qualname); any other receiver links nothing and is not counted as
  unlinked. FastCRUD's calls (a session passed: ``crud.user.get(db, id)``) are read the same way when the
  receiver is no FastCRUD object (:mod:`.fastcrud`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.python.frameworks.common import block_definitions, compact
from indexer.model import FileExtraction, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["FRAMEWORK", "LANGUAGES", "WRITE_CALLS", "detect", "names_a_repository"]

LANGUAGES = ("python",)
FRAMEWORK = "generic_repository"

WRITE_CALLS = frozenset({"add", "add_all", "delete", "merge", "commit", "flush", "insert", "update", "bulk_save_objects",
                         "bulk_insert_mappings", "bulk_update_mappings", "save", "create", "execute_many"})
"""Calls in a base method's body that make its ``self.model`` use a write (a session's or SQLAlchemy's)."""

_CAMEL = re.compile(r"[a-z0-9](?:Repo|Repos|Repository|Repositories|Crud|CRUD|Dao|DAO)$|^(?:CRUD|Crud)[A-Z]")
_SNAKE = re.compile(r"(?:^|_)(?:repo|repos|repository|repositories|crud|dao)(?:_|$)")
_SELF_MODEL = (b"self.model", b"cls.model")
_WORDS = frozenset({"repo", "repos", "repository", "repositories", "crud", "dao"})


def names_a_repository(name: str) -> bool:
    """Whether a name (a class's, or one part of a receiver) names a repository: one of ``repo`` / ``repos`` /
    ``repository`` / ``repositories`` / ``crud`` / ``dao`` alone, as a word of a snake-case name (``user_repo``,
    ``crud_users``) or as the end of a camel-case one (``UserRepository``, ``userRepo``), or ``CRUD`` starting one
    (``CRUDUser``); not ``report`` nor ``repost``."""
    low = name.lower()
    return low in _WORDS or bool(_SNAKE.search(low)) or bool(_CAMEL.search(name))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the generic-repository uses of one parsed Python file to ``out.table_uses`` (module docstring)."""
    if any(m in src.data for m in _SELF_MODEL) or b"[" in src.data:
        for node in root.named_children:
            cls = node.child_by_field_name("definition") if node.type == "decorated_definition" else node
            if cls is not None and cls.type == "class_definition":
                _class(cls, src, out)
    if b"(" in src.data:
        _instances(root, src, out)
    fastcrud = {(u.line, u.col) for u in out.table_uses if u.framework == "fastcrud" and u.receiver}
    for c in out.calls:
        if c.receiver is None or c.via is not None or c.receiver in ("self", "cls") or (c.line, c.col) in fastcrud:
            continue  # (a FastCRUD call, `crud.user.get(db, id)`, is read as a generic repository's too: tables)
        parts = [p.removesuffix("()") for p in c.receiver.split(".")]
        if any(names_a_repository(p) for p in parts if p not in ("self", "cls")):
            out.table_uses.append(TableUse(FRAMEWORK, "reads", c.caller, c.line, c.col, resolution="inferred",
                                           receiver=c.receiver))


def _class(cls: Node, src: SourceText, out: FileExtraction) -> None:
    """The base-method and subclass uses of one top-level class."""
    name_node, body = cls.child_by_field_name("name"), cls.child_by_field_name("body")
    if name_node is None or body is None:
        return
    name = src.text(name_node)
    bases = cls.child_by_field_name("superclasses")
    subscripted = [b for b in (bases.named_children if bases is not None else ()) if b.type == "subscript"]
    for b in subscripted:
        value = b.child_by_field_name("value")
        args = [a for a in b.children_by_field_name("subscript") if a.is_named]
        if value is None or compact(src, value).rpartition(".")[2] in ("Generic", "Protocol", "type", "Type") \
                or not args or args[0].type not in ("identifier", "attribute"):
            continue
        out.table_uses.append(TableUse(FRAMEWORK, "repository", name, src.line(cls), src.col(cls),
                                       entity=compact(src, args[0]), resolution="inferred",
                                       receiver=compact(src, value)))
        break
    else:
        if names_a_repository(name):
            _model_attribute(name, body, src, out)
    methods = block_definitions(body, "function_definition")
    if not (subscripted or names_a_repository(name)):
        return  # (Django's own QuerySet, ModelAdmin, Field... read self.model too: no repositories)
    if bases is not None and bases.named_children:
        _super_model(name, methods, src, out)
    text = src.text(body)
    if not any(m in text.encode() for m in _SELF_MODEL):
        return
    found: dict[str, tuple[Node, str]] = {}
    for fn in methods:
        role = _roles(fn, src, frozenset())
        if role is not None:
            found[src.text(fn.child_by_field_name("name"))] = (fn, role)
    for fn in methods:  # `update_by` calling `self.get_by(...)` then committing: one more level
        method = src.text(fn.child_by_field_name("name"))
        role = None if method in found or method == "__init__" else _roles(fn, src, frozenset(found))
        if role is not None:
            found[method] = (fn, role)
    for method, (fn, role) in found.items():
        out.table_uses.append(TableUse(FRAMEWORK, role, f"{name}.{method}", src.line(fn), src.col(fn),
                                       entity="self.model", resolution="inferred"))


def _instances(root: Node, src: SourceText, out: FileExtraction) -> None:
    """``item = CRUDBase(Item)`` at module level, the class named as a repository (:func:`names_a_repository`) and
    its first argument a class's name (capitalised): a ``repository`` use owned by no function, ``receiver`` the
    variable (keyed ``path:name`` by the linker, as FastCRUD's objects are)."""
    for node in root.named_children:
        n = node.named_children[0] if node.type == "expression_statement" and node.named_children else node
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if n.type != "assignment" or left is None or left.type != "identifier" or right is None or right.type != "call":
            continue
        fn, arglist = right.child_by_field_name("function"), right.child_by_field_name("arguments")
        if fn is None or fn.type not in ("identifier", "attribute") or arglist is None \
                or not names_a_repository(compact(src, fn).rpartition(".")[2]):
            continue
        first = next((a for a in arglist.named_children if a.type != "comment"), None)
        if first is not None and first.type in ("identifier", "attribute") \
                and compact(src, first).rpartition(".")[2][:1].isupper():
            out.table_uses.append(TableUse(FRAMEWORK, "repository", None, src.line(n), src.col(n),
                                           entity=compact(src, first), resolution="inferred", receiver=src.text(left)))


def _super_model(name: str, methods: list[Node], src: SourceText, out: FileExtraction) -> None:
    """``super().__init__(User, session)`` / ``super().__init__(session, model=User)`` in a subclass's ``__init__``: a
    ``repository`` use (the ``model=`` keyword, else the first positional argument that is a capitalised name)."""
    for fn in methods:
        if src.text(fn.child_by_field_name("name")) != "__init__":
            continue
        stack = [fn.child_by_field_name("body")]
        while stack:
            n = stack.pop()
            if n is None or n.type in ("function_definition", "class_definition", "lambda"):
                continue
            f = n.child_by_field_name("function") if n.type == "call" else None
            if f is None or compact(src, f) != "super().__init__":
                stack.extend(n.named_children)
                continue
            arglist = n.child_by_field_name("arguments")
            args = [a for a in (arglist.named_children if arglist is not None else ()) if a.type != "comment"]
            model = next((a.child_by_field_name("value") for a in args if a.type == "keyword_argument"
                          and src.text(a.child_by_field_name("name")) == "model"), None) \
                or next((a for a in args if a.type in ("identifier", "attribute") and _class_name(compact(src, a))), None)
            if model is not None and model.type in ("identifier", "attribute"):
                out.table_uses.append(TableUse(FRAMEWORK, "repository", name, src.line(n), src.col(n),
                                               entity=compact(src, model), resolution="inferred"))
                return


def _class_name(text: str) -> bool:
    """Whether a name or dotted name may be a model class's: a capitalised last part that is not all capitals
    (``User``, ``models.User``; not ``DEBUG``), not read from ``self``."""
    last = text.rpartition(".")[2]
    return last[:1].isupper() and not last.isupper() and not text.startswith(("self.", "cls."))


def _model_attribute(name: str, body: Node, src: SourceText, out: FileExtraction) -> None:
    """``model = User`` in the body of a class named as a repository: a ``repository`` use."""
    for stmt in body.named_children:
        n = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if n.type == "assignment" and left is not None and src.text(left) == "model" and right is not None \
                and right.type in ("identifier", "attribute") and src.text(right) != "None":
            out.table_uses.append(TableUse(FRAMEWORK, "repository", name, src.line(n), src.col(n),
                                           entity=compact(src, right), resolution="inferred"))
            return


def _roles(fn: Node, src: SourceText, model_methods: frozenset[str]) -> str | None:
    """``writes`` / ``reads`` for a method whose body reads ``self.model`` (module docstring) or calls one of the
    class's ``model_methods`` on ``self`` (``self.get_by(...)``), ``None`` for one that does neither or that assigns
    ``self.model`` (``__init__``)."""
    body = fn.child_by_field_name("body")
    if body is None:
        return None
    uses = False
    writes = False
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "attribute" and src.text(n) in ("self.model", "cls.model"):
            parent = n.parent
            if parent is not None and parent.type == "assignment" and parent.child_by_field_name("left") == n:
                return None  # `self.model = model`: where it is set, not a query
            uses = True
            if parent is not None and parent.type == "call" and parent.child_by_field_name("function") == n:
                writes = True  # `self.model(**data)`: a new row
        elif n.type == "call":
            f = n.child_by_field_name("function")
            called = src.text(f) if f is not None and f.type in ("identifier", "attribute") else ""
            if called.rpartition(".")[2] in WRITE_CALLS:
                writes = True
            if called.startswith("self.") and called[5:] in model_methods:
                uses = True
        if n.type in ("function_definition", "class_definition", "lambda") and n is not body:
            continue
        stack.extend(n.named_children)
    return ("writes" if writes else "reads") if uses else None
