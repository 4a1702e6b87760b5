"""Spring Cloud Stream -> :class:`~indexer.model.TopicUse` (framework ``spring-cloud-stream``) with a
``binding`` the linker maps to its destination through the configuration
(``spring.cloud.stream.bindings.<binding>.destination``; :mod:`indexer.frameworks.queues`).

* functional beans: a ``@Bean`` method returning ``java.util.function.Consumer<...>`` consumes the
  binding ``<method>-in-0``; ``Function<...>`` consumes ``<method>-in-0`` and produces
  ``<method>-out-0``; ``Supplier<...>`` produces ``<method>-out-0``. The bean method owns the use
  (the calls of the lambda it returns are its own, :mod:`indexer.model`); at the method's name.
* ``streamBridge.send(name, message)`` on a ``StreamBridge`` (declared type, else the receiver's
  text): produces to ``name``, a binding or, when none is configured, a destination; the name is a
  template in ``topic`` (literals, constants) and ``binding`` is empty.

The broker is decided by the linker from the binder the configuration names (``stream`` when none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.java.frameworks.common import GRAMMAR, JavaFile, compact
from indexer.model import FileExtraction, Template, TopicUse, base_type

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "spring-cloud-stream"
_ROLES = {"Consumer": ("consumes",), "Function": ("consumes", "produces"), "Supplier": ("produces",)}
_BRIDGE = {"StreamBridge": "bridge"}


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's functional bindings and ``StreamBridge`` sends to ``out.topics``."""
    jf = JavaFile.of(root, src, out)
    found: list[TopicUse] = []
    for decl, anns in jf.annotated("Bean"):
        if decl.type != "method_declaration" or not any(a.name == "Bean" for a in anns):
            continue
        rtype = (base_type(compact(src, decl.child_by_field_name("type"))) or "").rsplit(".", 1)[-1]
        roles = _ROLES.get(rtype)
        name_node = decl.child_by_field_name("name")
        owner = jf.qualname(decl)
        if roles is None or name_node is None or owner is None:
            continue
        name = src.text(name_node)
        for role in roles:
            binding = f"{name}-in-0" if role == "consumes" else f"{name}-out-0"
            found.append(TopicUse(FRAMEWORK, role, Template(), owner, src.line(name_node), src.col(name_node),
                                  broker="stream", binding=binding))
    if "StreamBridge" in src.text(root) and jf.calls_any(frozenset({"send"})):
        for _, m in run_query(query(GRAMMAR, "java/queries", "messaging"), root):
            if "name" not in m or src.text(m["name"][0]) != "send":
                continue
            name_node = m["name"][0]
            call = jf.call(name_node)
            caller = call.caller if call is not None else jf.enclosing(name_node)
            receiver = call.receiver if call is not None else compact(src, m["receiver"][0])
            args = [c for c in m["args"][0].named_children if c.type not in ("line_comment", "block_comment")]
            if len(args) < 2 or jf.client_kind(receiver, caller, _BRIDGE) != "bridge":
                continue
            found.append(TopicUse(FRAMEWORK, "produces", jf.template(args[0]), caller, src.line(name_node),
                                  src.col(name_node), broker="stream", binding=""))
    found.sort(key=lambda u: (u.line, u.col))
    out.topics.extend(found)
