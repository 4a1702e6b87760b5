"""What the Python detectors work out once per file or per class (cpu55a, issue 19 goal 3) answers as
working it out at every use did: one ImportTable per file, rebuilt when the imports change; a
function's own returns from one query over its node (never a nested definition's); a class's
test-case lineage asked at many ``self.client`` calls. Exact values, with negative cases."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.languages.base import parser
from indexer.languages.python.frameworks.common import ImportTable
from indexer.languages.python.frameworks.orm_results import returns_of
from indexer.model import FileExtraction, Import


def test_one_import_table_per_file_rebuilt_when_the_imports_change() -> None:
    out = FileExtraction(path="a.py", language="python", imports=[Import(local="hx", module="httpx", name=None)])
    first = ImportTable.of(out)
    assert ImportTable.of(out) is first
    assert first.qualify("hx.Client") == "httpx.Client"
    out.imports.append(Import(local="get", module="requests", name="get"))
    second = ImportTable.of(out)
    assert second is not first
    assert second.qualify("get") == "requests.get"
    other = FileExtraction(path="b.py", language="python", imports=[Import(local="hx", module="httpx", name=None)])
    assert ImportTable.of(other) is not second  # another file's extraction: its own table
    assert ImportTable.of(other).qualify("get") == "get"


RETURNS = b"""\
def outer(x):
    if x:
        return 1
    def inner():
        return 2
    class Local:
        def m(self):
            return 3
    f = lambda: 4
    for i in x:
        return 5
    return
"""


def test_a_function_s_own_returns_and_none_of_its_nested_definitions() -> None:
    tree = parser("python").parse(RETURNS)
    outer = tree.root_node.named_children[0]
    lines = [r.start_point[0] + 1 for r in returns_of(outer)]
    assert lines == [3, 11, 12]  # not inner's (5) nor Local.m's (8)
    inner = outer.child_by_field_name("body").named_children[1]
    assert [r.start_point[0] + 1 for r in returns_of(inner)] == [5]


CLIENTS = b"""\
from django.test import TestCase


class Base(TestCase):
    pass


class A(Base):
    def test_one(self):
        self.client.get("/a/1/")

    def test_two(self):
        self.client.post("/a/2/")


class NotATest:
    def run(self):
        self.client.get("/no/")
"""


def test_every_self_client_call_of_a_test_case_lineage_and_none_elsewhere() -> None:
    out = extractor_for_path("t/tests.py").extract("t/tests.py", CLIENTS)
    assert [(c.framework, c.method, c.url.parts, c.caller, c.line) for c in out.http_calls] == [
        ("django-test", "GET", (("lit", "/a/1/"),), "A.test_one", 10),
        ("django-test", "POST", (("lit", "/a/2/"),), "A.test_two", 13),
    ]  # NotATest.run's self.client is no test client
