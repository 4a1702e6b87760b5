"""Requests made with a test client a pytest fixture hands the test: which fixture, and which client.

``def test_index(client): client.get("/")`` is recorded in its file as an
:class:`~indexer.model.HttpCall` whose :attr:`~indexer.model.HttpCall.fixture` is ``client``
(:mod:`indexer.languages.python.frameworks.pytest_clients`). Whether it is a request depends on the fixture
pytest hands that parameter, which the language's rules find (the optional hook ``visible_fixture``:
:func:`indexer.languages.python.pytest_fixtures.visible_fixture`, pytest's overriding by class, module,
nearest ``conftest.py``, ``pytest_plugins``):

* a repository fixture recorded as a :class:`~indexer.model.ClientFixture` in its own file: its client's
  framework, or, for a fixture handing on its own parameter (``def auth_client(client): ...; return
  client``), the client of the fixture pytest gives *that* parameter, seen from the fixture (up to
  :data:`MAX_DEPTH` fixtures deep; all of a fixture's clients must agree);
* no repository fixture of that name: a plugin's. pytest-django's ``client``, ``admin_client``,
  ``async_client`` and ``async_admin_client`` (:data:`PLUGIN_CLIENTS`) are Django test clients when some file
  of the repository imports ``django``;
* anything else (a repository fixture that is no client, a parametrized argument, a parameter with a
  default, a function pytest does not call): no request, counted ``fixture_not_client``, never unlinked.

A request on an attribute of a test case's ``self`` (``self.auth_client.get(url)``, :attr:`~indexer.model.HttpCall.fixture`
``self.auth_client``) is sent with the test client the ``setUp`` of the nearest class of the test's MRO binds it to, in
any file (a :class:`~indexer.model.ClientFixture` ``<class>.self.<attr>``, :meth:`FixtureClients.member`); with no
such class it is no request (``fixture_not_client``).

A URL built by calling another fixture parameter (``client.get(headless_reverse("headless:account:login"))``,
:attr:`~indexer.model.HttpCall.url_fixture`) is the route name that fixture's function builds
(:meth:`FixtureClients.routed`): a :class:`~indexer.model.UrlFixture` builder gives the family, and its
``name.replace(old, f"{before}{param}{after}")`` rewrite is applied once per value the fixture ``param`` (seen from
the builder) lists in ``@pytest.fixture(params=[...])``, one request per value as pytest runs the test once per
value. Any other fixture leaves the URL as built, with no route name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from indexer.model import ClientFixture, HttpCall, UrlFixture
from indexer.resolve.values import InstV

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup
    from indexer.resolve.values import Def

__all__ = ["MAX_DEPTH", "MAX_VALUES", "PLUGIN_CLIENTS", "FixtureClients"]

MAX_DEPTH = 6
"""Fixtures followed through parameters they hand on (``auth_client`` -> ``client`` -> ...)."""
MAX_VALUES = 32
"""Values of a parametrized fixture a URL fixture's rewrite is applied with; more: the URL stays unknown (each value
is one request of every test using the fixture)."""
PLUGIN_CLIENTS = {"client": "django-test", "admin_client": "django-test", "async_client": "django-test",
                  "async_admin_client": "django-test"}
"""pytest-django's client fixtures (``pytest_django.fixtures``), used when the repository defines none of that
name and imports ``django``."""


class FixtureClients:
    """The client fixtures of a repository's files, and what a fixture parameter's request is sent with."""

    def __init__(self, r: Lookup, ctxs: Sequence[FileCtx]) -> None:
        self.r = r
        self.ctxs = ctxs
        self.table: dict[tuple[str, str], ClientFixture] = {
            (fc.path, f.qualname): f for fc in ctxs for f in fc.ex.client_fixtures}
        self.urls: dict[tuple[str, str], UrlFixture] = {
            (fc.path, f.qualname): f for fc in ctxs for f in fc.ex.url_fixtures}
        self._django: bool | None = None
        self._found: dict[tuple[str, str, str, int], str | None] = {}

    def uses_django(self) -> bool:
        """Whether some file of the repository imports ``django`` (pytest-django's fixtures may then be in use)."""
        if self._django is None:
            self._django = any(i.module == "django" or i.module.startswith("django.")
                               for fc in self.ctxs if fc.lang == "python" for i in fc.ex.imports)
        return self._django

    def framework(self, fc: FileCtx, scope: str | None, name: str, depth: int = 0) -> str | None:
        """The framework of the client pytest hands parameter ``name`` of the function ``scope`` of ``fc``
        (module docstring), or ``None`` when it is no client or not known to be one. Each ``(file, scope, name,
        depth)`` is answered once per run: fixtures handing on several parameters each (a layered graph of
        fixtures) would otherwise be walked once per path, exponentially many up to :data:`MAX_DEPTH`."""
        hook = getattr(fc.rules, "visible_fixture", None)
        if hook is None or scope is None or depth > MAX_DEPTH:
            return None
        key = (fc.path, scope, name, depth)
        if key not in self._found:
            self._found[key] = self._framework(hook, fc, scope, name, depth)
        return self._found[key]

    def _framework(self, hook: Callable[..., tuple[bool, Def | None]], fc: FileCtx, scope: str, name: str,
                   depth: int) -> str | None:
        """:meth:`framework` of one parameter, not memoised."""
        requested, found = hook(self.r, fc, scope, name)
        if not requested:
            return None
        if found is None:
            return PLUGIN_CLIENTS.get(name) if self.uses_django() else None
        record = self.table.get((found.file.path, found.d.qualname))
        if record is None:
            return None
        kinds = {record.framework} if record.framework else set()
        for param in record.params:
            kind = self.framework(found.file, found.d.qualname, param, depth + 1)
            if kind is None:
                return None
            kinds.add(kind)
        return kinds.pop() if len(kinds) == 1 else None

    def call(self, fc: FileCtx, call: HttpCall) -> HttpCall | None:
        """``call`` (made on a fixture parameter) as the request of its fixture's client, or ``None`` when the
        fixture is no test client."""
        if call.fixture is None:
            return call
        if call.fixture.startswith("self."):
            framework = self.member(fc, call.caller, call.fixture)
            return None if framework is None else replace(call, framework=framework, fixture=None)
        framework = self.framework(fc, call.caller, call.fixture)
        return None if framework is None else replace(call, framework=framework)

    def member(self, fc: FileCtx, scope: str | None, attr: str) -> str | None:
        """The framework of the test client ``attr`` (``self.auth_client``) is bound to, seen from the method ``scope``
        of ``fc``: the :class:`~indexer.model.ClientFixture` ``<class>.self.<attr>`` of the nearest class in the method's
        class's MRO (resolved across files) whose ``setUp`` binds it; ``None`` when none does (an attribute of an
        unrelated class is no client)."""
        if scope is None:
            return None
        v = self.r.resolve_expr(fc, scope, "self")
        if not isinstance(v, InstV):
            return None
        for k in self.r.mro(v.c):
            record = self.table.get((k.file.path, f"{k.qualname}.{attr}"))
            if record is not None:
                return record.framework or None
        return None

    def routed(self, fc: FileCtx, call: HttpCall) -> list[HttpCall]:
        """``call`` (whose URL a fixture parameter's function builds from a route name) as the requests it makes,
        each with the :attr:`~indexer.model.HttpCall.route_name` the fixture's function makes of the name (one per
        value of a rewrite's parametrized fixture, in order); ``[call]`` without its route name when the fixture is
        not known to build URLs (module docstring)."""
        if call.url_fixture is None or call.route_name is None:
            return [call]
        unknown = [replace(call, route_name=None, url_fixture=None)]
        builder = self._visible(fc, call.caller, call.url_fixture)
        if builder is None or not builder[1].family:
            return unknown
        found, record = builder
        _, name, arguments, urlconf = call.route_name
        names = [name]
        if record.rewrite:
            old, before, param, after = record.rewrite
            values = self._visible(found.file, found.d.qualname, param)
            if values is None or not values[1].values or len(values[1].values) > MAX_VALUES:
                return unknown
            names = [name.replace(old, f"{before}{v}{after}") for v in values[1].values]
        return [replace(call, route_name=(record.family, n, arguments, urlconf), url_fixture=None)
                for n in dict.fromkeys(names)]

    def _visible(self, fc: FileCtx, scope: str | None, name: str) -> tuple[Def, UrlFixture] | None:
        """The repository fixture pytest hands parameter ``name`` of ``scope`` and its :class:`UrlFixture`, else
        ``None``."""
        hook = getattr(fc.rules, "visible_fixture", None)
        if hook is None or scope is None:
            return None
        requested, found = hook(self.r, fc, scope, name)
        record = self.urls.get((found.file.path, found.d.qualname)) if requested and found is not None else None
        return (found, record) if record is not None else None
