"""Mongoose models and queries -> :class:`~indexer.model.TableDef` / :class:`~indexer.model.TableUse`
(framework ``mongoose``): a MongoDB collection is the table of the MERN application's data layer.

Collections (in a file importing ``mongoose``): a module-level ``const Product = mongoose.model("Product",
productSchema)`` (also ``model(...)`` imported from ``mongoose``) maps the name ``Product`` to the collection
the third argument names, else the schema's ``collection`` option, else Mongoose's default, the model name lower
cased and pluralised (``Product`` -> ``products``, ``Category`` -> ``categories``: ``utils.toCollectionName``
with the regular English rules, :func:`~indexer.languages.ecmascript.frameworks.sequelize.pluralize`). Its
columns are the top-level keys of the schema's definition when the schema is a module-level ``const s =
new mongoose.Schema({...}, options)`` (or ``mongoose.Schema(...)`` / ``Schema(...)``) of the same file.

Accesses (any file): a call of a Mongoose ``Model`` query method (:data:`MONGOOSE_ROLES`) on a receiver named
with a capital that is a model of the file or a name imported from the application's own modules (``./``,
``../``, ``@/``, ``~/``: ``Product.find({ user })``, ``Order.findById(id).populate(...)``; not ``Object.create``)
reads or writes the model's collection; ``doc.save()`` / ``doc.deleteOne()`` writes the collection of the model
the name was given by (``const doc = new Order({...})``, ``const doc = await Product.findById(id)``). The linker
keeps a use only when the model resolves to a mapped one; any other receiver (``items.find(...)`` of an array, a
document of unknown origin) links nothing. Columns: the keys of the filter (read) and of the values written
(``create``, ``updateOne``'s update, ...). ``resolution``: ``exact`` for a model name, ``inferred`` for an instance.
Source: Mongoose's API reference (``Model``, ``mongoose.model``, ``Schema`` option ``collection``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.languages.ecmascript.frameworks.sequelize import pluralize
from indexer.model import FileExtraction, TableDef, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "MONGOOSE_ROLES", "detect"]

LANGUAGES = ("typescript", "javascript")
FRAMEWORK = "mongoose"
MONGOOSE_ROLES = {
    **dict.fromkeys(("find", "findOne", "findById", "countDocuments", "estimatedDocumentCount", "exists", "distinct",
                     "aggregate", "where"), "reads"),
    **dict.fromkeys(("create", "insertMany", "updateOne", "updateMany", "replaceOne", "deleteOne", "deleteMany",
                     "findByIdAndUpdate", "findOneAndUpdate", "findByIdAndDelete", "findOneAndDelete",
                     "findOneAndReplace", "findByIdAndRemove", "findOneAndRemove", "bulkWrite", "save"), "writes"),
}
"""Mongoose ``Model`` static query methods (and the document's ``save`` / ``deleteOne``) and whether they read or
write the model's collection."""
_INSTANCE = frozenset({"save", "deleteOne"})
"""Methods a document (an instance, any name) runs on its own collection."""
_FILTER_FIRST = frozenset({"find", "findOne", "countDocuments", "exists", "updateOne", "updateMany", "replaceOne",
                           "deleteOne", "deleteMany", "findOneAndUpdate", "findOneAndDelete", "findOneAndReplace",
                           "findOneAndRemove"})
_VALUES = {"create": 0, "insertMany": 0, "updateOne": 1, "updateMany": 1, "findOneAndUpdate": 1,
           "findByIdAndUpdate": 1, "replaceOne": 1, "findOneAndReplace": 1}
_MODULES = ("mongoose",)
_KEY = re.compile(r"^[A-Za-z_]\w*$")
_CAPITAL = re.compile(r"^[A-Z][\w$]*$")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Mongoose models to ``out.tables`` and its model queries to ``out.table_uses``."""
    if not out.calls:
        return
    jf = js_file(root, src, out)
    imported = jf.import_locals(*_MODULES)
    models = _models(jf, out, imported) if imported else set()
    # a model is a name of this file's models or one imported from the application's own modules (not
    # `Object.create`, `Promise.all`, a library's class)
    models |= {i.local for i in out.imports if i.module.startswith((".", "@/", "~/")) and _CAPITAL.match(i.local)}
    if not models:
        return
    for c in out.calls:
        role = MONGOOSE_ROLES.get(c.name)
        if role is None or c.receiver is None or c.name == "save" and c.receiver[:1].isupper():
            continue
        instance = not _CAPITAL.match(c.receiver)
        if not instance and c.receiver not in models:
            continue
        if instance and c.name not in _INSTANCE:
            continue
        node = _call_at(jf, root, c.line, c.col)
        if node is None:
            continue
        args = arguments(node.child_by_field_name("arguments"))
        entity = c.receiver
        if instance:  # `const order = new Order({...})`, `const p = await Product.findById(id)`: that model's
            model = _model_of(jf, node)
            if model not in models:
                continue
            entity = model
        columns: list[str] = []
        if not instance:
            if c.name in _FILTER_FIRST and args and role == "reads":
                columns = _keys(jf, args[0])
            elif c.name in _VALUES and len(args) > _VALUES[c.name]:
                columns = _keys(jf, args[_VALUES[c.name]])
        out.table_uses.append(TableUse(FRAMEWORK, role, c.caller, c.line, c.col, entity=entity,
                                       columns=list(dict.fromkeys(columns)),
                                       resolution="inferred" if instance else "exact"))


def _models(jf: JsFile, out: FileExtraction, imported: dict[str, str | None]) -> set[str]:
    """The module-level ``const X = mongoose.model("Name", schema, collection?)`` of the file (appended to
    ``out.tables``); returns their names."""
    found: set[str] = set()
    namespace = {k for k, v in imported.items() if v in (None, "default")}
    model_fns = {k for k, v in imported.items() if v == "model"}
    schemas: dict[str, tuple[list[str], str | None]] = {}
    declarators: list[Node] = []
    for statement in jf.root.named_children:
        s = statement.child_by_field_name("declaration") if statement.type == "export_statement" else statement
        if s is not None and s.type in ("lexical_declaration", "variable_declaration"):
            declarators += [d for d in s.named_children if d.type == "variable_declarator"]
    for d in declarators:
        name, value = d.child_by_field_name("name"), unwrap(d.child_by_field_name("value"))
        if name is None or value is None or name.type != "identifier":
            continue
        if value.type == "new_expression":
            ctor = value.child_by_field_name("constructor")
            args = arguments(value.child_by_field_name("arguments"))
            callee = jf.text(ctor) if ctor is not None else ""
        elif value.type == "call_expression":
            callee = jf.text(value.child_by_field_name("function"))
            args = arguments(value.child_by_field_name("arguments"))
        else:
            continue
        head, _, last = callee.rpartition(".")
        if last == "Schema" and (head in namespace or head == "" and "Schema" in imported or
                                 head.endswith("mongoose")):
            options = jf.object_pairs(args[1]) if len(args) > 1 else {}
            schemas[jf.text(name)] = (_keys(jf, args[0]) if args else [], jf.string(options.get("collection")))
            continue
        if not (last == "model" and head in namespace or not head and last in model_fns) or len(args) < 2:
            continue
        model = jf.string(args[0])
        if model is None:
            continue
        schema = schemas.get(jf.text(args[1]), ([], None))
        collection = (jf.string(args[2]) if len(args) > 2 else None) or schema[1] or pluralize(model.lower())
        line, col = jf.pos(name)
        out.tables.append(TableDef(FRAMEWORK, collection, None, [(c, None) for c in schema[0]], line, col,
                                   entity=jf.text(name)))
        found.add(jf.text(name))
    return found


def _model_of(jf: JsFile, call: Node) -> str | None:
    """The model a document's name holds, by the local value it was given: ``new Order({...})``, or a query of
    a model (``await Product.findById(id)``, ``await User.findOne({ email }).select(...)``): ``Order`` /
    ``Product`` / ``User``; ``None`` when not known."""
    fn = call.child_by_field_name("function")
    obj = fn.child_by_field_name("object") if fn is not None else None
    if obj is None or obj.type != "identifier":
        return None
    value = unwrap(jf.local_value(obj))
    if value is not None and value.type == "await_expression" and value.named_children:
        value = unwrap(value.named_children[0])
    for _ in range(8):
        if value is None:
            return None
        if value.type == "new_expression":
            ctor = value.child_by_field_name("constructor")
            name = jf.text(ctor) if ctor is not None else ""
            return name if _CAPITAL.match(name) else None
        if value.type != "call_expression":
            return None
        callee = value.child_by_field_name("function")
        if callee is None or callee.type != "member_expression":
            return None
        inner = callee.child_by_field_name("object")
        if inner is not None and inner.type == "identifier":
            name = jf.text(inner)
            return name if _CAPITAL.match(name) and jf.text(callee.child_by_field_name("property")) in MONGOOSE_ROLES \
                else None
        value = unwrap(inner)
    return None


def _keys(jf: JsFile, node: Node | None) -> list[str]:
    return [k for k in jf.object_pairs(node) if _KEY.match(k)]


def _call_at(jf: JsFile, root: Node, line: int, col: int) -> Node | None:
    """The call whose callee's property name starts at (line, col)."""
    n = jf.src.node_at(root, line, col)
    p = n.parent if n is not None else None
    if p is None or p.type != "member_expression" or p.child_by_field_name("property") != n:
        return None
    q = p.parent
    return q if q is not None and q.type == "call_expression" and q.child_by_field_name("function") == p else None
