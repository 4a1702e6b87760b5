"""Unit tests of the entry-point detectors of issue 14 item 3: exact GraphQL routes (Spring for
GraphQL, DGS, graphql-java, Apollo, Nest, Strawberry, Graphene, Ariadne, schema files) and entry
registrations (schedulers, ``__main__``, argparse, Django commands, Spring Boot runners) for small
inline sources, through each language's extractor; look-alikes that must not count; and the GraphQL
naming rules of the linker and the store contracts."""

from __future__ import annotations

import pytest

from indexer.frameworks.graphql_names import graphql_constant_name
from indexer.languages import extractor_for_path
from indexer.languages.python.frameworks.python_graphql import camel_case
from indexer.model import EntryRegistration, FileExtraction, Template
from stores.contracts import endpoint_id, graphql_operation, normalise_graphql_field


def extract(path: str, source: str) -> FileExtraction:
    ex = extractor_for_path(path)
    assert ex is not None
    out = ex.extract(path, source.encode("utf-8"))
    assert [e for e in out.errors if "detector" in e or "internal" in e] == []
    return out


def routes(out: FileExtraction) -> list[tuple[str, list[str], tuple, str | None, str | None]]:
    return [(r.framework, r.methods, r.path.parts, r.handler, r.handler_ref) for r in out.routes]


def lit(text: str) -> tuple:
    return (("lit", text),)


# --------------------------------------------------------------------------------------- naming


def test_graphql_endpoint_ids_keep_type_dot_field() -> None:
    assert endpoint_id("QUERY", "Query.owner") == "endpoint:QUERY Query.owner"
    assert endpoint_id("mutation", " Mutation . addOwner ") == "endpoint:MUTATION Mutation.addOwner"
    assert endpoint_id("GET", "Query.owner") == "endpoint:GET /Query.owner"  # HTTP paths still normalised
    assert normalise_graphql_field("Owner.pets") == "Owner.pets"
    assert [graphql_operation(t) for t in ("Query", "Mutation", "Subscription", "Owner", "query")] == [
        "QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FIELD"]


@pytest.mark.parametrize(("ref", "name"), [
    ("DgsConstants.QUERY_TYPE", "Query"),
    ("DgsConstants.MUTATION.TYPE_NAME", "Mutation"),
    ("DgsConstants.SHOW.TYPE_NAME", "Show"),
    ("DgsConstants.QUERY.Shows", "shows"),
    ("DgsConstants.QUERY.ShowById", "showById"),
    ("DgsConstants.SHOW.URL", "URL"),
    ("Names.owner", "owner"),
])
def test_graphql_constant_name_follows_the_dgs_generator(ref: str, name: str) -> None:
    assert graphql_constant_name(ref) == name


def test_camel_case_as_strawberry_and_graphene() -> None:
    assert [camel_case(n) for n in ("owner", "owner_by_id", "_private_x", "a__b")] == [
        "owner", "ownerById", "_privateX", "a_B"]


# ------------------------------------------------------------------------------------------ Java

SPRING = """\
package x;
@Controller
@SchemaMapping(typeName = "Owner")
class OwnerGraph {
  @QueryMapping public Owner owner(@Argument int id) { return null; }
  @QueryMapping(name = "allOwners") public List<Owner> owners() { return null; }
  @MutationMapping("addOwner") public Owner add() { return null; }
  @SubscriptionMapping public Flux<Owner> ownerAdded() { return null; }
  @SchemaMapping public List<Pet> pets(Owner owner) { return null; }
  @SchemaMapping(typeName = "Pet", field = "visits") public List<Visit> v(Pet p) { return null; }
  @BatchMapping(field = "vet") Map<Visit, Vet> vets(List<Visit> vs) { return null; }
  @SchemaMapping(typeName = Names.OWNER, field = Names.PETS) List<Pet> byConstant(Owner o) { return null; }
  public Owner owner2() { return null; }
}
class NotGraph { public Owner owner(int id) { return null; } }
"""


