"""Spring Data: the methods a repository interface inherits from the library's repository types, as
definitions (``Definition.generated = "spring-data"``).

``interface OwnerRepository extends JpaRepository<Owner, Integer>`` declares no ``save`` or
``findAll``, yet the application calls ``owners.save(owner)``: Spring builds the implementation at
run time. This module gives the Java extractor those members, so that the resolver binds such calls
like any other (``callers OwnerRepository.save``, the blast radius of a repository, a method reached
through it), instead of losing them as calls into a library. What is generated follows Spring Data
3's interfaces (commons, JPA, MongoDB, reactive), with the type arguments written in the ``extends``
clause: ``T`` the entity (first), ``ID`` its key (second), each parameter and return type written
with them (``save(Owner entity)`` returning ``Owner``, ``findById(Integer id)`` returning
``Optional<Owner>``). A member the interface writes itself (same name and parameter count) is not
generated. The members span the interface's name (the source writes them nowhere)."""

from __future__ import annotations

from indexer.model import Definition, Param

__all__ = ["GENERATOR", "inherited_members", "split_type_arguments"]

GENERATOR = "spring-data"

_CRUD = (
    ("save", "T", (("T", "entity"),)), ("saveAll", "{L}<T>", (("Iterable<T>", "entities"),)),
    ("findById", "Optional<T>", (("ID", "id"),)), ("existsById", "boolean", (("ID", "id"),)),
    ("findAll", "{L}<T>", ()), ("findAllById", "{L}<T>", (("Iterable<ID>", "ids"),)),
    ("count", "long", ()), ("deleteById", "void", (("ID", "id"),)), ("delete", "void", (("T", "entity"),)),
    ("deleteAllById", "void", (("Iterable<ID>", "ids"),)), ("deleteAll", "void", (("Iterable<T>", "entities"),)),
    ("deleteAll", "void", ()),
)
_PAGING = (("findAll", "{L}<T>", (("Sort", "sort"),)), ("findAll", "Page<T>", (("Pageable", "pageable"),)))
_EXAMPLE = (
    ("findOne", "Optional<T>", (("Example<T>", "example"),)), ("findAll", "{L}<T>", (("Example<T>", "example"),)),
    ("findAll", "{L}<T>", (("Example<T>", "example"), ("Sort", "sort"))),
    ("findAll", "Page<T>", (("Example<T>", "example"), ("Pageable", "pageable"))),
    ("count", "long", (("Example<T>", "example"),)), ("exists", "boolean", (("Example<T>", "example"),)),
)
_JPA = (
    ("flush", "void", ()), ("saveAndFlush", "T", (("T", "entity"),)),
    ("saveAllAndFlush", "List<T>", (("Iterable<T>", "entities"),)),
    ("deleteAllInBatch", "void", (("Iterable<T>", "entities"),)), ("deleteAllInBatch", "void", ()),
    ("deleteAllByIdInBatch", "void", (("Iterable<ID>", "ids"),)), ("deleteInBatch", "void", (("Iterable<T>", "entities"),)),
    ("getReferenceById", "T", (("ID", "id"),)), ("getById", "T", (("ID", "id"),)), ("getOne", "T", (("ID", "id"),)),
)
_SPECIFICATION = (
    ("findOne", "Optional<T>", (("Specification<T>", "spec"),)), ("findAll", "List<T>", (("Specification<T>", "spec"),)),
    ("findAll", "Page<T>", (("Specification<T>", "spec"), ("Pageable", "pageable"))),
    ("findAll", "List<T>", (("Specification<T>", "spec"), ("Sort", "sort"))),
    ("count", "long", (("Specification<T>", "spec"),)), ("exists", "boolean", (("Specification<T>", "spec"),)),
    ("delete", "long", (("Specification<T>", "spec"),)),
)
_MONGO = (("insert", "T", (("T", "entity"),)), ("insert", "List<T>", (("Iterable<T>", "entities"),)))
_REACTIVE = tuple((n, "Mono<T>" if r in ("T", "Optional<T>") else "Flux<T>" if "{L}" in r else f"Mono<{r}>", p)
                  for n, r, p in _CRUD)

