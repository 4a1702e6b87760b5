"""Which web framework's application-wide code can run for which framework's routes.

An application-wide wrapper (a Django ``MIDDLEWARE`` entry, a Nest global guard, a servlet filter:
:class:`indexer.model.Wrapper` with no router) runs for the routes of its own application only. In a
repository holding several applications the linker (:mod:`indexer.frameworks.link`) tells them apart
by folder (service boundaries) and, here, by framework family: a Django middleware never runs for a
FastAPI app beside it.
"""

from __future__ import annotations

__all__ = ["GRAPHQL_JAVA_ROUTES", "same_application_kind", "wrapper_runs_for"]

# The web framework families whose application-wide wrappers cannot run for another family's routes:
# a Django MIDDLEWARE never runs for a FastAPI app of the same repository, a Nest global guard never for
# a plain Express server beside it. One servlet container runs Spring MVC, JAX-RS and servlets alike.
_WEB_FAMILY = {
    "django": "django", "drf": "django", "flask": "flask", "fastapi": "starlette", "starlette": "starlette",
    "express": "express", "koa": "koa", "nest": "nest", "fastify": "fastify", "hono": "hono",
    "spring": "servlet", "servlet": "servlet", "jaxrs": "servlet",
}


def same_application_kind(wrapper: str, route: str) -> bool:
    """Whether an application-wide wrapper of framework ``wrapper`` may run for a route of framework
    ``route``: both web frameworks of one family (:data:`_WEB_FAMILY`), or either one outside the
    table (a GraphQL or other entry a web application serves: kept, as before)."""
    a, b = _WEB_FAMILY.get(wrapper), _WEB_FAMILY.get(route)
    return a is None or b is None or a == b


GRAPHQL_JAVA_ROUTES = frozenset({"dgs", "spring-graphql", "graphql-java"})
"""Route frameworks of GraphQL servers on graphql-java (DGS, Spring for GraphQL, runtime wiring): their
data fetchers' errors go to graphql-java's exception handlers, not to Spring MVC's."""
_MVC_ONLY_KINDS = frozenset({"error_handler", "hook"})
_GRAPHQL_ERRORS = "graphql-java"  # indexer.languages.java.frameworks.spring_wrappers.GRAPHQL_ERRORS


def wrapper_runs_for(wrapper: str, kind: str, route: str) -> bool:
    """Whether an application-wide wrapper of framework ``wrapper`` and kind ``kind`` runs for a route of
    framework ``route``: :func:`same_application_kind`, except that a Spring MVC advice's error handlers and
    hooks (``@ExceptionHandler``, ``@ModelAttribute``, ``@InitBinder``) never handle a GraphQL data fetcher
    (:data:`GRAPHQL_JAVA_ROUTES`; a servlet filter still runs for its HTTP request), and a GraphQL error
    handler (framework ``graphql-java``) handles those endpoints only."""
    graphql = route in GRAPHQL_JAVA_ROUTES
    if wrapper == _GRAPHQL_ERRORS:
        return graphql
    if graphql and kind in _MVC_ONLY_KINDS and _WEB_FAMILY.get(wrapper) == "servlet":
        return False
    return same_application_kind(wrapper, route)