def test_spring_graphql_mappings() -> None:
    assert routes(extract("x/OwnerGraph.java", SPRING)) == [
        ("spring-graphql", ["QUERY"], lit("Query.owner"), "OwnerGraph.owner", None),
        ("spring-graphql", ["QUERY"], lit("Query.allOwners"), "OwnerGraph.owners", None),
        ("spring-graphql", ["MUTATION"], lit("Mutation.addOwner"), "OwnerGraph.add", None),
        ("spring-graphql", ["SUBSCRIPTION"], lit("Subscription.ownerAdded"), "OwnerGraph.ownerAdded", None),
        ("spring-graphql", ["FIELD"], lit("Owner.pets"), "OwnerGraph.pets", None),  # the class's typeName
        ("spring-graphql", ["FIELD"], lit("Pet.visits"), "OwnerGraph.v", None),
        ("spring-graphql", ["FIELD"], lit("Owner.vet"), "OwnerGraph.vets", None),
        ("spring-graphql", ["FIELD"], (("ref", "Names.OWNER"), ("lit", "."), ("ref", "Names.PETS")),
         "OwnerGraph.byConstant", None),
    ]


def test_spring_schema_mapping_type_from_the_source_argument() -> None:
    src = "class C { @SchemaMapping List<Pet> pets(Owner owner) { return null; } @SchemaMapping List<X> none() { return null; } }"
    assert routes(extract("C.java", src)) == [("spring-graphql", ["FIELD"], lit("Owner.pets"), "C.pets", None)]


DGS = """\
@DgsComponent
class Shows {
  @DgsQuery public List<Show> shows(@InputArgument String f) { return null; }
  @DgsData(parentType = DgsConstants.QUERY_TYPE, field = DgsConstants.QUERY.ShowById) public Show s() { return null; }
  @DgsMutation(field = "addShow") public Show a() { return null; }
  @DgsData.List({@DgsData(parentType = "Query", field = "a1"), @DgsData(parentType = "Query", field = "a2")})
  public Show b() { return null; }
  @DgsData(field = "noParent") public Show c() { return null; }
}
"""


def test_dgs_fetchers() -> None:
    assert routes(extract("Shows.java", DGS)) == [
        ("dgs", ["QUERY"], lit("Query.shows"), "Shows.shows", None),
        ("dgs", ["FIELD"], (("ref", "DgsConstants.QUERY_TYPE"), ("lit", "."), ("ref", "DgsConstants.QUERY.ShowById")),
         "Shows.s", None),
        ("dgs", ["MUTATION"], lit("Mutation.addShow"), "Shows.a", None),
        ("dgs", ["QUERY"], lit("Query.a1"), "Shows.b", None),
        ("dgs", ["QUERY"], lit("Query.a2"), "Shows.b", None),
    ]


WIRING = """\
class Wiring {
  RuntimeWiring wiring() {
    return RuntimeWiring.newRuntimeWiring()
      .type("Query", b -> b.dataFetcher("bookById", fetchers.bookById()).dataFetcher("x", this::xx))
      .type(newTypeWiring("Book").dataFetcher("author", env -> authors.find(env)))
      .build();
  }
  Object xx(Object env) { return null; }
  void other(Map m) { m.dataFetcher("nope", f); }
}
"""


def test_graphql_java_wiring() -> None:
    out = extract("Wiring.java", WIRING)
    assert routes(out) == [
        ("graphql-java", ["QUERY"], lit("Query.bookById"), None, "fetchers.bookById"),
        ("graphql-java", ["QUERY"], lit("Query.x"), "Wiring.xx", None),
        ("graphql-java", ["FIELD"], lit("Book.author"), "Wiring.wiring", None),  # a lambda: its method
    ]
    assert out.routes[0].scope == "Wiring.wiring"


def test_spring_boot_runners() -> None:
    src = """\
class Init implements CommandLineRunner { public void run(String... a) { go(); } void helper() {} }
class Cfg { @Bean CommandLineRunner init(Repo r) { return args -> r.save(1); } CommandLineRunner notBean() { return null; } }
class Plain { public void run() {} }
"""
    assert extract("Init.java", src).entries == [
        EntryRegistration("spring-boot", "main", "Init.run", 1, 54, name="Init"),
        EntryRegistration("spring-boot", "main", "Cfg.init", 2, 36, name="init"),
    ]


