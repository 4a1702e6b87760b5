"""Django models and migrations, SQLAlchemy models and statements, raw SQL ->
:class:`~indexer.model.TableDef` / :class:`~indexer.model.TableUse`.

Tables:

* Django (``django``): a class with bases in a file importing Django. ``Meta.db_table`` names its
  table, else Django's default ``<app_label>_<modelname>`` (``app_label``: ``Meta.app_label``, else
  the package holding the ``models`` module: ``blog/models.py`` and ``blog/models/post.py`` are app
  ``blog``), a first guess the linker replaces with Django's name for it (``TableDef.model``:
  :mod:`indexer.languages.python.django_tables` reads the ``AppConfig`` labels and inherited ``Meta``
  of the repository); a class with bases and no fields is a ``candidate`` too (a model when a base
  is one). Columns: each ``x = models.XField(...)`` / ``XField(...)`` in the class body, in order,
  ``db_column=`` renaming it, a ``ForeignKey`` / ``OneToOneField`` stored as ``x_id``; a
  ``ManyToManyField`` is a join table, not a column; an ``id`` primary key is added first when no
  field says ``primary_key=True``. ``Meta.abstract`` -> an ``abstract`` definition (columns for its
  subclasses), ``Meta.proxy`` -> ``proxy`` (its base's table). A class whose base is ``models.Model``
  (or ``Model`` imported from ``django.db.models``) is a ``table``; any other class with bases is a
  ``candidate`` the linker keeps when a base is a model.
* Django migrations (``django-migration``): ``migrations.CreateModel(name=..., fields=[...],
  options={"db_table": ...})`` as above (app: the package holding ``migrations/``), and
  ``AddField(model_name=..., name=..., field=...)`` adds a column (``alter``).
* Alembic migrations (``alembic``): ``op.create_table("t", sa.Column("c", T), ...)``, and
  ``op.add_column("t", sa.Column(...))`` (``alter``).
* SQLAlchemy (``sqlalchemy``): a class with ``__tablename__ = "x"`` (columns: ``Column(...)`` /
  ``mapped_column(...)`` / ``db.Column(...)`` attributes, a first string argument renaming one;
  ``__table_args__ = {"schema": ...}``), a Flask-SQLAlchemy ``db.Model`` subclass without
  ``__tablename__`` (its class name by Flask-SQLAlchemy's snake-case rule), and ``t = Table("x",
  metadata, Column("c", T), ..., schema=...)`` assignments (the variable is the entity), also
  Flask-SQLAlchemy's ``t = db.Table("x", db.Column(...), ...)`` in a file that imports its ``db``
  from the application (a ``*.Table`` call with a ``Column(...)`` argument).
  ``x = relationship(..., secondary=t)`` in a model (``sqlalchemy-m2m``): the field's join table, ``t``
  a ``Table(...)`` variable or a table name.
* SQLModel (``sqlmodel``): ``class User(UserBase, table=True)`` is table ``user`` (the class name
  lower-cased, SQLModel's default), its annotated attributes the columns.

Uses (owner: the enclosing function):

* Django ORM (any file: the linker resolves ``X``): ``X.objects.<chain>`` (also ``_default_manager``): reads, or writes when the chain calls
  ``create``, ``bulk_create``, ``bulk_update``, ``update``, ``delete``, ``get_or_create``,
  ``update_or_create`` or a method whose name starts with ``create_`` / ``update_`` / ``delete_`` /
  ``bulk_`` (a custom manager's ``create_user``); columns: the ``filter`` / ``get`` / ``exclude`` / ``update`` keyword names up
  to their first ``__``. ``x.save(...)`` / ``x.delete(...)`` (keyword arguments only) on a receiver writes the receiver's model: the
  linker resolves the receiver (an unknown receiver writes nothing).
* Many-to-many fields: ``x.field.add/remove/set/clear(...)`` (Django; SQLAlchemy collections also
  ``append`` / ``extend`` / ``discard``) write, ``x.field.all()`` / ``x.field.select()`` read the
  join table of ``field`` on ``x``'s model (the linker resolves ``x``; a field with no join table
  links nothing).
* SQLAlchemy: ``session.query(M, M.col)``, ``select(M)`` / ``sa.select(M)`` and ``session.get(M, ident)`` /
  ``get_one`` (``M`` a class name, ``models.M``; with the identity argument, so ``requests``' ``session.get(url)``
  is none) read ``M``; ``session.add`` / ``add_all`` /
  ``merge`` / ``delete(x)`` write ``x``'s model (in a file importing no SQLAlchemy, on a receiver
  ending in ``session``: ``db.session`` of an application's ``db``);
* Flask-SQLAlchemy's query property: each ``M.query`` (``M`` capitalised, or ``self`` / ``cls``), called
  on or not (``res = Article.query``), reads ``M``'s table, columns the ``filter_by`` keywords of its
  chain; a chain calling ``delete`` / ``update`` writes it too. ``x.save()`` on a constructed
  object (``Profile(user).save()``) writes the class's table; ``insert(T)`` / ``update(T)`` / ``delete(T)`` (imported
  from SQLAlchemy) and ``T.insert()`` / ``T.update()`` / ``T.delete()`` write ``T``.
* Raw SQL: the first argument of ``execute``, ``executemany``, ``executescript``, ``fetch``,
  ``fetchrow``, ``fetchval``, ``fetch_one``, ``fetch_all``, ``fetch_val``, ``raw``, ``mogrify`` (a
  literal, a constant, or ``text("...")``): a ``sql`` use parsed by the linker once constants are
  known; a string sqlglot does not parse as SQL claims nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.python.frameworks.common import (Args, CallLocator, compact, outermost_call, scope_of,
                                                         string_value, template)
from indexer.model import FileExtraction, TableDef, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "app_label", "DJANGO_WRITES"]

LANGUAGES = ("python",)
DJANGO_WRITES = frozenset({"create", "bulk_create", "bulk_update", "update", "delete", "get_or_create",
                           "update_or_create"})
_WRITE_PREFIXES = ("create_", "update_", "delete_", "bulk_")
"""A manager method named so writes too (``User.objects.create_user``, ``create_superuser``)."""
_DJANGO_FILTERS = frozenset({"filter", "get", "exclude", "update", "get_or_create", "update_or_create", "create"})
_RAW_SQL = frozenset({"execute", "executemany", "executescript", "fetch", "fetchrow", "fetchval", "fetch_one",
                      "fetch_all", "fetch_val", "raw", "mogrify", "exec_driver_sql"})
_SESSION_WRITES = frozenset({"add", "add_all", "merge", "delete"})
_SESSION_GETS = frozenset({"get", "get_one"})
"""``Session.get(M, ident)`` / ``get_one`` (SQLAlchemy 1.4+, SQLModel): a read of ``M`` by primary key."""
_M2M_WRITES = frozenset({"add", "remove", "set", "clear", "append", "extend", "discard"})
"""Django related-manager and SQLAlchemy collection methods that write a many-to-many join table."""
_M2M_READS = frozenset({"all", "select"})
_COLLECTION_STATEMENTS = frozenset({"delete", "insert", "update"})
"""SQLAlchemy 2 ``WriteOnlyCollection`` methods building a statement on the related rows
(``user.notifications.delete().where(...)``): a write of the relationship's table (in a file using
SQLAlchemy and not Django, whose ``x.y.delete()`` is a model instance's)."""
"""Methods of a Django many-to-many manager (``post.tags.add(t)``) that write its join table."""
_SELF_ROOTS = frozenset({"self", "self.model.objects", "self.model._default_manager", "self.get_queryset()",
                         "super().get_queryset()", "super()"})
