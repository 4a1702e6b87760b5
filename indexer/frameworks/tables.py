"""The data layer of the linker: ``Table`` / ``Column`` nodes and the ``DECLARES``, ``HAS_COLUMN``,
``READS`` and ``WRITES`` edges, from the :class:`~indexer.model.TableDef` and
:class:`~indexer.model.TableUse` facts every file reports (SQL scripts, ORM models, repositories,
raw SQL).

**Identity.** A table is one node per repository, schema and lowercased name, however many sources
declare it (a Flyway script, a JPA entity, a Django migration): id ``table:<repo>:<schema>.<name>``
(:func:`table_id`; :func:`indexer.frameworks.sql_text.table_key` folds quotes, case and the default
schemas ``public`` / ``dbo`` / ``main``). A column is ``column:<repo>:<schema>.<table>.<column>``. Both
are shared nodes (:data:`stores.contracts.SHARED_LABELS`): each declaring file emits them and owns
its ``DECLARES`` (the entity class, or the File of a SQL / Prisma / migration script -> Table) and
``HAS_COLUMN`` (Table -> Column) edges; a table only code names (raw SQL on a table no source
declares) is a node too, with ``props["declared"] = False``.

**Entities.** A class maps to a table through its own ``table`` definition; a ``proxy`` (Django) or
a class without one maps through the nearest ancestor (MRO) that has one; ``abstract`` definitions
(a JPA ``@MappedSuperclass``, a Django abstract model) give their columns to every table below them;
a Django ``candidate`` is a table when an ancestor is a model, or when the file's language says its
ancestry reaches a model class of the framework or a library (its module system's optional
``library_model(lookup, def)`` hook; without one, an abstract ancestor makes it one too). A
definition whose name a framework derives from the repository (``TableDef.model``: Django's
``<app_label>_<model>``) is named by the language's optional ``table_name(lookup, fc, td)`` hook
before anything else reads it. Migration facts (SQL scripts,
Liquibase change logs, Django and Alembic migrations) are replayed in order first
(:mod:`indexer.frameworks.schema_history`): a table a later migration renames is declared under its
new name, one it drops by nobody (counted ``tables_dropped``). A Django ``ManyToManyField`` declares
its join table (framework ``django-m2m``, DECLARES from its file), which ``x.field.add/remove/set/clear``
writes and ``x.field.all()`` reads; a SQLAlchemy ``relationship(secondary=t)`` (``sqlalchemy-m2m``) maps
its field to ``t``'s table (a ``Table(...)`` variable or a table name), written by
``x.field.add/append/remove/extend/discard/clear`` and read by ``x.field.select()`` / ``.all()``; a custom manager or queryset class (``objects = CustomerManager()``) maps to its model's table,
so ``self.filter(...)`` in its methods reads that table.

**Accesses.** ``READS`` / ``WRITES`` go from the function or method of the use (the File at module
level) to the table, owned by the use's file, with ``props``: ``framework``, ``resolution``
(``exact``: the code names the table or entity; ``inferred``: a naming rule or the receiver's type
led there) and ``columns`` (sorted, mapped onto the table's declared columns where a name differs:
``author`` -> ``author_id`` or ``authorId``, ``lastName`` -> ``last_name``; absent when unknown). An entity
expression is resolved through the resolver (``Owner``, ``owner``, ``self.repo``); what does not
resolve to a mapped class links nothing (counted ``unlinked_table_use``). SQL is rendered (constants
followed) and parsed with sqlglot; a string that does not parse links nothing (``unlinked_sql``).
A Spring Data call on a repository that declares the method itself links nothing here: the CALLS
edge reaches the declared method, whose own access the walk follows. A Django access (``framework``
``django``) to the table of a model below concrete models (multi-table inheritance) reads or writes
their tables too: one more edge each, ``resolution`` ``inferred``, ``props["inherited"]`` the model's
table (counted ``reads_inherited`` / ``writes_inherited``).
"""

from __future__ import annotations

import re

from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from indexer.frameworks.link_memo import LinkMemo, Recorded, RecordedPass
from indexer.frameworks.relation_paths import related_class
from indexer.frameworks.schema_history import Fate, replay
from indexer.frameworks.sql_text import statement_access
from indexer.model import ORM_ATTRIBUTE, Import, TableDef, TableUse, Template
from indexer.resolve.multimap import entries
from indexer.resolve.values import ClassV, Def, InstV, QueryV
from indexer.symbols import file_id
from stores.contracts import Edge, Node, column_id, new_edge, new_node, table_id, table_key

if TYPE_CHECKING:
    from indexer.frameworks.link import LinkResult
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import ImportTarget, Lookup

__all__ = ["link_tables", "TABLE_EDGES"]

TABLE_EDGES = ("READS", "WRITES")
_HOLE = "\x00"
_M2M = ("django-m2m", "sqlalchemy-m2m")
FASTCRUD = "fastcrud"
"""The framework of FastCRUD objects and calls (:mod:`indexer.languages.python.frameworks.fastcrud`)."""
GENERIC = "generic_repository"
"""The framework of Python generic repositories (:mod:`indexer.languages.python.frameworks.generic_repositories`):
a base's methods reading ``self.model`` (entity ``self.model``), a subclass naming its model (``repository``), a
call on a repository (``receiver``)."""
_RELATIONSHIP_WRAPPERS = frozenset({"Mapped", "WriteOnlyMapped", "DynamicMapped", "Optional", "list", "List", "set",
                                    "Set", "Sequence", "Collection"})
