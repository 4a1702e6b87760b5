"""Salesforce Platform Events -> :class:`~indexer.model.TopicUse` (framework ``apex-platform-event``,
broker ``salesforce``): the event bus as a queue between Apex publishers and trigger subscribers.

* ``EventBus.publish(event)`` (also ``(events)``, ``(event, callback)``) produces the event's sObject:
  a ``new Order_Shipped__e(...)``, a ``new List<Order_Shipped__e>{...}``, or a name whose declared type
  in the method (parameter, local, field) is that sObject or a ``List`` / ``Set`` of it
  (:func:`indexer.languages.apex.frameworks.data.expression_sobject`). A name typed ``SObject`` /
  ``List<SObject>``, or a call, names no event: no use.
* A trigger ``after insert`` on a custom platform event (an sObject named ``..__e``) consumes it: the
  platform runs the trigger for each batch of events published. (Only ``after insert`` triggers are
  allowed on platform events; a trigger on an ordinary sObject is run by DML, not the event bus.)

The topic is the event's API name lowercased (Apex names fold case: ``Log__e`` and ``log__e`` are one
event), owned by the publishing method or the trigger.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.apex.frameworks.data import declared_types, expression_sobject
from indexer.model import FileExtraction, Template, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["BROKER", "FRAMEWORK", "LANGUAGES", "detect"]

LANGUAGES = ("apex",)
FRAMEWORK = "apex-platform-event"
BROKER = "salesforce"
"""The broker of Salesforce's event bus (:data:`stores.contracts.BROKERS`)."""
_EVENT_SUFFIX = "__e"


def _publish_args(root: Node, src: SourceText) -> dict[tuple[int, int], Node]:
    """The first argument of each ``EventBus.publish(...)`` call, by the position of ``publish``."""
    found: dict[tuple[int, int], Node] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "method_invocation":
            name, recv = n.child_by_field_name("name"), n.child_by_field_name("object")
            args = n.child_by_field_name("arguments")
            if name is not None and recv is not None and args is not None and args.named_children \
                    and src.text(name).lower() == "publish" and src.text(recv).lower() == "eventbus":
                found[(src.line(name), src.col(name))] = args.named_children[0]
        stack.extend(n.named_children)
    return found


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a ``produces`` use per ``EventBus.publish`` of a known event and a ``consumes`` use per
    ``after insert`` trigger on a platform event (module docstring)."""
    for d in out.definitions:
        if d.kind == "function" and "trigger" in d.modifiers and "after insert" in d.modifiers \
                and d.field_type and d.field_type.lower().endswith(_EVENT_SUFFIX):
            out.topics.append(TopicUse(FRAMEWORK, "consumes", Template.of(d.field_type.lower()), d.qualname,
                                       d.name_line, d.name_col, broker=BROKER))
    if not any(c.name.lower() == "publish" and (c.receiver or "").lower() == "eventbus" for c in out.calls):
        return
    args = _publish_args(root, src)
    types = declared_types(out)
    for c in out.calls:
        arg = args.get((c.line, c.col))
        if arg is None or c.name.lower() != "publish":
            continue
        event, _ = expression_sobject(src, arg, types, c.caller)
        if event:
            out.topics.append(TopicUse(FRAMEWORK, "produces", Template.of(event.lower()), c.caller, c.line, c.col,
                                       broker=BROKER))
