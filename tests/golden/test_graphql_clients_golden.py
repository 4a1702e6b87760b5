"""Golden blast-radius reports across GraphQL clients (tests/fixtures/graphql-clients, issue 15 item 4).

One repository holds an Apollo server (``server/``: a resolver map and a schema file of type
definitions only), a React client (``web/``: Apollo Client hooks, urql, graphql-request, documents in
constants and imported across modules, fragments interpolated, a ``.graphql`` document imported through
a loader, a test file), a Python ``gql`` client (``py-client/``) and a Java client (``java-client/``:
Spring ``HttpGraphQlClient`` with a text-block constant, an inline document and
``documentName("orderLines")`` -> ``graphql-documents/orderLines.graphql``; a DGS ``GraphQLClient``
with a codegen ``MeGraphQLQuery`` and a literal). A change under a resolver reaches the
``<OPERATION> Type.field`` endpoint it exposes and every client function selecting that field at the
root of an operation, then their callers. The markdown is compared with ``snapshots/<name>.md`` byte for
byte, step times masked; ``RIPPLE_UPDATE_GOLDEN=1`` rewrites the snapshots (review the diff before
committing)."""

from __future__ import annotations

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown, report_json
from tests.golden.harness import FIXTURES, check_snapshot, endpoint_rows, index_fixture, index_with_report

FIXTURE = FIXTURES / "graphql-clients"
REPO = "graphql-clients"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = index_fixture(FIXTURE, tmp_path_factory.mktemp("golden") / "gqlc.db", REPO)
    yield s
    s.close()


def _callers(report) -> dict[int, list[str]]:
    return {i + 1: sorted(r.node.qualname or r.node.file for r in level) for i, level in enumerate(report.hops)}


_ENDPOINTS = ("QUERY Query.orders", "QUERY Query.order", "QUERY Query.me", "QUERY Query.weather",
              "MUTATION Mutation.createOrder", "MUTATION Mutation.cancelOrder", "SUBSCRIPTION Subscription.orderPlaced")


def _graphql_calls(store) -> list[tuple[str, str, str, str, str | None]]:
    """Every GraphQL client edge: (caller id without the repository, endpoint, match, framework, operation)."""
    edges = store.incoming([f"endpoint:{e}" for e in _ENDPOINTS], ["CALLS_HTTP"])
    return sorted((e.src.removeprefix(f"{REPO}:"), e.dst.removeprefix("endpoint:"), e.props["match"],
                   e.props["framework"], e.props.get("operation"))
                  for es in edges.values() for e in es if e.props.get("kind") == "graphql")