"""The type wrappers around a SQLAlchemy relationship field's class (``so.WriteOnlyMapped['Post']``,
``Mapped[list["Post"]]``)."""
_SUBSCRIPTED = re.compile(r"(?P<name>[A-Za-z_][\w.]*)\[\s*(?P<arg>[^\[\],]+?|[A-Za-z_][\w.]*\[[^\[\]]*\])\s*\]")
"""Frameworks of many-to-many join-table facts: a model's field declaring one, a write through it."""


def _camel_to_snake(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if i and ch.isupper() and (name[i - 1].islower() or name[i - 1].isdigit()):
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


@dataclass(slots=True)
class _Table:
    id: str
    name: str
    schema: str
    declared: bool = True
    columns: dict[str, str | None] = field(default_factory=dict)  # lower name -> type


class _TableLinker:
    def __init__(self, r: Lookup, ctxs: Sequence[FileCtx], result: LinkResult,
                 emit: Callable[[FileCtx, str, Node], None],
                 render: Callable[[FileCtx, str | None, Template], str],
                 import_target: Callable[[FileCtx, Import], ImportTarget],
                 mappers: Mapping[str, Mapping[str, tuple[str, ...]]], produce: Collection[str] | None,
                 memo: LinkMemo | None = None) -> None:
        self.r, self.ctxs, self.result, self.emit, self.render = r, ctxs, result, emit, render
        self.produce = produce  # the files whose accesses are linked (None: all)
        self.memo = memo  # each file's accesses as an earlier link linked them (None: none kept)
        self.import_target = import_target
        self.mappers = mappers
        self.tables: dict[str, _Table] = {}
        self.by_class: dict[str, str] = {}  # entity Def id (or path:qualname) -> table id
        self.abstract: dict[str, list[tuple[str, str | None]]] = {}  # Def id -> columns
        self.proxies: set[str] = set()
        self.entity_names: dict[str, set[str]] = defaultdict(set)  # JPA entity / class name -> table ids
        # JPA cascades: entity key -> (file, entity qualname, related type text); table id -> those of
        # its entity and the entity's mapped superclasses
        self.cascade_decl: dict[str, list[tuple[FileCtx, str, str]]] = defaultdict(list)
        self.cascade_of: dict[str, list[tuple[FileCtx, str, str]]] = {}
        self.repositories: dict[str, str] = {}  # repository interface Def id -> table id
        self.model_methods: dict[str, set[str]] = {}  # generic repository base method Def id -> its roles
        self.managers: dict[str, set[str]] = defaultdict(set)  # Django manager / queryset Def id -> model table ids
        self.m2m: dict[tuple[str, str], str] = {}  # (model table id, field name) -> join table id
        self._edges: set[tuple[str, str, str, str, int]] = set()
        self._columns: dict[str, Node] = {}  # column id -> its node as the last declaration gives it
        self._column_files: list[tuple[FileCtx, str]] = []  # (declaring file, column id), in order
        self._call_names: dict[str, dict[tuple[int, int], str]] = {}  # per file: call site -> callee name
        self._made: list[Edge] | None = None  # while the declarations are recorded: the edges made
        self._defs: dict[str, list[TableDef]] = {}  # per file: its table definitions as named (declare)
        self._django: list[tuple[Def, str]] = []  # Django model classes with their tables (declare)
        self.parents: dict[str, list[str]] = {}  # Django model table id -> its concrete ancestors' tables
        self._mappable = True
        """Whether a declared table has columns, or concrete parents (:meth:`mappable`): else no ORM
        attribute use is resolved (set by :meth:`run` once the declarations are known)."""

    # -- declarations ------------------------------------------------------------------------------

    def _entity_key(self, fc: FileCtx, td: TableDef) -> str | None:
        if td.entity is None or td.framework in _M2M:  # a join table: its model's field, no class
            return None
        rd = fc.def_at(td.entity, td.line)
        return rd.id if rd is not None else f"{fc.path}:{td.entity}"

    def _named(self) -> dict[str, list[TableDef]]:
        """Each file's table definitions, those whose name a framework derives from the repository
        (``td.model``: Django's ``<app_label>_<model>``) renamed as the file's language says (its
        module system's optional ``table_name(lookup, fc, td)`` hook; no answer: as extracted)."""
        out: dict[str, list[TableDef]] = {}
        for fc in self.ctxs:
            hook = getattr(fc.rules, "table_name", None)
            tds = fc.ex.tables
            if hook is not None and any(td.model is not None for td in tds):
                tds = [td if td.model is None or (name := hook(self.r, fc, td)) is None or name == td.name
                       else replace(td, name=name) for td in tds]
            out[fc.path] = tds
        return out

    def declare(self) -> None:
        candidates: list[tuple[FileCtx, TableDef, Def]] = []
        defs = self._defs = self._named()
        for fc in self.ctxs:
            for td in defs[fc.path]:
                key = self._entity_key(fc, td)
                if td.cascades and key is not None and td.entity:
                    self.cascade_decl[key] += [(fc, td.entity, t) for t in td.cascades]
                if td.kind == "abstract" and key is not None:
                    self.abstract[key] = td.columns
                elif td.kind == "proxy" and key is not None:
                    self.proxies.add(key)
                elif td.kind == "candidate":
                    rd = fc.def_at(td.entity, td.line) if td.entity else None
                    if rd is not None:
                        candidates.append((fc, td, rd))
        fates = replay([(fc.path, td) for fc in self.ctxs for td in defs[fc.path]])
        for fc in self.ctxs:
            for td in defs[fc.path]:
                if td.kind == "table" and td.name:
                    fate = fates.get(id(td), td)
                    if fate is None:  # a later migration dropped it
                        self.result.outcomes["tables_dropped"] += 1
                        continue
                    self._declare(fc, td, fate)
        for kind in ("mapped", "default"):  # EF Core: ToTable(...) of a type, then a DbSet property's name
            for fc in self.ctxs:
                for td in defs[fc.path]:
                    if td.kind == kind and td.entity and td.name:
                        self._declare_type(fc, td)
        changed = True
        library: dict[str, bool | None] = {}  # candidate Def id -> a model by its ancestry (the language's hook; None: no hook)
        while changed and candidates:  # a Django class is a model when an ancestor is one
            changed = False
            for item in list(candidates):
                fc, td, rd = item
                if rd.id not in library:
                    hook = getattr(fc.rules, "library_model", None)
                    library[rd.id] = hook(self.r, rd) if hook is not None else None
                ancestors = self.r.mro(rd)[1:]
                if library[rd.id] or any(b.id in self.by_class for b in ancestors) or (
                        library[rd.id] is None and any(b.id in self.abstract for b in ancestors)):
                    self._declare(fc, td)
                    candidates.remove(item)
                    changed = True
        self._join_tables()
        self._parent_tables()
        # A column is one shared node (one row in the store) that every declaring file emits: each
        # emits the last declaration's (path order, as a full run writes them), so that what the
        # store holds does not depend on which of those files an update wrote again.
        for fc, cid in self._column_files:
            self.emit(fc, cid, self._columns[cid])

    def _parent_tables(self) -> None:
        """Django's multi-table inheritance: a model's table by the tables of its concrete ancestors
        (each a model with a table of its own, nearest first), which saving, deleting or querying the
        model writes or reads too (``Model._save_parents``; a query joins them)."""
        for rd, tid in self._django:
            parents = [t for b in self.r.mro(rd)[1:] if (t := self.by_class.get(b.id)) is not None and t != tid]
            if parents:
                self.parents[tid] = list(dict.fromkeys(parents))

    def _join_tables(self) -> None:
        """Many-to-many join tables by (model table, field): ``post.tags.add(t)`` writes one. Django's
        are declared by the field; a SQLAlchemy ``relationship(secondary=...)`` names its table (a
        string) or a ``Table(...)`` variable (resolved like any entity)."""
        for fc in self.ctxs:
            for td in self._defs[fc.path]:
                if td.framework in _M2M and td.entity:
                    model, _, fname = td.entity.rpartition(".")
                    rd = fc.def_at(model, td.line)
                    mt = self.by_class.get(rd.id) if rd is not None else None
                    if mt is None:
                        continue
                    if td.kind == "m2m-ref":
                        jt = self._entity_table(fc, None, td.name)
                    else:
                        jt = table_id(fc.repo, td.name, td.schema)
                    if jt is not None:
                        self.m2m[(mt, fname)] = jt

    def _declare_type(self, fc: FileCtx, td: TableDef) -> None:
        """Declare the table of a ``mapped`` / ``default`` fact (EF Core's ``ToTable``, a ``DbSet``
        property): ``td.entity`` is a type text resolved at ``fc``'s top level; a class already mapped
        (by its own ``[Table]``, an earlier fact) keeps its table."""
        v = self.r.resolve_expr(fc, None, td.entity or "")
        if isinstance(v, ClassV) and self._class_table(v.c) is None:
            self._declare(fc, td, entity=v.c)

    def _declare(self, fc: FileCtx, td: TableDef, fate: Fate | TableDef | None = None, entity: Def | None = None
                 ) -> None:
        """Declare ``td``'s table; ``fate``: its name, schema and columns after the later migrations
        (:func:`~indexer.frameworks.schema_history.replay`), ``td`` itself when none applies;
        ``entity``: the class mapped to it when another file declares it (``td.entity`` a type text)."""
        now = fate if fate is not None else td
        tid = table_id(fc.repo, now.name, now.schema)
        key = table_key(now.name, now.schema)
        t = self.tables.get(tid)
        if t is None:
            t = self.tables[tid] = _Table(tid, now.name, key.split(".", 1)[0])
        cols = list(now.columns)
        owner = file_id(fc.repo, fc.path)
        ekey = entity.id if entity is not None else self._entity_key(fc, td)
        if ekey is not None:
            self.by_class[ekey] = tid
            rd = entity if entity is not None else fc.def_at(td.entity, td.line) if td.entity else None
            if rd is not None:
                owner = rd.id
                if td.framework == "django":
                    self._django.append((rd, tid))
                inherited: list[tuple[str, str | None]] = []
                for b in reversed(self.r.mro(rd)[1:]):
                    inherited += self.abstract.get(b.id, [])
                cols = inherited + cols
                cascades = [c for x in self.r.mro(rd) for c in self.cascade_decl.get(x.id, ())]
                if cascades:
                    self.cascade_of[tid] = cascades
            self.entity_names[td.entity.rsplit(".", 1)[-1].lower()].add(tid)
            self.entity_names[td.name.lower()].add(tid)
        for c, ty in cols:
            t.columns.setdefault(c.lower(), ty)
        t.declared = True
        self._node(fc, t)
        self._edge(fc, "DECLARES", owner, tid, td.line, td.col, framework=td.framework)
        for c, ty in cols:
            cid = column_id(tid, c)
            self._columns[cid] = new_node(cid, "Column", c, f"{now.name}.{c}", "", "", 0, 0, 0, 0,
                                          {"table": tid, "type": ty, "repository": fc.repo})
            self._column_files.append((fc, cid))
            self._edge(fc, "HAS_COLUMN", tid, cid, td.line, td.col, framework=td.framework)
        self.result.outcomes["tables_declared"] += 1

    def _node(self, fc: FileCtx, t: _Table) -> None:
        qual = f"{t.schema}.{t.name}" if t.schema else t.name
        self.emit(fc, t.id, new_node(t.id, "Table", t.name, qual, "", "", 0, 0, 0, 0,
                                     {"schema": t.schema or None, "repository": fc.repo, "declared": t.declared}))

    def _edge(self, fc: FileCtx, kind: str, src: str, dst: str, line: int, col: int, **props: object) -> None:
        key = (fc.path, kind, src, dst, line)
        if key in self._edges:
            return
        self._edges.add(key)
        edge = new_edge(kind, src, dst, fc.repo, fc.path, line, col, None, {k: v for k, v in props.items() if v is not None})
        self.result.edges[fc.path].append(edge)
        if self._made is not None:
            self._made.append(edge)

    # -- entity resolution -------------------------------------------------------------------------

    def _class_table(self, c: Def) -> str | None:
        for b in self.r.mro(c):
            tid = self.by_class.get(b.id)
            if tid is not None:
                return tid
            if b.id in self.repositories:
                return None
            models = self.managers.get(b.id)
            if models:  # a custom manager's ``self``: its model's table, when one model uses it
                return next(iter(models)) if len(models) == 1 else None
        return None

    def _entity_table(self, fc: FileCtx, scope: str | None, expr: str) -> str | None:
        v = self.r.resolve_expr(fc, scope, expr)
        if isinstance(v, (ClassV, InstV)):
            tid = self._class_table(v.c)
            if tid is not None:
                return tid
        # a module variable (SQLAlchemy ``t = Table(...)``), of this file or imported
        tid = self.by_class.get(f"{fc.path}:{expr}")
        head, _, rest = expr.partition(".")
        imps = entries(fc.imports, head)
        if tid is None and imps:
            target = self.import_target(fc, imps[-1])
            name = target.member if target.member is not None else rest
            for f in target.files if name and not target.of_class else []:
                tid = self.by_class.get(f"{f.path}:{name}")
                if tid is not None:
                    break
        return tid

    def _repository_table(self, fc: FileCtx, scope: str | None, receiver: str, name: str) -> str | None:
        v = self.r.resolve_expr(fc, scope, receiver)
        if not isinstance(v, InstV):
            return None
        for b in self.r.mro(v.c):
            tid = self.repositories.get(b.id)
            if tid is not None:
                declared, _ = self.r.lookup(v.c, name)  # a member the library's type gives is no query
                return None if any(not d.shape.generated for d in declared) else tid
        return None

    def _module_repository(self, fc: FileCtx, receiver: str) -> str | None:
        """The table of the module-level repository object ``receiver`` names (a FastCRUD ``crud_users``, of
        ``fc`` or imported: ``from app.crud.crud_users import crud_users``, ``from app.crud import crud_users``
        then ``crud_users.crud_users``), keyed ``path:name`` in :attr:`repositories`; ``None`` otherwise."""
        tid = self.repositories.get(f"{fc.path}:{receiver}")
        head, _, rest = receiver.partition(".")
        imps = entries(fc.imports, head)
        if tid is None and imps:
            target = self.import_target(fc, imps[-1])
            name = target.member if target.member is not None and not rest else rest if target.member is None else None
            for f in target.files if name and not target.of_class else []:
                tid = self.repositories.get(f"{f.path}:{name}")
                if tid is not None:
                    break
        return tid

    def _generic_call(self, fc: FileCtx, u: TableUse) -> bool:
        """The accesses of a call on a generic repository (``self.user_repo.get(id)``, ``crud.user.get(db, id)``):
        the receiver is an instance of a class one of whose ancestors (itself first) names a model
        (:attr:`repositories`), or a module variable given its model (``item = CRUDBase(Item)``), and the method it calls there is a base's method reading ``self.model``
        (:attr:`model_methods`): each of that method's roles on the model's table, owned by the caller,
        ``via`` the method's qualname. Anything else links nothing and is not counted. Returns whether it
        linked."""
        if not self.model_methods:
            return False
        v = self.r.resolve_expr(fc, u.owner, u.receiver or "")
        if not isinstance(v, InstV):
            return False
        tid = next((t for b in self.r.mro(v.c) if (t := self.repositories.get(b.id)) is not None), None) \
            or self._module_repository(fc, u.receiver or "")  # `item = CRUDBase(Item)`
        if tid is None:
            return False
        found, _ = self.r.lookup(v.c, self._called_name(fc, u))
        for d in found:
            roles = self.model_methods.get(d.id)
            if roles:
                for role in sorted(roles):
                    self._access(fc, u, role, tid, (), via=d.qualname)
                return True
        return False

    def _dbset_table(self, fc: FileCtx, scope: str | None, receiver: str) -> str | None:
        """The table of the EF Core ``DbSet`` property ``receiver`` names (``_context.Orders``;
        ``Orders`` in the context's own methods): the instance's class declares the property with
        type text ``DbSet<T>``, and ``T`` maps to a table; ``None`` otherwise."""
        head, _, prop = receiver.rpartition(".")
        v = self.r.resolve_expr(fc, scope, head or "this")
        if not isinstance(v, InstV):
            return None
        found, _ = self.r.lookup(v.c, prop)
        for d in found:
            ft = d.d.field_type or "" if d.kind == "field" else ""
            if ft.startswith("DbSet<") and ft.endswith(">"):
                t = self.r.resolve_expr(d.file, d.parent, ft[6:-1])
                return self._class_table(t.c) if isinstance(t, ClassV) else None
        return None

    def _relationship_table(self, fc: FileCtx, scope: str | None, entity: str, field: str) -> str | None:
        """The table of the class a SQLAlchemy relationship ``entity.field`` holds (``user.posts`` declared
        ``posts: so.WriteOnlyMapped['Post'] = so.relationship(...)``, or ``Mapped[list["Post"]]``,
        ``DynamicMapped[Post]``): the last name of the field's type text after its wrappers and collection
        (:data:`_RELATIONSHIP_WRAPPERS`), resolved where the field is declared; ``None`` when ``entity`` is no
        instance or class of the repository, the field is not declared with such a type, or the type maps
        to no table."""
        v = self.r.resolve_expr(fc, scope, entity)
        if not isinstance(v, (InstV, ClassV)):
            return None
        found, _ = self.r.lookup(v.c, field)
        for d in found:
            t = d.d.field_type if d.kind == "field" else None
            for _ in range(4):
                m = _SUBSCRIPTED.fullmatch((t or "").strip().strip("\"'"))
                if m is None or m["name"].rsplit(".", 1)[-1] not in _RELATIONSHIP_WRAPPERS:
                    break
                t = m["arg"]
            name = (t or "").strip().strip("\"'")
            if not name or not name.replace(".", "").replace("_", "").isalnum():
                continue
            c = self.r.resolve_type(d.file, d.parent, name)
            if isinstance(c, ClassV):
                return self._class_table(c.c)
        return None

    # -- uses --------------------------------------------------------------------------------------

    def repositories_of(self) -> None:
        """The Django managers' models (:attr:`managers`), then the repositories' tables
        (:attr:`repositories`: a repository's entity may be read through a manager), from one read of
        each file's table accesses: a parked list (:class:`indexer.parked.ParkedList`) is unpickled on
        every read, and only the manager and repository uses (a few per model) are kept meanwhile."""
        managers: list[tuple[FileCtx, TableUse]] = []
        repositories: list[tuple[FileCtx, TableUse]] = []
        for fc in self.ctxs:
            if not fc.ex.table_uses:
                continue
            for u in fc.ex.table_uses:
                if u.owner and u.entity and u.role in ("manager", "repository") or u.role == "repository" \
                        and u.framework in (FASTCRUD, GENERIC) and u.entity and u.receiver:
                    (managers if u.role == "manager" else repositories).append((fc, u))
                elif u.framework == GENERIC and u.entity == "self.model" and u.owner:  # a generic base's method
                    rd = fc.def_at(u.owner, u.line)
                    if rd is not None:
                        self.model_methods.setdefault(rd.id, set()).add(u.role)
        for fc, u in managers:
            rd = fc.def_at(u.owner, u.line)
            v = self.r.resolve_expr(fc, u.owner, u.entity)
            mt = self.by_class.get(rd.id) if rd is not None else None
            if mt is None and rd is not None:
                mt = self._class_table(rd)
            if mt is not None and isinstance(v, ClassV) and v.c.id not in self.by_class:
                self.managers[v.c.id].add(mt)
        for fc, u in repositories:
            if u.framework in (FASTCRUD, GENERIC) and u.owner is None:  # a module variable: keyed `path:name`, as
                # SQLAlchemy's `t = Table(...)`
                tid = self._entity_table(fc, None, u.entity or "")
                if tid is not None:
                    self.repositories[f"{fc.path}:{u.receiver}"] = tid
                continue
            rd = fc.def_at(u.owner, u.line)
            tid = self._entity_table(fc, u.owner, u.entity) or self._by_entity_name(u.entity)
            if rd is not None and tid is not None:
                self.repositories[rd.id] = tid

    def _by_entity_name(self, name: str) -> str | None:
        found = self.entity_names.get(name.rsplit(".", 1)[-1].lower(), set())
        return next(iter(found)) if len(found) == 1 else None

    def _owner(self, fc: FileCtx, u: TableUse) -> str:
        rd = fc.def_at(u.owner, u.line) if u.owner else None
        return rd.id if rd is not None else file_id(fc.repo, fc.path)

    def use(self, fc: FileCtx, u: TableUse) -> None:
        if u.role in ("repository", "manager"):
            return
        if u.framework in _M2M:  # ``post.tags.add(t)``: the join table of Post.tags
            mt = self._entity_table(fc, u.owner, u.entity or "")
            jt = None
            for owner in ([mt, *self.parents.get(mt, ())] if mt is not None else []):  # a field of a concrete parent
                jt = self.m2m.get((owner, u.table or ""))
                if jt is not None:
                    break
            if jt is None and u.framework == "sqlalchemy-m2m" and u.entity and u.table:
                # a one-to-many relationship queried through it (`user.posts.select()`, a WriteOnlyMapped or
                # dynamic relationship; `self.notifications.delete()`): the related class's table
                jt = self._relationship_table(fc, u.owner, u.entity, u.table)
            if jt is None:
                self.result.outcomes["unlinked_table_use"] += 1
            else:
                self._access(fc, u, u.role, jt, ())
            return
        if u.role in ("sql", "jpql"):
            self._statement(fc, u)
            return
        tid = None
        if u.receiver is not None and u.framework == "efcore":  # `_context.Orders.Where(...)`
            tid = self._dbset_table(fc, u.owner, u.receiver)
            if tid is None:
                return  # no DbSet property (a List's LINQ): nothing here
        elif u.framework == GENERIC and u.entity == "self.model":
            return  # a generic repository's own method: its callers read or write (below)
        elif u.receiver is not None and u.framework in (FASTCRUD, GENERIC):  # `crud_users.get(db=db, ...)`
            if self._generic_call(fc, u):  # a generic repository's method (`self.user_repo.get(id)`)
                return
            tid = self._module_repository(fc, u.receiver) if u.framework == FASTCRUD else None
            if tid is None:
                return  # no FastCRUD object nor generic repository: nothing here
        elif u.receiver is not None:
            tid = self._repository_table(fc, u.owner, u.receiver, self._called_name(fc, u))
            if tid is None:
                return  # not a repository (or it declares the method): nothing here
        elif u.table is not None:  # a table the code names (an Apex sObject)
            schema, _, name = u.table.rpartition(".")
            tid = table_id(fc.repo, name, schema or None)
        elif u.entity is not None and u.framework == "prisma":  # a model accessor (prisma.user): no code name
            tid = self._by_entity_name(u.entity)
        elif u.entity is not None and u.framework == ORM_ATTRIBUTE:  # a column of a mapped instance, or nothing
            if not self._mappable:  # no table any instance could map to: what `_attribute` says of each
                self.result.outcomes["attribute_not_mapped"] += 1
                return
            v = self.r.resolve_expr(fc, u.owner, u.entity)  # an instance: `User.email = x` patches the class
            self._attribute(fc, u, self._class_table(v.c) if isinstance(v, InstV) else None)
            return
        elif u.entity is not None and u.relation:  # TypeORM `.leftJoinAndSelect("u.photos", "p")`: Photo's
            c = related_class(self.r, fc, u.owner, u.entity, u.relation)
            tid = self._class_table(c) if c is not None else None
        elif u.entity is not None and u.framework == "django" and u.resolution == "exact" and "." in u.entity \
                and u.entity.rpartition(".")[2][:1].islower() and u.entity.partition(".")[0] not in ("self", "cls"):
            # `Person.people.filter(...)`, a chain on a manager of another name: the model's table when
            # the resolver reads a manager of a model there (a queryset of its rows), else nothing
            q = self.r.resolve_expr(fc, u.owner, u.entity)
            tid = self._class_table(q.c) if isinstance(q, QueryV) and not q.method else None
        elif u.entity is not None:
            tid = self._entity_table(fc, u.owner, u.entity)
            if tid is None and u.framework == "jpa":
                tid = self._by_entity_name(u.entity)
            if tid is None and u.framework == "sequelize":
                head, _, model = u.entity.rpartition(".")
                if head.rpartition(".")[2] not in ("models", "db"):
                    return  # a query method's name on no model (`list.update()`): nothing here
                tid = self._by_entity_name(model)  # Sequelize's registry: `sequelize.models.user`, `db.User`
                if tid is None:
                    return
        if tid is None:
            self.result.outcomes["unlinked_table_use"] += 1
            return
        self._access(fc, u, u.role, tid, u.columns)

    def _called_name(self, fc: FileCtx, u: TableUse) -> str:
        names = self._call_names.get(fc.path)
        if names is None:
            names = self._call_names[fc.path] = {(c.line, c.col): c.name for c in fc.ex.calls}
        return names.get((u.line, u.col), "")

    def _statement(self, fc: FileCtx, u: TableUse) -> None:
        text = self.render(fc, u.owner, u.sql or Template()).replace(_HOLE, "?")
        found = statement_access(text)
        if not found:
            self.result.outcomes["unlinked_sql"] += 1
            return
        for a in found:
            if "?" in a.name:  # `alter table "${tableName}"`: a table the code names at run time, unknown here
                self.result.outcomes["unlinked_sql"] += 1
                continue
            if u.role == "jpql":
                tid = self._by_entity_name(a.name)
                if tid is None and u.entity is not None and a.name.lower() == u.entity.rsplit(".", 1)[-1].lower():
                    tid = self._entity_table(fc, u.owner, u.entity)
                if tid is None:
                    self.result.outcomes["unlinked_jpql"] += 1
                    continue
            else:
                tid = table_id(fc.repo, a.name, a.schema)
            self._access(fc, u, a.role, tid, list(a.columns))

    def _attribute(self, fc: FileCtx, u: TableUse, tid: str | None) -> None:
        """An ORM instance's attribute use: the access to the names of ``u.columns`` that are declared
        columns of table ``tid`` (a method, a relationship or a name nothing maps is none), counted
        apart when the object is no mapped instance or no name is a column. A name that is no column of
        ``tid`` but one of a concrete parent's table (Django's multi-table inheritance) is that table's."""
        t = self.tables.get(tid) if tid is not None else None
        if t is None or not t.declared or not t.columns and not self.parents.get(t.id):
            self.result.outcomes["attribute_not_mapped"] += 1
            return
        columns = [c for c in u.columns if t.columns and self._column(t, c) in t.columns]
        rest = [c for c in u.columns if c not in columns]
        inherited: list[tuple[str, list[str]]] = []
        for pt in self.parents.get(t.id, ()) if rest else ():
            p = self.tables.get(pt)
            found = [c for c in rest if p is not None and p.columns and self._column(p, c) in p.columns]
            if found:
                inherited.append((pt, found))
                rest = [c for c in rest if c not in found]
        if not columns and not inherited:
            self.result.outcomes["attribute_not_column"] += 1
            return
        if columns:
            self._access(fc, u, u.role, t.id, columns)
        for pt, found in inherited:
            self._access(fc, u, u.role, pt, found)

    def _access(self, fc: FileCtx, u: TableUse, role: str, tid: str, columns: Sequence[str], **extra: str) -> None:
        t = self.tables.get(tid)
        if t is None:
            schema, _, name = tid.split(":", 2)[2].partition(".")
            t = self.tables[tid] = _Table(tid, name, schema, declared=False)
        self._node(fc, t)
        cols = sorted({self._column(t, c) for c in columns})
        kind = "WRITES" if role == "writes" else "READS"
        self._edge(fc, kind, self._owner(fc, u), tid, u.line, u.col, framework=u.framework,
                   resolution=u.resolution, columns=cols or None, **extra)
        self.result.outcomes[kind.lower()] += 1
        if u.framework == "django" and tid in self.parents:  # multi-table inheritance: the parents' rows too
            for pt in self.parents[tid]:
                self._node(fc, self.tables[pt])
                self._edge(fc, kind, self._owner(fc, u), pt, u.line, u.col, framework=u.framework,
                           resolution="inferred", inherited=tid)
                self.result.outcomes[kind.lower() + "_inherited"] += 1
        if kind == "WRITES" and u.framework == "jpa" and tid in self.cascade_of:
            for ct in self._cascaded(tid):
                t = self.tables[ct]
                self._node(fc, t)
                self._edge(fc, "WRITES", self._owner(fc, u), ct, u.line, u.col, framework=u.framework,
                           resolution="inferred", cascade=tid)
                self.result.outcomes["writes_cascaded"] += 1

    def _cascaded(self, tid: str) -> list[str]:
        """The tables a JPA write of table ``tid``'s entity also writes through cascading relationships,
        transitively (an owner's pets, then their visits), in order, ``tid`` itself left out."""
        out: list[str] = []
        todo = [tid]
        while todo:
            for fc, scope, type_text in self.cascade_of.get(todo.pop(0), ()):
                ct = self._entity_table(fc, scope, type_text) or self._by_entity_name(type_text)
                if ct is not None and ct != tid and ct not in out and ct in self.tables:
                    out.append(ct)
                    todo.append(ct)
        return out

    @staticmethod
    def _column(t: _Table, c: str) -> str:
        low = c.lower()
        if not t.columns or low in t.columns:
            return low
        if low == "pk" and "id" in t.columns:  # Django's primary-key alias
            return "id"
        # a relation's foreign key: author -> author_id (snake case), authorId (Prisma, camel case)
        for guess in (f"{low}_id", _camel_to_snake(c), f"{_camel_to_snake(c)}_id", f"{low}id"):
            if guess in t.columns:
                return guess
        return low

    def run(self) -> None:
        memo = self.memo
        if memo is None:
            self.declare()
            self.repositories_of()
        else:
            self._declarations(memo)
        self._mappable = self.mappable()
        if memo is not None:
            memo.begin("tables", self._shared())
        linked: set[str] = set()
        for fc in self.ctxs:
            if self.produce is not None and fc.path not in self.produce:
                continue  # an access's edges are its own file's: no other share reads them
            if not fc.ex.table_uses and not (self.mappers and fc.lang == "java"):
                continue
            if memo is None or memo.flag("sql", fc, _renders_sql):
                self._accesses(fc)  # (SQL is rendered with constants, which the memo does not compare)
                continue
            linked.add(fc.path)
            self._remembered(fc, memo)
        if memo is not None and self.produce is None:
            memo.retain("tables", linked)
            memo.retain_flags("sql", {fc.path for fc in self.ctxs})

    def mappable(self) -> bool:
        """Whether an ORM attribute use (:data:`~indexer.model.ORM_ATTRIBUTE`) can be an access: some
        declared table has columns or concrete parents (what :meth:`_attribute` asks of the table the
        object's class maps to). The declarations alone decide it (the accesses add undeclared tables
        only), so when it is false every such use is ``attribute_not_mapped`` whatever the object
        resolves to, and the object is not resolved: on a repository without mapped tables (the
        generated monorepos: nearly every file writes ``self.x``) that resolution was the whole link's
        work and its memory (the memo's entries and what they read, and the link's dependency set held
        to the end of the run: the 45-package generated monorepo's link read 47,704 names and raised the
        forked child's resident set by 7.4 MiB, its peak, docs/benchmarks.md, session 61). A
        change that declares a table changes framework facts, which links every file again
        (:mod:`indexer.resolve.repository`)."""
        return any(t.declared and (t.columns or self.parents.get(t.id)) for t in self.tables.values())

    _STATE = ("tables", "by_class", "abstract", "proxies", "entity_names", "cascade_decl", "cascade_of", "repositories",
              "model_methods", "managers", "m2m", "parents", "_edges", "_columns", "_column_files")
    """What :meth:`declare` and :meth:`repositories_of` leave for the accesses to read."""

    def _declarations(self, memo: LinkMemo) -> None:
        """:meth:`declare` and :meth:`repositories_of`, replayed from ``memo`` when the files they
        read (those with table definitions, repositories or managers) are the same contexts with the
        same bytes and nothing they read through the resolver changed; else computed and recorded."""
        files = [fc for fc in self.ctxs if fc.ex.tables or (fc.ex.table_uses and memo.flag("declaring", fc, _declaring))]
        if self.produce is None:
            memo.retain_flags("declaring", {fc.path for fc in self.ctxs})
        done = memo.get_pass("declarations", files)
        if done is not None:
            for name, value in zip(self._STATE, done.state):  # type: ignore[call-overload]
                setattr(self, name, type(value)(value) if name in ("tables", "_edges") else value)  # (accesses add to those)
            for fc, node_id, node in done.nodes:
                self.emit(fc, node_id, node)
            for e in done.edges:
                self.result.edges[e.file].append(e)
            self.result.outcomes.update(done.outcomes)
            return
        emitted: list[tuple[FileCtx, str, Node]] = []
        emit, outcomes = self.emit, self.result.outcomes

        def recording(at: FileCtx, node_id: str, node: Node) -> None:
            emitted.append((at, node_id, node))
            emit(at, node_id, node)

        epoch = memo.tracker.epoch
        self.emit, self.result.outcomes, self._made = recording, Counter(), []
        try:
            _, deps = memo.tracker.tracked(lambda: (self.declare(), self.repositories_of()))
            counted, made = self.result.outcomes, self._made
        finally:
            self.emit, self.result.outcomes, self._made = emit, outcomes, None
        outcomes.update(counted)
        state = tuple(type(v)(v) if n in ("tables", "_edges") else v for n in self._STATE for v in [getattr(self, n)])
        memo.put_pass("declarations", RecordedPass([(fc, fc.checksum) for fc in files], deps, epoch, emitted, made,
                                                   counted, state))

    def _accesses(self, fc: FileCtx) -> None:
        for u in fc.ex.table_uses:
            self.use(fc, u)
        if self.mappers and fc.lang == "java":
            self._mybatis(fc)

    def _shared(self) -> tuple[object, ...]:
        """What one file's accesses read besides its own file and the resolver: the declarations as
        :meth:`declare` and :meth:`repositories_of` left them (new objects each link; only
        ``tables`` grows afterwards, with tables code names but no source declares, which every
        file adds alike)."""
        cascades = {tid: [(fc.path, scope, text) for fc, scope, text in found] for tid, found in self.cascade_of.items()}
        return (dict(self.tables), self.by_class, self.entity_names, cascades, self.repositories, self.model_methods,
                self.managers, self.m2m, self.parents, self.mappers)

    def _remembered(self, fc: FileCtx, memo: LinkMemo) -> None:
        """:meth:`_accesses` of ``fc``, replayed from ``memo`` when it holds them (:mod:`indexer.frameworks.link_memo`),
        else computed and recorded there."""
        hit = memo.get("tables", fc)
        if hit is not None:
            for node_id, node in hit.nodes:
                self.emit(fc, node_id, node)
            if hit.edges:
                self.result.edges[fc.path].extend(hit.edges)
            self.result.outcomes.update(hit.outcomes)
            return
        emitted: list[tuple[str, Node]] = []
        emit, outcomes = self.emit, self.result.outcomes

        def recording(at: FileCtx, node_id: str, node: Node) -> None:
            emitted.append((node_id, node))
            emit(at, node_id, node)

        before = len(self.result.edges.get(fc.path, ()))
        epoch = memo.tracker.epoch
        self.emit, self.result.outcomes = recording, Counter()
        try:
            _, deps = memo.tracker.tracked(lambda: self._accesses(fc))
            counted = self.result.outcomes
        finally:
            self.emit, self.result.outcomes = emit, outcomes
        outcomes.update(counted)
        memo.put("tables", Recorded(fc, fc.checksum, deps, epoch, emitted,
                                    list(self.result.edges.get(fc.path, ())[before:]), counted))

    def _mybatis(self, fc: FileCtx) -> None:
        """READS / WRITES of the methods of Java interfaces a mapper XML names (by ``package.Qual``)."""
        prefix = f"{fc.ex.package}." if fc.ex.package else ""
        for rd in fc.defs:
            if rd.kind != "interface":
                continue
            statements = self.mappers.get(prefix + rd.qualname)
            if not statements:
                continue
            for m in fc.defs:
                if m.kind != "method" or m.parent != rd.qualname or m.name not in statements:
                    continue
                found = next((f for f in map(statement_access, statements[m.name]) if f), None)
                if not found:
                    self.result.outcomes["unlinked_sql"] += 1
                    continue
                u = TableUse("mybatis", "sql", m.qualname, m.d.name_line, m.d.name_col)
                for a in found:
                    self._access(fc, u, a.role, table_id(fc.repo, a.name, a.schema), list(a.columns))


def _declaring(fc: FileCtx) -> bool:
    """Whether ``fc``'s accesses name repositories or managers (which :meth:`_TableLinker.repositories_of` reads)."""
    return any(u.role in ("repository", "manager") or u.framework == GENERIC and u.entity == "self.model"
               for u in fc.ex.table_uses)


def _renders_sql(fc: FileCtx) -> bool:
    """Whether ``fc`` has SQL or JPQL accesses (rendered with constants, which no memo compares)."""
    return any(u.role in ("sql", "jpql") for u in fc.ex.table_uses)


def link_tables(r: Lookup, ctxs: Sequence[FileCtx], result: LinkResult,
                emit: Callable[[FileCtx, str, Node], None],
                render: Callable[[FileCtx, str | None, Template], str],
                import_target: Callable[[FileCtx, Import], ImportTarget],
                mappers: Mapping[str, Mapping[str, tuple[str, ...]]] | None = None,
                produce: Collection[str] | None = None, memo: LinkMemo | None = None) -> None:
    """Add to ``result`` the Table / Column nodes (through ``emit(fc, id, node)``, the linker's
    per-file emitter) and the DECLARES / HAS_COLUMN / READS / WRITES edges of every
    :class:`~indexer.model.TableDef` and :class:`~indexer.model.TableUse` of ``ctxs`` (every file of
    one repository), as the module docstring says; ``render(fc, scope, template)`` renders a SQL
    template with its constants (holes as ``"\\x00"``); ``import_target(fc, imp)`` says what an
    import names (the linker's :meth:`~indexer.frameworks.link` ``import_target``). Outcomes counted in ``result.outcomes``:
    ``tables_declared``, ``reads``, ``writes``, ``unlinked_table_use``, ``unlinked_sql``,
    ``unlinked_jpql``. ``produce``: link the accesses of those paths only (``None``: all); the
    declarations are always every file's. ``memo``: each file's accesses as an earlier link of the
    same resolver linked them, replayed while what they read holds (:mod:`indexer.frameworks.link_memo`).
    Never raises on odd facts."""
    if not mappers and not any(fc.ex.tables or fc.ex.table_uses for fc in ctxs):
        return
    _TableLinker(r, ctxs, result, emit, render, import_target, mappers or {}, produce, memo).run()
