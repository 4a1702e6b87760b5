"""Code the JVM itself runs -> :class:`~indexer.model.EntryRegistration` (kind ``runtime``, framework ``jvm``).

* A static initialiser (``static { ... }``) runs when its class is loaded: the class (which owns the
  calls in it, as it owns its field initialisers') is an entry point named ``static initialiser``.
* Serialization hooks, which ``ObjectInputStream`` / ``ObjectOutputStream`` call by name:
  ``readObject(ObjectInputStream)``, ``writeObject(ObjectOutputStream)``, ``readObjectNoData()``,
  ``readResolve()`` and ``writeReplace()``, the latter two returning ``Object``: each is an entry
  point named ``serialization``. The signature decides (as for the JVM), not the class's interfaces,
  which may be inherited from another file.

Position: the ``static`` keyword, the method name. ``Thread.start()`` reaching ``run()`` is a call,
bound by the resolver (``JavaModuleSystem.runtime_calls``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import TYPE_KINDS, EntryRegistration, FileExtraction, base_type

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "jvm"
KIND = "runtime"
# Hook name -> (parameter types, return type or None for any).
_HOOKS = {
    "readObject": (("ObjectInputStream",), "void"),
    "writeObject": (("ObjectOutputStream",), "void"),
    "readObjectNoData": ((), "void"),
    "readResolve": ((), "Object"),
    "writeReplace": ((), "Object"),
}


def _simple(t: str | None) -> str:
    return (base_type(t) or "").rsplit(".", 1)[-1]


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append an entry registration per static initialiser and serialization hook of the file."""
    types = [d for d in out.definitions if d.kind in TYPE_KINDS]
    for d in out.definitions:
        hook = _HOOKS.get(d.name) if d.kind == "method" and d.generated is None else None
        if hook is None or "static" in d.modifiers:
            continue
        params, returns = hook
        if tuple(_simple(p.type) for p in d.params) == params and _simple(d.return_type) == returns:
            out.entries.append(EntryRegistration(FRAMEWORK, KIND, d.qualname, d.name_line, d.name_col,
                                                 name="serialization"))
    if not types:
        return
    stack = [root]
    while stack:  # static initialisers sit in class bodies: no need to descend into method bodies
        node = stack.pop()
        if node.type == "static_initializer":
            line, col = src.line(node), src.col(node)
            inside = [t for t in types if (t.start_line, t.start_col) <= (line, col) <= (t.end_line, t.end_col)]
            owner = max(inside, key=lambda t: (t.start_line, t.start_col), default=None)
            if owner is not None:
                out.entries.append(EntryRegistration(FRAMEWORK, KIND, owner.qualname, line, col,
                                                     name="static initialiser"))
            continue
        if node.type in ("method_declaration", "constructor_declaration", "block", "expression_statement"):
            continue
        stack.extend(reversed(node.named_children))
