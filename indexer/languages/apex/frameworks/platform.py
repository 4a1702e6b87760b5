"""Apex code the Salesforce platform runs by itself -> :class:`~indexer.model.EntryRegistration`.

* A trigger runs when records of its sObject change: kind ``trigger``, framework ``apex-trigger``,
  named ``"<sObject> <events>"`` (``Account before insert, after update``).
* A class implementing ``Schedulable`` has its ``execute`` run by the scheduler (a job scheduled in
  Setup or by ``System.schedule``): kind ``scheduled``, framework ``apex-scheduler``.
* A class implementing ``Messaging.InboundEmailHandler`` has its ``handleInboundEmail`` run for each
  email an email service receives: kind ``runtime``, framework ``apex-email``.
* Asynchronous Apex the platform runs once a job is enqueued (``System.enqueueJob``,
  ``Database.executeBatch``, ``System.attachFinalizer``), kind ``async``: a ``Queueable``'s ``execute``
  (framework ``apex-queueable``), a ``Database.Batchable``'s ``start``, ``execute`` and ``finish``
  (``apex-batch``), a ``System.Finalizer``'s ``execute`` (``apex-finalizer``). The job runs in its own
  transaction, so the code enqueueing it is not its only way in (the call sites the extractor makes for
  the dispatch, :data:`indexer.languages.apex.extractor.PLATFORM_DISPATCH`, give that path).

Methods annotated ``@AuraEnabled``, ``@InvocableMethod``, ``@RemoteAction`` and ``@future`` are entry
points by their annotation (:data:`analysis.entry_kinds.ENTRY_DECORATORS`); ``@RestResource``
classes expose HTTP endpoints (:mod:`indexer.languages.apex.frameworks.rest`). Interface names are
compared case-insensitively and without a ``System.`` / ``Messaging.`` / ``Database.`` qualifier.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import EntryRegistration, FileExtraction, drop_generics

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("apex",)
_RUN_BY_INTERFACE: dict[str, tuple[tuple[str, ...], str, str, str]] = {
    "schedulable": (("execute",), "scheduled", "apex-scheduler", "Schedulable"),
    "inboundemailhandler": (("handleInboundEmail",), "runtime", "apex-email", "inbound email"),
    "queueable": (("execute",), "async", "apex-queueable", "Queueable"),
    "batchable": (("start", "execute", "finish"), "async", "apex-batch", "Batchable"),
    "finalizer": (("execute",), "async", "apex-finalizer", "Finalizer"),
}
"""Platform interfaces (last dotted part, lowercased, generics dropped) -> (the methods the platform runs,
entry kind, framework, name)."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append an entry registration per trigger, ``Schedulable.execute``, inbound email handler and
    asynchronous job method (module docstring)."""
    methods = {(d.parent, d.name.lower()): d for d in out.definitions if d.kind == "method"}
    for d in out.definitions:
        if d.kind == "function" and "trigger" in d.modifiers:
            events = ", ".join(m for m in d.modifiers if m != "trigger")
            name = f"{d.field_type or ''} {events}".strip()
            out.entries.append(EntryRegistration("apex-trigger", "trigger", d.qualname, d.name_line, d.name_col, name=name))
        elif d.kind == "class":
            for iface in d.implements:
                spec = _RUN_BY_INTERFACE.get(drop_generics(iface).rsplit(".", 1)[-1].lower())
                if spec is None:
                    continue
                run, kind, framework, name = spec
                for method in run:
                    m = methods.get((d.qualname, method.lower()))
                    if m is not None:
                        out.entries.append(EntryRegistration(framework, kind, m.qualname, m.name_line, m.name_col,
                                                             name=name))
