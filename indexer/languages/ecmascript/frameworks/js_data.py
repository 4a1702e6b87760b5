"""Table accesses of JavaScript / TypeScript code -> :class:`~indexer.model.TableUse` (owner: the
enclosing function or method, as the extractor's ``CallSite.caller``).

Read from the extractor's call sites, each located in the tree by its position (no query pass):

* **raw SQL** (framework ``sql``): the first argument of ``query``, ``execute``, ``raw``,
  ``unsafe``, ``$queryRawUnsafe`` / ``$executeRawUnsafe`` (pg ``client.query`` / ``pool.query``,
  mysql2 ``connection.execute``, knex ``knex.raw``), and of ``none`` / ``one`` / ``oneOrNone`` /
  ``many`` / ``manyOrNone`` / ``any`` (pg-promise), ``prepare`` / ``run`` / ``all`` / ``get`` /
  ``exec`` (better-sqlite3, sqlite3) when it is a literal that reads as SQL; and tagged templates
  ``sql`...``` / ``SQL`...``` / ``Prisma.sql`...``` / ``prisma.$queryRaw`...``` /
  ``$executeRaw`...```. Literals, constants and local variables become a
  :class:`~indexer.model.Template` (a ``${...}`` substitution is a parameter, ``?``; a name alone
  counts when it is a constant or named like SQL: ``ACTIVE_USERS``, ``findSql``); the linker
  parses it with sqlglot, and a string that is not SQL claims nothing.
* **knex** (framework ``knex``, ``exact``): a query-builder chain whose table is a string literal:
  ``knex('users').where(...)``, ``db('users')``, ``knex.select('id').from('users')``,
  ``knex.insert({...}).into('users')``, ``trx.table('users')``; it writes when the chain calls
  ``insert``, ``update``, ``del`` / ``delete``, ``upsert``, ``merge``, ``increment``,
  ``decrement`` or ``truncate``, and reads otherwise (a filtered write also reads). Columns: string
  arguments of ``select`` / ``where*`` / ``orderBy`` / ``pluck`` and the keys of object arguments
  (``where({a})``, ``insert({a})``, ``update({a})``), qualified names stripped. Kept only when the
  head names a knex instance by a usual name (``knex``, ``db``, ``trx``, ...) or the file names
  knex at all, and the chain calls a query-builder method.
* **Prisma client** (framework ``prisma``, ``exact``): ``<x>.<model>.<operation>(...)`` where the
  receiver names a Prisma client (``prisma``, ``this.prisma``, ``ctx.prisma``, ``db`` in a file
  importing ``@prisma/client`` or naming ``PrismaClient`` / ``PrismaService``): ``findMany``,
  ``findUnique``, ``count``, ... read; ``create``, ``update``, ``upsert``, ``delete``, ``*Many``
  write. The entity is the model accessor (``user``, ``blogPost``) the linker matches to a
  ``schema.prisma`` model (``@@map`` gives its table). Columns: keys of ``where`` / ``select`` (read)
  and ``data`` (written).
* **TypeORM repositories** (framework ``typeorm``, ``inferred``): ``find``, ``findOneBy``, ``count``,
  ... read, ``save``, ``insert``, ``update``, ``delete``, ``remove``, ... write, on a receiver that is
  ``getRepository(E)`` (``dataSource.getRepository(E).find()``), a variable assigned one (``const
  repo = ds.getRepository(E)``), or a class field typed ``Repository<E>`` (``@InjectRepository(E)
  private repo: Repository<E>`` then ``this.repo.save(x)``); ``manager.find(E, ...)`` /
  ``manager.save(E, ...)`` on an ``EntityManager`` (a receiver ending in ``manager``); a query builder
  of such a receiver (``getRepository(E).createQueryBuilder("e")...getMany()``) reads, or writes when
  its chain calls ``insert()`` / ``update()`` / ``delete()`` / ``softDelete()`` / ``restore()``; a builder
  of a receiver naming no entity (``dataSource.createQueryBuilder()``) takes the one its chain names
  (``.from(User, "u")``, ``.insert().into(User)``, ``.update(User)``, ``.delete().from(User)``), an
  entity class it joins is read too (``.innerJoin(Photo, "p", ...)``, ``.leftJoinAndMapMany("u.pics",
  Photo, "p", ...)``), and so is a relation path of an alias of known entity
  (``.leftJoinAndSelect("u.photos", "p")``: the linker follows ``User.photos``'s declared type), with
  the columns the chain's strings name on the joined alias (:mod:`.typeorm_joins`), and a
  builder kept in a variable (``const qb = repo.createQueryBuilder()``) is read with the chains on
  that variable in the same block (``qb.delete().execute()`` writes). The linker
  resolves ``E`` to its ``@Entity`` class; what does not resolve links nothing. A custom repository
  (``@EntityRepository(User) class UserRepository extends Repository<User>``) is a ``repository``
  use, and a call of those names on any other receiver keeps the receiver: the linker links it when
  the receiver's type is such a class (``this.userRepository.find()`` with ``userRepository:
  UserRepository``) and the class does not declare the method itself.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.frameworks import looks_like_sql
from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.languages.ecmascript.frameworks.typeorm_joins import builder_joins
from indexer.model import FileExtraction, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "PRISMA_ROLES", "TYPEORM_ROLES", "KNEX_WRITES"]

LANGUAGES = ("javascript", "typescript")

_SQL_ALWAYS = frozenset({"query", "execute", "raw", "unsafe", "$queryRawUnsafe", "$executeRawUnsafe"})
_SQL_LITERAL = frozenset({"none", "one", "oneOrNone", "many", "manyOrNone", "any", "prepare", "run", "all", "get",
                          "exec"})
_SQL_NAME = re.compile(r"(?-i:^[A-Z][A-Z0-9_]*$)|sql", re.I)
_SQL_TAGS = frozenset({"sql", "SQL", "$queryRaw", "$executeRaw"})
KNEX_WRITES = frozenset({"insert", "update", "del", "delete", "upsert", "merge", "increment", "decrement", "truncate"})
"""Query-builder methods of knex that write the chain's table."""
_KNEX_READS = frozenset({
    "select", "where", "andWhere", "orWhere", "whereIn", "whereNot", "whereNotIn", "whereNull", "whereNotNull",
    "whereBetween", "whereLike", "first", "pluck", "count", "sum", "avg", "min", "max", "orderBy", "groupBy",
    "limit", "offset", "join", "leftJoin", "innerJoin", "returning", "distinct", "having", "onConflict", "columns",
    "column",
})
_KNEX_TABLE = frozenset({"from", "into", "table"})
_KNEX_COLUMNS = frozenset({"select", "where", "andWhere", "orWhere", "whereIn", "whereNot", "whereNotIn", "whereNull",
                           "whereNotNull", "whereBetween", "whereLike", "orderBy", "pluck", "columns", "column",
                           "insert", "update", "increment", "decrement"})
