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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from indexer.model import ClientFixture, HttpCall

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup
    from indexer.resolve.values import Def

__all__ = ["MAX_DEPTH", "PLUGIN_CLIENTS", "FixtureClients"]

MAX_DEPTH = 6
"""Fixtures followed through parameters they hand on (``auth_client`` -> ``client`` -> ...)."""
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
        framework = self.framework(fc, call.caller, call.fixture)
        return None if framework is None else replace(call, framework=framework)
