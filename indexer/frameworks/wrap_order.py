"""Registration order of Express / Koa middleware: which routes an ``X.use(mw)`` runs for.

Express keeps one stack of layers per application or router, in the order they are registered
(``app.use``, ``app.get``, ``app.use("/api", router)``), and a request walks it from the top: a route
that answers ends the walk, so middleware registered after a route (or after a router was mounted)
never runs for it (Express 4/5 guide, "Using middleware": "middleware functions are executed
sequentially, therefore the order of middleware inclusion is important"; "Writing middleware": a
middleware "loaded after the route" does not run when the route handler ends the cycle). Koa's
``app.use`` and koa-router's ``router.use`` compose in the same order. Error-handling middleware
(four parameters, ``(err, req, res, next)``) is the reverse: an error passed on with ``next(err)``
skips every ordinary layer and reaches the error handlers registered *after* the layer that failed
(Express guide, "Error handling": "define error-handling middleware last, after other app.use() and
routes calls"), so an error handler runs for the routes and routers registered *before* it.

Positions are compared only where the registration order is the textual order: two registrations
written in the same file and in the same definition (the module's top level, or one function's body:
``bootstrap()``, ``module.exports = (app) => {...}``). Registrations of different methods of one
class (``initializeRoutes()`` / ``initializeMiddlewares()``, called from the constructor in any order)
or in another file (a route on a router imported from elsewhere) are kept, as before this rule. A router handed to a function (``require("./routes")(app)``: the
router key ``default#0`` of :mod:`indexer.frameworks.mounts`) is registered, with everything the
function adds to it, where the call stands; middleware a function adds to a router it is handed
counts from that call in the caller's stack, and from its own position in the function's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.frameworks.mounts import RouterKey, wrapped_routers
from indexer.resolve.values import FuncV

if TYPE_CHECKING:
    from indexer.model import Wrapper
    from indexer.resolve.context import FileCtx

__all__ = ["ORDERED_FRAMEWORKS", "Position", "UNKNOWN_POSITION", "Reach", "RegistrationOrder", "runs_on_errors"]

ORDERED_FRAMEWORKS = frozenset({"express", "koa"})
"""Wrapper frameworks whose router-wide middleware runs only for what is registered after it."""

Position = tuple[str, int, int, int]
"""``(file path, line, col, argument)`` of a registration: where its call starts, and the argument's index
in it (``app.use(a, router)``: ``a`` 0, ``router`` 1; 0 for a route)."""

UNKNOWN_POSITION: Position = ("", 0, 0, 0)
"""Where a registration whose place is not known stands: in no file, so :meth:`RegistrationOrder.runs_for`
finds its order unknown against every layer and keeps it (what is added to a router class's instances)."""


class RegistrationOrder:
    """The mounts of the linker with where each was registered, to answer :meth:`reach`."""

    def __init__(self, depth: int, scope_of: Callable[[str, int, int], str | None]) -> None:
        """``depth``: how many mounts are followed each way; ``scope_of(path, line, col)``: the
        qualname of the innermost definition of that file holding the position (``None``: top level)."""
        self.depth = depth
        self.scope_of = scope_of
        self._scopes: dict[tuple[str, int, int], str | None] = {}
        self.children: dict[RouterKey, list[tuple[RouterKey, Position]]] = defaultdict(list)  # parent -> mounted
        self.handed: dict[RouterKey, list[tuple[RouterKey, Position]]] = defaultdict(list)  # parameter -> router
        self._unordered: tuple[dict[RouterKey, list[RouterKey]], dict[RouterKey, list[RouterKey]]] | None = None

    def mount(self, parent: RouterKey, child: RouterKey, at: Position, handed: bool) -> None:
        """Record ``child`` mounted into ``parent`` at ``at``; ``handed``: ``child`` is a function's
        parameter given ``parent`` itself (``users(app)``), so what is added to it is added to ``parent``."""
        self._unordered = None
        self.children[parent].append((child, at))
        if handed:
            self.handed[child].append((parent, at))

    def stands_for(self, key: RouterKey, router: RouterKey) -> None:
        """Record that what is added to ``key`` (a repository class building routers, keyed by its file
        and qualname: :func:`indexer.frameworks.router_classes.module_routers`) is added to ``router``,
        at no known position: its middleware runs for all of ``router``'s routes, whatever the order."""
        self._unordered = None
        self.handed[key].append((router, UNKNOWN_POSITION))

    def everything(self, key: RouterKey) -> set[RouterKey]:
        """The routers a wrapper on ``key`` of a framework without registration order runs for, whatever
        the order (:func:`indexer.frameworks.mounts.wrapped_routers`)."""
        if self._unordered is None:
            self._unordered = ({k: [c for c, _ in v] for k, v in self.children.items()},
                               {k: [p for p, _ in v] for k, v in self.handed.items()})
        return wrapped_routers(*self._unordered, key, self.depth)

    def reach(self, key: RouterKey, at: Position, error_handler: bool) -> Reach:
        """What a middleware registered on router ``key`` at ``at`` runs for (see the module docstring):
        the routers it reaches whole (mounted after it; before it, for an ``error_handler``) and, per
        router on whose stack it stands (``key``, and the routers ``key`` is handed as, transitively),
        the position it stands at there."""
        stands: dict[RouterKey, list[Position]] = defaultdict(list)
        stands[key].append(at)
        level = [(key, at)]
        for _ in range(self.depth):  # up: a parameter router is the router handed, at the call
            level = list(dict.fromkeys((p, pos) for k, _ in level for p, pos in self.handed.get(k, ())
                                       if pos not in stands[p]))  # once each: no growth per path
            if not level:
                break
            for p, pos in level:
                stands[p].append(pos)
        whole: set[RouterKey] = set()
        level_keys = [c for k, positions in stands.items() for c, pos in self.children.get(k, ())
                      if c not in stands and any(self.runs_for(pos, p, error_handler) for p in positions)]
        for _ in range(self.depth):  # down: a router mounted in reach is reached whole, with its mounts
            level_keys = [c for c in dict.fromkeys(level_keys) if c not in whole]  # once each: a diamond of
            # mounts (every router of a level mounting every one of the next) lists a router once per path
            if not level_keys:
                break
            whole.update(level_keys)
            level_keys = [c for k in level_keys for c, _ in self.children.get(k, ())]
        return Reach(self, whole, dict(stands), error_handler)

    def runs_for(self, layer: Position, middleware: Position, error_handler: bool) -> bool:
        """Whether middleware registered at ``middleware`` runs for the layer registered at ``layer`` of
        the same stack: after it (before it, for an error handler), arguments of one call in their order
        (``app.use("/api", auth, router)``: ``auth`` runs for the router; ``app.use(router, notFound)``:
        ``notFound`` does not, an error handler there does); either way when the two are not written in
        the same file and definition (their order is not known), or are the same registration."""
        if layer[0] != middleware[0] or layer[1:] == middleware[1:] or self._scope(layer) != self._scope(middleware):
            return True
        return layer[1:] < middleware[1:] if error_handler else layer[1:] > middleware[1:]

    def _scope(self, at: Position) -> str | None:
        where = at[:3]
        if where not in self._scopes:
            self._scopes[where] = self.scope_of(*where)
        return self._scopes[where]


class Reach:
    """The answer of :meth:`RegistrationOrder.reach`; :meth:`runs_for` tests one route."""

    def __init__(self, order: RegistrationOrder, whole: set[RouterKey], stands: dict[RouterKey, list[Position]],
                 error_handler: bool) -> None:
        self.order, self.whole, self.stands, self.error_handler = order, whole, stands, error_handler

    def keys(self) -> set[RouterKey]:
        """Every router the middleware may run for (whole, or the routes after / before it)."""
        return self.whole | set(self.stands)

    def runs_for(self, router: RouterKey | None, at: Position) -> bool:
        """Whether the middleware runs for a route registered on ``router`` at ``at``."""
        if router in self.whole:
            return True
        positions = self.stands.get(router) if router is not None else None
        return bool(positions) and any(self.order.runs_for(at, p, self.error_handler) for p in positions)  # type: ignore[union-attr]


def runs_on_errors(r, fc: FileCtx, scope: str | None, w: Wrapper) -> bool:
    """Whether wrapper ``w`` (registered in ``fc``, in the definition ``scope``) is Express
    error-handling middleware: the detector said so (a function of its file with four parameters),
    or the function its ``owner_ref`` (else its ``owner``) names
    (``app.use(errorHandler)`` imported from ``./middlewares/error``) declares four parameters, or is a
    factory every function of which it returns does (``app.use(errorHandler())`` with ``function
    errorHandler() { return (err, req, res, next) => ... }``: the detector names the factory of a
    call, whose result runs). ``r``: the repository resolver
    (:class:`indexer.resolve.repository.Resolver`)."""
    if w.kind == "error_handler":
        return True
    named = w.owner_ref or w.owner
    if named is None:
        return False
    v = r.resolve_expr(fc, scope if w.owner_ref else None, named)
    if not isinstance(v, FuncV):
        return False
    if len(v.f.d.params) == 4:
        return True
    returned = r.returned_values(v.f) if not v.f.d.params or len(v.f.d.params) < 4 else []
    return bool(returned) and all(isinstance(f, FuncV) and len(f.f.d.params) == 4 for f in returned)