_TYPES: dict[str, tuple[tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...], str]] = {
    "CrudRepository": (_CRUD, "Iterable"),
    "ListCrudRepository": (_CRUD, "List"),
    "PagingAndSortingRepository": (_PAGING, "Iterable"),
    "ListPagingAndSortingRepository": (_PAGING, "List"),
    "QueryByExampleExecutor": (_EXAMPLE, "Iterable"),
    "JpaRepository": (_CRUD + _PAGING + _EXAMPLE + _JPA, "List"),
    "MongoRepository": (_CRUD + _PAGING + _EXAMPLE + _MONGO, "List"),
    "JpaSpecificationExecutor": (_SPECIFICATION, "List"),
    "ReactiveCrudRepository": (_REACTIVE, "Flux"),
    "ReactiveSortingRepository": (_REACTIVE + (("findAll", "Flux<T>", (("Sort", "sort"),)),), "Flux"),
    "R2dbcRepository": (_REACTIVE + (("findAll", "Flux<T>", (("Sort", "sort"),)),), "Flux"),
}
"""Each repository type of the library: the methods it declares or inherits (name, return type,
parameters as ``(type, name)``; ``T`` / ``ID`` stand for the type arguments, ``{L}`` for the type's
collection, ``List`` or ``Iterable``)."""


def split_type_arguments(text: str) -> tuple[str, list[str]]:
    """``JpaRepository<Owner, Integer>`` -> ``("JpaRepository", ["Owner", "Integer"])`` (top-level
    arguments, whitespace dropped; a qualified type's simple name)."""
    base, _, rest = text.replace(" ", "").partition("<")
    args: list[str] = []
    depth, cur = 0, ""
    for ch in rest[:-1] if rest.endswith(">") else "":
        if ch == "," and depth == 0:
            args.append(cur)
            cur = ""
            continue
        depth += (ch == "<") - (ch == ">")
        cur += ch
    if cur:
        args.append(cur)
    return base.rsplit(".", 1)[-1], args


def inherited_members(iface: Definition, members: list[Definition]) -> list[Definition]:
    """The members ``iface`` (an interface) inherits from the Spring Data repository types its
    ``bases`` name, those it does not write itself (``members``, same name and parameter count), in
    the library's order; none when it extends no such type."""
    written = {(m.name, len(m.params)) for m in members if m.kind == "method"}
    made: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
    out: list[Definition] = []
    for text in iface.bases:
        base, args = split_type_arguments(text)
        known = _TYPES.get(base)
        if known is None:
            continue
        methods, listing = known
        entity = args[0] if args else "Object"
        key = args[1] if len(args) > 1 else "Object"
        for name, returns, params in methods:
            if (name, len(params)) in written or (name, params) in made:
                continue
            made.add((name, params))
            out.append(_member(iface, name, _typed(returns, entity, key, listing),
                               [Param(n, _typed(t, entity, key, listing)) for t, n in params]))
    return out


def _typed(text: str, entity: str, key: str, listing: str) -> str:
    """A type text of the table with the interface's type arguments written in."""
    out = text.replace("{L}", listing)
    head, sep, rest = out.partition("<")
    sub = {"T": entity, "ID": key}
    if not sep:
        return sub.get(out, out)
    inner = rest[:-1]
    return f"{head}<{sub.get(inner, inner)}>"


def _member(iface: Definition, name: str, returns: str, params: list[Param]) -> Definition:
    args = ", ".join(f"{p.type} {p.name}" for p in params)
    return Definition(
        kind="method", name=name, qualname=f"{iface.qualname}.{name}", parent=iface.qualname,
        start_line=iface.name_line, start_col=iface.name_col, end_line=iface.name_line,
        end_col=iface.name_col + len(iface.name), name_line=iface.name_line, name_col=iface.name_col,
        signature=f"public {returns} {name}({args})", params=params, return_type=returns, modifiers=["public"],
        generated=GENERATOR,
    )

