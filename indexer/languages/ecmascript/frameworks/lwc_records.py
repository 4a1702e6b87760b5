"""Lightning Web Components reading Salesforce records through the UI API -> :class:`~indexer.model.TableUse`
(framework ``lwc``, role ``reads``): the sObject is the table, as the Apex detectors name it
(:mod:`indexer.languages.apex.frameworks.sobject_tables`), so ``ripple impact table:Contact`` lists the
components reading Contact beside the Apex code.

``@wire(getRecord, {recordId, fields, optionalFields})`` and ``@wire(getRecords, {records: [{recordIds,
fields}]})``, with the adapter imported from ``lightning/uiRecordApi``, read the objects of the fields
they list: every ``fields`` / ``optionalFields`` value in the configuration (at any depth), an array whose
items are

* a name imported from ``@salesforce/schema/Object.Field`` (``import NAME_FIELD from
  '@salesforce/schema/Contact.Name'``): object ``Contact``, column ``Name``;
* a string ``'Contact.Name'``;

or a module-level ``const`` holding such an array (``const fields = [NAME_FIELD, ...]``, the shorthand
``{ fields }``). A relationship path (``Contact.Account.Name``) reads ``Contact`` with no column (the
column is another object's). Owner: the component class; resolution ``exact``. One use per object and
wire, its columns in source order.

Writes (acc62): ``createRecord(recordInput)`` / ``updateRecord(recordInput)`` imported from
``lightning/uiRecordApi`` write the object the function calling them names while building the record
input: a schema object import's ``X.objectApiName`` (``{ apiName: ACCOUNT_OBJECT.objectApiName, fields }``),
else the objects of the schema field imports whose ``F.fieldApiName`` it writes (``fields[NAME_FIELD.fieldApiName]
= ...``: the columns). One ``writes`` use per object and call, owner the function around it, resolution
``inferred`` (the input is built at run time). Not read: a function naming no schema import (an input handed in
from elsewhere, ``fields[FIELD_API_NAME]`` of a string), ``deleteRecord`` (a record id names no object).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import enclosing_class
from indexer.model import FileExtraction, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "READ_ADAPTERS", "WRITE_ADAPTERS", "detect"]

LANGUAGES = ("javascript", "typescript")
READ_ADAPTERS = frozenset({"getRecord", "getRecords"})
"""The ``lightning/uiRecordApi`` wire adapters that read the records of the fields they are given."""
WRITE_ADAPTERS = frozenset({"createRecord", "updateRecord"})
"""The ``lightning/uiRecordApi`` functions that write a record of the object their input names."""
_FUNCTIONS = frozenset({"method_definition", "function_declaration", "function_expression", "arrow_function",
                        "generator_function_declaration"})
_UI_RECORD_API = "lightning/uiRecordApi"
_SCHEMA = "@salesforce/schema/"
_FIELD_KEYS = frozenset({"fields", "optionalFields"})


def _module_arrays(root: Node, src: SourceText) -> dict[str, Node]:
    """The module-level ``const NAME = [...]`` arrays by name."""
    found: dict[str, Node] = {}
    for stmt in root.named_children:
        decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        if decl is None or decl.type != "lexical_declaration" or not src.text(decl).startswith("const"):
            continue
        for d in decl.named_children:
            name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
            if d.type == "variable_declarator" and name is not None and value is not None and value.type == "array":
                found[src.text(name)] = value
    return found


def _field_refs(src: SourceText, value: Node, schema: dict[str, str], arrays: dict[str, Node]) -> list[str]:
    """The ``Object.Field`` paths a ``fields`` value lists (module docstring)."""
    if value.type in ("identifier", "shorthand_property_identifier") and src.text(value) in arrays:
        value = arrays[src.text(value)]
    if value.type != "array":
        return []
    out: list[str] = []
    for item in value.named_children:
        if item.type == "identifier" and src.text(item) in schema:
            out.append(schema[src.text(item)])
        elif item.type == "string":
            text = src.text(item)[1:-1]
            if "." in text and all(p.replace("_", "a").isalnum() for p in text.split(".")):
                out.append(text)
    return out


def _writes(root: Node, src: SourceText, out: FileExtraction, schema: dict[str, str]) -> None:
    """Append a write per object of each ``createRecord`` / ``updateRecord`` call (module docstring)."""
    writers = {i.local for i in out.imports if i.module == _UI_RECORD_API and i.name in WRITE_ADAPTERS}
    objects = {i.local: i.module[len(_SCHEMA):] for i in out.imports
               if i.module.startswith(_SCHEMA) and "." not in i.module[len(_SCHEMA):]}
    if not writers or not (objects or schema):
        return
    sites = {(c.line, c.col): c for c in out.calls if c.name in writers and c.receiver is None and c.caller}
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        fn = n.child_by_field_name("function") if n.type == "call_expression" else None
        site = sites.get((src.line(fn), src.col(fn))) if fn is not None and fn.type == "identifier" else None
        body = n.parent
        while site is not None and body is not None and body.type not in _FUNCTIONS:
            body = body.parent
        if site is None or body is None:
            continue
        named: list[str] = []
        columns: dict[str, list[str]] = {}
        inner = [body]
        while inner:
            m = inner.pop()
            inner.extend(reversed(m.named_children))
            obj, prop = m.child_by_field_name("object"), m.child_by_field_name("property")
            if m.type != "member_expression" or obj is None or prop is None or obj.type != "identifier":
                continue
            name, key = src.text(obj), src.text(prop)
            if key == "objectApiName" and name in objects and objects[name] not in named:
                named.append(objects[name])
            elif key == "fieldApiName" and name in schema:
                table, _, column = schema[name].partition(".")
                cols = columns.setdefault(table, [])
                if column and "." not in column and column not in cols:
                    cols.append(column)
        for table in named or list(columns):
            out.table_uses.append(TableUse("lwc", "writes", site.caller, site.line, site.col, table=table,
                                           columns=columns.get(table, []), resolution="inferred"))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a read per object of each ``getRecord`` / ``getRecords`` wire and a write per object of each
    ``createRecord`` / ``updateRecord`` call (module docstring)."""
    schema = {i.local: i.module[len(_SCHEMA):] for i in out.imports
              if i.module.startswith(_SCHEMA) and "." in i.module[len(_SCHEMA):]}
    _writes(root, src, out, schema)
    adapters = {i.local for i in out.imports if i.module == _UI_RECORD_API and i.name in READ_ADAPTERS}
    if not adapters:
        return
    arrays = _module_arrays(root, src)
    classes = {d.qualname for d in out.definitions if d.kind == "class"}
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type != "decorator":
            stack.extend(n.named_children)
            continue
        call = next((c for c in n.named_children if c.type == "call_expression"), None)
        fn = call.child_by_field_name("function") if call is not None else None
        args = call.child_by_field_name("arguments") if call is not None else None
        if fn is None or src.text(fn) != "wire" or args is None or len(args.named_children) < 2 \
                or args.named_children[0].type != "identifier" or src.text(args.named_children[0]) not in adapters:
            continue
        owner = enclosing_class(n, src)
        if owner not in classes:
            continue
        paths: list[str] = []
        inner = [args.named_children[1]]
        while inner:
            m = inner.pop()
            if m.type == "pair":
                key, value = m.child_by_field_name("key"), m.child_by_field_name("value")
                if key is not None and value is not None and src.text(key).strip("'\"") in _FIELD_KEYS:
                    paths += _field_refs(src, value, schema, arrays)
                    continue
            elif m.type == "shorthand_property_identifier" and src.text(m) in _FIELD_KEYS:
                paths += _field_refs(src, m, schema, arrays)
                continue
            inner.extend(reversed(m.named_children))
        adapter = args.named_children[0]
        columns: dict[str, list[str]] = {}
        for path in paths:
            obj, _, column = path.partition(".")
            cols = columns.setdefault(obj, [])
            if column and "." not in column and column not in cols:
                cols.append(column)
        for obj, cols in columns.items():
            out.table_uses.append(TableUse("lwc", "reads", owner, src.line(adapter), src.col(adapter), table=obj,
                                           columns=cols))
