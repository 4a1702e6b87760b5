"""Entity Framework Core (framework ``efcore``) -> :class:`~indexer.model.TableDef` and
:class:`~indexer.model.TableUse`.

Tables (in EF Core's order of precedence, the linker applies it: :mod:`indexer.frameworks.tables`):

* ``[Table("orders")]`` / ``[Table("orders", Schema = "ordering")]`` on an entity class declares its
  table (kind ``table``, the class of this file);
* ``ToTable("orders"[, "schema"])`` on an ``EntityTypeBuilder<Order>`` parameter (an
  ``IEntityTypeConfiguration<Order>.Configure``) or on ``modelBuilder.Entity<Order>()`` maps the type
  ``Order`` (kind ``mapped``: the type text, resolved by the linker from this file);
* a ``DbSet<Order> Orders`` property of a ``DbContext`` names the table of an entity nothing else maps
  ``Orders`` (kind ``default``).

Accesses: a call on a ``DbSet`` property read through an instance (``_context.Orders.Where(...)``,
``db.Orders.FindAsync(id)``, ``Orders.Add(o)`` in the context itself) is a ``reads`` use, or a
``writes`` one for the change-tracking writes and bulk statements (:data:`WRITES`: ``Add``,
``Remove``, ``Update``, ``ExecuteDeleteAsync``...); the row is written when ``SaveChanges`` runs,
which is not followed: the method that adds, removes or updates is the writer. The linker keeps
the uses whose receiver is such a property (``receiver`` ``_context.Orders``: the instance's class
declares ``Orders`` as ``DbSet<...>``); other LINQ calls (on a ``List``) link nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.csharp.frameworks.common import attribute_args, attribute_name
from indexer.model import Definition, FileExtraction, TableDef, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "READS", "REPOSITORY_TYPE", "WRITES", "detect"]

LANGUAGES = ("csharp",)
_FRAMEWORK = "efcore"
WRITES = frozenset({
    "Add", "AddAsync", "AddRange", "AddRangeAsync", "Remove", "RemoveRange", "Update", "UpdateRange", "Attach",
    "AttachRange", "ExecuteDelete", "ExecuteDeleteAsync", "ExecuteUpdate", "ExecuteUpdateAsync",
})
"""``DbSet`` methods that write rows (when the context saves, or at once for the bulk ones)."""
READS = frozenset({
    "Where", "Find", "FindAsync", "First", "FirstAsync", "FirstOrDefault", "FirstOrDefaultAsync", "Single",
    "SingleAsync", "SingleOrDefault", "SingleOrDefaultAsync", "Last", "LastAsync", "LastOrDefault",
    "LastOrDefaultAsync", "Any", "AnyAsync", "All", "AllAsync", "Count", "CountAsync", "LongCount",
    "LongCountAsync", "ToList", "ToListAsync", "ToArray", "ToArrayAsync", "ToDictionary", "ToDictionaryAsync",
    "ToHashSet", "ToHashSetAsync", "Include", "AsNoTracking", "AsNoTrackingWithIdentityResolution", "AsTracking",
    "AsQueryable", "AsEnumerable", "AsAsyncEnumerable", "AsSplitQuery", "OrderBy", "OrderByDescending", "Select",
    "SelectMany", "Sum", "SumAsync", "Max", "MaxAsync", "Min", "MinAsync", "Average", "AverageAsync", "GroupBy",
    "Skip", "Take", "Join", "Distinct", "FromSql", "FromSqlRaw", "FromSqlInterpolated", "IgnoreQueryFilters",
    "ForEachAsync", "Contains", "ContainsAsync", "ElementAt", "ElementAtOrDefault", "TagWith", "Load", "LoadAsync",
})
"""``DbSet`` (LINQ / EF Core query) methods that read rows."""
_TO_TABLE = re.compile(rb'\b(\w+)\s*\.\s*ToTable\s*\(\s*"([^"]+)"(?:\s*,\s*"([^"]+)")?')
_ENTITY_TO_TABLE = re.compile(rb'\bEntity\s*<\s*([\w.]+)\s*>\s*\(\s*\)\s*\.\s*ToTable\s*\(\s*"([^"]+)"(?:\s*,\s*"([^"]+)")?')
_BUILDER_PARAM = re.compile(r"\bEntityTypeBuilder\s*<\s*([\w.]+)\s*>\s+(\w+)")
_DBSET = re.compile(r"^DbSet<([\w.]+)>$")
_SCHEMA = re.compile(r'\bSchema\s*=\s*"([^"]+)"')
REPOSITORY_TYPE = re.compile(r"\bI?\w*Repository(?:Base)?\s*<\s*([\w.]+)(?:\s*,\s*[\w.]+)*\s*>\s+(\w+)")
"""A field or property declared with the type of a generic repository of an entity, in its declaration text (the generic repository pattern: Ardalis.Specification's
``IRepositoryBase<T>``, eShopOnWeb's ``IRepository<Order>`` / ``IReadRepository<Basket>`` / ``EfRepository<T>``, an
application's ``IGenericRepository<Order, int>``): group 1 the entity's type text (its first type argument), group
2 the field's name."""
_REPOSITORY_WRITES = re.compile(r"^(?:Add|Insert|Update|Delete|Remove|Upsert|Create|Save(?!Changes))\w*$")
_REPOSITORY_READS = re.compile(r"^(?:Get|List|Find|First|Single|Last|Count|Any|Exists|Search|Query|Read|Load|All"
                               r"|AsAsyncEnumerable|Page)\w*$")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's EF Core table declarations and ``DbSet`` accesses to ``out``."""
    data = src.data
    for d in out.definitions:
        if d.kind == "class":
            for a in d.decorators:
                name = attribute_args(a) if attribute_name(a) == "Table" else None
                if name:
                    schema = _SCHEMA.search(a)
                    out.tables.append(TableDef(_FRAMEWORK, name, schema.group(1) if schema else None, [],
                                               d.start_line, d.start_col, entity=d.qualname))
        elif d.kind == "field" and d.field_type and d.parent is not None:
            m = _DBSET.match(d.field_type)
            if m is not None:
                out.tables.append(TableDef(_FRAMEWORK, d.name, None, [], d.name_line, d.name_col, entity=m.group(1),
                                           kind="default"))
    if b"ToTable" in data:
        builders = {m.group(2): m.group(1) for d in out.definitions if d.kind == "method"
                    for m in _BUILDER_PARAM.finditer(d.signature)}
        for m in _ENTITY_TO_TABLE.finditer(data):
            _mapped(out, src, m.start(), m.group(1).decode(), m.group(2), m.group(3))
        for m in _TO_TABLE.finditer(data):
            entity = builders.get(m.group(1).decode())
            if entity is not None:
                _mapped(out, src, m.start(), entity, m.group(2), m.group(3))
    _accesses(out)


def _mapped(out: FileExtraction, src: SourceText, at: int, entity: str, name: bytes, schema: bytes | None) -> None:
    line = src.data.count(b"\n", 0, at) + 1
    out.tables.append(TableDef(_FRAMEWORK, name.decode(), schema.decode() if schema else None, [], line, 0,
                               entity=entity, kind="mapped"))


def _accesses(out: FileExtraction) -> None:
    """A ``reads`` / ``writes`` use for each call of a query or write method on a dotted receiver
    without calls (``_context.Orders``, ``Orders``): the linker keeps those on a ``DbSet`` property. On a
    field or property of this file declared as a generic repository of an entity (:data:`REPOSITORY_TYPE`:
    ``IRepository<Order> _orderRepository``), or a parameter of the calling method or of its class's primary
    constructor (``class GetCartHandler(IReadRepository<Cart> repository)``), the method's verb gives the role (:data:`_REPOSITORY_WRITES`,
    :data:`_REPOSITORY_READS`: ``AddAsync``, ``UpdateAsync``, ``DeleteAsync`` write; ``GetByIdAsync``,
    ``ListAsync``, ``FirstOrDefaultAsync``, ``CountAsync`` read; ``SaveChangesAsync`` and other names
    nothing) and the use names the type argument as its ``entity``, which the linker resolves in this file
    to the class's table (unlinked when it maps to none)."""
    repositories: dict[str, str] = {}  # field or property name -> the entity's type text
    for d in out.definitions:
        if d.kind in ("field", "property") and d.signature and "Repositor" in d.signature:
            m = REPOSITORY_TYPE.search(d.signature)
            if m is not None and m.group(2) == d.name:
                repositories[d.name] = m.group(1)
    declared = {d.qualname: d for d in out.definitions if d.kind in ("class", "record", "struct", "method", "constructor")
                and d.signature and "Repositor" in d.signature}
    for c in out.calls:
        held = c.receiver.removeprefix("this.") if c.receiver else ""
        entity = repositories.get(held) or _parameter_repository(declared, c.caller, held) if held else None
        if entity is not None:
            role = "writes" if _REPOSITORY_WRITES.match(c.name) else "reads" if _REPOSITORY_READS.match(c.name) \
                else None
            if role is not None:  # the entity's table, resolved in this file
                out.table_uses.append(TableUse(_FRAMEWORK, role, c.caller, c.line, c.col, entity=entity,
                                               resolution="inferred"))
            continue
        role = "writes" if c.name in WRITES else "reads" if c.name in READS else None
        if role is None or not c.receiver or "(" in c.receiver or "[" in c.receiver:
            continue
        out.table_uses.append(TableUse(_FRAMEWORK, role, c.caller, c.line, c.col, receiver=c.receiver,
                                       resolution="inferred"))


def _parameter_repository(declared: dict[str, Definition], caller: str | None, name: str) -> str | None:
    """The entity of the generic repository parameter ``name`` of the method ``caller`` or of a class (primary
    constructor) around it, innermost first, from their declaration texts; ``None`` when none declares one."""
    scope = caller
    while scope:
        d = declared.get(scope)
        if d is not None:
            for m in REPOSITORY_TYPE.finditer(d.signature):
                if m.group(2) == name:
                    return m.group(1)
        scope = scope.rpartition(".")[0]
    return None
