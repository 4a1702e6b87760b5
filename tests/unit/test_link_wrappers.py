"""WRAPS edges (indexer/frameworks/link.py) from wrapper facts given by hand: cross-cutting code to the
endpoints it runs for, per scope (route, router with its mounted routers, application, module folder of
a multi-service repository, path limits), with the endpoints it must NOT reach, and the incremental
resolver producing an app-wide wrapper's file again when a route file comes or goes."""

from __future__ import annotations

import hashlib

from indexer.frameworks.link import LinkOptions, path_under
from indexer.frameworks.web_families import same_application_kind
from indexer.languages import extractor_for_path
from indexer.model import Mount, Route, Router, Template, Wrapper, WrapperRef
from indexer.resolve.repository import RepositoryResolver, resolve_repository
from tests.resolution_harness import split_fixture

_FACTS = ("routes", "wrappers", "routers", "mounts", "http_calls", "topics", "constants")


def _extractions(fixture: str, facts: dict[str, dict[str, list]]):
    out = []
    for path, source in split_fixture(fixture).items():
        ex = extractor_for_path(path)
        assert ex is not None
        data = source.encode()
        extraction = ex.extract(path, data)
        for attr in _FACTS:
            setattr(extraction, attr, [])
        for attr, values in facts.get(path, {}).items():
            setattr(extraction, attr, values)
        out.append((extraction, hashlib.sha256(data).hexdigest(), len(data)))
    return out


def _run(fixture: str, facts: dict[str, dict[str, list]], options: LinkOptions | None = None):
    return resolve_repository("t", _extractions(fixture, facts), options)


def _wraps(result) -> list[tuple]:
    """(owning file, line, src without the repo, endpoint, props) of every WRAPS edge, sorted."""
    return sorted((e.file, e.line, e.src.removeprefix("t:"), e.dst, dict(e.props))
                  for f in result.files for e in f.edges if e.kind == "WRAPS")


def _pairs(result) -> list[tuple[str, str]]:
    return sorted({(e.src.removeprefix("t:"), e.dst) for f in result.files for e in f.edges if e.kind == "WRAPS"})


SHOP = """
# --- path: app/__init__.py ---
# --- path: app/main.py ---
from fastapi import FastAPI
from app import items, admin
from app.deps import audit

app = FastAPI()
app.include_router(items.router, prefix="/api")
app.include_router(admin.router, prefix="/admin")

def health():
    return "ok"

def apiary():
    return "bees"
# --- path: app/items.py ---
from fastapi import APIRouter
from app import sub
from app.deps import get_user, require_token

router = APIRouter(prefix="/items")
router.include_router(sub.router, prefix="/sub")

def list_items():
    return []

def read_item(item_id):
    return item_id
# --- path: app/sub.py ---
from fastapi import APIRouter

router = APIRouter()

def sub_items():
    return []
# --- path: app/admin.py ---
from fastapi import APIRouter

router = APIRouter()

def stats():
    return {}
# --- path: app/deps.py ---
def get_user():
    return "u"

def require_token():
    return "t"

def audit():
    return None
"""


def _shop(main_wrappers=(), items_wrappers=(), read_item_refs=()) -> dict[str, dict[str, list]]:
    return {
        "app/main.py": {
            "mounts": [Mount("fastapi", "app", "items.router", Template.of("/api"), 7, 0),
                       Mount("fastapi", "app", "admin.router", Template.of("/admin"), 8, 0)],
            "routes": [Route("fastapi", ["GET"], Template.of("/health"), "health", 10, 0, router="app"),
                       Route("fastapi", ["GET"], Template.of("/apiary"), "apiary", 13, 0, router="app")],
            "wrappers": list(main_wrappers),
        },
        "app/items.py": {
            "routers": [Router("fastapi", "router", Template.of("/items"), 5)],
            "mounts": [Mount("fastapi", "router", "sub.router", Template.of("/sub"), 6, 0)],
            "routes": [Route("fastapi", ["GET"], Template.of(""), "list_items", 8, 0, router="router"),
                       Route("fastapi", ["GET"], Template.of("/{item_id}"), "read_item", 11, 0, router="router",
                             wrappers=list(read_item_refs))],
            "wrappers": list(items_wrappers),
        },
        "app/sub.py": {
            "routers": [Router("fastapi", "router", Template(), 3)],
            "routes": [Route("fastapi", ["GET"], Template.of("/x"), "sub_items", 5, 0, router="router")],
        },
        "app/admin.py": {
            "routers": [Router("fastapi", "router", Template(), 3)],
            "routes": [Route("fastapi", ["GET"], Template.of("/stats"), "stats", 5, 0, router="router")],
        },
    }


