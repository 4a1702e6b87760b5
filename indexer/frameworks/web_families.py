"""Which web framework's application-wide code can run for which framework's routes.

An application-wide wrapper (a Django ``MIDDLEWARE`` entry, a Nest global guard, a servlet filter:
:class:`indexer.model.Wrapper` with no router) runs for the routes of its own application only. In a
repository holding several applications the linker (:mod:`indexer.frameworks.link`) tells them apart
by folder (service boundaries) and, here, by framework family: a Django middleware never runs for a
FastAPI app beside it.
"""

from __future__ import annotations

__all__ = ["same_application_kind"]

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