_KNEX_NAMES = frozenset({"knex", "db", "trx", "tx", "k", "database", "conn", "connection", "pg", "sql"})
PRISMA_ROLES = {
    **dict.fromkeys(("findUnique", "findUniqueOrThrow", "findFirst", "findFirstOrThrow", "findMany", "count",
                     "aggregate", "groupBy"), "reads"),
    **dict.fromkeys(("create", "createMany", "createManyAndReturn", "update", "updateMany", "updateManyAndReturn",
                     "upsert", "delete", "deleteMany"), "writes"),
}
"""Prisma client model operations and whether they read or write the model's table."""
TYPEORM_ROLES = {
    **dict.fromkeys(("find", "findOne", "findBy", "findOneBy", "findAndCount", "findAndCountBy", "findOneOrFail",
                     "findOneByOrFail", "findByIds", "count", "countBy", "exist", "exists", "existsBy", "sum",
                     "average", "minimum", "maximum"), "reads"),
    **dict.fromkeys(("save", "insert", "update", "upsert", "delete", "remove", "softDelete", "softRemove", "restore",
                     "recover", "increment", "decrement", "clear"), "writes"),
}
"""TypeORM ``Repository`` / ``EntityManager`` methods and whether they read or write the entity's table."""
_QUERY_BUILDER = "createQueryBuilder"
_READ_NAMES = frozenset({*_SQL_TAGS, *_SQL_ALWAYS, *_SQL_LITERAL, *PRISMA_ROLES, *TYPEORM_ROLES, _QUERY_BUILDER,
                         *_KNEX_TABLE, *KNEX_WRITES, *_KNEX_READS})