# --------------------------------------------------------------------------------- schema files


def test_schema_file_declares_root_operations_only() -> None:
    out = extract("api/schema.graphqls", """\
type Query { owner(id: ID!): Owner
  owners: [Owner!]! }
extend type Mutation { addOwner(name: String): Owner }
type Subscription { ownerAdded: Owner }
interface Node { id: ID! }
type Owner implements Node { id: ID! pets: [Pet] }
""")
    assert routes(out) == [
        ("graphql-schema", ["QUERY"], lit("Query.owner"), "Query.owner", None),
        ("graphql-schema", ["QUERY"], lit("Query.owners"), "Query.owners", None),
        ("graphql-schema", ["MUTATION"], lit("Mutation.addOwner"), "Mutation.addOwner", None),
        ("graphql-schema", ["SUBSCRIPTION"], lit("Subscription.ownerAdded"), "Subscription.ownerAdded", None),
    ]
    assert [(d.kind, d.qualname, d.field_type, d.name_line, d.name_col) for d in out.definitions] == [
        ("class", "Query", None, 1, 5), ("field", "Query.owner", "Owner", 1, 13),
        ("field", "Query.owners", "Owner", 2, 2),
        ("class", "Mutation", None, 3, 12), ("field", "Mutation.addOwner", "Owner", 3, 23),
        ("class", "Subscription", None, 4, 5), ("field", "Subscription.ownerAdded", "Owner", 4, 20),
        ("interface", "Node", None, 5, 10), ("field", "Node.id", "ID", 5, 17),
        ("class", "Owner", None, 6, 5), ("field", "Owner.id", "ID", 6, 29), ("field", "Owner.pets", "Pet", 6, 37),
    ]
    assert out.errors == []


def test_schema_file_with_a_syntax_error_keeps_what_parsed() -> None:
    out = extract("s.graphql", "type Query { a: Int }\ntype X { oops(: }\ntype Mutation { b: Int }\n")
    assert routes(out) == [("graphql-schema", ["QUERY"], lit("Query.a"), "Query.a", None),
                           ("graphql-schema", ["MUTATION"], lit("Mutation.b"), "Mutation.b", None)]
    assert out.errors == ["2:7: syntax error"]


# ------------------------------------------------------------------------------------ ECMAScript

APOLLO = """\
import { ApolloServer } from '@apollo/server';
const resolvers = {
  Query: {
    owner: (_, args) => findOwner(args.id),
    async owners(parent, args) { return listOwners(); },
    pet: resolvePet,
  },
  Subscription: { ownerAdded: { subscribe: () => pubsub.asyncIterator('x') } },
  Owner: { pets: (o) => petsOf(o.id) },
};
export function resolvePet() { return findPet(); }
"""


def test_apollo_resolver_map() -> None:
    out = extract("src/server.ts", APOLLO)
    assert routes(out) == [
        ("apollo", ["QUERY"], lit("Query.owner"), "Query.owner", None),
        ("apollo", ["QUERY"], lit("Query.owners"), "Query.owners", None),
        ("apollo", ["QUERY"], lit("Query.pet"), "resolvePet", None),
        ("apollo", ["SUBSCRIPTION"], lit("Subscription.ownerAdded"), "Subscription.ownerAdded", None),
        ("apollo", ["FIELD"], lit("Owner.pets"), "Owner.pets", None),
    ]
    calls = {(c.caller, c.name) for c in out.calls}
    assert {("Query.owner", "findOwner"), ("Query.owners", "listOwners"), ("Owner.pets", "petsOf"),
            ("Subscription.ownerAdded", "asyncIterator")} <= calls


