"""JPA entities, Spring Data repositories, EntityManager, JDBC and MyBatis annotations ->
:class:`~indexer.model.TableDef` / :class:`~indexer.model.TableUse`.

Tables (framework ``jpa``):

* an ``@Entity`` class declares a table: ``@Table(name = "x", schema = "s")``, else the entity's
  name (``@Entity(name = "X")`` or the class name) by Spring Boot's physical naming strategy
  (``CamelCaseToUnderscoresNamingStrategy``: ``OwnerPet`` -> ``owner_pet``, :func:`snake`); its columns
  are its instance fields, in order: ``@Column(name = "c")`` / ``@JoinColumn(name = "c")``, else the
  field name by the same strategy, ``_id`` added for a ``@ManyToOne`` / ``@OneToOne`` without a join
  column (the referenced key is assumed to be ``id``). ``static`` / ``transient`` fields,
  ``@Transient``, ``@OneToMany``, ``@ManyToMany`` and ``@ElementCollection`` fields are not columns.
* a ``@MappedSuperclass`` (or an ``@Embeddable``) declares its columns for its subclasses: a
  :class:`~indexer.model.TableDef` with an empty ``name`` the linker merges into every entity below it.

Uses (owners: the enclosing method):

* a Spring Data repository interface (extends ``Repository``, ``CrudRepository``, ``JpaRepository``,
  ``ListCrudRepository``, ``PagingAndSortingRepository`` and their reactive / R2DBC forms with type
  arguments) is a ``repository`` use of its entity type (first type argument); each method it
  declares reads or writes that entity's table: ``@Query`` is parsed (native SQL, or JPQL naming
  entities), a derived query name (:func:`derived_query`: ``findByEmailAndStatus`` reads columns
  ``email``, ``status``; ``deleteBy...`` writes) by Spring Data's grammar;
* a call of an inherited CRUD method (``save``, ``findById``, ``deleteAll``, :data:`CRUD_ROLES`) or of
  a derived query name on any receiver becomes a use with that ``receiver``: the linker keeps it only
  when the receiver is an instance of a repository interface that does not declare the method;
* ``EntityManager``: ``persist`` / ``merge`` / ``remove`` write the entity passed (resolved by the
  linker from the argument), ``find`` / ``getReference`` (``X.class``) read, ``createQuery`` is JPQL,
  ``createNativeQuery`` SQL;
* ``JdbcTemplate`` / ``NamedParameterJdbcTemplate`` / ``JdbcClient`` / ``JdbcOperations`` /
  ``java.sql`` ``Connection`` and ``Statement`` / Spring R2DBC's ``DatabaseClient``: the first argument of ``query*``, ``update``,
  ``batchUpdate``, ``execute``, ``prepareStatement``, ``executeQuery``, ``executeUpdate``, ``sql``
  is a SQL template (literals and constants), parsed by the linker once constants are known;
* MyBatis ``@Select`` / ``@Insert`` / ``@Update`` / ``@Delete`` on a mapper method: SQL.

A string that is not SQL sqlglot parses claims nothing (:func:`indexer.frameworks.sql_text.statement_access`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import Annotation, JavaFile, compact, string_value
from indexer.model import FileExtraction, TableDef, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "snake", "derived_query", "CRUD_ROLES", "REPOSITORY_TYPES"]

LANGUAGES = ("java",)
FRAMEWORK = "jpa"

REPOSITORY_TYPES = frozenset({
    "Repository", "CrudRepository", "ListCrudRepository", "PagingAndSortingRepository",
    "ListPagingAndSortingRepository", "JpaRepository", "JpaSpecificationExecutor", "ReactiveCrudRepository",
    "ReactiveSortingRepository", "R2dbcRepository", "CoroutineCrudRepository", "RevisionRepository",
})
CRUD_ROLES = {
    "save": "writes", "saveAll": "writes", "saveAndFlush": "writes", "saveAllAndFlush": "writes",
    "delete": "writes", "deleteById": "writes", "deleteAll": "writes", "deleteAllById": "writes",
    "deleteAllInBatch": "writes", "deleteInBatch": "writes", "deleteAllByIdInBatch": "writes",
    "findById": "reads", "findAll": "reads", "findAllById": "reads", "existsById": "reads", "count": "reads",
    "getById": "reads", "getReferenceById": "reads", "getOne": "reads", "findOne": "reads", "exists": "reads",
    "findBy": "reads",
}
"""The methods Spring Data repositories inherit, and whether they read or write the entity's table."""
_DERIVED = re.compile(r"^(find|read|get|query|search|stream|count|exists|delete|remove)(\w*?)By([A-Z]\w*)$")
_OPERATORS = (
    "IsNotNull", "NotNull", "IsNull", "Null", "IsNotEmpty", "NotEmpty", "IsEmpty", "Empty",
    "IsStartingWith", "StartingWith", "StartsWith", "IsEndingWith", "EndingWith", "EndsWith",
    "IsNotContaining", "NotContaining", "NotContains", "IsContaining", "Containing", "Contains",
    "IsNotLike", "NotLike", "IsLike", "Like", "IsNotIn", "NotIn", "IsIn", "In", "IsBetween", "Between",
    "IsLessThanEqual", "LessThanEqual", "IsLessThan", "LessThan", "IsGreaterThanEqual", "GreaterThanEqual",
    "IsGreaterThan", "GreaterThan", "IsBefore", "Before", "IsAfter", "After", "IsTrue", "True", "IsFalse",
    "False", "MatchesRegex", "Matches", "Regex", "IsNear", "Near", "IsWithin", "Within", "Exists",
    "IgnoreCase", "IgnoringCase", "AllIgnoreCase", "AllIgnoringCase", "IsNot", "Not", "Is", "Equals",
)
_JDBC_TYPES = {
    "JdbcTemplate": "jdbc", "NamedParameterJdbcTemplate": "jdbc", "JdbcOperations": "jdbc",
    "NamedParameterJdbcOperations": "jdbc", "JdbcClient": "jdbc", "Connection": "jdbc", "Statement": "jdbc",
    "PreparedStatement": "jdbc", "SimpleJdbcCall": "jdbc", "DatabaseClient": "jdbc",  # Spring R2DBC's: sql(...)
}
_JDBC_METHODS = frozenset({
    "query", "queryForObject", "queryForList", "queryForMap", "queryForRowSet", "queryForStream", "queryForLong",
    "queryForInt", "update", "batchUpdate", "execute", "prepareStatement", "prepareCall", "executeQuery",
    "executeUpdate", "executeLargeUpdate", "sql", "addBatch",
})
_EM_TYPES = {"EntityManager": "em", "Session": "em", "StatelessSession": "em"}
_EM_METHODS = {
    "persist": "writes", "merge": "writes", "remove": "writes", "find": "reads", "getReference": "reads",
    "createQuery": "jpql", "createNativeQuery": "sql", "saveOrUpdate": "writes", "get": "reads",
}
_MYBATIS = {"Select": "sql", "Insert": "sql", "Update": "sql", "Delete": "sql"}
_NOT_COLUMNS = frozenset({"Transient", "OneToMany", "ManyToMany", "ElementCollection"})
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def snake(name: str) -> str:
    """Spring Boot's physical naming (``CamelCaseToUnderscoresNamingStrategy``): an underscore before
    each capital that follows a lower-case letter or digit, dots to underscores, lower case:
    ``OwnerPet`` -> ``owner_pet``, ``birthDate`` -> ``birth_date``, ``URLMapping`` -> ``urlmapping``.

    Spring's rule puts ``_`` only where a lower-case letter or digit meets a capital, so runs of
    capitals stay together."""
    out = []
    for i, ch in enumerate(name):
        if ch == ".":
            out.append("_")
            continue
        if i and ch.isupper() and (name[i - 1].islower() or name[i - 1].isdigit()):
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def derived_query(name: str) -> tuple[str, list[str]] | None:
    """``(role, columns)`` of a Spring Data derived query method name, ``None`` when ``name`` is not
    one: ``findByEmailAndStatus`` -> ``("reads", ["email", "status"])``, ``deleteByOwnerId`` ->
    ``("writes", ["owner_id"])``, ``findDistinctTop3ByLastNameStartingWithOrderByAgeDesc`` ->
    ``("reads", ["last_name"])``. Columns are property names by :func:`snake` (a nested property path
    ``AddressZip`` is read as one column ``address_zip``)."""
    m = _DERIVED.match(name)
    if m is None:
        return None
    verb, criteria = m.group(1), m.group(3)
    criteria = criteria.split("OrderBy", 1)[0]
    columns: list[str] = []
    for part in re.split(r"(?<=[a-z0-9])(?:And|Or)(?=[A-Z])", criteria):
        for op in _OPERATORS:
            if part.endswith(op) and len(part) > len(op):
                part = part[: -len(op)]
                break
        for op in ("IgnoreCase", "IgnoringCase"):
            part = part.removesuffix(op)
        if part:
            col = snake(part[0].lower() + part[1:])
            if col not in columns:
                columns.append(col)
    return ("writes" if verb in ("delete", "remove") else "reads"), columns