def test_every_client_operation_calls_exactly_its_root_fields(store) -> None:
    web, java, py = "web/src/", "java-client/src/main/", "py-client/orders_client/"
    client = f"{java}java/com/shop/client/"
    assert _graphql_calls(store) == [
        (f"{client}OrderClient.OrderClient.cancel(String)", "MUTATION Mutation.cancelOrder", "exact",
         "spring-graphql-client", "Cancel"),
        (f"{client}OrderClient.OrderClient.lines(String)", "QUERY Query.order", "exact", "spring-graphql-client",
         "OrderLines"),
        (f"{client}OrderClient.OrderClient.orders()", "QUERY Query.orders", "exact", "spring-graphql-client", "Orders"),
        (f"{client}ProfileClient.ProfileClient.me()", "QUERY Query.me", "exact", "dgs-client", None),
        (f"{client}ProfileClient.ProfileClient.placed()", "SUBSCRIPTION Subscription.orderPlaced", "exact",
         "dgs-client", None),
        (f"{java}resources/graphql-documents/orderLines.OrderLines(0)", "QUERY Query.order", "exact",
         "graphql-documents", "OrderLines"),
        (f"{py}client.list_orders(0)", "QUERY Query.orders", "exact", "gql", "Orders"),
        (f"{py}client.place(1)", "MUTATION Mutation.createOrder", "exact", "gql", "Place"),
        (f"{py}client.watch(1)", "SUBSCRIPTION Subscription.orderPlaced", "exact", "gql", None),
        # test code follows the test-code rules of the walk (listed under tests, not callers)
        (f"{web}__tests__/orders.test.rendersOrders(0)", "QUERY Query.orders", "exact", "apollo-client", "GetOrders"),
        (f"{web}api.cancelOrder(1)", "MUTATION Mutation.cancelOrder", "exact", "graphql-request", "Cancel"),
        # no schema or resolver of the repository declares Query.weather: linked by name only
        (f"{web}api.weather(0)", "QUERY Query.weather", "name", "graphql-request", None),
        # `...Viewer` spread at the root (fragment on Query, interpolated from another module) selects `me`
        (f"{web}components/Dashboard.Dashboard(0)", "QUERY Query.me", "exact", "urql", "Dashboard"),
        # the alias `latest: orders` selects `orders`; `__typename` is no operation
        (f"{web}components/Dashboard.Dashboard(0)", "QUERY Query.orders", "exact", "urql", "Dashboard"),
        (f"{web}components/Generic.Broken(0)", "QUERY Query.me", "exact", "apollo-client", "Broken"),
        (f"{web}components/OrderDetails.OrderDetailsView(1)", "QUERY Query.order", "exact", "apollo-client",
         "OrderDetails"),
        (f"{web}graphql/orderDetails.OrderDetails(0)", "QUERY Query.order", "exact", "graphql-documents",
         "OrderDetails"),
        (f"{web}hooks.useCreateOrder(0)", "MUTATION Mutation.createOrder", "exact", "apollo-client", "CreateOrder"),
        (f"{web}hooks.useOrders(0)", "QUERY Query.orders", "exact", "apollo-client", "GetOrders"),
        # ARCHIVED: a module-level document nothing runs where the linker sees it; its file stands for it
        (f"{web}queries.ts", "QUERY Query.orders", "inferred", "apollo-client", "Archived"),
    ]


def test_fields_below_the_root_and_type_definitions_are_no_operations(store) -> None:
    # `lines`, `id`, `name`, `item` are selected below the root (and `me { orders }` in Viewer): no
    # endpoint, no edge; the schema file's types (Order, Line, User) declare no operation.
    below = ["QUERY Query.lines", "QUERY Query.id", "QUERY Query.name", "QUERY Query.item", "FIELD Order.lines",
             "MUTATION Mutation.id", "QUERY Query.__typename", "QUERY Query.latest", "QUERY Query.Viewer",
             "QUERY Order.id", "QUERY Query.OrderFields"]
    assert store.get_nodes([f"endpoint:{e}" for e in below]) == {}
    schema = store.nodes_in_file(REPO, "server/src/schema.graphql")
    assert [n.label for n in schema if n.label in ("Function", "Method")] == []
    assert [e for es in store.outgoing([n.id for n in schema], ["CALLS_HTTP"]).values() for e in es] == []
    # the useMutation document selects `lines` under createOrder: only the root field is called
    hook = f"{REPO}:web/src/hooks.useCreateOrder(0)"
    assert [e.dst for e in store.outgoing([hook], ["CALLS_HTTP"])[hook]] == ["endpoint:MUTATION Mutation.createOrder"]
    # an operations file is a definition per operation
    ops = store.nodes_in_file(REPO, "web/src/graphql/orderDetails.graphql")
    assert [(n.label, n.qualname) for n in ops if n.label != "File"] == [("Function", "OrderDetails")]


def test_index_summary_counts_graphql_links_by_reason(tmp_path) -> None:
    s, report = index_with_report(FIXTURE, tmp_path / "x.db", REPO)
    s.close()
    graphql = {k: v for k, v in report.links.items() if "graphql" in k}
    # 20 edges; Query.weather undeclared; ARCHIVED unrun; useAnything(doc) has no document to follow;
    # `...Missing` is defined nowhere. db.query('SELECT 1') is no GraphQL and is not counted. One nested field
    # reaches its resolver: Viewer's `me { orders }` (User.orders).
    assert graphql == {"calls_graphql": 20, "calls_graphql_undeclared": 1, "calls_graphql_unrun": 1,
                       "unlinked_graphql_document": 1, "unlinked_graphql_fragment": 1, "calls_graphql_field": 1}