"""Every call name a rule of :meth:`_Detector.run` reads (a call with a receiver and another name is no use)."""
_BUILDER_WRITES = frozenset(("insert", "update", "delete", "softDelete", "restore"))
"""The ``SelectQueryBuilder`` methods that turn a repository's query builder into a write (TypeORM's
``InsertQueryBuilder`` / ``UpdateQueryBuilder`` / ``DeleteQueryBuilder`` / ``SoftDeleteQueryBuilder``)."""
_BUILDER_ENTITY = frozenset(("from", "into", "update"))
"""The query-builder methods whose first argument names the entity (``.from(User, "u")``,
``.insert().into(User)``, ``.update(User)``, ``.delete().from(User)``)."""
_REPO_TYPE = re.compile(r"^(?:Repository|MongoRepository|TreeRepository)<\s*([\w.]+)\s*>$")
_INJECT = re.compile(r"^InjectRepository\(\s*([\w.]+)\s*[,)]")
_ENTITY_REPOSITORY = re.compile(r"^EntityRepository\(\s*([\w.]+)\s*\)$")


class _Detector:
    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.jf: JsFile = js_file(root, src, out)
        self.root, self.src, self.out = root, src, out
        data = src.data
        self.knex_file = b"knex" in data
        self.prisma_file = any(i.module.startswith(("@prisma/client", ".prisma")) for i in out.imports) or \
            b"PrismaClient" in data or b"PrismaService" in data
        self.fields = self._repository_fields()
        self._repository_classes()
        self.repo_vars: dict[tuple[str | None, str], str] = {}
        self._chains: set[int] = set()

    def run(self) -> None:
        for c in self.out.calls:
            if c.name != "getRepository":  # a cheap gate before locating the call's node
                continue
            node = self._call_at(c.line, c.col)
            if node is not None:
                self._repository_variable(node, c.caller)
        for c in self.out.calls:
            name = c.name
            if c.receiver is not None and name not in _READ_NAMES:
                continue  # no rule below reads this call: its node is not located
            node = self._call_at(c.line, c.col)
            if node is None:
                continue
            if name in _SQL_TAGS or name in _SQL_ALWAYS or name in _SQL_LITERAL:
                self._raw_sql(node, name, c.caller, c.line, c.col)
            if c.receiver is not None and name in PRISMA_ROLES:
                self._prisma(node, name, c.receiver, c.caller, c.line, c.col)
            if c.receiver is not None and (name in TYPEORM_ROLES or name == _QUERY_BUILDER):
                self._typeorm(node, name, c.receiver, c.caller, c.line, c.col)
            if name in _KNEX_TABLE or name in KNEX_WRITES or name in _KNEX_READS or c.receiver is None:
                self._knex(node)
        if any(t in self.src.data for t in (b"sql`", b"SQL`", b"Raw`")):
            self._tagged_templates()
        self.out.table_uses.sort(key=lambda u: (u.line, u.col))

    def _tagged_templates(self) -> None:
        """Tagged templates (``sql`...```) are no call sites of the extractor: found by a walk of the
        tree, only in files whose bytes hold such a tag."""
        stack = [self.root]
        while stack:
            n = stack.pop()
            if n.type == "call_expression":
                args = n.child_by_field_name("arguments")
                fn = n.child_by_field_name("function")
                if args is not None and args.type == "template_string" and fn is not None:
                    name_node = fn.child_by_field_name("property") if fn.type == "member_expression" else fn
                    if name_node is not None:
                        line, col = self.jf.pos(name_node)
                        self._raw_sql(n, self.jf.text(name_node), self.jf.code_scope(n), line, col)
            stack.extend(reversed(n.named_children))

    # -- locating ----------------------------------------------------------------------------------

    def _call_at(self, line: int, col: int) -> Node | None:
        """The call (or tagged template) whose callee name starts at (line, col)."""
        n = self.src.node_at(self.root, line, col)
        for _ in range(4):
            if n is None:
                return None
            if n.type == "call_expression":
                return n
            p = n.parent
            if p is not None and p.type == "member_expression" and p.child_by_field_name("property") == n:
                n = p
                continue
            if p is not None and p.type == "call_expression" and p.child_by_field_name("function") == n:
                return p
            return None
        return None

    def _use(self, framework: str, role: str, owner: str | None, line: int, col: int, **kw: object) -> None:
        self.out.table_uses.append(TableUse(framework, role, owner, line, col, **kw))  # type: ignore[arg-type]

    # -- raw SQL -----------------------------------------------------------------------------------

    def _raw_sql(self, node: Node, name: str, owner: str | None, line: int, col: int) -> None:
        args = node.child_by_field_name("arguments")
        if args is not None and args.type == "template_string":  # a tagged template
            if name not in _SQL_TAGS:
                return
            tpl = self.jf.template(args)
        else:
            if name in _SQL_TAGS:
                return
            first = unwrap(arguments(args)[0]) if arguments(args) else None
            if first is None:
                return
            if first.type == "object":  # pg's client.query({ text: "...", values })
                first = unwrap(self.jf.object_pairs(first).get("text"))
                if first is None:
                    return
            tpl = self.jf.template(first)
        lits = [t for k, t in tpl.parts if k == "lit"]
        if lits:
            text = "".join(t if k == "lit" else "?" for k, t in tpl.parts)
            if not looks_like_sql(text):
                return
        elif not (name in _SQL_ALWAYS and len(tpl.parts) == 1 and tpl.parts[0][0] == "ref"
                  and _SQL_NAME.search(tpl.parts[0][1].rsplit(".", 1)[-1])):
            return  # a name passed to query() is SQL only when named like it (ACTIVE_USERS, findSql)
        self._use("sql", "sql", owner, line, col, sql=tpl)

    # -- knex --------------------------------------------------------------------------------------

    def _knex(self, node: Node) -> None:
        top = node
        for _ in range(64):  # the outermost call of the chain
            p = top.parent
            if p is not None and p.type == "member_expression" and p.child_by_field_name("object") == top:
                q = p.parent
                if q is not None and q.type == "call_expression" and q.child_by_field_name("function") == p:
                    top = q
                    continue
            if p is not None and p.type == "await_expression":
                break
            break
        if top.id in self._chains:
            return
        self._chains.add(top.id)
        chain: list[tuple[str, list[Node], Node]] = []  # (method, arguments, name node), outermost first
        n: Node | None = top
        head: str | None = None
        for _ in range(64):
            if n is None or n.type != "call_expression":
                break
            fn = n.child_by_field_name("function")
            args = arguments(n.child_by_field_name("arguments"))
            if fn is not None and fn.type == "member_expression":
                prop = fn.child_by_field_name("property")
                chain.append((self.jf.text(prop), args, prop))
                obj = fn.child_by_field_name("object")
                if obj is not None and obj.type in ("identifier", "member_expression", "this"):
                    head = self.jf.text(obj).rsplit(".", 1)[-1]
                    break
                n = obj
            elif fn is not None and fn.type == "identifier":
                chain.append(("", args, fn))  # knex('users')
                head = self.jf.text(fn)
                break
            else:
                return
        if head is None or not chain or not (head in _KNEX_NAMES or self.knex_file):
            return
        methods = {m for m, _, _ in chain}
        if not methods & (_KNEX_READS | KNEX_WRITES):
            return
        table = None
        for m, args, _ in chain:
            if (m == "" or m in _KNEX_TABLE) and len(args) == 1:
                table = self.jf.string(args[0])
        if table is None or not re.fullmatch(r"[\w.]+", table.split(" as ")[0].strip()):
            return
        table = table.split(" as ")[0].strip()
        read_cols: list[str] = []
        write_cols: list[str] = []
        for m, args, _ in reversed(chain):
            if m not in _KNEX_COLUMNS:
                continue
            into = write_cols if m in ("insert", "update", "increment", "decrement") else read_cols
            for a in args[:1] if m != "select" else args:
                self._knex_columns(a, into)
        owner = self.jf.code_scope(top)
        name_node = chain[-1][2]
        line, col = self.jf.pos(name_node)
        writes = bool(methods & KNEX_WRITES)
        if writes:
            self._use("knex", "writes", owner, line, col, table=table, columns=write_cols)
        if not writes or read_cols:
            self._use("knex", "reads", owner, line, col, table=table, columns=read_cols)

    def _knex_columns(self, node: Node, into: list[str]) -> None:
        node = unwrap(node)
        if node is None:
            return
        if node.type == "array" and node.named_children:
            node = unwrap(node.named_children[0]) or node
        names = list(self.jf.object_pairs(node)) if node.type == "object" else [self.jf.string(node) or ""]
        for name in names:
            col = name.split(" as ")[0].strip().rsplit(".", 1)[-1]
            if col and col != "*" and re.fullmatch(r"\w+", col) and col not in into:
                into.append(col)

    # -- Prisma ------------------------------------------------------------------------------------

    def _prisma(self, node: Node, name: str, receiver: str, owner: str | None, line: int, col: int) -> None:
        head, _, model = receiver.rpartition(".")
        if not head or not model or not re.fullmatch(r"[A-Za-z_]\w*", model) or model.startswith("$"):
            return
        client = head.rsplit(".", 1)[-1]
        if not ("prisma" in client.lower() or (self.prisma_file and client in ("db", "client", "tx", "ctx.db"))):
            return
        args = arguments(node.child_by_field_name("arguments"))
        pairs = self.jf.object_pairs(args[0]) if args else {}
        read_cols = [k for key in ("where", "select") for k in self.jf.object_pairs(pairs.get(key))
                     if k not in ("AND", "OR", "NOT")]
        write_cols = list(self.jf.object_pairs(pairs.get("data"))) + list(self.jf.object_pairs(pairs.get("update")))
        role = PRISMA_ROLES[name]
        if role == "writes":
            self._use("prisma", "writes", owner, line, col, entity=model, columns=list(dict.fromkeys(write_cols)))
            if read_cols and name not in ("create", "createMany", "createManyAndReturn"):
                self._use("prisma", "reads", owner, line, col, entity=model, columns=read_cols)
        else:
            self._use("prisma", "reads", owner, line, col, entity=model, columns=list(dict.fromkeys(read_cols)))

    # -- TypeORM -----------------------------------------------------------------------------------

    def _repository_fields(self) -> dict[str, str]:
        """``{Class.field: entity}`` of class fields typed ``Repository<E>`` or ``@InjectRepository(E)``."""
        out: dict[str, str] = {}
        for d in self.out.definitions:
            if d.kind != "field":
                continue
            m = _REPO_TYPE.match((d.field_type or "").replace(" ", ""))
            entity = m.group(1) if m else None
            for deco in d.decorators:
                i = _INJECT.match(deco)
                if i:
                    entity = i.group(1)
            if entity:
                out[d.qualname] = entity
        return out

    def _repository_classes(self) -> None:
        """A ``repository`` use (the role Spring Data's interfaces have) per class decorated
        ``@EntityRepository(E)`` (TypeORM 0.2's custom repositories, extending ``Repository<E>`` or
        ``AbstractRepository<E>``): a call on an instance of it, or of a subclass, whose method the
        class does not declare itself (``userRepository.find()``, inherited) reads or writes ``E``'s table."""
        for d in self.out.definitions:
            if d.kind != "class":
                continue
            entity = next((m.group(1) for m in map(_ENTITY_REPOSITORY.match, d.decorators) if m), None)
            if entity is not None:
                self._use("typeorm", "repository", d.qualname, d.start_line, d.start_col, entity=entity)

    def _get_repository_entity(self, call: Node) -> str | None:
        fn = call.child_by_field_name("function")
        name = fn.child_by_field_name("property") if fn is not None and fn.type == "member_expression" else fn
        if name is None or self.jf.text(name) != "getRepository":
            return None
        args = arguments(call.child_by_field_name("arguments"))
        return self.jf.text(args[0]) if args and args[0].type in ("identifier", "member_expression") else None

    def _repository_variable(self, call: Node, scope: str | None) -> None:
        entity = self._get_repository_entity(call)
        p = call.parent
        if p is not None and p.type == "await_expression":
            p = p.parent
        if entity and p is not None and p.type == "variable_declarator":
            target = p.child_by_field_name("name")
            if target is not None and target.type == "identifier":
                self.repo_vars[(scope, self.jf.text(target))] = entity

    def _chain_after(self, node: Node) -> tuple[list[tuple[str, list[Node]]], Node]:
        """The methods called on ``node``'s value, in order (``x.delete().from(User).execute()`` from
        ``x``: ``[("delete", []), ("from", [User]), ("execute", [])]``), and the chain's outermost node."""
        out: list[tuple[str, list[Node]]] = []
        while node.parent is not None and node.parent.type in ("member_expression", "call_expression", "await_expression",
                                                                 "parenthesized_expression", "non_null_expression"):
            parent = node.parent
            if parent.type == "member_expression" and parent.child_by_field_name("object") == node:
                prop = parent.child_by_field_name("property")
                call = parent.parent
                args = arguments(call.child_by_field_name("arguments")) \
                    if call is not None and call.type == "call_expression" and call.child_by_field_name("function") == parent else []
                if prop is not None:
                    out.append((self.jf.text(prop), args))
            elif parent.type == "call_expression" and parent.child_by_field_name("function") != node:
                break  # node is an argument
            node = parent
        return out, node

    def _builder_chains(self, call: Node) -> list[tuple[str, list[Node]]]:
        """The methods called on the query builder a ``createQueryBuilder(...)`` call makes: its own
        chain and, when the builder is kept in a variable (``const qb = repo.createQueryBuilder("u")``),
        the chains on that variable's later uses in the same function (``qb.delete().execute()``)."""
        methods, top = self._chain_after(call)
        p = top.parent
        if p is None or p.type != "variable_declarator" or p.child_by_field_name("value") != top:
            return methods
        target = p.child_by_field_name("name")
        if target is None or target.type != "identifier":
            return methods
        name, body = self.jf.text(target), p.parent
        while body is not None and body.type not in ("statement_block", "program"):
            body = body.parent
        stack = [body] if body is not None else []
        while stack:
            n = stack.pop()
            if n.type == "identifier" and n.start_byte > target.end_byte and self.jf.text(n) == name and \
                    n.parent is not None and n.parent.type == "member_expression" and n.parent.child_by_field_name("object") == n:
                methods += self._chain_after(n)[0]
            stack.extend(n.named_children)
        return methods

    def _builder_use(self, call: Node) -> tuple[str, str | None]:
        """``(role, entity)`` of a ``createQueryBuilder(...)`` call from the methods its builder gets
        (:meth:`_builder_chains`): ``writes`` when one turns it into an insert, update or delete
        (TypeORM's ``InsertQueryBuilder`` / ``UpdateQueryBuilder`` / ``DeleteQueryBuilder`` /
        ``SoftDeleteQueryBuilder``), else ``reads``; the entity the chain names (``.from(User, "u")``,
        ``.insert().into(User)``, ``.update(User)``, ``.delete().from(User)``: a class name, the first
        argument), else ``None``."""
        methods = self._builder_chains(call)
        role = "writes" if any(m in _BUILDER_WRITES for m, _ in methods) else "reads"
        entity = next((self.jf.text(args[0]) for m, args in methods
                       if m in _BUILDER_ENTITY and args and args[0].type in ("identifier", "member_expression")
                       and self.jf.text(args[0]).rsplit(".", 1)[-1][:1].isupper()), None)
        return role, entity

    def _joined(self, call: Node, owner: str | None, entity: str | None, args: list[Node]) -> None:
        """A ``reads`` use (``inferred``) of each entity a ``createQueryBuilder(...)`` call's builder joins
        (:func:`~indexer.languages.ecmascript.frameworks.typeorm_joins.builder_joins`), at the argument
        naming it: an entity class (``.innerJoin(Photo, "p", "p.userId = u.id")``), or a relation path
        of an alias of known entity (``.leftJoinAndSelect("u.photos", "p")`` on the builder of ``User``
        aliased ``u``: ``User`` and relation ``photos``), with the columns the chain's strings name on
        the joined alias. ``entity`` and ``args`` are the builder's own entity and the call's arguments
        after it (the first, a string, is the builder's alias). A lower-case value is no join."""
        alias = self.jf.string(args[0]) if args else None
        root = (alias, entity) if alias and entity else None
        for j in builder_joins(self.jf, self._builder_chains(call), root):
            self._use("typeorm", "reads", owner, self.src.line(j.node), self.src.col(j.node), entity=j.entity,
                      columns=j.columns, resolution="inferred", relation=j.relation or None)

    def _typeorm(self, node: Node, name: str, receiver: str, owner: str | None, line: int, col: int) -> None:
        role, named = self._builder_use(node) if name == _QUERY_BUILDER else (TYPEORM_ROLES[name], None)
        fn = node.child_by_field_name("function")
        obj = unwrap(fn.child_by_field_name("object")) if fn is not None and fn.type == "member_expression" else None
        args = arguments(node.child_by_field_name("arguments"))
        entity = None
        if obj is None:
            pass
        elif obj.type == "call_expression":
            entity = self._get_repository_entity(obj)
        elif receiver.startswith("this.") and receiver.count(".") == 1 and owner:
            cls = owner.rsplit(".", 1)[0] if "." in owner else owner
            entity = self.fields.get(f"{cls}.{receiver[5:]}")
        elif "." not in receiver:
            entity = self.repo_vars.get((owner, receiver)) or self.repo_vars.get((None, receiver))
        if obj is not None and entity is None and receiver.rsplit(".", 1)[-1].lower().endswith("manager") and args \
                and args[0].type == "identifier" and self.jf.text(args[0])[:1].isupper():
            entity, args = self.jf.text(args[0]), args[1:]
        if name == _QUERY_BUILDER:
            self._joined(node, owner, entity or named, args)
        if obj is None:
            return
        entity = entity or named
        if entity is None:
            # maybe an instance of a custom repository class (``@EntityRepository(User) class UserRepository``),
            # of this file or another: the linker resolves the receiver's type (as for Spring Data's)
            self._use("typeorm", role, owner, line, col, resolution="inferred", receiver=receiver)
            return
        cols: list[str] = []
        if role == "reads" and args and name != _QUERY_BUILDER:
            pairs = self.jf.object_pairs(args[0])
            cols = list(self.jf.object_pairs(pairs["where"])) if "where" in pairs else \
                list(pairs) if name.endswith("By") else []
        self._use("typeorm", role, owner, line, col, entity=entity, columns=cols, resolution="inferred")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's table accesses (raw SQL, knex, Prisma client, TypeORM repositories) to
    ``out.table_uses``."""
    if out.calls:
        _Detector(root, src, out).run()
