"""Sequelize models and queries -> :class:`~indexer.model.TableDef` / :class:`~indexer.model.TableUse`
(framework ``sequelize``).

Tables (in a file importing ``sequelize`` or ``sequelize-typescript``):

* a sequelize-typescript class decorated ``@Table`` / ``@Table({ tableName: "stars" })`` maps to
  ``tableName``; without it to Sequelize's default (``Model.init``): the model name (``modelName``,
  else the class name) kept as is under ``freezeTableName: true``, else pluralised (``Star`` ->
  ``Stars``; the rules of the ``inflection`` package Sequelize uses, for regular English nouns),
  snake case under ``underscored: true``; ``schema`` its schema. Its columns are its fields decorated
  ``@Column`` (named by a ``field: "x"`` option, else the property name; the type
  ``@Column(DataType.UUID)`` -> ``UUID``, else the declared type), ``@CreatedAt``, ``@UpdatedAt``,
  ``@DeletedAt``. A class with such fields and no ``@Table`` (a base model, ``class IdModel extends
  Model``) is ``abstract``: its columns are its subclasses'.
* ``class User extends Model {}; User.init({ ...attributes }, { sequelize, tableName: "users" })`` and
  ``const User = sequelize.define("user", { ...attributes }, { tableName })`` at module level: the
  same naming, the attribute keys as columns (``field`` of an attribute object renames it). A
  ``define`` elsewhere (a model definer, ``module.exports = (sequelize) => { sequelize.define("user",
  ...) }``) maps the model name, which Sequelize's registry ``sequelize.models.user`` gives.

Accesses (any file): a call of a Sequelize ``Model`` query method on a receiver that is a name, a
property chain, ``this`` or ``super`` (``Star.findAll({ where })``, ``Document.scope("x").findOne()``,
``user.save()``, ``this.reload()``): :data:`SEQUELIZE_ROLES` says whether it reads or writes; a read's
``include`` (``include: [Instrument, { model: Orchestra, include: [...] }]``) reads those models too. The
entity is the receiver (``scope()`` / ``unscoped()`` / ``schema()`` calls looked through; ``super`` is
``this``), resolved by the linker to a mapped class or an instance of one; a receiver that is neither
links nothing, silently (``list.update()`` is no query). A receiver read from a model registry,
``sequelize.models.user`` / ``models.user`` / ``db.User`` (sequelize-cli's ``models/index.js``), goes by
the model's name when it resolves to no class (the linker's ``registry`` rule). Columns: the keys of ``where`` (read), of the
values of ``create`` / ``update`` / ``upsert`` / ``bulkCreate`` (written). ``resolution``: ``exact`` for a
class name (``Star.findAll``), ``inferred`` for an instance or ``this``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.model import Definition, FileExtraction, TableDef, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "SEQUELIZE_ROLES", "pluralize"]

LANGUAGES = ("typescript", "javascript")
FRAMEWORK = "sequelize"
SEQUELIZE_ROLES = {
    **dict.fromkeys(("findAll", "findOne", "findByPk", "findAndCountAll", "count", "max", "min", "sum", "aggregate",
                     "findOrBuild", "reload"), "reads"),
    **dict.fromkeys(("create", "bulkCreate", "update", "destroy", "upsert", "increment", "decrement", "restore",
                     "truncate", "findOrCreate", "findCreateFind", "save"), "writes"),
}
"""Sequelize ``Model`` static and instance query methods and whether they read or write the model's table
(``findOrCreate`` both)."""
_ALSO_READS = frozenset({"findOrCreate", "findCreateFind", "update", "destroy"})
"""Writes that read the rows they match first (a ``where`` option): their ``where`` columns are read."""
_VALUES_FIRST = frozenset({"create", "bulkCreate", "update", "upsert", "findOrCreate"})
_LOOK_THROUGH = frozenset({"scope", "unscoped", "schema"})
"""``Model`` methods returning the model itself (a scoped or schema-bound copy): a query on their
result is a query of the model."""
_MODULES = ("sequelize", "sequelize-typescript")
_COLUMN_DECORATORS = frozenset({"Column", "CreatedAt", "UpdatedAt", "DeletedAt"})
_OPTION = re.compile(r"""\b(tableName|modelName|schema|field)\s*:\s*["'`]([^"'`]+)["'`]""")
_FLAG = re.compile(r"""\b(freezeTableName|underscored)\s*:\s*true\b""")
_DATA_TYPE = re.compile(r"^\s*DataTypes?\.(\w+)")
_KEY = re.compile(r"^\w+$")


def pluralize(word: str) -> str:
    """The plural of an English noun ``word`` by the regular rules of the ``inflection`` package
    (which Sequelize's ``Utils.pluralize`` calls): ``-y`` after a consonant -> ``-ies``; ``-s``, ``-x``,
    ``-z``, ``-ch``, ``-sh`` -> ``-es``; ``-person`` -> ``-people``; otherwise ``-s``. Irregular nouns
    beyond ``person`` keep the regular rule."""
    low = word.lower()
    if low.endswith("person"):
        return word[:-4] + "ople"
    if len(low) > 1 and low.endswith("y") and low[-2] not in "aeiou":
        return word[:-1] + "ies"
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def _options(text: str) -> tuple[dict[str, str], set[str]]:
    return {m.group(1): m.group(2) for m in _OPTION.finditer(text)}, {m.group(1) for m in _FLAG.finditer(text)}


def _table_name(model: str, options: dict[str, str], flags: set[str]) -> str:
    """``tableName``, else Sequelize's default for ``model`` (see the module's docstring)."""
    if "tableName" in options:
        return options["tableName"]
    name = options.get("modelName") or model
    if "freezeTableName" not in flags:
        name = pluralize(name)
    return _snake(name) if "underscored" in flags else name


def _head(decorator: str) -> tuple[str, str]:
    head, _, args = decorator.partition("(")
    return head.strip().rsplit(".", 1)[-1], args.rsplit(")", 1)[0]


class _Detector:
    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.jf: JsFile = js_file(root, src, out)
        self.root, self.src, self.out = root, src, out
        self.models_file = bool(self.jf.import_locals(*_MODULES))

    def run(self) -> None:
        if self.models_file:
            self._decorated()
        classes = {d.qualname for d in self.out.definitions if d.kind == "class" and d.parent is None}
        for c in self.out.calls:
            if c.receiver is None:
                continue
            if c.name in SEQUELIZE_ROLES:
                node = self._call_at(c.line, c.col)
                if node is not None:
                    self._query(node, c.name, c.caller, c.line, c.col)
            elif self.models_file and (c.name == "define" or (c.name == "init" and c.caller is None)):
                node = self._call_at(c.line, c.col)
                if node is not None:
                    self._initialised(node, c.name, c.receiver, classes, c.line, c.col)

    # -- tables ------------------------------------------------------------------------------------

    def _columns(self, fields: list[Definition]) -> list[tuple[str, str | None]]:
        """The columns of a class whose fields are ``fields`` (those decorated ``@Column`` ...)."""
        cols: list[tuple[str, str | None]] = []
        for f in fields:
            decos = dict(_head(x) for x in f.decorators)
            kind = next((h for h in decos if h in _COLUMN_DECORATORS), None)
            if kind is None:
                continue
            opts, _ = _options(decos[kind])
            typed = _DATA_TYPE.match(decos[kind])
            cols.append((opts.get("field") or f.name, typed.group(1) if typed else f.field_type))
        return cols

    def _decorated(self) -> None:
        """sequelize-typescript models (``@Table``) and base classes declaring columns. The fields are
        grouped by class once (each class scanned every definition of the file: 4,000 models in one
        file, quadratic; brk52)."""
        fields: dict[str | None, list[Definition]] = {}
        for f in self.out.definitions:
            if f.kind == "field":
                fields.setdefault(f.parent, []).append(f)
        for d in self.out.definitions:
            if d.kind != "class":
                continue
            table = next((args for head, args in map(_head, d.decorators) if head == "Table"), None)
            cols = self._columns(fields.get(d.qualname, []))
            if table is None:
                if cols:
                    self.out.tables.append(TableDef(FRAMEWORK, "", None, cols, d.name_line, d.name_col,
                                                    entity=d.qualname, kind="abstract"))
                continue
            opts, flags = _options(table)
            self.out.tables.append(TableDef(FRAMEWORK, _table_name(d.name, opts, flags), opts.get("schema"), cols,
                                            d.name_line, d.name_col, entity=d.qualname))

    def _initialised(self, node: Node, name: str, receiver: str, classes: set[str], line: int, col: int) -> None:
        """``Model.init(attributes, options)`` of a class of this file; ``const M = x.define("m", attributes,
        options)``."""
        args = arguments(node.child_by_field_name("arguments"))
        if name == "init":
            if receiver not in classes or not args:
                return
            entity, model, attrs, opts = receiver, receiver, args[0], args[1] if len(args) > 1 else None
        else:
            model_name = self.jf.string(args[0]) if len(args) >= 2 else None
            if model_name is None:
                return
            p = node.parent
            target = p.child_by_field_name("name") if p is not None and p.type == "variable_declarator" else None
            if target is not None and target.type == "identifier" and p.parent is not None \
                    and p.parent.parent is not None and p.parent.parent.type == "program":
                entity = self.jf.text(target)  # `const User = sequelize.define("user", ...)`
            else:  # a definer function's `sequelize.define("user", ...)`: the model registry's name
                entity = model_name
            model, attrs, opts = model_name, args[1], args[2] if len(args) > 2 else None
        pairs = self.jf.object_pairs(attrs)
        if not pairs:
            return
        cols: list[tuple[str, str | None]] = []
        for key, value in pairs.items():
            spec = self.jf.text(value)
            field = self.jf.string(self.jf.object_pairs(value).get("field")) if value.type == "object" else None
            typed = _DATA_TYPE.match(spec) or _DATA_TYPE.match(self.jf.text(self.jf.object_pairs(value).get("type")))
            cols.append((field or key, typed.group(1) if typed else None))
        options, flags = _options(self.jf.text(opts)) if opts is not None else ({}, set())
        self.out.tables.append(TableDef(FRAMEWORK, _table_name(model, options, flags), options.get("schema"), cols,
                                        line, col, entity=entity))

    # -- accesses ----------------------------------------------------------------------------------

    def _call_at(self, line: int, col: int) -> Node | None:
        """The call whose callee's property name starts at (line, col)."""
        n = self.src.node_at(self.root, line, col)
        p = n.parent if n is not None else None
        if p is None or p.type != "member_expression" or p.child_by_field_name("property") != n:
            return None
        q = p.parent
        return q if q is not None and q.type == "call_expression" and q.child_by_field_name("function") == p else None

    def _entity(self, obj: Node | None) -> str | None:
        """The model expression a query's receiver names, ``scope()`` / ``unscoped()`` / ``schema()``
        looked through; ``None`` for any other expression."""
        for _ in range(8):
            obj = unwrap(obj)
            if obj is None:
                return None
            if obj.type == "call_expression":
                fn = obj.child_by_field_name("function")
                if fn is None or fn.type != "member_expression" or \
                        self.jf.text(fn.child_by_field_name("property")) not in _LOOK_THROUGH:
                    return None
                obj = fn.child_by_field_name("object")
                continue
            if obj.type == "super":
                return "this"
            if obj.type in ("identifier", "this", "member_expression"):
                text = self.jf.receiver(obj)
                return text if re.fullmatch(r"[\w$.]+", text) else None
            return None
        return None

    def _keys(self, node: Node | None) -> list[str]:
        return [k for k in self.jf.object_pairs(node) if _KEY.match(k)]

    def _query(self, node: Node, name: str, owner: str | None, line: int, col: int) -> None:
        fn = node.child_by_field_name("function")
        entity = self._entity(fn.child_by_field_name("object") if fn is not None else None)
        if entity is None:
            return
        args = arguments(node.child_by_field_name("arguments"))
        role = SEQUELIZE_ROLES[name]
        resolution = "exact" if entity[:1].isupper() and "." not in entity else "inferred"
        where_at = 1 if name in _VALUES_FIRST or name in ("increment", "decrement") else 0
        options = args[where_at] if len(args) > where_at else None
        if name == "findOrCreate":  # findOrCreate({ where, defaults })
            options = args[0] if args else None
        where = self._keys(self.jf.object_pairs(options).get("where"))
        if role == "writes":
            values = args[0] if args and name in _VALUES_FIRST else None
            if values is not None and values.type == "array":  # bulkCreate([{...}, ...])
                values = unwrap(values.named_children[0]) if values.named_children else None
            written = self._keys(self.jf.object_pairs(values).get("defaults")) if name == "findOrCreate" \
                else self._keys(values)
            self._use(role, owner, line, col, entity, written, resolution)
            if name in _ALSO_READS and (where or name.startswith("find")):
                self._use("reads", owner, line, col, entity, where, resolution)
        else:
            self._use(role, owner, line, col, entity, where, resolution)
            for included in self._included(self.jf.object_pairs(options).get("include"), 0):
                self._use("reads", owner, line, col, included, [], "inferred")

    def _included(self, node: Node | None, depth: int) -> list[str]:
        """The models a read's ``include`` option eager-loads (Sequelize joins their tables): ``include:
        Instrument``, ``include: [A, { model: B, include: [C] }]``, nested at most three deep; an
        association name (``include: "author"``, ``{ association: ... }``) names no model here."""
        node = unwrap(node)
        if node is None or depth > 2:
            return []
        items = node.named_children if node.type == "array" else [node]
        out: list[str] = []
        for item in (unwrap(i) for i in items):
            if item is None:
                continue
            if item.type == "object":
                pairs = self.jf.object_pairs(item)
                model = self._entity(pairs.get("model")) if "model" in pairs else None
                out += ([model] if model else []) + self._included(pairs.get("include"), depth + 1)
            elif item.type in ("identifier", "member_expression"):
                model = self._entity(item)
                out += [model] if model else []
        return out

    def _use(self, role: str, owner: str | None, line: int, col: int, entity: str, columns: list[str],
             resolution: str) -> None:
        self.out.table_uses.append(TableUse(FRAMEWORK, role, owner, line, col, entity=entity,
                                            columns=list(dict.fromkeys(columns)), resolution=resolution))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Sequelize models to ``out.tables`` and its model queries to ``out.table_uses``."""
    if out.calls or out.definitions:
        _Detector(root, src, out).run()
