"""Repository classes that extend a library container with type arguments: ``class Registry(dict[str,
Handler])``, ``class Handlers extends Map<string, Handler>``, ``class Chain extends ArrayList<Handler>``.

An instance of such a class is that container, plus its own members: what the container hands out
(``reg[k]``, ``reg.get(k)``, ``for h in reg``, ``chain.get(0)``) is an element of the container
type the class declares as its base, as a type checker reads it (the base's type arguments are
the class's; PEP 484 "User-defined generic types", JLS 8.1.4). :func:`container_base` gives that
container as the :class:`~indexer.resolve.values.QueryV` the declared type would be (the module
system's ``container_element`` / ``map_value``, as for a declared ``dict[str, Handler]``), with the
instance as its ``manager``: the class's own methods stay its own, the library's are read as the
container's (:meth:`~indexer.resolve.interpreter.Resolver.call_result` of a ``QueryV`` method).

Not read: a base whose argument is a type parameter (``class Stack(List[T])``, bound by a subclass
or a declared ``Stack[User]``) and a base naming no class of the repository (``dict[str, Any]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.resolve.values import EXTERNAL, InstV, QueryV, Value

if TYPE_CHECKING:
    from indexer.resolve.interpreter import Resolver
    from indexer.resolve.values import Def

__all__ = ["container_attribute", "container_base", "container_element"]


def container_base(r: Resolver, c: Def) -> QueryV | None:
    """The library container class ``c`` (or its nearest ancestor doing so, in MRO order) extends
    with a repository class as its element or value type, as a :class:`QueryV` whose ``manager`` is an
    instance of ``c``; ``None`` when no class of ``c``'s MRO extends one. Memoised per class."""
    if not c.is_type:
        return None
    found = r.memoised((id(c.file), c.qualname, c.line, "container base"), lambda: _container_base(r, c))
    return QueryV(found.c, manager=InstV(c, "inferred"), view=found.view, inner=found.inner) \
        if isinstance(found, QueryV) else None


def _container_base(r: Resolver, c: Def) -> Value:
    if not r.classes.has_external_ancestor(c):
        return None
    for x in r.mro(c):
        if not x.external_base:
            continue
        for text in _base_texts(x):
            v = r.typed_value(x.file, x.parent, text, "inferred")
            if isinstance(v, QueryV) and not v.method:
                return v
    return None


def container_attribute(r: Resolver, receiver: Value, name: str) -> Value:
    """Member ``name`` read on an instance of a class extending a library container
    (:func:`container_base`) that neither the class nor its repository bases define: the
    container's (``reg.get`` of ``class Registry(dict[str, Handler])``), whose call the module
    system reads; ``None`` otherwise."""
    if not isinstance(receiver, InstV):
        return None
    base = container_base(r, receiver.c)
    return r.attr(base, name) if base is not None else None


def container_element(r: Resolver, v: Value, index: str) -> Value:
    """What ``v[index]`` gives (``*``: what iterating gives) for an instance of a class extending a
    library container (:func:`container_base`), when the class defines no subscript or iteration of
    its own: the container's element; ``None`` otherwise."""
    base = container_base(r, v.c) if isinstance(v, InstV) else None
    if base is None:
        return None
    found = r.subscripted(base, index)
    return found if found is not EXTERNAL else None


def _base_texts(x: Def) -> list[str]:
    """The bases of class ``x`` written with type arguments: as the extractor kept them (Python's
    ``dict[str, Handler]``, Java's ``ArrayList<Handler>``), else rebuilt from the arguments its
    declaration writes (the module system's optional ``base_type_arguments``: TypeScript's extractor
    keeps ``Map`` of ``extends Map<string, Handler>``)."""
    texts = [t for t in (*x.heads.bases, *x.heads.implements) if "<" in t or "[" in t]
    hook = getattr(x.file.rules, "base_type_arguments", None)
    written = hook(x.d) if hook is not None and len(texts) < len(x.heads.bases) + len(x.heads.implements) else {}
    for t in (*x.heads.bases, *x.heads.implements):
        args = written.get(t.rpartition(".")[2]) if "<" not in t and "[" not in t else None
        if args:
            texts.append(f"{t}<{', '.join(args)}>")
    return texts
