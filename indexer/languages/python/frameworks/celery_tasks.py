"""Celery tasks -> :class:`~indexer.model.TopicUse` (broker ``celery``, framework ``celery``).

* consumes: a function decorated ``@shared_task`` / ``@shared_task(...)`` (imported from ``celery``)
  or ``@<app>.task`` / ``@<app>.task(...)`` where ``<app>`` is imported from ``celery`` or a module
  named ``celery`` (``from proj.celery import app``), is bound to ``Celery(...)`` in the file, or is
  named ``app`` / ``celery`` / ``*_app``: the function consumes its task's queue. ``name="..."``
  names the task; without it ``topic`` is empty and the linker names the task after the module and
  the function (``shop.tasks.cleanup``), as Celery does.
* produces: ``X.delay(...)``, ``X.apply_async(...)``, ``X.s(...)``, ``X.si(...)`` with ``X`` a name
  or dotted name (``target``): the linker resolves ``X`` like a callee and links only when it is a
  task function (a ``.delay`` on anything else is ``unlinked_task``, in a repository that has Celery
  tasks; ``X.signature(...)`` is left out: ``inspect.signature(f)`` is far more common);
  ``<app>.send_task("name", ...)``: the task named (the linker matches it by name).

Positions: at the decorator (consumes) and the method name (produces); ``owner`` is the task function
(consumes) or the function enclosing the call.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, Context, compact, scope_of, template
from indexer.model import FileExtraction, Template, TopicUse

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "celery"
_PRODUCE = ("delay", "apply_async", "s", "si")
_TARGET = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_APP_NAME = re.compile(r"^(?:app|celery|\w+_app|celery_\w+)$")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Celery tasks and the task calls it makes to ``out.topics``."""
    text = src.text(root)
    if not any(m in text for m in (".delay(", ".apply_async(", ".s(", ".si(", "send_task(", "task")):
        return
    ctx = Context(src, out)
    found: list[TopicUse] = []
    for _, caps in run_query(query("python", "python/queries", "celery"), root):
        if "task" in caps:
            use = _task(ctx, caps)
        else:
            use = _call(ctx, caps)
        if use is not None:
            found.append(use)
    found.sort(key=lambda u: (u.line, u.col))
    out.topics.extend(found)


def _is_app(ctx: Context, name: str) -> bool:
    """Whether ``name`` names a Celery application (see the module docstring)."""
    qualified = ctx.imports.qualify(name)
    if qualified != name:
        return qualified.split(".", 1)[0] == "celery" or ".celery." in f".{qualified}."
    if any(b.name == name and (b.type or "").split(".")[-1] == "Celery" for b in ctx.out.bindings):
        return True
    return bool(_APP_NAME.match(name))


def _task(ctx: Context, caps: dict[str, list[Node]]) -> TopicUse | None:
    src = ctx.src
    deco = caps["deco"][0]
    expr = next((c for c in deco.named_children if c.type != "comment"), None)
    if expr is None:
        return None
    call_args: Args | None = None
    if expr.type == "call":
        call_args = Args.of(src, expr.child_by_field_name("arguments"))
        expr = expr.child_by_field_name("function")
    text = compact(src, expr)
    if text == "shared_task" or text.endswith(".shared_task"):
        if ctx.imports.qualify(text).split(".", 1)[0] != "celery":
            return None
    elif text.endswith(".task"):
        if not _is_app(ctx, text.rpartition(".")[0]):
            return None
    else:
        return None
    name_node = call_args.keywords.get("name") if call_args is not None else None
    fn = caps["task"][0]
    scope = scope_of(fn, src)
    fname = src.text(caps["fname"][0])
    owner = f"{scope}.{fname}" if scope else fname
    topic = template(src, name_node) if name_node is not None else Template()
    return TopicUse(FRAMEWORK, "consumes", topic, owner, src.line(deco), src.col(deco), broker="celery")


def _call(ctx: Context, caps: dict[str, list[Node]]) -> TopicUse | None:
    src = ctx.src
    method_node = caps["method"][0]
    method = src.text(method_node)
    receiver = compact(src, caps["receiver"][0])
    owner = scope_of(caps["call"][0], src)
    at = (src.line(method_node), src.col(method_node))
    if method == "send_task":
        name = Args.of(src, caps["args"][0]).get(0, "name")
        if name is None or not _is_app(ctx, receiver.split(".")[-1] if receiver != "current_app" else "celery"):
            return None
        return TopicUse(FRAMEWORK, "produces", template(src, name), owner, *at, broker="celery")
    if method in _PRODUCE and _TARGET.fullmatch(receiver) and receiver not in ("self", "cls"):
        return TopicUse(FRAMEWORK, "produces", Template(), owner, *at, broker="celery", target=receiver)
    return None
