"""Functions handed to a library that runs them for the code handing them over: a background task,
a thread, an executor.

``background_tasks.add_task(service.scrape, urls)`` in a FastAPI or Starlette route runs
``service.scrape(urls)`` once the response is sent; ``threading.Thread(target=job)``,
``loop.run_in_executor(None, job, x)``, ``executor.submit(job, x)``, ``BackgroundTask(job)``,
``run_in_threadpool(job)``, ``asyncio.to_thread(job)`` and anyio's ``to_thread.run_sync(job)`` run ``job``
likewise. The library's call is the only one, so without this the function is a value handed on (a
``REFERENCES`` edge): its blast radius stops at the route. Each such argument written as a (dotted) name
(:attr:`~indexer.model.CallSite.handed`) becomes a :class:`~indexer.model.CallSite` ``via="library"`` from
the function handing it, at the argument's last name: bound only through values, never by name, at most
``inferred`` (:mod:`indexer.resolve.output`), so a name the resolver cannot type links nothing.

Which calls: the methods ``add_task`` (Starlette's ``BackgroundTasks``, which FastAPI re-exports) and
``run_in_executor``, ``call_soon``, ``call_soon_threadsafe``, ``call_later`` and ``call_at`` (asyncio's event
loop) on any receiver, their names being the libraries' own;
``submit`` only in a file importing ``concurrent.futures`` (the name is common); the functions and classes
of :data:`_FUNCTIONS`, through the file's imports. The argument a library runs: the first positional one,
the second of ``run_in_executor`` (the first is the executor) and of ``call_later`` / ``call_at`` (the first is the delay or the time), ``target=`` of ``Thread``.

A Celery task's handlers run by the worker for that task: ``@shared_task(on_failure=f)`` (and ``on_success``,
``on_retry``, ``after_return``; ``@app.task(...)`` on any receiver in a file importing ``celery``) is a call of ``f``
from the task function, so the blast radius of what ``f`` calls reaches the task and its producers.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.python.frameworks.common import ImportTable
from indexer.languages.base import SourceText
from indexer.model import CallSite, FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_METHODS = {"add_task": "0", "run_in_executor": "1", "call_soon": "0", "call_soon_threadsafe": "0", "call_later": "1",
            "call_at": "1"}
"""Methods (by name, any receiver) that run the function handed at that argument key."""
_EXECUTOR_METHODS = {"submit": "0"}
"""Methods that do so on a ``concurrent.futures`` executor (files importing that package only)."""
_FUNCTIONS = {
    "starlette.background.BackgroundTask": "0",
    "starlette.concurrency.run_in_threadpool": "0",
    "fastapi.concurrency.run_in_threadpool": "0",
    "asyncio.to_thread": "0",
    "anyio.to_thread.run_sync": "0",
    "threading.Thread": "target",
    "threading.Timer": "1",
}
"""Library callables (qualified) that run the function handed at that argument key."""
_TASK_HANDLERS = ("on_failure", "on_success", "on_retry", "after_return")
"""Keyword arguments of a Celery task decorator naming a handler the worker runs for the task."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a ``via="library"`` call of each function handed to a runner (module docstring)."""
    imports = ImportTable.of(out)
    methods = {**_METHODS, **_EXECUTOR_METHODS} if imports.uses("concurrent") else _METHODS
    celery = imports.uses("celery")
    added = []
    for cs in out.calls:
        if not cs.handed or cs.via is not None:
            continue
        key = methods.get(cs.name) if cs.receiver is not None else None
        callee = f"{cs.receiver}.{cs.name}" if cs.receiver else cs.name
        if key is None:
            key = _FUNCTIONS.get(imports.qualify(callee))
        keys: tuple[str, ...] = (key,) if key is not None else ()
        if celery and (imports.qualify(callee) == "celery.shared_task" or cs.name == "task" and cs.receiver):
            keys = _TASK_HANDLERS
        for arg in (a for a in cs.handed if a.key in keys):
            if arg.text.endswith(")") or " " in arg.text:
                continue
            receiver, _, name = arg.text.rpartition(".")
            col = arg.col + len(arg.text) - len(name)
            added.append(CallSite(cs.caller, name, receiver or None, -1, arg.line, col, via="library"))
    out.calls.extend(added)
