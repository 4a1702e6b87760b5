"""Job schedulers -> :class:`~indexer.model.EntryRegistration` (kind ``scheduled``).

Calls (rules in ``indexer/languages/ecmascript/queries/schedulers.scm``), each counted only when its
receiver or callee is bound by an import (or ``require``) of the package named:

* ``node-cron``: ``cron.schedule(expression, task)`` (``cron`` the module, default or namespace
  import; ``schedule`` imported by name);
* ``node-schedule``: ``schedule.scheduleJob([name,] rule, task)``, ``scheduleJob(...)`` imported by name;
* ``cron``: ``new CronJob(expression, onTick)``, ``CronJob.from({ cronTime, onTick })``.

The task is the last argument (``onTick``): an inline arrow / function becomes a definition of its own
named ``CRON <expression>`` (:meth:`JsFile.inline_function`, owning the calls in its body), a
function of the file its qualname, another name a reference the linker resolves. ``name`` is the
expression as written (a string literal; ``{}`` otherwise). A ``schedule`` method of any other
object (``calendar.schedule(...)``) is not a job. Position: the call's start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.model import EntryRegistration, FileExtraction

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")
_PACKAGES = {"node-cron": "schedule", "node-schedule": "scheduleJob", "cron": "CronJob"}


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append an entry registration per scheduled job of the file."""
    jf = js_file(root, src, out)
    matches = jf.matches("schedulers")
    if not matches:
        return
    modules: dict[str, str] = {}  # local name of a package module -> package
    members: dict[str, str] = {}  # local name of an imported function / class -> package
    for imp in out.imports:
        member = _PACKAGES.get(imp.module)
        if member is None:
            continue
        if imp.name in (None, "default"):
            modules[imp.local] = imp.module
        elif imp.name == member:
            members[imp.local] = imp.module
    if not modules and not members:
        return
    for caps in matches:
        callee = jf.text(caps["callee"][0]).replace(" ", "")
        head, _, last = callee.rpartition(".")
        package = members.get(callee) if not head else modules.get(head)
        if package is None and head and last == "from":  # CronJob.from({...}) with CronJob imported
            package = members.get(head) if head in members and members[head] == "cron" else None
            last = "CronJob.from"
        if package is None:
            continue
        wanted = _PACKAGES[package]
        if last not in (wanted, "CronJob.from") or (last == "CronJob.from" and package != "cron"):
            continue
        _job(jf, package, caps["call"][0], arguments(caps["args"][0]), last == "CronJob.from")


def _job(jf: JsFile, package: str, call: Node, args: list[Node], from_object: bool) -> None:
    if from_object:
        pairs = jf.object_pairs(args[0]) if args else {}
        expr, task = pairs.get("cronTime"), pairs.get("onTick")
    else:
        if len(args) < 2:
            return
        expr, task = args[-2], args[-1]
    task = unwrap(task)
    if task is None:
        return
    text = jf.string(expr) if expr is not None else None
    name = text if text is not None else "{}"
    found = jf.handler(task, call, f"CRON {name}")
    if found is None:
        return
    owner, ref = found
    line, col = jf.pos(call)
    jf.out.entries.append(EntryRegistration(package, "scheduled", owner, line, col, ref, jf.code_scope(call), name))
