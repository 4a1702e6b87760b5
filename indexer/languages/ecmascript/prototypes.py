"""What the instances of a JavaScript constructor function inherit through its ``prototype``
(rules in ``queries/prototypes.scm``; the prototype's *function* values are method definitions,
``definitions.scm``).

* ``X.prototype.m = foo`` / ``= a.b`` / ``= Y.prototype.n`` (read ``new Y().n``), and a name-valued property of ``X.prototype = { m: foo, n }``:
  the instance member ``m`` is that function, a :class:`~indexer.model.Binding` ``this.m`` (``alias``)
  in ``X``'s scope, as ``this.x = ...`` binds a member in a class (read by the resolver's member
  lookup on an instance of ``X``, its own and its ancestors'). The name is resolved from ``X``'s
  scope: the enclosing scopes of the assignment as seen from the constructor.
* ``X.prototype = Object.create(P.prototype)``, ``Object.setPrototypeOf(X.prototype, P.prototype)``,
  ``util.inherits(X, P)``: ``X`` extends ``P`` (``Definition.bases`` of the function ``X``, when this
  file defines it).
* A function whose prototype the file writes and which gets no other base has the base ``Object``
  (what its prototype inherits, which the resolver never resolves to a class): the mark that calling
  it with ``new`` builds an instance whose members are the prototype's, even when it has no method
  definition of its own (``X.prototype.m = foo`` alone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from indexer.model import Binding

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["prototypes"]

_ROOT = "Object"
"""The base of a constructor function whose prototype inherits nothing else of the repository."""


def prototypes(fr: Any, matches: list[dict[str, list[Node]]]) -> None:
    """Append the instance-member bindings of ``matches`` (prototypes.scm) to ``fr.out.bindings`` and
    their parents to the bases of the constructors ``fr`` defined (``fr``: the extractor's file run,
    definitions already read, with ``text``, ``src``, ``receiver``, ``owner_qualname`` and ``out``)."""
    if not matches:
        return
    functions = {d.qualname: d for d in fr.out.definitions if d.kind == "function"}
    written: dict[str, list[str]] = {}  # constructor qualname -> its parents, in source order
    for caps in matches:
        owner = caps["owner"][0]
        qualname = fr.owner_qualname(owner)
        parents = written.setdefault(qualname, [])
        if "member" in caps:
            _member(fr, qualname, caps["member"][0], caps["value"][0])
        elif "object" in caps:
            for prop in caps["object"][0].named_children:
                if prop.type == "shorthand_property_identifier":
                    _member(fr, qualname, prop, prop)
                elif prop.type == "pair":
                    key, value = prop.child_by_field_name("key"), prop.child_by_field_name("value")
                    if key is not None and value is not None and key.type == "property_identifier" \
                            and value.type in ("identifier", "member_expression"):
                        _member(fr, qualname, key, value)
        elif "parent" in caps:
            parent = fr.text(caps["parent"][0])
            if parent not in parents:
                parents.append(parent)
    for qualname, parents in written.items():
        d = functions.get(qualname)
        if d is not None:
            for p in parents or [_ROOT]:
                if p not in d.bases:
                    d.bases.append(p)


def _member(fr: Any, qualname: str, name: Node, value: Node) -> None:
    """Bind the instance member ``name`` of constructor ``qualname`` to the function ``value`` names."""
    text = fr.receiver(value)
    if "(" in text or "[" in text:
        return
    head, sep, rest = text.partition(".prototype.")
    if sep and head and "." not in rest:  # `X.prototype.a = X.prototype.b`: an X's member b
        text = f"new {head}().{rest}"
    fr.out.bindings.append(Binding(qualname, f"this.{fr.text(name)}", text, "alias", fr.src.line(name)))