def test_route_wrappers_wrap_that_route_only() -> None:
    refs = [WrapperRef("dependency", "get_user"), WrapperRef("dependency", "require_token")]
    result = _run(SHOP, _shop(read_item_refs=refs))
    assert _wraps(result) == [
        ("app/items.py", 11, "app/deps.get_user(0)", "endpoint:GET /api/items/{}",
         {"framework": "fastapi", "kind": "dependency", "scope": "route"}),
        ("app/items.py", 11, "app/deps.require_token(0)", "endpoint:GET /api/items/{}",
         {"framework": "fastapi", "kind": "dependency", "scope": "route"}),
    ]  # not GET /api/items (same router, other route)
    assert result.link_outcomes["wraps"] == 2
    assert "unlinked_wrapper" not in result.link_outcomes
    # The owning file carries the endpoint node its edges point to.
    items = next(f for f in result.files if f.file.path == "app/items.py")
    assert "endpoint:GET /api/items/{}" in {n.id for n in items.nodes}


def test_router_wrapper_wraps_its_routes_and_mounted_routers_not_siblings_or_the_app() -> None:
    w = Wrapper("fastapi", "dependency", None, 5, 0, owner_ref="require_token", router="router")
    result = _run(SHOP, _shop(items_wrappers=[w]))
    assert _pairs(result) == [
        ("app/deps.require_token(0)", "endpoint:GET /api/items"),
        ("app/deps.require_token(0)", "endpoint:GET /api/items/sub/x"),
        ("app/deps.require_token(0)", "endpoint:GET /api/items/{}"),
    ]  # not /admin/stats (a sibling router), not /health, /apiary (the application's own routes)
    assert {e[4]["scope"] for e in _wraps(result)} == {"router"}
    assert {e[0] for e in _wraps(result)} == {"app/items.py"}


def test_router_wrapper_path_is_relative_to_the_routers_full_prefix() -> None:
    w = Wrapper("fastapi", "middleware", None, 5, 0, owner_ref="require_token", router="router",
                path=Template.of("/sub"))
    result = _run(SHOP, _shop(items_wrappers=[w]))
    assert _wraps(result) == [
        ("app/items.py", 5, "app/deps.require_token(0)", "endpoint:GET /api/items/sub/x",
         {"framework": "fastapi", "kind": "middleware", "scope": "router", "path": "/api/items/sub"}),
    ]  # the limit `/sub` is the router's; the edge names it as the endpoint is named (js50)


def test_app_wrapper_wraps_every_endpoint_of_the_repository() -> None:
    w = Wrapper("fastapi", "middleware", "audit", 3, 0)  # owner given as a qualname of another file: not here
    ref = Wrapper("fastapi", "middleware", None, 9, 0, owner_ref="audit")
    result = _run(SHOP, _shop(main_wrappers=[w, ref]))
    assert _pairs(result) == [("app/deps.audit(0)", e) for e in (
        "endpoint:GET /admin/stats", "endpoint:GET /api/items", "endpoint:GET /api/items/sub/x",
        "endpoint:GET /api/items/{}", "endpoint:GET /apiary", "endpoint:GET /health")]
    assert {(e[0], e[1], e[4]["scope"]) for e in _wraps(result)} == {("app/main.py", 9, "app")}
    assert result.link_outcomes["unlinked_wrapper"] == 1  # "audit" is no definition of app/main.py
    assert result.link_outcomes["wraps"] == 6


