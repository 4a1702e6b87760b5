"""Names and attributes read without being called (:class:`~indexer.model.ValueRead`): getters run
and functions used as values.

*Getters.* Reading ``obj.name`` runs a getter when ``obj`` is an instance whose class declares
``name`` as one (a module system's optional ``getter_modifiers``: Python ``property`` for
``@property`` / ``@cached_property``, ECMAScript ``get`` for ``get name()``): a ``CALLS`` edge
from the reading code to the getter, bound as a method call on that receiver is (``exact`` on the
declared or built class, ``inferred`` when inherited or reached by dispatch to an overriding getter
of a subclass). A call-hierarchy user expects ``resp.text`` among the incoming calls of
``Response.text``, as pyright lists it: the getter's code runs there.

*Functions used as values.* A name or attribute handed on as a value (``ValueRead.handed``: an
argument, the right side of an assignment, a container's element, a returned value) that resolves
to a function or method of the repository is a ``REFERENCES`` edge from the reading code to it,
at the name (``sorted(xs, key=by_name)``, ``app.add_url_rule("/", view_func=index)``,
``callbacks.append(self.on_done)``). Not a call: nothing says it runs there (a call is only what
:mod:`indexer.resolve.callbacks` can show runs it), so callers and the blast radius leave it out.

Only through values, never by name: an attribute read on a receiver whose class is unknown links
nothing, and neither does a name that resolves to no function (a local variable, a library
function). Cost: a read whose name no getter (for reads) or no callable of the repository (for
values handed on) bears, and that no import of the file binds, is dropped before anything is
resolved; the check records ``("n", namespace, name)``, the token a new definition of that name
invalidates, like the short-name fallback of calls. Language-neutral.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.resolve.values import FuncV, InstV

if TYPE_CHECKING:
    from indexer.model import ValueRead
    from indexer.resolve.context import FileCtx
    from indexer.resolve.interpreter import Resolver
    from indexer.resolve.values import Def, Value

__all__ = ["bind_read", "is_getter"]


def bind_read(r: Resolver, fc: FileCtx, read: ValueRead) -> list[tuple[str, Def, str | None]]:
    """``(edge kind, target, resolution)`` for ``read`` of ``fc``: the getters it runs
    (``CALLS``), else the function it hands on (``REFERENCES``, no resolution); empty when it
    links nothing. Reads are recorded through ``r``."""
    rv: Value = None
    if read.receiver is not None and r.getter_named(fc.rules.namespace, read.name):
        rv = r.resolve_expr_at(fc, read.owner, read.receiver, read.line)
        if isinstance(rv, InstV):
            found = getter_targets(r, rv, read.name)
            if found:
                return [("CALLS", d, how) for d, how in found]
    if not read.handed or not r.callable_named(fc, read.name):
        return []
    if read.receiver is None:
        v = r.resolve_expr_at(fc, read.owner, read.name, read.line)
    else:  # the receiver's value is memoised already, most often (its calls were bound)
        if rv is None:
            rv = r.resolve_expr_at(fc, read.owner, read.receiver, read.line)
        v = r.follow(rv, [read.name])
    if isinstance(v, FuncV) and v.f.is_callable and not is_getter(v.f):  # a getter's value is what it returns
        return [("REFERENCES", v.f, None)]
    return []


def getter_targets(r: Resolver, inst: InstV, name: str) -> list[tuple[Def, str]]:
    """The getters reading ``name`` on ``inst`` runs, with their resolution: the getter the first
    class of the MRO declaring ``name`` has (``inferred`` when inherited), then, unless the
    instance's class is known exactly, the overriding getters of its subclasses (``inferred``);
    empty when that first class's ``name`` is no getter (a method, a field)."""
    classes = r.classes
    members, inherited = classes.lookup(inst.c, name)
    getters = [m for m in members if is_getter(m)]
    if not getters:
        return []
    how = "inferred" if inherited else inst.how
    out = [(m, how) for m in getters]
    if not inst.concrete:
        seen = {id(m) for m in getters}
        for m in getters:
            for o in classes.overriders(m, inst.c):
                if id(o) not in seen and is_getter(o):
                    seen.add(id(o))
                    out.append((o, "inferred"))
    return out


def is_getter(rd: Def) -> bool:
    """Whether ``rd`` is a getter: a method carrying one of its language's ``getter_modifiers``
    (:attr:`indexer.resolve.values.Shape.getter`)."""
    return rd.shape.getter