def test_apollo_maps_need_a_graphql_reason() -> None:
    src = "export const labels = { Query: { owner: () => findOwner(1) } };\n"
    assert extract("src/labels.ts", src).routes == []
    assert routes(extract("src/resolvers/owner.ts", src)) == [  # a resolvers folder
        ("apollo", ["QUERY"], lit("Query.owner"), "Query.owner", None)]
    named = "const ownerResolvers = { Mutation: { add: addOwner } };\n"
    assert routes(extract("src/x.js", named)) == [("apollo", ["MUTATION"], lit("Mutation.add"), None, "addOwner")]


NEST = """\
import { Resolver, Query, Mutation, ResolveField, Args } from '@nestjs/graphql';
@Resolver(() => Owner)
export class OwnerResolver {
  @Query(() => Owner, { name: 'owner' })
  findOne(@Args('id') id: string) { return 1; }
  @Query(() => [Owner])
  owners() { return []; }
  @Mutation(() => Owner)
  addOwner(@Args('name') name: string) { return 1; }
  @ResolveField('pets', () => [Pet])
  getPets(owner: Owner) { return []; }
}
@Resolver()
export class RootResolver {
  @ResolveField()
  orphan() { return 1; }
}
export class NotAResolver { @Query(() => Owner) owner() { return 1; } }
"""


def test_nest_graphql_resolvers() -> None:
    assert routes(extract("src/owner.resolver.ts", NEST)) == [
        ("nest-graphql", ["QUERY"], lit("Query.owner"), "OwnerResolver.findOne", None),
        ("nest-graphql", ["QUERY"], lit("Query.owners"), "OwnerResolver.owners", None),
        ("nest-graphql", ["MUTATION"], lit("Mutation.addOwner"), "OwnerResolver.addOwner", None),
        ("nest-graphql", ["FIELD"], lit("Owner.pets"), "OwnerResolver.getPets", None),
    ]
    assert extract("src/x.ts", NEST.replace("@nestjs/graphql", "@nestjs/common")).routes == []


SCHEDULES = """\
import cron from 'node-cron';
import { CronJob } from 'cron';
import schedule from 'node-schedule';
cron.schedule('*/5 * * * *', async () => { await cleanup(); });
cron.schedule('0 0 * * *', nightly);
new CronJob('0 * * * *', () => hourly());
CronJob.from({ cronTime: '0 1 * * *', onTick: nightly });
schedule.scheduleJob('report', '0 6 * * *', () => report());
const calendar = { schedule(a, b) {} };
calendar.schedule('x', () => other());
function nightly() { purge(); }
"""


def test_js_schedulers_and_not_other_schedule_methods() -> None:
    out = extract("src/jobs.ts", SCHEDULES)
    assert [(e.framework, e.kind, e.owner, e.owner_ref, e.name, e.line) for e in out.entries] == [
        ("node-cron", "scheduled", "CRON */5 * * * *", None, "*/5 * * * *", 4),
        ("node-cron", "scheduled", "nightly", None, "0 0 * * *", 5),
        ("cron", "scheduled", "CRON 0 * * * *", None, "0 * * * *", 6),
        ("cron", "scheduled", "nightly", None, "0 1 * * *", 7),
        ("node-schedule", "scheduled", "CRON 0 6 * * *", None, "0 6 * * *", 8),
    ]
    assert ("CRON */5 * * * *", "cleanup") in {(c.caller, c.name) for c in out.calls}
    assert (None, "other") in {(c.caller, c.name) for c in out.calls}  # calendar.schedule's arrow
    assert extract("src/y.ts", "cron.schedule('* * * * *', () => x());\n").entries == []  # no import


# ---------------------------------------------------------------------------------------- Python

