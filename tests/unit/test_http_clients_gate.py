"""The requests / httpx detector walks a file's tree only when a call it reports can be there: a
word of a library or client name in the file's text, an import or a binding. Files importing
django without its test client are skipped; a client reached only through an escaped dynamic
import or a binding's type is still found."""

from __future__ import annotations

import pytest

from indexer.languages.python import extractor
from indexer.languages.python.frameworks import python_http_clients
from indexer.model import FileExtraction


def _extract(code: str, monkeypatch: pytest.MonkeyPatch) -> tuple[FileExtraction, int]:
    """The extraction of ``code`` and how many times the detector ran its query."""
    runs = []
    real = python_http_clients.run_query

    def counting(q, node):  # noqa: ANN001, ANN202 - a spy
        runs.append(q)
        return real(q, node)

    monkeypatch.setattr(python_http_clients, "run_query", counting)
    return extractor.EXTRACTOR.extract("app/tests.py", code.encode()), len(runs)


def _calls(out: FileExtraction) -> list[tuple[str, str, str, str | None, int]]:
    return [(c.framework, c.method, "".join(t for _, t in c.url.parts), c.caller, c.line) for c in out.http_calls]


def test_a_django_file_without_a_client_is_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    out, runs = _extract(
        "from django.http import HttpResponse\n"
        "def view(request):\n"
        "    request.session.get('k')\n"  # a session, but no requests one
        "    self.client.get('/a/')\n"  # the test case's client attribute: no Client named anywhere
        "    return HttpResponse(get('/b/'))\n", monkeypatch)
    assert runs == 0
    assert _calls(out) == []


def test_a_django_test_client_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    out, runs = _extract(
        "from django.test import Client\n"
        "def test_page():\n"
        "    c = Client()\n"
        "    c.get('/a/')\n"
        "    c.options.get('/b/')\n", monkeypatch)
    assert runs == 1
    assert _calls(out) == [("django-test", "GET", "/a/", "test_page", 4)]


def test_a_client_imported_under_an_escaped_name_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    # The class name is nowhere in the file's bytes: only the import record spells it.
    code = ("import django\nimport importlib\n"
            "C = importlib.import_module('django.test.\\x43lient')\n"
            "def test_page():\n"
            "    c = C()\n"
            "    c.post('/p/')\n")
    assert "Client" not in code
    out, runs = _extract(code, monkeypatch)
    assert [(i.local, i.module) for i in out.imports if i.local == "C"] == [("C", "django.test.Client")]
    assert runs == 1
    assert _calls(out) == [("django-test", "POST", "/p/", "test_page", 6)]


def test_a_requests_module_bound_to_a_local_name_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    out, runs = _extract(
        "import django\n"
        "def fetch(requests):\n"  # the name itself, no import of the library
        "    requests.get('https://example.com/x')\n", monkeypatch)
    assert runs == 1
    assert _calls(out) == [("requests", "GET", "https://example.com/x", "fetch", 3)]
