"""Golden blast-radius reports for every kind of entry point (issue 14 item 3), on one fixture
repository (tests/fixtures/entry-kinds) indexed with the real pipeline:

* GraphQL: schema files (``java/src/main/resources/graphql/*.graphqls``) and resolvers of Spring for
  GraphQL, Netflix DGS (generated ``DgsConstants`` not in the repository), graphql-java wiring,
  Apollo resolver maps, Nest, Strawberry, Graphene and Ariadne; an Endpoint per operation
  (``QUERY Query.owner``);
* scheduled jobs: ``@Scheduled``, Celery beat (``beat_schedule``, ``add_periodic_task``),
  APScheduler (``add_job``, ``@scheduled_job``), node-cron and cron;
* command-line and ``main`` entry points: ``__main__`` blocks, click, argparse, Django management
  commands, nest-commander, Java ``main``, Spring Boot runners.

Each test asserts the exact endpoints and entry points a target reaches, and that look-alikes do not
count (a method named ``owner`` outside a resolver, a ``Query`` key in an object that is no resolver
map, ``calendar.schedule``). Markdown is compared with ``snapshots/<name>.md`` byte for byte, step
times masked; ``RIPPLE_UPDATE_GOLDEN=1`` rewrites the snapshots (review the diff before committing).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.impact import BlastRadius, SymbolQuery, blast_radius
from analysis.impact_report import render_markdown, report_json
from tests.golden.harness import check_snapshot, index_fixture

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "entry-kinds"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
REPO = "entry-kinds"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = index_fixture(FIXTURE, tmp_path_factory.mktemp("golden") / "entry-kinds.db", REPO)
    yield s
    s.close()


_check = check_snapshot


def _endpoints(report: BlastRadius) -> list[tuple[str, str, int, str]]:
    return [(h.http_method, h.path, h.hops, h.handler.qualname) for h in report.endpoints]


def _entries(report: BlastRadius) -> list[tuple[str, tuple[str, ...], int]]:
    return [(p.node.file if p.node.label == "File" else p.node.qualname, p.kinds, p.hops) for p in report.entry_points]


def _report(store, name: str) -> BlastRadius:
    report = blast_radius(store, SymbolQuery(name))
    assert len(report.targets) == 1, [t.node.id for t in report.targets]
    return report


# ------------------------------------------------------------------------------------------ GraphQL


def test_spring_graphql_query_mapping_is_the_only_endpoint(store) -> None:
    report = _report(store, "OwnerRepository.findById")
    assert _endpoints(report) == [("QUERY", "Query.owner", 1, "OwnerGraphController.owner")]
    # OwnerReport.owner calls it too, but is no resolver: a caller, never an entry point
    assert [c.node.qualname for c in report.callers] == ["OwnerGraphController.owner", "OwnerReport.owner"]
    assert _entries(report) == [("OwnerGraphController.owner", ("graphql query",), 1)]
    _check("graphql_spring_find_by_id", render_markdown(report))


def test_spring_graphql_named_query_schema_mapping_and_mutation(store) -> None:
    assert _endpoints(_report(store, "OwnerRepository.findByLastName")) == [
        ("QUERY", "Query.owners", 1, "OwnerGraphController.ownersByLastName")]  # @QueryMapping(name = "owners")
    # @SchemaMapping without typeName: the type of the source argument (Owner)
    assert _endpoints(_report(store, "OwnerRepository.petsOf")) == [
        ("FIELD", "Owner.pets", 1, "OwnerGraphController.pets")]
    assert _endpoints(_report(store, "OwnerRepository.save")) == [
        ("MUTATION", "Mutation.addOwner", 1, "OwnerGraphController.addOwner")]


def test_dgs_fetchers_with_generated_constants(store) -> None:
    assert _endpoints(_report(store, "ShowService.search")) == [("QUERY", "Query.shows", 1, "ShowsDataFetcher.shows")]
    # DgsConstants.QUERY_TYPE / DgsConstants.QUERY.Show: generated, not in the repository
    assert _endpoints(_report(store, "ShowService.byId")) == [("QUERY", "Query.show", 1, "ShowsDataFetcher.show")]
    assert _endpoints(_report(store, "ShowService.reviews")) == [
        ("FIELD", "Show.reviews", 1, "ShowsDataFetcher.reviewsOf")]
    report = _report(store, "ShowService.remove")
    assert _endpoints(report) == [("MUTATION", "Mutation.removePet", 1, "ShowsDataFetcher.remove")]
    _check("graphql_dgs_remove", render_markdown(report))


def test_graphql_java_wiring_reaches_the_fetcher_factories(store) -> None:
    assert _endpoints(_report(store, "BookStore.findBook")) == [("QUERY", "Query.bookById", 1, "BookFetchers.bookById")]
    assert _endpoints(_report(store, "BookStore.findAuthor")) == [("FIELD", "Book.author", 1, "BookFetchers.author")]


def test_schema_declares_every_root_operation_as_the_resolvers_node(store) -> None:
    declared = store.incoming([f"endpoint:{e}" for e in (
        "QUERY Query.owner", "QUERY Query.owners", "QUERY Query.vetCount", "MUTATION Mutation.addOwner",
        "QUERY Query.shows", "QUERY Query.show", "MUTATION Mutation.removePet")], ["DECLARES", "EXPOSES"])
    got = {dst: sorted((e.kind, e.src.rpartition(":")[2]) for e in edges) for dst, edges in declared.items()}
    schema, extensions = "java/src/main/resources/graphql/schema", "java/src/main/resources/graphql/extensions"
    assert got["endpoint:QUERY Query.vetCount"] == [("DECLARES", f"{schema}.Query.vetCount")]  # no resolver
    assert got["endpoint:QUERY Query.owner"] == [
        ("DECLARES", f"{schema}.Query.owner"),
        ("EXPOSES", "java/src/main/java/org/petclinic/graphql/OwnerGraphController.OwnerGraphController.owner(int)"),
        ("EXPOSES", "node/src/nest/owners.resolver.OwnersResolver.findOne(1)"),
    ]
    assert got["endpoint:MUTATION Mutation.removePet"] == [
        ("DECLARES", f"{extensions}.Mutation.removePet"),  # extend type Mutation
        ("EXPOSES", "java/src/main/java/org/shows/ShowsDataFetcher.ShowsDataFetcher.remove(String)"),
    ]
    node = store.get_nodes(["endpoint:QUERY Query.vetCount"])["endpoint:QUERY Query.vetCount"]
    assert (node.label, node.name, node.props) == (
        "Endpoint", "QUERY Query.vetCount", {"http_method": "QUERY", "path": "Query.vetCount"})
    # Owner / Pet / Show / Review are types, not operations: no endpoint for their declared fields
    assert store.get_nodes(["endpoint:FIELD Owner.lastName", "endpoint:QUERY Owner.lastName"]) == {}


def test_apollo_inline_resolvers_are_handlers_of_their_own(store) -> None:
    report = _report(store, "findOrder")
    assert _endpoints(report) == [("QUERY", "Query.order", 1, "Query.order")]
    # the `Query` key of notResolvers.ts is no resolver map: its arrow stays module-level code
    assert _entries(report) == [("node/src/apollo/notResolvers.ts", ("module",), 1),
                                ("Query.order", ("graphql query",), 1)]
    _check("graphql_apollo_find_order", render_markdown(report))
    assert _endpoints(_report(store, "listOrders")) == [
        ("QUERY", "Query.latestOrder", 1, "latest"),  # a named function
        ("QUERY", "Query.orders", 1, "Query.orders"),  # method shorthand
    ]
    assert _endpoints(_report(store, "placeOrder")) == [("MUTATION", "Mutation.placeOrder", 1, "Mutation.placeOrder")]
    assert _endpoints(_report(store, "linesOf")) == [("FIELD", "Order.lines", 1, "Order.lines")]


def test_nest_resolvers_with_name_option_and_resolve_field(store) -> None:
    report = _report(store, "OwnersService.find")
    assert _endpoints(report) == [("QUERY", "Query.owner", 1, "OwnersResolver.findOne")]  # { name: 'owner' }
    assert _entries(report) == [("OwnersResolver.findOne", ("graphql query",), 1)]  # not OwnersReport.owner
    assert _endpoints(_report(store, "OwnersService.rename")) == [
        ("MUTATION", "Mutation.renameOwner", 1, "OwnersResolver.renameOwner")]
    assert _endpoints(_report(store, "OwnersService.petsOf")) == [("FIELD", "Owner.pets", 1, "OwnersResolver.getPets")]


def test_python_graphql_frameworks(store) -> None:
    # Strawberry: camel-cased names, name= option
    assert _endpoints(_report(store, "find_product")) == [("QUERY", "Query.productById", 1, "Query.product_by_id")]
    assert _endpoints(_report(store, "list_products")) == [("QUERY", "Query.catalogue", 1, "Query.products")]
    assert _endpoints(_report(store, "shop.store.create_product")) == [
        ("MUTATION", "Mutation.createProduct", 1, "Mutation.create_product")]
    # Graphene: resolve_<name>, and a Mutation class's mutate through `add_review = AddReview.Field()`;
    # Helper.resolve_customer is no resolver
    report = _report(store, "find_customer")
    assert _endpoints(report) == [("QUERY", "Query.customer", 1, "Query.resolve_customer")]
    assert [c.node.qualname for c in report.callers] == ["Query.resolve_customer", "Helper.resolve_customer"]
    report = _report(store, "reviews_for")
    assert _endpoints(report) == [("MUTATION", "Mutation.addReview", 1, "AddReview.mutate"),
                                  ("FIELD", "Product.reviews", 1, "resolve_reviews")]  # Ariadne set_field
    _check("graphql_python_reviews_for", render_markdown(report))
    # Ariadne: @query.field("coupon")
    assert _endpoints(_report(store, "find_coupon")) == [("QUERY", "Query.coupon", 1, "resolve_coupon")]


def test_graphql_endpoints_in_json_with_their_operation(store) -> None:
    data = report_json(_report(store, "reviews_for"))
    assert [(e["id"], e["http_method"], e["path"]) for e in data["endpoints"]] == [
        ("endpoint:MUTATION Mutation.addReview", "MUTATION", "Mutation.addReview"),
        ("endpoint:FIELD Product.reviews", "FIELD", "Product.reviews"),
    ]
    assert [(p["qualname"], p["kinds"]) for p in data["entry_points"]] == [  # by file: ariadne_, graphene_
        ("resolve_reviews", ["graphql field"]), ("AddReview.mutate", ["graphql mutation"])]


# ---------------------------------------------------------------------------------- scheduled jobs


def test_celery_beat_and_periodic_tasks(store) -> None:
    assert _entries(_report(store, "purge_carts")) == [("purge_carts_task", ("scheduled", "task"), 1)]
    report = _report(store, "rebuild_index")
    assert _entries(report) == [("Command.handle", ("cli",), 1), ("rebuild_index_task", ("scheduled", "task"), 1)]
    assert report.endpoints == ()
    _check("entry_rebuild_index", render_markdown(report))


def test_apscheduler_jobs(store) -> None:
    assert _entries(_report(store, "send_report")) == [("daily_report", ("scheduled",), 1)]  # add_job
    assert _entries(_report(store, "warm_cache")) == [
        ("python/shop/cli.py", ("main", "module"), 1),  # if __name__ == "__main__":
        ("keep_warm", ("scheduled",), 1),  # @scheduler.scheduled_job
    ]


def test_node_cron_jobs_and_not_calendar_schedule(store) -> None:
    report = _report(store, "purgeSessions")
    # calendar.schedule(...) is no scheduler: its arrow stays module-level code
    assert _entries(report) == [("node/src/jobs/schedule.ts", ("module",), 1), ("CRON */5 * * * *", ("scheduled",), 1)]
    _check("entry_purge_sessions", render_markdown(report))
    assert _entries(_report(store, "rotateLogs")) == [("nightly", ("scheduled",), 1)]
    assert _entries(_report(store, "sendDigest")) == [("CRON 0 8 * * 1", ("scheduled",), 1)]


def test_spring_jobs_runners_and_main(store) -> None:
    report = _report(store, "Archive.touch")
    assert _entries(report) == [
        ("Migrator.run", ("main",), 1),  # ApplicationRunner
        ("Housekeeping.hourly", ("scheduled",), 2),  # @Scheduled
        ("Housekeeping.seed", ("main",), 2),  # @Bean CommandLineRunner
        ("Tool.main", ("main",), 2),  # public static void main
    ]
    _check("entry_archive_touch", render_markdown(report))


# -------------------------------------------------------------------------------------------- CLI


def test_click_argparse_nest_commander_commands(store) -> None:
    assert _entries(_report(store, "export_orders")) == [("export", ("cli",), 1)]  # @click.command()
    assert _entries(_report(store, "import_catalogue")) == [("run_import", ("cli",), 1)]  # set_defaults(func=...)
    assert _entries(_report(store, "seedDatabase")) == [("SeedCommand.run", ("cli",), 1)]  # nest-commander
    data = report_json(_report(store, "import_catalogue"))
    assert [(p["qualname"], p["kinds"], p["hops"]) for p in data["entry_points"]] == [("run_import", ["cli"], 1)]
