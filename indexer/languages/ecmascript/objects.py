"""Properties of an object literal that name a function (rules in ``queries/objects.scm``):
``const o = { b: foo, c, d: util.bar }`` makes ``o.b()`` call ``foo``.

The name is bound ``object`` in its scope (as when the literal has function-valued properties, which
are definitions: ``definitions.scm``) and each such property is an ``alias``
:class:`~indexer.model.Binding` in the object's own scope (its qualname, ``o`` or ``f.o`` inside
``f``), which the resolver's :class:`~indexer.resolve.values.ObjV` reads after the definitions.
A property counts when its value is a name the file defines as a function (at module level or in a
function) or imports, or a member expression of such a name: a variable, a parameter or a number is
no function of the repository (``{ port: port }``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from indexer.languages.ecmascript.returned_objects import function_names, local_shadows, named_properties
from indexer.model import Binding, Export

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["object_properties"]

_DEFAULT = "default"
"""The name a module's default export is imported by, and the reserved word its object is bound under."""


def object_properties(fr: Any, matches: list[dict[str, list[Node]]]) -> None:
    """Append to ``fr.out.bindings`` the ``object`` binding of each literal of ``matches`` with a
    property naming a function, and one ``alias`` binding per such property (``fr``: the
    extractor's file run, definitions and imports already read, with ``text``, ``src``, ``receiver``,
    ``code_scope``, ``objects`` and ``bind_object``)."""
    if not matches:
        return
    known = function_names(fr)
    locals_ = local_shadows(fr)  # `const go = 5; const o = { go }`: o.go is not the function go
    for caps in matches:
        if "default_object" in caps:
            _default_object(fr, caps["default_object"][0], known, locals_)
            continue
        if "owner" not in caps:  # `const { a } = f()`: returned_objects.destructured
            continue
        owner = caps["owner"][0]
        props = [(key, value) for key, value in named_properties(caps["object"][0])
                 if (head := _head(fr.receiver(value))) in known and not locals_.shadowed(value, head)]
        if not props:
            continue
        scope = fr.code_scope(owner)
        name = fr.text(owner)
        qualname = name if scope is None else f"{scope}.{name}"
        fr.bind_object(owner)
        for key, value in props:
            text = fr.receiver(value)
            if "(" not in text and "[" not in text:
                fr.out.bindings.append(Binding(qualname, fr.text(key), text, "alias", fr.src.line(key)))


def _default_object(fr: Any, obj: Node, known: set[str], locals_: Any) -> None:
    """``export default { Articles, login: doLogin }``: bind the literal ``obj`` as the object
    ``default`` (a reserved word: no name of the source is it) at module level, its properties naming
    functions or objects of the file (or imported names) as ``alias`` bindings in its scope, and export
    it as the module's default (``Export("default", local="default")``), so that an importer's
    ``agent.Articles.get()`` resolves through it; a literal with inline functions (``setToken: t =>
    ...``, definitions ``default.setToken`` already bound ``default``) is exported the same way. A file
    already exporting a default keeps it; a literal with neither exports nothing new."""
    props = [(key, value) for key, value in named_properties(obj)
             if (head := _head(fr.receiver(value))) in known and not locals_.shadowed(value, head)]
    members = (None, _DEFAULT) in fr.objects  # inline functions made `default.m` (definitions.scm), bound
    if not (props or members) or any(e.exported == "default" for e in fr.out.exports):
        return
    if not members:
        fr.out.bindings.append(Binding(None, _DEFAULT, _DEFAULT, "object", fr.src.line(obj)))
    for key, value in props:
        text = fr.receiver(value)
        if "(" not in text and "[" not in text:
            fr.out.bindings.append(Binding(_DEFAULT, fr.text(key), text, "alias", fr.src.line(key)))
    fr.out.exports.append(Export(_DEFAULT, local=_DEFAULT))


def _head(text: str) -> str:
    """The first name of a dotted text."""
    return text.split(".", 1)[0]
