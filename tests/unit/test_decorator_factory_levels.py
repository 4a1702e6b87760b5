"""Python decorator factories wrap a route through the function that runs per request only (session 67,
r67e): ``@cache(key_prefix=...)`` of FastAPI-boilerplate runs ``cache`` once at import and its ``wrapper`` once
when it decorates the view; only ``inner``, which ``wrapper`` returns, runs per request, so only ``inner``
WRAPS the endpoint (:func:`indexer.frameworks.wrapper_links.per_request_functions`)."""

from __future__ import annotations

import json

from tests.golden.harness import edge_rows

APP = {
    "app/main.py": '''
from fastapi import FastAPI
from app.deco import cache, login_required, flexible, opaque

app = FastAPI()


@app.get("/posts")
@cache(key_prefix="posts", expiration=60)
async def read_posts():
    return []


@app.get("/admin")
@login_required
async def admin():
    return {}


@app.get("/both")
@flexible(ttl=5)
async def both():
    return {}


@app.get("/opaque")
@opaque
async def hidden():
    return {}
''',
    "app/deco.py": '''
import functools


def record(x):
    return x


def cache(key_prefix, expiration=10):
    record(key_prefix)

    def wrapper(func):
        record(func)

        @functools.wraps(func)
        async def inner(*args, **kwargs):
            record(args)
            return await func(*args, **kwargs)

        return inner

    return wrapper


def login_required(view):
    def wrapped(*args, **kwargs):
        return view(*args, **kwargs)

    return wrapped


def flexible(fn=None, *, ttl=1):
    def decorator(f):
        def run(*args):
            return f(*args)

        return run

    if fn is None:
        return decorator
    return decorator(fn)


def opaque(view):
    def helper():
        return 1

    return functools.partial(view, helper)
''',
}


def test_only_the_per_request_level_of_a_decorator_factory_wraps_its_route(tmp_path) -> None:
    rows = edge_rows(tmp_path, APP, "WRAPS")
    got = sorted((src.split(":", 1)[1], dst, json.loads(props)["kind"]) for src, dst, _, props in rows)
    assert got == [
        ("app/deco.cache.wrapper.inner(2)", "endpoint:GET /posts", "decorator"),
        ("app/deco.flexible.decorator.run(1)", "endpoint:GET /both", "decorator"),
        ("app/deco.login_required.wrapped(2)", "endpoint:GET /admin", "decorator"),
        # returns no function of its own by name: which nested one runs is unknown, all of them kept
        ("app/deco.opaque(1)", "endpoint:GET /opaque", "decorator"),
        ("app/deco.opaque.helper(0)", "endpoint:GET /opaque", "decorator"),
    ]
    # the import-time levels wrap nothing: the factory, the decorator it returns, a bare decorator's body
    srcs = {src.split(":", 1)[1].split("(", 1)[0] for src, *_ in rows}
    assert not srcs & {"app/deco.cache", "app/deco.cache.wrapper", "app/deco.login_required", "app/deco.flexible",
                       "app/deco.flexible.decorator"}


def test_per_request_functions_follows_returned_names_level_by_level() -> None:
    from indexer.frameworks.wrapper_links import per_request_functions

    class _D:
        def __init__(self, refs):
            self.returned_refs = refs

    class _Def:
        is_callable = True

        def __init__(self, qualname, refs=()):
            self.qualname, self.d = qualname, _D(list(refs))

    f = _Def("f", ["g"])
    loop = _Def("f.g", ["h"])
    h = _Def("f.g.h", ["g"])  # names an outer function, not one nested in it: the walk ends at h
    assert [d.qualname for d in per_request_functions(f, [f, loop, h])] == ["f.g.h"]
    lone = _Def("k")
    assert per_request_functions(lone, [lone]) == []
