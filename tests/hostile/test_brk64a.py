"""Session 64, brk64a: a newcomer on HackSoftware/Django-Styleguide-Example (DRF + Celery),
evrone/go-clean-template (Go: Fiber, gRPC, AMQP / NATS RPC), the JHipster gateway and microservice samples,
and apollographql/supergraph-demo-fed2 (Apollo Federation 2). Each class is one defect found, with exact
expectations and what must not change. Every input is written here.

- :class:`TestFederationSchemaHeader`: every Federation 2 subgraph schema starts with
  ``extend schema @link(url: "...", import: [...])`` (valid GraphQL: a schema extension of directives
  only), which the tree-sitter grammar cannot parse; its error recovery swallowed what followed:
  supergraph-demo-fed2's ``products.graphql`` lost ``type Query`` (``allProducts``, ``product``) and its
  interfaces, and ``Product`` was placed at line 1.
- :class:`TestFunctionLocalImports`: the styleguide's Celery task ``emails/tasks.email_send`` runs
  ``from styleguide_example.emails.services import email_send`` in its body (against an import cycle)
  and calls ``email_send(email)``: the call was bound to the task itself (the file's top-level
  definition won over the function's own import), so ``ripple callers services.email_send`` listed
  nothing and its blast radius stopped there.
"""

from __future__ import annotations

from indexer.languages.graphql.extractor import EXTRACTOR, blank_schema_directives
from tests.resolution_harness import edges, resolve_fixture

FEDERATED = b'''extend schema
    @link(url: "https://specs.apollo.dev/federation/v2.1",
       import: ["@key", "@shareable", { name: "@anotherDirective", as: "@hello" }])
    @composeDirective(name: "@hello")  # a comment (with a parenthesis

directive @hello on FIELD_DEFINITION

type Query {
  allProducts: [ProductItf]
  product(id: ID!): ProductItf
}

interface ProductItf {
  id: ID!
}

type Product implements ProductItf @key(fields: "id") {
  id: ID!
  name: String @hello
}
'''


class TestFederationSchemaHeader:
    def test_types_after_the_header_are_extracted_at_their_lines(self) -> None:
        out = EXTRACTOR.extract("products.graphql", FEDERATED)
        assert out.errors == []
        assert [(d.kind, d.qualname, d.start_line) for d in out.definitions] == [
            ("class", "Query", 8), ("field", "Query.allProducts", 9), ("field", "Query.product", 10),
            ("interface", "ProductItf", 13), ("field", "ProductItf.id", 14),
            ("class", "Product", 17), ("field", "Product.id", 18), ("field", "Product.name", 19),
        ]
        assert [(r.methods, r.handler, r.line) for r in out.routes] == [
            (["QUERY"], "Query.allProducts", 9), (["QUERY"], "Query.product", 10),
        ]

    def test_blanking_keeps_every_byte_position(self) -> None:
        blanked = blank_schema_directives(FEDERATED)
        assert len(blanked) == len(FEDERATED)
        head, rest = blanked.split(b"directive @hello", 1)
        assert head.strip() == b"# a comment (with a parenthesis" and head.count(b"\n") == 5
        assert rest == FEDERATED.split(b"directive @hello", 1)[1]

    def test_forms_the_grammar_parses_or_that_are_no_header_are_left_alone(self) -> None:
        for src in (
            b'extend schema @link(url: "x") { query: Q }\ntype Q { a: Int }\n',  # operation types follow
            b'"""extend schema @link(url: "x")"""\ntype Query { a: Int }\n',  # inside a description
            b'# extend schema @link(url: "x")\ntype Query { a: Int }\n',  # inside a comment
            b'type Query { extended: Int }\nschema { query: Query }\n',
            b'extend schema @link(url: "never closed"\ntype Query { a: Int }\n',  # left to the parser
        ):
            assert blank_schema_directives(src) == src

    def test_an_unclosed_header_is_still_reported(self) -> None:
        out = EXTRACTOR.extract("bad.graphql", b'extend schema @link(url: "x"\ntype Query { a: Int }\n')
        assert out.errors != []

    def test_huge_headers_stay_linear(self) -> None:
        src = b"extend schema " + b'@a(x: "(") ' * 100_000 + b"\ntype Query { a: Int }\n"
        out = EXTRACTOR.extract("big.graphql", src)
        assert [d.qualname for d in out.definitions] == ["Query", "Query.a"]


LOCAL_IMPORTS = """
# --- path: app/services.py ---
def email_send(email):
    return email

def helper():
    pass
# --- path: app/tasks.py ---
def email_send(email_id):
    from app.services import email_send
    email_send(email_id)

def other(x):
    from app.services import email_send as es, helper
    es(x)
    helper()

def helper():
    pass

def outer():
    from app.services import email_send
    def inner():
        email_send(1)
    return inner

def nested_only():
    def deeper():
        from app.services import helper
        helper()
    helper()

def later():
    email_send(2)
    helper()

class Job:
    from app.services import helper

    def run(self):
        helper()
"""


class TestFunctionLocalImports:
    def test_a_function_local_import_hides_the_top_level_namesake(self) -> None:
        assert edges(resolve_fixture(LOCAL_IMPORTS)) == [
            "app/tasks.Job.run(0) -> app/tasks.helper(0) [exact]",  # a class body's names are not a method's
            "app/tasks.email_send(1) -> app/services.email_send(1) [exact]",
            "app/tasks.later(0) -> app/tasks.email_send(1) [exact]",  # no import of its own: the top level
            "app/tasks.later(0) -> app/tasks.helper(0) [exact]",
            "app/tasks.nested_only(0) -> app/tasks.helper(0) [exact]",  # deeper's import is deeper's only
            "app/tasks.nested_only.deeper(0) -> app/services.helper(0) [exact]",
            "app/tasks.other(1) -> app/services.email_send(1) [exact]",
            "app/tasks.other(1) -> app/services.helper(0) [exact]",
            "app/tasks.outer.inner(0) -> app/services.email_send(1) [exact]",  # the enclosing function's import
        ]

