"""Python job schedulers -> :class:`~indexer.model.EntryRegistration` (kind ``scheduled``).

Rules in ``indexer/languages/python/queries/python_schedulers.scm``:

* Celery beat (framework ``celery-beat``), in a file importing ``celery`` or assigning a name or
  attribute ending ``beat_schedule`` / ``BEAT_SCHEDULE`` (a ``celeryconfig`` / Django settings module):
  each entry ``"name": {"task": "pkg.tasks.cleanup", ...}`` (or ``dict(task=...)``) of that
  dictionary, or of ``app.conf.update(beat_schedule={...})``, schedules the task its ``task`` string
  names: ``owner_ref`` the dotted path (the linker resolves it as module + function; a task given a
  custom ``name=`` is not matched), ``name`` the entry's key;
  ``sender.add_periodic_task(schedule, cleanup.s(...))`` (``.si`` / ``.signature`` too, or
  ``sig=``) schedules ``cleanup`` (``name=`` when given).
* APScheduler (framework ``apscheduler``), in a file importing ``apscheduler``:
  ``scheduler.add_job(func, ...)`` (or ``func=``): a function of the file, a reference, or a
  ``"pkg.mod:func"`` text reference (``owner_ref`` ``pkg.mod.func``); ``name`` the ``id=`` / ``name=``
  given. ``@scheduler.scheduled_job(...)`` is a decorator: the analysis reads it.

Position: the dictionary entry's key, or the method name of the call.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, Context, compact, scope_of, string_value
from indexer.model import EntryRegistration, FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
_SIGNATURES = frozenset({"s", "si", "signature"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append an entry registration per scheduled job of the file."""
    data = src.data
    if b"beat_schedule" not in data and b"BEAT_SCHEDULE" not in data and b"add_periodic_task" not in data \
            and b"add_job" not in data:
        return  # the query below would find nothing: skip it
    ctx = Context(src, out)
    celery = ctx.imports.uses("celery")
    apscheduler = ctx.imports.uses("apscheduler")
    for _, caps in run_query(query("python", "python/queries", "python_schedulers"), root):
        if "schedule" in caps:
            target = compact(src, caps["target"][0]) if "target" in caps else "beat_schedule"
            if target.lower().endswith("beat_schedule") and (celery or "target" in caps):
                _beat(ctx, caps["schedule"][0])
        elif "call" in caps:
            method = src.text(caps["method"][0])
            if method == "add_periodic_task" and celery:
                _periodic(ctx, caps)
            elif method == "add_job" and apscheduler:
                _add_job(ctx, caps)


def _beat(ctx: Context, schedule: Node) -> None:
    src = ctx.src
    for pair in schedule.named_children:
        if pair.type != "pair":
            continue
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        name = string_value(src, key) if key is not None else None
        task = _task(src, value)
        if task is None or key is None:
            continue
        ctx.out.entries.append(EntryRegistration("celery-beat", "scheduled", None, src.line(key), src.col(key),
                                                 task, None, name or ""))


def _task(src: SourceText, value: Node | None) -> str | None:
    """The ``task`` string of a beat entry (``{"task": ...}`` or ``dict(task=...)``)."""
    if value is None:
        return None
    if value.type == "dictionary":
        for pair in value.named_children:
            if pair.type == "pair" and string_value(src, pair.child_by_field_name("key")) == "task":
                return string_value(src, pair.child_by_field_name("value"))
    if value.type == "call" and compact(src, value.child_by_field_name("function")) == "dict":
        return string_value(src, Args.of(src, value.child_by_field_name("arguments")).get(-1, "task"))
    return None


def _periodic(ctx: Context, caps: dict[str, list[Node]]) -> None:
    src = ctx.src
    args = Args.of(src, caps["args"][0])
    sig = args.get(1, "sig")
    if sig is None or sig.type != "call":
        return
    fn = sig.child_by_field_name("function")
    ref: str | None = None
    if fn is not None and fn.type == "attribute" and src.text(fn.child_by_field_name("attribute")) in _SIGNATURES:
        ref = compact(src, fn.child_by_field_name("object"))
    elif fn is not None and compact(src, fn).rsplit(".", 1)[-1] == "signature":
        first = Args.of(src, sig.child_by_field_name("arguments")).get(0, "varies")
        ref = string_value(src, first) if first is not None else None
    if not ref:
        return
    name_node = caps["method"][0]
    scope = scope_of(caps["call"][0], src)
    name = string_value(src, args.get(-1, "name")) or ""
    owner, owner_ref = ctx.handler(fn.child_by_field_name("object"), scope) if fn is not None and fn.type == "attribute" \
        and src.text(fn.child_by_field_name("attribute")) in _SIGNATURES else (None, ref)  # type: ignore[arg-type]
    ctx.out.entries.append(EntryRegistration("celery-beat", "scheduled", owner, src.line(name_node), src.col(name_node),
                                             owner_ref, scope, name))


def _add_job(ctx: Context, caps: dict[str, list[Node]]) -> None:
    src = ctx.src
    args = Args.of(src, caps["args"][0])
    func = args.get(0, "func")
    if func is None:
        return
    scope = scope_of(caps["call"][0], src)
    text = string_value(src, func)
    if text is not None:
        if ":" not in text:
            return
        owner, ref = None, text.replace(":", ".")
    elif func.type in ("identifier", "attribute"):
        owner, ref = ctx.handler(func, scope)
    else:
        return
    name = string_value(src, args.get(-1, "id")) or string_value(src, args.get(-1, "name")) or ""
    name_node = caps["method"][0]
    ctx.out.entries.append(EntryRegistration("apscheduler", "scheduled", owner, src.line(name_node),
                                             src.col(name_node), ref, scope, name))
