"""Apex DML as the events that run triggers -> :class:`~indexer.model.TopicUse` (framework
``apex-dml``, broker ``salesforce``): code that writes records of an sObject runs the triggers on that
sObject, so the blast radius of a trigger (and of the handler it calls) reaches every method that
inserts, updates, deletes or undeletes those records, and from them the Lightning components, REST
resources and jobs that call them.

* A DML statement or ``Database`` DML method writing an sObject
  (:func:`indexer.languages.apex.frameworks.data.sobject_accesses`: ``insert acc;``,
  ``Database.update(accounts, false)``) produces the topic ``<sobject>.<event>`` of each record event it
  raises: ``insert``, ``update``, ``delete``, ``undelete``; ``upsert`` raises ``insert`` and ``update``,
  ``merge`` ``update`` and ``delete`` (the master record is updated, the others deleted).
* A trigger consumes ``<sobject>.<event>`` for each event it fires on, ``before`` or ``after``
  (``trigger AccountTrigger on Account (before insert, after update)``: ``account.insert`` and
  ``account.update``). A trigger on a platform event (``..__e``) is the event bus's
  (:mod:`indexer.languages.apex.frameworks.platform_events`), not DML's.

A write's use needs a consumer (``TopicUse.needs_consumer``): the linker keeps it only when a trigger
of the repository runs on that event, so an sObject without triggers gets no topic (its writes are
the table's WRITES already). Names are lowercased (Apex folds case). Not read: DML on a name typed ``SObject`` (no sObject known),
records written by the platform itself (Flows, the UI, the API).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.apex.frameworks.data import sobject_accesses
from indexer.languages.apex.frameworks.platform_events import BROKER
from indexer.model import FileExtraction, Template, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["EVENTS_RAISED", "FRAMEWORK", "LANGUAGES", "detect"]

LANGUAGES = ("apex",)
FRAMEWORK = "apex-dml"
EVENTS_RAISED = {
    "insert": ("insert",), "update": ("update",), "delete": ("delete",), "undelete": ("undelete",),
    "upsert": ("insert", "update"), "merge": ("update", "delete"),
}
"""The record events (trigger events without ``before`` / ``after``) each DML operation raises."""
_EVENT_SUFFIX = "__e"


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a ``consumes`` use per event of each trigger on an sObject and a ``produces`` use per
    event each DML write raises (module docstring)."""
    for d in out.definitions:
        if d.kind != "function" or "trigger" not in d.modifiers or not d.field_type \
                or d.field_type.lower().endswith(_EVENT_SUFFIX):
            continue
        events = dict.fromkeys(m.split(" ", 1)[1] for m in d.modifiers if m.startswith(("before ", "after ")))
        for event in events:
            out.topics.append(TopicUse(FRAMEWORK, "consumes", Template.of(f"{d.field_type.lower()}.{event}"),
                                       d.qualname, d.name_line, d.name_col, broker=BROKER))
    if not any(d.kind in ("method", "constructor", "function") for d in out.definitions):
        return
    for a in sobject_accesses(root, src, out):
        if a.role != "writes" or a.sobject.lower().endswith(_EVENT_SUFFIX):
            continue
        for event in EVENTS_RAISED.get(a.operation, ()):
            out.topics.append(TopicUse(FRAMEWORK, "produces", Template.of(f"{a.sobject.lower()}.{event}"),
                                       a.owner, a.line, a.col, broker=BROKER, needs_consumer=True))