def test_app_wrapper_limited_by_path_stops_at_a_segment_boundary() -> None:
    w = Wrapper("fastapi", "middleware", None, 9, 0, owner_ref="audit", path=Template.of("/api/*"))
    result = _run(SHOP, _shop(main_wrappers=[w]))
    assert _pairs(result) == [
        ("app/deps.audit(0)", "endpoint:GET /api/items"),
        ("app/deps.audit(0)", "endpoint:GET /api/items/sub/x"),
        ("app/deps.audit(0)", "endpoint:GET /api/items/{}"),
    ]  # not /apiary (a longer segment), /admin/stats, /health


def test_path_under() -> None:
    assert path_under("/api/items", "/api")
    assert path_under("/api", "/api/**")
    assert path_under("/api/items/{}", "/api/*/")
    assert path_under("/owners/{}/pets", "/owners/{ownerId}")
    assert path_under("/owners/{}/pets", "/owners/*/pets")
    assert path_under("/anything", "")
    assert path_under("/anything", "/*")
    assert not path_under("/apiary", "/api")
    assert not path_under("/ap", "/api")
    assert not path_under("/owners/{}/visits", "/owners/*/pets")


SERVICES = """
# --- path: svc-a/src/main/java/com/a/JwtFilter.java ---
package com.a;

import org.springframework.web.filter.OncePerRequestFilter;

public class JwtFilter extends OncePerRequestFilter {
    private final TokenService tokens;

    protected void doFilterInternal(HttpServletRequest req, HttpServletResponse res, FilterChain chain) {
        tokens.verify(req.getHeader("Authorization"));
        chain.doFilter(req, res);
    }

    private void helper() {}
}
# --- path: svc-a/src/main/java/com/a/Plain.java ---
package com.a;

public class Plain {
    public void run() {}
}
# --- path: svc-a/src/main/java/com/a/SecurityConfig.java ---
package com.a;

public class SecurityConfig {
    private final JwtFilter jwtFilter;

    public SecurityFilterChain chain(HttpSecurity http) {
        http.addFilterBefore(jwtFilter, UsernamePasswordAuthenticationFilter.class);
        http.addFilterAfter(new JwtFilter(null), X.class);
        http.addFilterAfter(new Plain(), X.class);
        http.addFilterAfter(unknownFilter, X.class);
        return http.build();
    }
}
# --- path: svc-a/src/main/java/com/a/OwnerController.java ---
package com.a;

public class OwnerController {
    public String list() { return ""; }
    public String show(int id) { return ""; }
}
# --- path: svc-b/src/main/java/com/b/VetController.java ---
package com.b;

public class VetController {
    public String vets() { return ""; }
}
"""

_A = "svc-a/src/main/java/com/a"


def _services(wrappers: dict[str, list[Wrapper]]) -> dict[str, dict[str, list]]:
    facts: dict[str, dict[str, list]] = {
        f"{_A}/OwnerController.java": {"routes": [
            Route("spring", ["GET"], Template.of("/api/owners"), "OwnerController.list", 4, 4),
            Route("spring", ["GET"], Template.of("/api/owners/{id}"), "OwnerController.show", 5, 4),
            Route("spring", ["GET"], Template.of("/health"), "OwnerController.list", 4, 4),
        ]},
        "svc-b/src/main/java/com/b/VetController.java": {"routes": [
            Route("spring", ["GET"], Template.of("/api/vets"), "VetController.vets", 4, 4)]},
    }
    for path, ws in wrappers.items():
        facts.setdefault(path, {})["wrappers"] = ws
    return facts


_MODULES = LinkOptions(modules={"svc-a": {"server.servlet.context-path": "/a", "spring.application.name": "owners"},
                                "svc-b": {"spring.application.name": "vets"}})


