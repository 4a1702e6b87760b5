"""The splits of session 50 (split50) kept what the split modules offered: ``indexer.model`` still
exports every record (the family modules own them, nothing is defined twice), every record still
pickles as its constructor and field values, the extraction cache's version still digests the
modules the records and the Python extractor's walks moved to, and the methods moved into mixins are
the ones that run (not a same-named stub of another mixin of the host class)."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, fields
from pathlib import Path

import indexer.model as model
from indexer import extract_cache, model_http, model_services, string_templates
from indexer.frameworks import link, route_links, wrapper_links
from indexer.languages.python.extractor import EXTRACTOR
from indexer.model_pickling import pickle_records
from indexer.resolve import interpreter, return_inference, scope_lookup
from indexer.resolve.interpreter import Resolver

HTTP = {"WRAPPER_KINDS", "COMPOSED_BY", "WrapperRef", "Wrapper", "GRAPHQL_SCHEMA", "Route", "EXCHANGE_ROUTE", "DRF_ROUTE", "DJANGO_ADMIN_SITE",
        "DRF_AUTHENTICATION", "DRF_PERMISSION", "Router", "Mount", "HttpCall", "UrlArgCall", "UrlBuilder", "GlobalPrefix",
        "UriVersioning", "UrlRewrite", "DevProxy", "GatewayRouteDecl", "ClientFixture", "UrlFixture", "ListenPort"}
SERVICES = {"NamedLoader", "TopicUse", "QueueBinding", "MessageTransport", "ENTRY_KINDS", "EntryRegistration", "RpcService", "RPC_ROLES", "RpcUse",
            "GRAPHQL_CLIENT_OPERATIONS", "GraphqlOperation", "GraphqlFragment", "GraphqlDocument", "GraphqlUse",
            "TABLE_ROLES", "ORM_ATTRIBUTE", "TableDef", "TableUse"}
STRINGS = {"Template", "StringConstant", "MAX_JOINED", "CALL_REF", "call_ref", "is_call_ref", "read_call_ref"}


def test_model_reexports_each_family_and_defines_none_twice() -> None:
    assert set(model_http.__all__) == HTTP
    assert set(model_services.__all__) == SERVICES
    assert set(string_templates.__all__) == STRINGS
    for family, names in ((model_http, HTTP), (model_services, SERVICES), (string_templates, STRINGS)):
        for name in names:
            assert getattr(model, name) is getattr(family, name), name
            assert name in model.__all__, name
    assert model.Route.__module__ == "indexer.model_http"
    assert model.TableUse.__module__ == "indexer.model_services"
    assert model.Template.__module__ == "indexer.string_templates"
    # the code records stay in indexer.model itself, and no family module has them
    assert model.Definition.__module__ == model.FileExtraction.__module__ == "indexer.model"
    assert not hasattr(model_http, "Definition") and not hasattr(model_services, "CallSite")
    assert not hasattr(model_http, "TopicUse") and not hasattr(model_services, "Route")


def test_records_of_every_family_pickle_as_constructor_and_fields() -> None:
    url = model.Template.of("/owners/") + model.Template((("hole", "id"),))
    records = [
        url,
        model.StringConstant("Paths.OWNERS", model.Template.of("/owners")),
        model.HttpCall("fetch", "GET", url, "load", 3, 4),
        model.TopicUse("spring-kafka", "produces", model.Template.of("orders"), "send", 5, 6),
        model.Param("x", "int"),
    ]
    for record in records:
        cls, args = record.__reduce__()
        assert cls is type(record)
        assert args == tuple(getattr(record, f.name) for f in fields(record))
        assert pickle.loads(pickle.dumps(record)) == record
    assert url.parts == (("lit", "/owners/"), ("hole", "id"))
    whole = model.FileExtraction("a.py", "python", http_calls=[records[2]], topics=[records[3]])
    assert pickle.loads(pickle.dumps(whole)) == whole


def test_pickle_records_patches_only_the_module_own_dataclasses() -> None:
    @dataclass
    class Local:
        a: int
        b: str

    namespace = {"Local": Local, "Route": model.Route}
    before = model.Route.__reduce__
    pickle_records(namespace, __name__)
    assert Local(1, "x").__reduce__() == (Local, (1, "x"))
    assert model.Route.__reduce__ is before  # imported: its own module registered it


def test_extraction_cache_version_digests_the_moved_modules(monkeypatch) -> None:
    read: set[str] = set()
    original = Path.read_bytes

    def spy(self: Path) -> bytes:
        read.add(self.resolve().relative_to(Path(extract_cache.__file__).resolve().parent).as_posix())
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", spy)
    extract_cache.extractor_version.__wrapped__()
    assert {"model.py", "model_http.py", "model_services.py", "model_pickling.py", "string_templates.py",
            "languages/python/extractor.py", "languages/python/assignments.py", "languages/python/imports.py",
            "languages/python/scopes.py", "languages/python/syntax.py",
            "frameworks/link.py", "frameworks/route_links.py", "frameworks/wrapper_links.py"} <= read
    # the binding side is the indexer version's, not the extraction cache's
    assert "writer.py" not in read and "resolve/interpreter.py" not in read


def test_moved_methods_are_the_ones_that_run() -> None:
    for name in ("resolve_name", "resolve_expr_at", "binding_value", "enclosing_class"):
        assert getattr(Resolver, name) is vars(scope_lookup.ScopeLookup)[name], name
        assert name not in vars(Resolver)
    for name in ("returned_values", "only_returned", "decorated_value", "wrapper", "yielded"):
        assert getattr(Resolver, name) is vars(return_inference.ReturnInference)[name], name
    assert interpreter.MAX_RETURNED_VALUES is return_inference.MAX_RETURNED_VALUES == 64
    assert link.WRAPPER_METHODS is wrapper_links.WRAPPER_METHODS and link.decorator_refs is wrapper_links.decorator_refs
    assert not set(vars(route_links.RouteLinks)) & set(vars(wrapper_links.WrapperLinks)) - {
        "__module__", "__doc__", "__dict__", "__weakref__", "__qualname__", "__firstlineno__", "__static_attributes__"}


def test_python_assignment_walk_runs_through_the_extractor() -> None:
    """The assignment walk's ``binding_type`` / ``_copied`` (``ImpliedFacts`` declares stubs of both):
    the real ones run, so the bindings come out exactly."""
    src = (b"class Repo:\n"
           b"    items: list\n"
           b"    def __init__(self, q):\n"
           b"        self.conn = Conn()\n"
           b"        rows = list(q.all())\n"
           b"        with Lock() as lk:\n"
           b"            n = 1\n"
           b"import os.path as p\n"
           b"mod = importlib.import_module('a.b')\n")
    out = EXTRACTOR.extract("m.py", src)
    got = {(b.scope, b.name, b.type, b.how) for b in out.bindings}
    assert got == {
        ("Repo", "items", "list", "declared"),
        ("Repo", "self.items", "list", "declared"),
        ("Repo", "self.conn", "Conn", "constructed"),  # a field: bound in the class
        ("Repo.__init__", "rows", "list", "constructed"),
        ("Repo.__init__", "rows", "q.all()", "copy"),
        ("Repo.__init__", "lk", "Lock", "entered"),  # Lock.__enter__'s return, if the repository defines it
        ("Repo.__init__", "lk", "Lock", "constructed"),
        ("Repo.__init__", "n", "<literal>", "alias"),
    }
    assert [(i.local, i.module, i.name) for i in out.imports] == [("p", "os.path", None), ("mod", "a.b", None)]
    assert sorted(d.qualname for d in out.definitions if d.kind == "field") == ["Repo.conn", "Repo.items"]
    # `mod = import_module(...)` binds an import, never a value
    assert not any(b.name == "mod" for b in out.bindings)