PY_GRAPHQL = '''\
import graphene
import strawberry
from ariadne import ObjectType, QueryType


class Query(graphene.ObjectType):
    owner = graphene.Field(Owner, id=graphene.ID())

    def resolve_owner(root, info, id):
        return find_owner(id)

    def resolve_owners_by_name(root, info, name):
        return []


class CreateOwner(graphene.Mutation):
    def mutate(root, info, name):
        return add_owner(name)


class Mutation(graphene.ObjectType):
    create_owner = CreateOwner.Field()
    remote = other.RemoteMutation.Field()


class Helper:
    def resolve_owner(self):
        return None


@strawberry.type
class SQuery:
    @strawberry.field
    def owner_by_id(self, id: int) -> Owner:
        return find(id)

    @strawberry.field(name="all")
    def owners(self) -> list[Owner]:
        return []

    def helper(self):
        return None


@strawberry.type(name="Mutation")
class SMutation:
    @strawberry.mutation
    def add_pet(self) -> Pet:
        return None


query = QueryType()
owner_type = ObjectType("Owner")


@query.field("owner")
def resolve_owner(*_, id):
    return find(id)


def resolve_pets(obj, info):
    return []


owner_type.set_field("pets", resolve_pets)
'''


def test_python_graphql_frameworks() -> None:
    assert routes(extract("svc/schema.py", PY_GRAPHQL)) == [
        ("strawberry", ["FIELD"], lit("SQuery.ownerById"), "SQuery.owner_by_id", None),
        ("strawberry", ["FIELD"], lit("SQuery.all"), "SQuery.owners", None),
        ("strawberry", ["MUTATION"], lit("Mutation.addPet"), "SMutation.add_pet", None),
        ("graphene", ["QUERY"], lit("Query.owner"), "Query.resolve_owner", None),
        ("graphene", ["QUERY"], lit("Query.ownersByName"), "Query.resolve_owners_by_name", None),
        ("graphene", ["MUTATION"], lit("Mutation.createOwner"), "CreateOwner.mutate", None),
        ("graphene", ["MUTATION"], lit("Mutation.remote"), None, "other.RemoteMutation.mutate"),
        ("ariadne", ["QUERY"], lit("Query.owner"), "resolve_owner", None),
        ("ariadne", ["FIELD"], lit("Owner.pets"), "resolve_pets", None),
    ]


PY_ENTRIES = '''\
import argparse
from apscheduler.schedulers.background import BackgroundScheduler
from celery import Celery
from django.core.management.base import BaseCommand

app = Celery()
app.conf.beat_schedule = {
    "cleanup": {"task": "shop.tasks.cleanup", "schedule": 60.0},
    "other": dict(task="shop.tasks.other", schedule=5),
    "bad": {"schedule": 5},
}
app.conf.update(beat_schedule={"x": {"task": "shop.tasks.x"}})


@app.on_after_configure.connect
def setup(sender, **kw):
    sender.add_periodic_task(10.0, ping.s("x"), name="ping")


def ping(x):
    pass


sched = BackgroundScheduler()
sched.add_job(ping, "cron", id="p")
sched.add_job("shop.tasks:report", "interval")


def cli():
    sub = argparse.ArgumentParser().add_subparsers().add_parser("x")
    sub.set_defaults(func=run_x)


def run_x(a):
    pass


class Command(BaseCommand):
    def handle(self, *args, **options):
        pass


if __name__ == "__main__":
    cli()
'''


def test_python_entry_registrations() -> None:
    out = extract("shop/management/commands/sync.py", PY_ENTRIES)
    assert [(e.framework, e.kind, e.owner, e.owner_ref, e.scope, e.name, e.line) for e in out.entries] == [
        ("celery-beat", "scheduled", None, "shop.tasks.cleanup", None, "cleanup", 8),
        ("celery-beat", "scheduled", None, "shop.tasks.other", None, "other", 9),
        ("celery-beat", "scheduled", None, "shop.tasks.x", None, "x", 12),
        ("celery-beat", "scheduled", "ping", None, "setup", "ping", 17),
        ("apscheduler", "scheduled", "ping", None, None, "p", 25),
        ("apscheduler", "scheduled", None, "shop.tasks.report", None, "", 26),
        ("django-command", "cli", "Command.handle", None, None, "sync", 39),  # the module's name
        ("argparse", "cli", "run_x", None, "cli", "", 31),
        ("python-main", "main", None, None, None, "__main__", 43),
    ]


def test_python_look_alikes_are_not_entries() -> None:
    src = '''\
beat_like = {"x": {"task": "a.b"}}
scheduler.add_job(f)
parser.set_defaults(func=f)
if __name__ == "__other__":
    pass
def f():
    if __name__ == "__main__":
        pass
'''
    assert extract("m.py", src).entries == []