def test_class_owner_wraps_through_its_framework_methods_within_its_module_folder() -> None:
    w = Wrapper("spring", "filter", "JwtFilter", 6, 0)
    result = _run(SERVICES, _services({f"{_A}/JwtFilter.java": [w]}), _MODULES)
    src = "svc-a/src/main/java/com/a/JwtFilter.JwtFilter.doFilterInternal(HttpServletRequest,HttpServletResponse,FilterChain)"
    assert _wraps(result) == [
        (f"{_A}/JwtFilter.java", 6, src, ep, {"framework": "spring", "kind": "filter", "scope": "app", "service": "owners"})
        for ep in ("endpoint:GET /a/api/owners", "endpoint:GET /a/api/owners/{}", "endpoint:GET /a/health")
    ]  # not svc-b's GET /api/vets (another module folder); not helper (no framework method)


def test_app_wrapper_path_is_under_the_context_path() -> None:
    w = Wrapper("spring", "filter", "JwtFilter", 6, 0, path=Template.of("/api/*"))
    result = _run(SERVICES, _services({f"{_A}/JwtFilter.java": [w]}), _MODULES)
    assert [e[3] for e in _wraps(result)] == ["endpoint:GET /a/api/owners", "endpoint:GET /a/api/owners/{}"]


def test_without_modules_an_app_wrapper_wraps_the_whole_repository() -> None:
    w = Wrapper("spring", "filter", "JwtFilter", 6, 0)
    result = _run(SERVICES, _services({f"{_A}/JwtFilter.java": [w]}))
    assert [e[3] for e in _wraps(result)] == [
        "endpoint:GET /api/owners", "endpoint:GET /api/owners/{}", "endpoint:GET /api/vets", "endpoint:GET /health"]


def test_owner_refs_a_field_a_constructor_and_what_cannot_be_linked() -> None:
    cfg = f"{_A}/SecurityConfig.java"
    ws = [Wrapper("spring", "filter", None, 7, 8, owner_ref="jwtFilter"),  # a field: its class's methods
          Wrapper("spring", "filter", None, 8, 8, owner_ref="new JwtFilter(null)"),
          Wrapper("spring", "filter", None, 9, 8, owner_ref="new Plain()"),  # no framework method
          Wrapper("spring", "filter", None, 10, 8, owner_ref="unknownFilter"),  # resolves to nothing
          Wrapper("spring", "filter", "Nope", 11, 8)]  # no such definition
    result = _run(SERVICES, _services({cfg: ws}), _MODULES)
    src = "svc-a/src/main/java/com/a/JwtFilter.JwtFilter.doFilterInternal(HttpServletRequest,HttpServletResponse,FilterChain)"
    assert sorted({(e[0], e[1], e[2]) for e in _wraps(result)}) == [(cfg, 7, src), (cfg, 8, src)]
    assert len(_wraps(result)) == 6
    assert result.link_outcomes["unlinked_wrapper"] == 3
    assert result.link_outcomes["wraps"] == 6


def test_incremental_resolve_gives_an_app_wrapper_the_endpoints_of_a_route_file_added_then_removed() -> None:
    filt = f"{_A}/JwtFilter.java"
    vets = "svc-b/src/main/java/com/b/VetController.java"
    facts = _services({filt: [Wrapper("spring", "filter", "JwtFilter", 6, 0)]})
    every = _extractions(SERVICES, facts)
    first = [x for x in every if x[0].path != vets]
    resolver = RepositoryResolver("t")
    resolver.update(first)
    out = resolver.resolve([x[0].path for x in first])
    assert "endpoint:GET /api/vets" not in {e[3] for e in _wraps(out)}
    # The route file arrives: only it is asked for, the filter's file is produced again with the new edge.
    added = [x for x in every if x[0].path == vets]
    resolver.update(added)
    out = resolver.resolve([vets])
    assert filt in {f.file.path for f in out.files}
    assert [e[3] for e in _wraps(out) if e[0] == filt] == [
        "endpoint:GET /api/owners", "endpoint:GET /api/owners/{}", "endpoint:GET /api/vets", "endpoint:GET /health"]
    full = resolve_repository("t", every)
    assert _wraps(full) == _wraps(out)
    # ... and goes: the filter's file loses that edge.
    resolver.update([], removed=[vets])
    out = resolver.resolve([])
    assert [e[3] for e in _wraps(out) if e[0] == filt] == [
        "endpoint:GET /api/owners", "endpoint:GET /api/owners/{}", "endpoint:GET /health"]
    # A body-only edit of a controller links nothing anew: the filter's file is not produced.
    ctrl = next(x for x in every if x[0].path.endswith("OwnerController.java"))
    resolver.update([ctrl])
    assert [f.file.path for f in resolver.resolve([ctrl[0].path]).files] == [ctrl[0].path]