_MANAGER_METHODS = frozenset({"filter", "exclude", "get", "all", "create", "update", "delete", "bulk_create",
                              "bulk_update", "get_or_create", "update_or_create", "count", "exists", "first", "last",
                              "values", "values_list", "order_by", "annotate", "aggregate", "in_bulk", "iterator",
                              "get_queryset"})
"""Query methods a custom manager calls on itself (``self.filter(...)``) that reach its model's table."""
_CORE_WRITES = frozenset({"insert", "update", "delete"})
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_CALL_NAMES = frozenset({
    "save", "delete", "query", "add", "merge", "select", "insert", "update", "execute", "executemany", "executescript",
    "fetch", "fetchrow", "fetchval", "fetch_one", "fetch_all", "fetch_val", "raw", "mogrify", "exec_driver_sql",
    "CreateModel", "AddField", "create_table", "add_column", "Table", "remove", "set", "clear",
    "append", "extend", "discard", "all",
})
"""Callees the query's call patterns name (``queries/orm_tables.scm``), and ``Table`` (a module-level
``t = Table(...)``)."""
_ORM_MODULES = ("django", "sqlalchemy", "flask_sqlalchemy", "sqlmodel", "alembic")
_QUERY_OWNER = re.compile(r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*|self|cls")
_NAMED_MANAGER = re.compile(r"(?:[a-z_]\w*\.)*[A-Z]\w*\.[a-z]\w*(?:$|\.|\()")
"""The start of a receiver that may be a model's manager of another name than ``objects``
(``Person.people``, ``models.Person.people``): the linker keeps the chain only when it is one."""
"""Receivers of a Flask-SQLAlchemy query property read: a class name (``Article``, ``models.Tag``), ``self``, ``cls``."""


def app_label(path: str) -> str | None:
    """Django's default app label for a models or migrations module at ``path``: the package holding
    ``models.py`` / the ``models`` package / the ``migrations`` package (``shop/models.py`` ->
    ``shop``); ``None`` at the repository root."""
    parts = path.replace("\\", "/").split("/")[:-1]
    if parts and parts[-1] in ("models", "migrations"):
        parts = parts[:-1]
    return parts[-1] if parts else None


def _assignment(stmt: Node) -> Node | None:
    """The assignment a block statement is (grammars differ on an ``expression_statement`` around it)."""
    if stmt.type == "assignment":
        return stmt
    if stmt.type == "expression_statement" and stmt.named_children and stmt.named_children[0].type == "assignment":
        return stmt.named_children[0]
    return None


def _table_keyword(src: SourceText, bases: Node) -> bool:
    """Whether a class's base list passes ``table=True`` (SQLModel's table models)."""
    for b in bases.named_children:
        if b.type == "keyword_argument" and src.text(b.child_by_field_name("name")) == "table":
            return src.text(b.child_by_field_name("value")) == "True"
    return False


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


class _Detector:
    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.root, self.src, self.out = root, src, out
        mods = [i.module for i in out.imports]
        self.django = any(m.startswith("django") for m in mods)
        self.sqlalchemy = any(m.startswith(("sqlalchemy", "flask_sqlalchemy", "sqlmodel")) for m in mods)
        self.sa_names = {i.local for i in out.imports if i.module.startswith(("sqlalchemy", "sqlmodel")) and i.name is not None}
        self.sa_modules = {i.local for i in out.imports if i.module.startswith(("sqlalchemy", "sqlmodel")) and i.name is None}
        self.alembic = any(m.startswith("alembic") for m in mods)
        self.migration = "/migrations/" in "/" + out.path.replace("\\", "/")
        self.orm_file = b"__tablename__" in src.data or any(m.startswith(_ORM_MODULES) for m in mods)
        self.locate = CallLocator(root, src)
        self._chains: set[int] = set()
        self.models_user = self.django or any(m == "models" or m.endswith(".models") for m in mods)
        """The file is Django code or imports a ``models`` module (``from shop.models import Order``)."""
        imported = {i.local: i.name for i in out.imports if i.name}
        self.managers = {d.qualname for d in out.definitions if d.kind == "class" and self.django and (
            d.name.endswith(("Manager", "QuerySet")) and d.bases
            or any(imported.get(b, b).split("[", 1)[0].endswith(("Manager", "QuerySet")) for b in d.bases))}
        """Django manager / queryset classes of this file: named ``*Manager`` / ``*QuerySet``, or with a
        base so named (``class Mgr(BUM)`` after ``from ... import BaseUserManager as BUM``)."""

    def run(self) -> None:
        """Visit what the extractor already found (no query pass over the tree): classes with bases
        (in a file importing an ORM, or naming ``__tablename__``), and the call sites of
        :data:`_CALL_NAMES` and of Django manager chains, each located in the tree by its position."""
        if self.orm_file:
            for d in self.out.definitions:
                if d.kind == "class" and d.bases:
                    name = self.locate.node_at(d.name_line, d.name_col)
                    if name is not None and name.parent is not None and name.parent.type == "class_definition":
                        self._class(name.parent)
        seen: set[int] = set()
        managers = bool(self.managers)  # most files define none: no caller to look up then
        for c in self.out.calls:
            manager = c.receiver is not None and ("objects" in c.receiver or "_default_manager" in c.receiver)
            if not manager and managers and c.receiver is not None and self._in_manager(c.caller):
                manager = c.receiver.startswith(("self", "super"))
            if not manager and self.django and c.receiver is not None and _NAMED_MANAGER.match(c.receiver):
                manager = True  # `Person.people.filter(...)`: a manager of another name, if the linker finds one
            session_get = c.name in _SESSION_GETS and c.receiver is not None and "session" in c.receiver.lower()
            if c.name not in _CALL_NAMES and not manager and not session_get:
                continue
            call = self.locate.call_at(c.line, c.col)
            if call is None or call.id in seen:
                continue
            seen.add(call.id)
            if manager:
                self._manager(call)
            elif c.name == "Table" and call.parent is not None and call.parent.type == "assignment" \
                    and call.parent.parent is not None and call.parent.parent.type == "module":
                self._module_table(call.parent)
            else:
                self._call(call)
        if b".query" in self.src.data:
            for v in self.out.value_reads:
                if v.name == "query" and v.receiver is not None and _QUERY_OWNER.fullmatch(v.receiver):
                    self._query_property(v.owner, v.receiver, v.line, v.col)
        self.out.tables.sort(key=lambda d: (d.line, d.col))
        self.out.table_uses.sort(key=lambda u: (u.line, u.col))

    def _query_property(self, owner: str | None, model: str, line: int, col: int) -> None:
        """``M.query`` read at (line, col) (Flask-SQLAlchemy's query property, module docstring): a read
        of ``M`` with its chain's ``filter_by`` keywords as columns, a write when the chain deletes or
        updates."""
        node = self.locate.node_at(line, col)
        if node is None or node.parent is None or node.parent.type != "attribute":
            return
        cols: list[str] = []
        writes = False
        cur = node.parent
        for _ in range(32):
            p = cur.parent
            if p is None or p.type != "attribute" or p.child_by_field_name("object") != cur:
                break
            call = p.parent
            if call is None or call.type != "call" or call.child_by_field_name("function") != p:
                break
            name = self.src.text(p.child_by_field_name("attribute"))
            writes = writes or name in ("delete", "update")
            if name == "filter_by":
                cols += [k for k in Args.of(self.src, call.child_by_field_name("arguments")).keywords if k not in cols]
            cur = call
        self.out.table_uses.append(TableUse("sqlalchemy", "reads", owner, line, col, entity=model, columns=cols))
        if writes:
            self.out.table_uses.append(TableUse("sqlalchemy", "writes", owner, line, col, entity=model))

    def _manager(self, call: Node) -> None:
        """A call of a Django query chain starting at ``X.objects``: the chain's outermost call, once."""
        top = outermost_call(call)
        if top.id in self._chains:
            return
        self._chains.add(top.id)
        func = top.child_by_field_name("function")
        if func is None or func.type != "attribute":
            return
        name_node = func.child_by_field_name("attribute")
        args = Args.of(self.src, top.child_by_field_name("arguments"))
        self._django_chain(top, self.src.text(name_node), func.child_by_field_name("object"), args,
                           self.src.line(name_node), self.src.col(name_node))

    # -- model classes -----------------------------------------------------------------------------

    def _class(self, node: Node) -> None:
        src = self.src
        bases_node = node.child_by_field_name("superclasses")
        body = node.child_by_field_name("body")
        name_node = node.child_by_field_name("name")
        if bases_node is None or body is None or name_node is None:
            return
        bases = [compact(src, b) for b in bases_node.named_children if b.type != "keyword_argument"]
        if not bases:
            return
        scope = scope_of(node, src)
        cls = src.text(name_node)
        qualname = f"{scope}.{cls}" if scope else cls
        attrs: dict[str, Node] = {}
        fields: list[tuple[str, Node]] = []
        meta: dict[str, Node] = {}
        for stmt in body.named_children:
            if stmt.type == "class_definition" and src.text(stmt.child_by_field_name("name")) == "Meta":
                mbody = stmt.child_by_field_name("body")
                for ms in mbody.named_children if mbody is not None else []:
                    a = _assignment(ms)
                    if a is not None:
                        meta[src.text(a.child_by_field_name("left"))] = a.child_by_field_name("right")
                continue
            a = _assignment(stmt)
            if a is None:
                continue
            left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
            if left is None or left.type != "identifier":
                continue
            attrs[src.text(left)] = right if right is not None else a
            if right is not None and right.type == "call":
                fields.append((src.text(left), right))
        line, col = src.line(name_node), src.col(name_node)
        if self.sqlalchemy and "__tablename__" not in attrs and _table_keyword(src, bases_node):
            self._sqlmodel_class(qualname, cls, body, line, col)
        elif "__tablename__" in attrs or any(b in ("db.Model",) for b in bases):
            self._sqlalchemy_class(qualname, cls, attrs, fields, bases, line, col)
        elif self.django and not self.migration:
            self._django_class(qualname, cls, bases, fields, meta, line, col)

    def _sqlmodel_class(self, qualname: str, cls: str, body: Node, line: int, col: int) -> None:
        """``class User(UserBase, table=True)``: SQLModel's table ``user`` (the class name lower-cased,
        SQLModel's default ``__tablename__``); columns: the class's own annotated attributes, a
        ``Relationship(...)`` or ``ClassVar`` aside (those of its bases are not read)."""
        src = self.src
        cols: list[tuple[str, str | None]] = []
        for stmt in body.named_children:
            a = _assignment(stmt)
            if a is None or a.child_by_field_name("type") is None:
                continue
            left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
            kind = compact(src, a.child_by_field_name("type"))
            if left is None or left.type != "identifier" or kind.startswith(("ClassVar", "typing.ClassVar")):
                continue
            if right is not None and right.type == "call" and \
                    compact(src, right.child_by_field_name("function")).rsplit(".", 1)[-1] == "Relationship":
                continue
            cols.append((src.text(left), kind.split("[", 1)[0].split("|", 1)[0].strip().rsplit(".", 1)[-1] or None))
        self.out.tables.append(TableDef("sqlmodel", cls.lower(), None, cols, line, col, entity=qualname))

    def _sqlalchemy_class(self, qualname: str, cls: str, attrs: dict[str, Node], fields: list[tuple[str, Node]],
                          bases: list[str], line: int, col: int) -> None:
        src = self.src
        name = string_value(src, attrs.get("__tablename__"))
        if name is None:
            if "__tablename__" in attrs:
                return
            name = _snake(cls)
        schema = None
        targs = attrs.get("__table_args__")
        if targs is not None and targs.type == "dictionary":
            for pair in targs.named_children:
                if pair.type == "pair" and string_value(src, pair.child_by_field_name("key")) == "schema":
                    schema = string_value(src, pair.child_by_field_name("value"))
        cols: list[tuple[str, str | None]] = []
        for fname, call in fields:
            callee = compact(src, call.child_by_field_name("function")).rsplit(".", 1)[-1]
            if callee not in ("Column", "mapped_column"):
                continue
            args = Args.of(src, call.child_by_field_name("arguments"))
            cname, ctype = fname, None
            for i, arg in enumerate(args.positional):
                value = string_value(src, arg)
                if value is not None and i == 0:
                    cname = value
                elif ctype is None and value is None:
                    ctype = compact(src, arg).split("(", 1)[0].rsplit(".", 1)[-1]
            name_kw = string_value(src, args.keywords.get("name"))
            cols.append((name_kw or cname, ctype))
        self.out.tables.append(TableDef("sqlalchemy", name, schema, cols, line, col, entity=qualname))
        for fname, call in fields:  # many-to-many: ``tags = relationship("Tag", secondary=post_tags)``
            if compact(src, call.child_by_field_name("function")).rsplit(".", 1)[-1] != "relationship":
                continue
            secondary = Args.of(src, call.child_by_field_name("arguments")).keywords.get("secondary")
            if secondary is None:
                continue
            literal = string_value(src, secondary)
            ref = literal if literal is not None else compact(src, secondary)
            if _DOTTED_NAME.fullmatch(ref):
                self.out.tables.append(TableDef("sqlalchemy-m2m", ref, None, [], src.line(call), src.col(call),
                                                entity=f"{qualname}.{fname}",
                                                kind="m2m" if literal is not None else "m2m-ref"))

    def _django_class(self, qualname: str, cls: str, bases: list[str], fields: list[tuple[str, Node]],
                      meta: dict[str, Node], line: int, col: int) -> None:
        src = self.src
        flag = {k: src.text(v) == "True" for k, v in meta.items() if v is not None}
        label = string_value(src, meta.get("app_label")) or app_label(self.out.path)
        table = string_value(src, meta.get("db_table")) or (f"{label}_{cls.lower()}" if label else cls.lower())
        cols = self._django_columns([(n, c) for n, c in fields])
        if flag.get("abstract"):
            kind, table = "abstract", ""
        elif flag.get("proxy"):
            kind, cols = "proxy", []
        elif any(b in ("models.Model", "Model", "django.db.models.Model") for b in bases):
            kind = "table"
        elif qualname in self.managers and not cols and not meta:
            return  # a manager or queryset class, no model
        else:
            kind = "candidate"
        if kind != "candidate" and kind != "abstract" and not any(c[0] == "id" for c in cols) and not self._has_pk(fields):
            cols.insert(0, ("id", "AutoField"))
        own = any(string_value(src, meta.get(k)) for k in ("db_table", "app_label"))  # the name is as written
        self.out.tables.append(TableDef("django", table, None, cols, line, col, entity=qualname, kind=kind,
                                        model=None if own else cls))
        if kind in ("table", "candidate"):
            self._m2m_tables(qualname, cls, table, label, fields)
            self._managers_of(qualname, fields, line, col)

    def _in_manager(self, scope: str | None) -> bool:
        """Whether ``scope`` (a qualname) is a method of one of the file's manager / queryset classes."""
        return bool(scope) and scope.rpartition(".")[0] in self.managers  # type: ignore[union-attr]

    def _made_by_model(self, call: Node, name: str) -> bool:
        """Whether the function around ``call`` assigns ``name = self.model(...)`` (or ``self.create_x(...)``)
        before it."""
        fn = call.parent
        while fn is not None and fn.type != "function_definition":
            fn = fn.parent
        if fn is None:
            return False
        body = self.src.data[fn.start_byte:call.start_byte].decode("utf-8", "replace")
        return re.search(rf"(?<![\w.]){re.escape(name)}\s*=\s*self\.(?:model|create\w*)\(", body) is not None

    def _managers_of(self, qualname: str, fields: list[tuple[str, Node]], line: int, col: int) -> None:
        """``objects = CustomerManager()`` / ``Qs.as_manager()`` / ``M.from_queryset(Qs)()`` in a model
        body: ``manager`` uses (owner: the model) that map those classes to the model's table."""
        for _, call in fields:
            texts = [compact(self.src, call.child_by_field_name("function"))]
            inner = call.child_by_field_name("function")
            if inner is not None and inner.type == "call":  # M.from_queryset(Qs)()
                texts = [compact(self.src, inner.child_by_field_name("function"))]
                texts += [compact(self.src, a) for a in Args.of(self.src, inner.child_by_field_name("arguments")).positional]
            for text in texts:
                head = re.sub(r"\.(as_manager|from_queryset)$", "", text)
                last = head.rsplit(".", 1)[-1]
                if re.fullmatch(r"[A-Z]\w*", last) and not last.endswith("Field") and last != "ForeignKey":
                    self.out.table_uses.append(TableUse("django", "manager", qualname, line, col, entity=head))

    def _m2m_tables(self, qualname: str, cls: str, table: str, label: str | None,
                    fields: list[tuple[str, Node]]) -> None:
        """Django's join table of each ``ManyToManyField`` without ``through=``: ``db_table=``, else
        ``<model table>_<field>``, columns ``id``, ``<model>_id``, ``<target>_id`` (``from_<model>_id`` /
        ``to_<model>_id`` when the field points at its own model)."""
        src = self.src
        for fname, call in fields:
            if compact(src, call.child_by_field_name("function")).rsplit(".", 1)[-1] != "ManyToManyField":
                continue
            args = Args.of(src, call.child_by_field_name("arguments"))
            if "through" in args.keywords:
                continue  # the through model is a table of its own
            target = args.get(0, "to")
            ttext = (string_value(src, target) or compact(src, target)) if target is not None else ""
            tname = "user" if ttext.endswith("AUTH_USER_MODEL") else ttext.rsplit(".", 1)[-1].lower()
            if not tname:
                continue
            me = cls.lower()
            if tname in (me, "self"):
                cols = [("id", "AutoField"), (f"from_{me}_id", "ForeignKey"), (f"to_{me}_id", "ForeignKey")]
            else:
                cols = [("id", "AutoField"), (f"{me}_id", "ForeignKey"), (f"{tname}_id", "ForeignKey")]
            explicit = string_value(src, args.keywords.get("db_table"))
            line, col = src.line(call), src.col(call)
            self.out.tables.append(TableDef("django-m2m", explicit or f"{table}_{fname}", None, cols, line, col,
                                            entity=f"{qualname}.{fname}", model=None if explicit else cls))

    def _has_pk(self, fields: list[tuple[str, Node]]) -> bool:
        for _, call in fields:
            args = Args.of(self.src, call.child_by_field_name("arguments"))
            pk = args.keywords.get("primary_key")
            if pk is not None and self.src.text(pk) == "True":
                return True
        return False

    def _django_columns(self, fields: list[tuple[str, Node]]) -> list[tuple[str, str | None]]:
        src = self.src
        cols: list[tuple[str, str | None]] = []
        for fname, call in fields:
            callee = compact(src, call.child_by_field_name("function")).rsplit(".", 1)[-1]
            if not (callee.endswith("Field") or callee in ("ForeignKey",)) or callee.startswith("Generic"):
                continue
            if callee == "ManyToManyField":
                continue
            args = Args.of(src, call.child_by_field_name("arguments"))
            column = string_value(src, args.keywords.get("db_column"))
            if column is None:
                column = f"{fname}_id" if callee in ("ForeignKey", "OneToOneField", "ParentalKey") else fname
            cols.append((column, callee))
        return cols

    # -- module-level Table(...) and migrations ----------------------------------------------------

    def _module_table(self, node: Node) -> None:
        src = self.src
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier" or right.type != "call":
            return
        written = compact(src, right.child_by_field_name("function"))
        callee = written.rsplit(".", 1)[-1]
        if callee != "Table":
            return
        args = Args.of(src, right.child_by_field_name("arguments"))
        if not self.sqlalchemy and not ("." in written and any(
                a.type == "call" and compact(src, a.child_by_field_name("function")).rsplit(".", 1)[-1] == "Column"
                for a in args.positional)):
            return  # `db.Table("t", db.Column(...))` of an application's `db`; another `Table(...)` is not one
        name = string_value(src, args.get(0, "name"))
        if name is None:
            return
        cols = [(cname, compact(src, ctype).split("(", 1)[0] if ctype is not None else None)
                for cname, ctype in self._column_calls(args.positional[1:])]
        schema = string_value(src, args.keywords.get("schema"))
        self.out.tables.append(TableDef("sqlalchemy", name, schema, cols, src.line(left), src.col(left),
                                        entity=src.text(left)))

    def _migration_op(self, node: Node, op: str, args: Args) -> None:
        src = self.src
        label = app_label(self.out.path)
        if op == "CreateModel":
            name = string_value(src, args.get(0, "name"))
            if name is None:
                return
            opts: dict[str, Node] = {}
            options = args.get(3, "options")
            if options is not None and options.type == "dictionary":
                for pair in options.named_children:
                    key = string_value(src, pair.child_by_field_name("key")) if pair.type == "pair" else None
                    if key is not None:
                        opts[key] = pair.child_by_field_name("value")
            if any(src.text(opts[k]) == "True" for k in ("abstract", "proxy") if k in opts):
                return
            explicit = string_value(src, opts.get("db_table"))
            table = explicit or (f"{label}_{name.lower()}" if label else name.lower())
            fields: list[tuple[str, Node]] = []
            flist = args.get(1, "fields")
            for item in flist.named_children if flist is not None and flist.type in ("list", "tuple") else []:
                if item.type == "tuple" and len(item.named_children) >= 2:
                    fname = string_value(src, item.named_children[0])
                    if fname is not None and item.named_children[1].type == "call":
                        fields.append((fname, item.named_children[1]))
            self.out.tables.append(TableDef("django-migration", table, None, self._django_columns(fields),
                                            src.line(node), src.col(node), model=None if explicit else name))
        elif op == "AddField":
            model = string_value(src, args.get(0, "model_name"))
            fname = string_value(src, args.get(1, "name"))
            field = args.get(2, "field")
            if model is None or fname is None or field is None or field.type != "call":
                return
            cols = self._django_columns([(fname, field)])
            if cols:
                table = f"{label}_{model.lower()}" if label else model.lower()
                self.out.tables.append(TableDef("django-migration", table, None, cols, src.line(node), src.col(node),
                                                alter=True, model=model))

    # -- calls -------------------------------------------------------------------------------------

    def _call(self, node: Node) -> None:
        src = self.src
        func = node.child_by_field_name("function")
        if func is None:
            return
        args = Args.of(src, node.child_by_field_name("arguments"))
        if func.type == "identifier":
            name, receiver = src.text(func), None
        elif func.type == "attribute":
            name = src.text(func.child_by_field_name("attribute"))
            receiver = func.child_by_field_name("object")
        else:
            return
        if self.migration and self.django and name in ("CreateModel", "AddField"):
            self._migration_op(node, name, args)
            return
        if self.alembic and name in ("create_table", "add_column") and receiver is not None and src.text(receiver) == "op":
            self._alembic_op(node, name, args)
            return
        at = func.child_by_field_name("attribute") if func.type == "attribute" else func
        line, col = src.line(at), src.col(at)
        if name in _RAW_SQL and args.positional:
            arg = args.positional[0]
            if arg.type == "call" and compact(src, arg.child_by_field_name("function")).rsplit(".", 1)[-1] == "text":
                inner = Args.of(src, arg.child_by_field_name("arguments"))
                arg = inner.positional[0] if inner.positional else arg
            tpl = template(src, arg)
            if any(k == "lit" for k, _ in tpl.parts) or (len(tpl.parts) == 1 and tpl.parts[0][0] == "ref"):
                self.out.table_uses.append(TableUse("sql", "sql", scope_of(node, src), line, col, sql=tpl))
        if receiver is not None and name in _COLLECTION_STATEMENTS and not args.positional and self.sqlalchemy \
                and not self.django and receiver.type == "attribute" and "session" not in compact(src, receiver).lower():
            owner_expr = receiver.child_by_field_name("object")  # `self.notifications.delete()`: a WriteOnlyMapped's
            if owner_expr is not None and owner_expr.type in ("identifier", "attribute"):
                self.out.table_uses.append(TableUse("sqlalchemy-m2m", "writes", scope_of(node, src), line, col,
                                                    entity=compact(src, owner_expr), resolution="inferred",
                                                    table=src.text(receiver.child_by_field_name("attribute"))))
                return
        if receiver is not None and name in ("save", "delete") and not args.positional:
            rtext = compact(src, receiver)
            scope = scope_of(node, src)
            made = receiver.child_by_field_name("function") if receiver.type == "call" else None
            constructed = made is not None and made.type in ("identifier", "attribute") and _QUERY_OWNER.fullmatch(
                compact(src, made)) is not None and compact(src, made) not in ("self", "cls")
            if constructed:
                rtext = compact(src, made) + "()"  # `Profile(user).save()`: an instance of the class
            if "objects" not in rtext and ("(" not in rtext or constructed):
                if self._in_manager(scope) and self._made_by_model(node, rtext):
                    rtext = "self"  # user = self.model(...); user.save(): the manager's model
                self.out.table_uses.append(TableUse("django", "writes", scope, line, col,
                                                    entity=rtext, resolution="inferred"))
            return
        if receiver is not None and (name in _M2M_WRITES or name in _M2M_READS and not args.positional) \
                and receiver.type == "attribute" and (self.models_user or self.sqlalchemy or self.orm_file) \
                and "session" not in compact(src, receiver).lower() \
                and src.text(receiver.child_by_field_name("attribute")) != "query":  # `M.query.all()`: read above
            owner_expr = receiver.child_by_field_name("object")
            if owner_expr is not None and owner_expr.type in ("identifier", "attribute") and "objects" not in compact(src, receiver):
                self.out.table_uses.append(TableUse(
                    "sqlalchemy-m2m" if self.sqlalchemy or not self.django and b"__tablename__" in src.data else "django-m2m",
                    "writes" if name in _M2M_WRITES else "reads",
                    scope_of(node, src), line, col, entity=compact(src, owner_expr), resolution="inferred",
                    table=src.text(receiver.child_by_field_name("attribute"))))
        rtext = compact(src, receiver) if receiver is not None else ""
        if not self.sqlalchemy and not (rtext == "session" or rtext.endswith(".session")):
            return
        if receiver is not None and name == "query" and "session" in rtext.lower():
            self._entities("reads", args.positional, node, line, col)
        elif receiver is not None and name in _SESSION_GETS and "session" in rtext.lower():
            first = args.get(0, "entity")
            if first is not None and (len(args.positional) > 1 or "ident" in args.keywords) \
                    and first.type in ("identifier", "attribute") and _QUERY_OWNER.fullmatch(compact(src, first)):
                self.out.table_uses.append(TableUse("sqlalchemy", "reads", scope_of(node, src), line, col,
                                                    entity=compact(src, first)))
        elif receiver is not None and name in _SESSION_WRITES and "session" in rtext.lower():
            for arg in args.positional[:1]:
                if name == "add_all":
                    continue
                self.out.table_uses.append(TableUse("sqlalchemy", "writes", scope_of(node, src), line, col,
                                                    entity=compact(src, arg), resolution="inferred"))
        elif name == "select" and self._sqlalchemy_function(receiver, name):
            self._entities("reads", args.positional, node, line, col)
        elif name in _CORE_WRITES and self._sqlalchemy_function(receiver, name) and args.positional:
            self._entities("writes", args.positional[:1], node, line, col)
        elif receiver is not None and name in _CORE_WRITES and not args.positional and receiver.type == "identifier":
            self.out.table_uses.append(TableUse("sqlalchemy", "writes", scope_of(node, src), line, col,
                                                entity=src.text(receiver), resolution="inferred"))

    def _sqlalchemy_function(self, receiver: Node | None, name: str) -> bool:
        """``select`` / ``insert`` / ... imported from SQLAlchemy (``from sqlalchemy import select``) or
        called on the module (``sa.select``)."""
        if receiver is None:
            return name in self.sa_names
        return receiver.type == "identifier" and self.src.text(receiver) in self.sa_modules

    def _column_calls(self, nodes: list[Node]) -> list[tuple[str, Node | None]]:
        """``(name, type argument)`` of each ``Column("c", T, ...)`` / ``sa.Column(...)`` call among
        ``nodes`` (a ``Table(...)`` or ``op.create_table(...)`` call's arguments) whose name is a string
        literal; the type ``None`` when not given."""
        src = self.src
        out: list[tuple[str, Node | None]] = []
        for arg in nodes:
            if arg.type == "call" and compact(src, arg.child_by_field_name("function")).rsplit(".", 1)[-1] == "Column":
                cargs = Args.of(src, arg.child_by_field_name("arguments"))
                cname = string_value(src, cargs.get(0, "name"))
                if cname is not None:
                    out.append((cname, cargs.positional[1] if len(cargs.positional) > 1 else None))
        return out

    def _alembic_op(self, node: Node, op: str, args: Args) -> None:
        """Alembic ``op.create_table("t", sa.Column("c", T), ..., schema=...)`` and
        ``op.add_column("t", sa.Column("c", T))``."""
        src = self.src
        name = string_value(src, args.get(0, "table_name"))
        if name is None:
            return
        cols = [(cname, compact(src, ctype).split("(", 1)[0].rsplit(".", 1)[-1] if ctype is not None else None)
                for cname, ctype in self._column_calls(args.positional[1:])]
        schema = string_value(src, args.keywords.get("schema"))
        self.out.tables.append(TableDef("alembic", name, schema, cols, src.line(node), src.col(node),
                                        alter=op == "add_column"))

    def _entities(self, role: str, nodes: list[Node], at: Node, line: int, col: int) -> None:
        src = self.src
        by_entity: dict[str, list[str]] = {}
        for arg in nodes:
            if arg.type == "identifier":
                by_entity.setdefault(src.text(arg), [])
            elif arg.type == "attribute" and arg.child_by_field_name("object").type == "identifier":
                by_entity.setdefault(src.text(arg.child_by_field_name("object")), []).append(
                    src.text(arg.child_by_field_name("attribute")))
        for entity, cols in by_entity.items():
            self.out.table_uses.append(TableUse("sqlalchemy", role, scope_of(at, src), line, col, entity=entity,
                                                columns=cols))

    def _django_chain(self, node: Node, name: str, receiver: Node, args: Args, line: int, col: int) -> bool:
        """The outermost call ``node`` of a chain on ``X.objects``: a read (filter columns) and / or a
        write (update / create columns) of ``X``'s table, at that call's name."""
        src = self.src
        chain: list[tuple[str, Args]] = [(name, args)]
        r = receiver
        for _ in range(32):
            if r.type == "call":
                f = r.child_by_field_name("function")
                if f is not None and f.type == "identifier" and src.text(f) == "super":
                    break  # super().get_queryset()
                if f is None or f.type != "attribute":
                    return False
                chain.append((src.text(f.child_by_field_name("attribute")), Args.of(src, r.child_by_field_name("arguments"))))
                r = f.child_by_field_name("object")
                continue
            break
        rtext = compact(src, r)
        if rtext in _SELF_ROOTS and self._in_manager(scope_of(node, src)):
            entity = "self"  # a custom manager's own query: the linker maps the manager to its model
        elif r.type == "attribute" and _NAMED_MANAGER.fullmatch(rtext + ".") and self.django \
                and src.text(r.child_by_field_name("attribute")) not in ("objects", "_default_manager") \
                and chain[-1][0] in _MANAGER_METHODS | DJANGO_WRITES:
            entity = rtext  # `Person.people`: the linker keeps it when it is a manager of a model
        elif r.type != "attribute" or src.text(r.child_by_field_name("attribute")) not in ("objects", "_default_manager"):
            return False
        else:
            model = r.child_by_field_name("object")
            if model is None or model.type not in ("identifier", "attribute"):
                return True
            entity = compact(src, model)
        if chain[-1][0] not in _MANAGER_METHODS and entity == "self":
            return False
        writes = any(n in DJANGO_WRITES or n.startswith(_WRITE_PREFIXES) for n, _ in chain)
        read_cols: list[str] = []
        write_cols: list[str] = []
        for n, a in reversed(chain):
            into = write_cols if n in ("update", "create") else read_cols if n in _DJANGO_FILTERS else None
            for k in a.keywords if into is not None else []:
                c = k.split("__", 1)[0]
                if c not in into and c != "defaults":
                    into.append(c)
        scope = scope_of(node, src)
        if writes:
            self.out.table_uses.append(TableUse("django", "writes", scope, line, col, entity=entity, columns=write_cols))
        if not writes or read_cols:  # a filtered write reads the rows it writes
            self.out.table_uses.append(TableUse("django", "reads", scope, line, col, entity=entity, columns=read_cols))
        return True


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's ORM tables to ``out.tables`` and its table accesses to ``out.table_uses``."""
    if out.calls or out.definitions:
        _Detector(root, src, out).run()