def test_entry_registration_defaults() -> None:
    e = EntryRegistration("x", "main", None, 1, 0)
    assert (e.owner_ref, e.scope, e.name) == (None, None, "")
    assert Template.of("Query.owner").literal() == "Query.owner"


def test_nest_commander_run_methods() -> None:
    src = """\
import { Command, CommandRunner, SubCommand } from 'nest-commander';
@Command({ name: 'seed', description: 'x' })
export class SeedCommand extends CommandRunner {
  async run(params: string[]) { await seed(); }
  helper() {}
}
@SubCommand({ name: 'sub' })
class Sub { run() {} }
class NotACommand { run() {} }
"""
    assert [(e.framework, e.kind, e.owner, e.name) for e in extract("src/seed.command.ts", src).entries] == [
        ("nest-commander", "cli", "SeedCommand.run", "seed"), ("nest-commander", "cli", "Sub.run", "sub")]
    assert extract("src/x.ts", src.replace("nest-commander", "other")).entries == []


def test_strawberry_fields_with_a_resolver_function() -> None:
    src = '''\
import strawberry
from .db import load_owner


def get_pets(root) -> list[str]:
    return []


@strawberry.type
class Query:
    owner: str = strawberry.field(resolver=load_owner)
    all_pets: list[str] = strawberry.field(resolver=get_pets, name="pets")
    plain: str = "x"
    other: str = something(resolver=get_pets)


class NotAType:
    owner: str = strawberry.field(resolver=load_owner)
'''
    assert routes(extract("svc/schema.py", src)) == [
        ("strawberry", ["QUERY"], lit("Query.owner"), None, "load_owner"),
        ("strawberry", ["QUERY"], lit("Query.pets"), "get_pets", None),
    ]


def test_a_dgs_type_constant_of_several_words_takes_the_schemas_spelling() -> None:
    # spring-boot-realworld: ``@DgsData(parentType = ARTICLEPAYLOAD.TYPE_NAME, ...)`` read by the
    # generator's rule gives ``Articlepayload``; the schema declares ``ArticlePayload``, so the
    # resolver exposes the node the schema declares. A type the schema lacks keeps the rule's name.
    import hashlib

    from indexer.resolve.repository import resolve_repository

    files = {
        "src/main/resources/schema/schema.graphqls":
            "type Query { feed: ArticlePayload }\ntype ArticlePayload { article: String }\n",
        "src/main/java/app/Fetchers.java": """package app;
import com.netflix.graphql.dgs.*;
import app.generated.DgsConstants.ARTICLEPAYLOAD;
@DgsComponent
public class Fetchers {
  @DgsData(parentType = ARTICLEPAYLOAD.TYPE_NAME, field = ARTICLEPAYLOAD.Article)
  public String article() { return null; }
  @DgsData(parentType = DgsConstants.SHOWREVIEW.TYPE_NAME, field = "stars")
  public String stars() { return null; }
}
""",
    }
    extractions = []
    for path, source in files.items():
        ex = extractor_for_path(path)
        assert ex is not None
        data = source.encode()
        extractions.append((ex.extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    result = resolve_repository("t", extractions, None)
    edges = sorted((e.kind, e.src.removeprefix("t:"), e.dst) for f in result.files for e in f.edges
                   if e.kind in ("EXPOSES", "DECLARES"))
    assert [e for e in edges if e[0] == "EXPOSES"] == [
        ("EXPOSES", "src/main/java/app/Fetchers.Fetchers.article()", "endpoint:FIELD ArticlePayload.article"),
        ("EXPOSES", "src/main/java/app/Fetchers.Fetchers.stars()", "endpoint:FIELD Showreview.stars"),
    ]
    assert [e for e in edges if e[0] == "DECLARES"] == [  # the schema declares root operations only
        ("DECLARES", "src/main/resources/schema/schema.Query.feed", "endpoint:QUERY Query.feed")]