FACTORY = """
# --- path: app/__init__.py ---
# --- path: app/auth.py ---
def verify(request, secret):
    return secret

def make_auth(secret):
    return lambda request: verify(request, secret)

class Guard:
    def __call__(self, request):
        return request

def guard():
    return Guard()
# --- path: app/main.py ---
from app.auth import make_auth, guard

def home():
    return "home"
"""


def test_a_wrapper_made_by_a_call_is_its_factory_or_what_the_call_returns() -> None:
    refs = [WrapperRef("middleware", 'make_auth("s3cret")'), WrapperRef("dependency", "guard()"),
            WrapperRef("middleware", "make_auth"), WrapperRef("middleware", "nothing(1)")]
    result = _run(FACTORY, {"app/main.py": {
        "routes": [Route("fastapi", ["GET"], Template.of("/"), "home", 3, 0, router="app", wrappers=refs)]}})
    assert _pairs(result) == [
        ("app/auth.Guard.__call__(1)", "endpoint:GET /"),  # guard() returns a Guard: its framework method
        ("app/auth.make_auth(1)", "endpoint:GET /"),  # the factory owns the returned lambda's calls
    ]
    assert result.link_outcomes["unlinked_wrapper"] == 1


LIBRARY = """
# --- path: web/WebConfig.java ---
package web;

import org.springframework.web.servlet.i18n.LocaleChangeInterceptor;

public class WebConfig {
    public LocaleChangeInterceptor localeChangeInterceptor() {
        return new LocaleChangeInterceptor();
    }

    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(localeChangeInterceptor());
    }

    public String home() { return ""; }
}
"""


def test_a_bean_method_returning_a_library_interceptor_is_no_wrapper() -> None:
    w = Wrapper("spring", "interceptor", None, 11, 17, owner_ref="localeChangeInterceptor()")
    result = _run(LIBRARY, {"web/WebConfig.java": {
        "routes": [Route("spring", ["GET"], Template.of("/"), "WebConfig.home", 14, 4)], "wrappers": [w]}})
    assert _pairs(result) == []  # not the bean method, which runs once at start-up
    assert result.link_outcomes["unlinked_wrapper"] == 1


def test_decorator_refs_of_a_python_definitions_decorator_texts():
    from indexer.frameworks.link import decorator_refs

    assert decorator_refs("login_required") == ["login_required"]
    assert decorator_refs('permission_required("polls.view", raise_exception=True)') == ["permission_required"]
    assert decorator_refs("auth.decorators.check") == ["auth.decorators.check"]
    assert decorator_refs('method_decorator([login_required, cache_page(60)], name="dispatch")') == [
        "login_required", "cache_page",
    ]  # fmt: skip
    assert decorator_refs("method_decorator(never_cache)", class_level=True) == ["never_cache"]
    # a class's own decorators do not wrap its view; neither do these; nor text that is no expression
    assert decorator_refs("dataclass", class_level=True) == []
    assert [decorator_refs(t) for t in ("staticmethod", "functools.wraps(f)", "method_decorator()", "x[0]", "a(")] == [
        [], ["functools.wraps"], [], [], [],
    ]  # fmt: skip


RETURNED_FUNCTIONS = """
# --- path: app/__init__.py ---
# --- path: app/auth.py ---
from typing import Callable

def lookup_user():
    return "u"

def _strict():
    return lookup_user()

def _lenient():
    return None

def authorizer(*, required: bool = True) -> Callable:
    token = "t"
    return _strict if required else (_lenient)

# --- path: app/routes.py ---
from fastapi import APIRouter, Depends
from app.auth import authorizer

router = APIRouter()

@router.get("/me")
def me(user=Depends(authorizer())):
    return user

@router.get("/plain")
def plain(user=Depends(authorizer)):
    return user

@router.get("/open")
def open_():
    return "open"
"""


