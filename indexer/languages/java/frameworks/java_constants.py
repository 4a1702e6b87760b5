"""Java string constants -> :class:`~indexer.model.StringConstant`, for the linker to resolve the
``ref`` pieces of paths, URLs and topics (``Paths.OWNERS``, ``BASE + "/x"``).

``qualname`` is the field's qualname (``Paths.OWNERS``; nested types ``Outer.Inner.NAME``), the value
its initialiser as a template (literals, concatenations, names of other constants as ``ref``). Taken:

* ``static final String`` fields of classes, enums and records, and ``String`` fields of interfaces
  (implicitly ``static final``): the constants proper;
* other ``String`` fields with an initialiser: their initial value (``private String hostname =
  "http://visits-service/"``, which a test setter may change, is what production code uses);
* ``String`` fields annotated ``@Value("${a.b}")``: the annotation's text, a placeholder the linker
  resolves from the Spring configuration (it wins over an initialiser);
* ``String`` fields without a value of their own assigned in a constructor from a parameter annotated
  ``@Value("${a.b}")`` (``this.url = url;`` directly in the constructor body): that text too.

An initialiser that is nothing but a ``hole`` (``System.getenv("X")``) gives no constant. Fields of
anonymous classes are not definitions and give none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import GRAMMAR, JavaFile
from indexer.languages.base import query, run_query
from indexer.model import FileExtraction, StringConstant, is_call_ref

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)
_STRING = frozenset({"String", "java.lang.String"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's string constants to ``out.constants``."""
    if not any(d.kind == "field" and d.field_type in _STRING for d in out.definitions):
        return
    jf = JavaFile.of(root, src, out)
    injected: dict[int, dict[str, Node]] = {}  # constructor -> @Value parameter -> annotation value
    assigned: list[tuple[Node, str, str]] = []  # (constructor, field, parameter)
    for _, m in run_query(query(GRAMMAR, "java/queries", "constants"), root):
        if "ctor_param" in m:
            injected.setdefault(m["ctor_param"][0].id, {})[src.text(m["param"][0])] = m["ann_value"][0]
            continue
        if "ctor_assign" in m:
            assigned.append((m["ctor_assign"][0], src.text(m["target"][0]), src.text(m["source"][0])))
            continue
        field = jf.field(m["name"][0])
        if field is None:
            continue
        value_ann = next((a for a in jf.annotations(m["field"][0]) if a.name == "Value"), None)
        given = value_ann.values("value") if value_ann is not None else None
        if given:
            value = jf.template(given[0])
        elif "value" in m:
            value = jf.template(m["value"][0])
        else:
            continue
        if not value.parts or any(kind != "hole" and not is_call_ref(text) for kind, text in value.parts):
            out.constants.append(StringConstant(field.qualname, value))
    if assigned and injected:
        _constructor_values(jf, out, injected, assigned)


def _constructor_values(
    jf: JavaFile, out: FileExtraction, injected: dict[int, dict[str, Node]], assigned: list[tuple[Node, str, str]]
) -> None:
    """``this.url = url`` in a constructor whose parameter ``url`` is ``@Value("${a.b}")``: the field
    ``url`` (a ``String`` field of that class without a constant of its own) holds ``${a.b}``."""
    known = {c.qualname for c in out.constants}
    fields = {d.qualname: d for d in out.definitions if d.kind == "field" and d.field_type in _STRING}
    for ctor, target, source in assigned:
        value = injected.get(ctor.id, {}).get(source)
        owner = ctor.parent.parent if value is not None and ctor.parent is not None else None
        cls = jf.qualname(owner) if owner is not None else None
        if value is None or cls is None:
            continue
        qualname = f"{cls}.{target}"
        if qualname in fields and qualname not in known:
            known.add(qualname)
            out.constants.append(StringConstant(qualname, jf.template(value)))