def test_a_nested_field_with_a_resolver_is_called_through_its_type(store) -> None:
    # schema.graphql types Query.me as User; the resolver map answers User.orders: Viewer (spread at Dashboard's root)
    # selects me { orders }, so Dashboard calls FIELD User.orders. Order.lines, Order.id have no resolver: no edge.
    edges = store.incoming(["endpoint:FIELD User.orders", "endpoint:FIELD Order.lines", "endpoint:FIELD Order.id",
                            "endpoint:FIELD User.name"], ["CALLS_HTTP"])
    assert sorted((e.src.removeprefix(f"{REPO}:"), e.dst, e.props["match"], e.props["selection"], e.props["operation"])
                  for es in edges.values() for e in es) == [
        ("web/src/components/Dashboard.Dashboard(0)", "endpoint:FIELD User.orders", "exact", "me.orders", "Dashboard")]


def test_resolver_reaches_clients_in_three_languages(store) -> None:
    report = blast_radius(store, SymbolQuery("listOrders"))
    assert endpoint_rows(report) == [
        ("QUERY", "Query.orders", 1, "exact", "Query.orders"),
        ("FIELD", "User.orders", 1, "exact", "User.orders"),
        ("SUBSCRIPTION", "Subscription.orderPlaced", 2, "exact", "Subscription.orderPlaced"),
    ]
    assert _callers(report) == {
        1: ["Query.orders", "User.orders", "placedOrders"],
        2: ["Dashboard", "OrderClient.orders", "Subscription.orderPlaced", "list_orders", "useOrders",
            "web/src/queries.ts"],
        3: ["OrderClient.dashboard", "OrdersPage", "ProfileClient.placed", "report", "watch"],
        4: ["App"],
    }
    assert [t.node.qualname for t in report.tests] == ["rendersOrders"]
    data = report_json(report)
    assert [(e["http_method"], e["path"], e["certainty"]) for e in data["endpoints"]] == [
        ("QUERY", "Query.orders", "exact"), ("FIELD", "User.orders", "exact"),
        ("SUBSCRIPTION", "Subscription.orderPlaced", "exact")]
    check_snapshot("graphql_clients_list_orders", render_markdown(report))


def test_mutation_resolver_reaches_the_hook_and_its_component(store) -> None:
    report = blast_radius(store, SymbolQuery("saveOrder"))
    assert endpoint_rows(report) == [("MUTATION", "Mutation.createOrder", 1, "exact", "Mutation.createOrder")]
    assert _callers(report) == {1: ["Mutation.createOrder"], 2: ["place", "useCreateOrder"], 3: ["OrdersPage"],
                                4: ["App"]}
    check_snapshot("graphql_clients_save_order", render_markdown(report))


def test_documents_files_and_document_names_reach_the_resolver(store) -> None:
    report = blast_radius(store, SymbolQuery("findOrder"))
    assert endpoint_rows(report) == [("QUERY", "Query.order", 1, "exact", "Query.order")]
    assert _callers(report) == {1: ["Query.order"],
                                2: ["OrderClient.lines", "OrderDetails", "OrderDetailsView", "OrderLines"]}
    check_snapshot("graphql_clients_find_order", render_markdown(report))


def test_root_fragment_and_codegen_request_reach_the_resolver(store) -> None:
    report = blast_radius(store, SymbolQuery("currentUser"))
    assert _callers(report) == {1: ["Query.me"], 2: ["Broken", "Dashboard", "ProfileClient.me"]}


def test_an_inline_resolver_is_found_by_the_name_reports_print(store) -> None:
    # Newcomer review: `ripple callers Query.launch` said "no symbol matches" on an Apollo resolver
    # map, whose inline resolvers are named `Query.launch`; the page component `OrdersPage` is not it.
    from analysis.navigation import lookup
    targets, others = lookup(store, "Query.orders")  # the resolver and the schema field it implements
    assert sorted((t.qualname, t.file) for t in targets) == [("Query.orders", "server/src/resolvers.ts"),
                                                             ("Query.orders", "server/src/schema.graphql")]
    assert others == []
    targets, _ = lookup(store, "User.orders")
    assert sorted((t.qualname, t.file) for t in targets) == [("User.orders", "server/src/resolvers.ts"),
                                                             ("User.orders", "server/src/schema.graphql")]