def test_a_dependency_made_by_a_factory_call_is_the_functions_the_factory_returns() -> None:
    # Real extraction (no facts given by hand): ``Depends(authorizer())`` runs what ``authorizer``
    # returns by name (both branches of the conditional), not the factory's own body; ``Depends(authorizer)``
    # runs the factory itself; the route without dependency is wrapped by nothing.
    extractions = []
    for path, source in split_fixture(RETURNED_FUNCTIONS).items():
        ex = extractor_for_path(path)
        assert ex is not None
        extractions.append((ex.extract(path, source.encode()), hashlib.sha256(source.encode()).hexdigest(), len(source)))
    defs = {d.qualname: d for d in extractions[1][0].definitions}
    assert defs["authorizer"].returned_refs == ["_strict", "_lenient"]
    assert defs["_strict"].returned_refs == [] and defs["lookup_user"].returned_refs == []
    result = resolve_repository("t", extractions, None)
    assert _pairs(result) == [
        ("app/auth._lenient(0)", "endpoint:GET /me"),
        ("app/auth._strict(0)", "endpoint:GET /me"),
        ("app/auth.authorizer(1)", "endpoint:GET /plain"),
    ]


def test_a_factory_returning_one_of_several_functions_links_them_as_inferred() -> None:
    extractions = []
    for path, source in split_fixture(RETURNED_FUNCTIONS).items():
        ex = extractor_for_path(path)
        assert ex is not None
        extractions.append((ex.extract(path, source.encode()), hashlib.sha256(source.encode()).hexdigest(), len(source)))
    result = resolve_repository("t", extractions, None)
    sure = sorted((e.src.removeprefix("t:"), e.dst, e.props.get("match"))
                  for f in result.files for e in f.edges if e.kind == "WRAPS")
    assert sure == [
        ("app/auth._lenient(0)", "endpoint:GET /me", "inferred"),  # which one runs depends on ``required``
        ("app/auth._strict(0)", "endpoint:GET /me", "inferred"),
        ("app/auth.authorizer(1)", "endpoint:GET /plain", None),  # the function itself: sure
    ]


def test_an_app_wrapper_wraps_only_routes_of_its_own_web_framework_family() -> None:
    # Hostile review: a Django MIDDLEWARE wrapped a FastAPI route of the same repository, a Nest global
    # guard a plain Express server's. The ``admin`` routes below are Django's, the rest FastAPI's.
    facts = _shop()
    facts["app/admin.py"]["routes"] = [Route("django", ["*"], Template.of("/stats"), "stats", 5, 0,
                                             router="urlpatterns")]
    facts["app/admin.py"]["routers"] = []
    facts["app/deps.py"] = {"wrappers": [Wrapper("django", "middleware", "audit", 7, 0)]}
    result = _run(SHOP, facts)
    assert _pairs(result) == [("app/deps.audit(0)", "endpoint:* /stats")]  # none of the FastAPI endpoints
    facts["app/deps.py"] = {"wrappers": [Wrapper("fastapi", "middleware", "audit", 7, 0)]}
    result = _run(SHOP, facts)
    assert _pairs(result) == [("app/deps.audit(0)", e) for e in (
        "endpoint:GET /api/items", "endpoint:GET /api/items/sub/x", "endpoint:GET /api/items/{}",
        "endpoint:GET /apiary", "endpoint:GET /health")]  # not the Django /stats


def test_same_application_kind() -> None:
    assert same_application_kind("spring", "jaxrs") and same_application_kind("servlet", "spring")
    assert same_application_kind("fastapi", "starlette")
    assert not same_application_kind("django", "fastapi") and not same_application_kind("nest", "express")
    assert same_application_kind("spring", "dgs")  # a GraphQL layer served by the same application