def _type_args(src: SourceText, node: Node) -> tuple[str, list[str]]:
    """``(raw type name, [type argument texts])`` of a ``generic_type`` / ``type_identifier``."""
    if node.type == "generic_type":
        head = next((c for c in node.named_children if c.type in ("type_identifier", "scoped_type_identifier")), None)
        targs = next((c for c in node.named_children if c.type == "type_arguments"), None)
        args = [compact(src, a).split("<", 1)[0] for a in (targs.named_children if targs is not None else [])]
        return (compact(src, head).rsplit(".", 1)[-1] if head is not None else ""), args
    return compact(src, node).rsplit(".", 1)[-1], []


class _Detector:
    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.jf = JavaFile.of(root, src, out)
        self.root, self.src, self.out = root, src, out

    def run(self) -> None:
        self._entities()
        repos = self._repositories()
        self._calls(repos)
        for decl, anns in self.jf.annotated(*_MYBATIS):
            if decl.type != "method_declaration":
                continue
            for ann in anns:
                if ann.name in _MYBATIS:
                    for v in ann.values("value") or []:
                        self._use("sql", self.jf.qualname(decl), ann.name_node, sql=self.jf.template(v), framework="mybatis")

    def _use(self, role: str, owner: str | None, at: Node, framework: str = FRAMEWORK, **kw: object) -> None:
        self.out.table_uses.append(TableUse(framework, role, owner, self.src.line(at), self.src.col(at), **kw))  # type: ignore[arg-type]

    # -- entities ----------------------------------------------------------------------------------

    def _entities(self) -> None:
        jf, src = self.jf, self.src
        for decl, anns in jf.annotated("Entity", "MappedSuperclass", "Embeddable"):
            if decl.type not in ("class_declaration", "record_declaration"):
                continue
            qualname = jf.qualname(decl)
            names = {a.name: a for a in anns}
            if qualname is None:
                continue
            cls_name = qualname.rsplit(".", 1)[-1]
            name, schema = "", None
            if "Entity" in names:
                name = snake(self._string(names["Entity"], "name") or cls_name)
                if "Table" in names:
                    name = self._string(names["Table"], "name") or name
                    schema = self._string(names["Table"], "schema")
            at = decl.child_by_field_name("name") or decl
            self.out.tables.append(TableDef(FRAMEWORK, name, schema, self._columns(decl), src.line(at), src.col(at),
                                            entity=qualname, cascades=self._cascades(decl)))

    def _cascades(self, decl: Node) -> tuple[str, ...]:
        """The entity types the class's relationship fields cascade writes to: ``@OneToMany`` /
        ``@ManyToMany`` / ``@OneToOne`` / ``@ManyToOne`` with a ``cascade`` of ``ALL``, ``PERSIST``,
        ``MERGE`` or ``REMOVE``, or ``orphanRemoval = true``; a collection's element type
        (``List<Pet>`` -> ``Pet``)."""
        body = decl.child_by_field_name("body")
        out: list[str] = []
        for f in body.named_children if body is not None else ():
            if f.type != "field_declaration":
                continue
            anns = {a.name: a for a in self.jf.annotations(f)}
            rel = next((anns[k] for k in ("OneToMany", "ManyToMany", "OneToOne", "ManyToOne") if k in anns), None)
            if rel is None:
                continue
            cascade = " ".join(self.src.text(v) for v in rel.values("cascade") or ())
            orphans = any(self.src.text(v) == "true" for v in rel.values("orphanRemoval") or ())
            if not (orphans or re.search(r"\b(ALL|PERSIST|MERGE|REMOVE)\b", cascade)):
                continue
            ftype = f.child_by_field_name("type")
            text = compact(self.src, ftype) if ftype is not None else ""
            inner = re.search(r"<([\w.]+)>$", text)  # List<Pet>, Set<com.x.Tag>
            element = inner.group(1) if inner else text.split("<", 1)[0]
            if element and element not in out:
                out.append(element)
        return tuple(out)

    def _string(self, ann: Annotation, key: str) -> str | None:
        values = ann.values(key)
        if not values or values[0].type != "string_literal":
            return None
        return string_value(self.src, values[0]) or None

    def _columns(self, decl: Node) -> list[tuple[str, str | None]]:
        body = decl.child_by_field_name("body")
        cols: list[tuple[str, str | None]] = []
        if body is None:
            return cols
        for f in body.named_children:
            if f.type != "field_declaration":
                continue
            mods = next((c for c in f.named_children if c.type == "modifiers"), None)
            mod_text = self.src.text(mods) if mods is not None else ""
            if re.search(r"\b(static|transient)\b", mod_text):
                continue
            anns = {a.name: a for a in self.jf.annotations(f)}
            if anns.keys() & _NOT_COLUMNS:
                continue
            ftype = f.child_by_field_name("type")
            type_text = compact(self.src, ftype).split("<", 1)[0] if ftype is not None else None
            for d in f.named_children:
                if d.type != "variable_declarator":
                    continue
                fname = self.src.text(d.child_by_field_name("name"))
                col = None
                for key in ("Column", "JoinColumn"):
                    if key in anns:
                        col = self._string(anns[key], "name")
                if col is None:
                    col = snake(fname)
                    if "ManyToOne" in anns or "OneToOne" in anns:
                        if "OneToOne" in anns and anns["OneToOne"].values("mappedBy"):
                            continue
                        col += "_id"
                cols.append((col, type_text))
        return cols

    # -- repositories ------------------------------------------------------------------------------

    def _repositories(self) -> dict[str, str]:
        """``{interface qualname: entity type text}`` of the Spring Data repositories declared here."""
        jf, src = self.jf, self.src
        found: dict[str, str] = {}
        for d in self.out.definitions:
            if d.kind != "interface" or not any(b.split("<", 1)[0].rsplit(".", 1)[-1] in REPOSITORY_TYPES for b in d.bases):
                continue
            decl = self._decl_at(d.start_line, d.start_col)
            if decl is None:
                continue
            ext = next((c for c in decl.named_children if c.type == "extends_interfaces"), None)
            tl = next((c for c in ext.named_children if c.type == "type_list"), None) if ext is not None else None
            entity = None
            for t in tl.named_children if tl is not None else []:
                raw, args = _type_args(src, t)
                if raw in REPOSITORY_TYPES and args:
                    entity = args[0]
                    break
            if entity is None:
                continue
            found[d.qualname] = entity
            at = decl.child_by_field_name("name") or decl
            self._use("repository", d.qualname, at, entity=entity)
            for method in jf.methods(decl):
                self._repository_method(method, entity)
        return found

    def _decl_at(self, line: int, col: int) -> Node | None:
        stack = [self.root]
        while stack:
            n = stack.pop()
            if n.start_point[0] + 1 == line and self.src.col(n) == col and n.type == "interface_declaration":
                return n
            if n.start_point[0] + 1 <= line <= n.end_point[0] + 1:
                stack.extend(c for c in n.named_children if c.type in (
                    "program", "class_declaration", "interface_declaration", "class_body", "interface_body",
                    "enum_declaration", "enum_body", "enum_body_declarations", "record_declaration"))
        return None

    def _repository_method(self, method: Node, entity: str) -> None:
        jf = self.jf
        owner = jf.qualname(method)
        name_node = method.child_by_field_name("name")
        if owner is None or name_node is None:
            return
        anns = {a.name: a for a in jf.annotations(method)}
        query = anns.get("Query")
        if query is not None:
            values = query.values("value")
            native = query.values("nativeQuery")
            if values:
                is_native = bool(native) and self.src.text(native[0]) == "true"
                role = "sql" if is_native else "jpql"
                self._use(role, owner, query.name_node, sql=jf.template(values[0]), entity=entity)
            return
        name = self.src.text(name_node)
        derived = derived_query(name)
        if derived is not None:
            self._use(derived[0], owner, name_node, entity=entity, columns=derived[1], resolution="inferred")
        elif name in CRUD_ROLES:
            self._use(CRUD_ROLES[name], owner, name_node, entity=entity, resolution="inferred")

    # -- calls -------------------------------------------------------------------------------------

    def _calls(self, repos: dict[str, str]) -> None:
        for call in self.out.calls:
            name, receiver = call.name, call.receiver
            if receiver is None or call.is_new:
                continue
            if call.caller in repos or (call.caller or "").rpartition(".")[0] in repos:
                continue
            derived = derived_query(name)
            if name in CRUD_ROLES or derived is not None:
                role, cols = (CRUD_ROLES[name], []) if name in CRUD_ROLES else derived  # type: ignore[misc]
                self.out.table_uses.append(TableUse(FRAMEWORK, role, call.caller, call.line, call.col, columns=cols,
                                                    resolution="inferred", receiver=receiver))
            if name in _EM_METHODS or name in _JDBC_METHODS:
                self._client_call(call.caller, receiver, name, call.line, call.col)

    def _client_call(self, caller: str | None, receiver: str, name: str, line: int, col: int) -> None:
        jf = self.jf
        kind = jf.client_kind(receiver, caller, {**_JDBC_TYPES, **_EM_TYPES})
        if kind is None:
            return
        node = self._call_node(line, col)
        if node is None:
            return
        args = [c for c in (node.child_by_field_name("arguments").named_children if node.child_by_field_name("arguments") else [])
                if c.type not in ("line_comment", "block_comment")]
        if not args:
            return
        if kind == "jdbc" and name in _JDBC_METHODS:
            self.out.table_uses.append(TableUse("jdbc", "sql", caller, line, col, sql=jf.template(args[0])))
        elif kind == "em" and name in _EM_METHODS:
            role = _EM_METHODS[name]
            if role in ("sql", "jpql"):
                self.out.table_uses.append(TableUse(FRAMEWORK, role, caller, line, col, sql=jf.template(args[0])))
            elif role == "reads" and args[0].type == "class_literal":
                entity = compact(self.src, args[0]).removesuffix(".class")
                self.out.table_uses.append(TableUse(FRAMEWORK, "reads", caller, line, col, entity=entity))
            elif role == "writes":
                self.out.table_uses.append(TableUse(FRAMEWORK, "writes", caller, line, col,
                                                    entity=compact(self.src, args[0]), resolution="inferred"))

    def _call_node(self, line: int, col: int) -> Node | None:
        """The ``method_invocation`` whose name starts at (line, col)."""
        point = (line - 1, 0)
        n = self.root.named_descendant_for_point_range(point, (line - 1, 10_000))
        best = None
        stack = [n] if n is not None else []
        while stack:
            x = stack.pop()
            if x.type == "method_invocation":
                nm = x.child_by_field_name("name")
                if nm is not None and nm.start_point[0] + 1 == line and self.src.col(nm) == col:
                    best = x
                    break
            stack.extend(x.named_children)
        if best is None and n is not None:
            p = n.parent
            while p is not None and best is None:
                if p.type == "method_invocation":
                    nm = p.child_by_field_name("name")
                    if nm is not None and nm.start_point[0] + 1 == line and self.src.col(nm) == col:
                        best = p
                p = p.parent
        return best


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's JPA tables to ``out.tables`` and its table accesses to ``out.table_uses``."""
    _Detector(root, src, out).run()

