"""Python GraphQL types across files: merged root types (``class Query(OrderQueries)``) and the
overrides an inherited ``mutate`` dispatches to (indexer/frameworks/python_graphql_links.py)."""

from __future__ import annotations

from pathlib import Path

from tests.unit.test_incremental import Workspace, dump

CORE = '''\
import graphene


class BaseMutation(graphene.Mutation):
    @classmethod
    def mutate(cls, root, info, **data):
        cls.check_permissions(info)
        return cls.perform_mutation(root, info, **data)

    @classmethod
    def check_permissions(cls, info):
        return True

    @classmethod
    def perform_mutation(cls, root, info, **data):
        raise NotImplementedError()


class ModelMutation(BaseMutation):
    @classmethod
    def perform_mutation(cls, root, info, **data):
        data = cls.clean_input(info, data)
        return cls.save(info, data)

    @classmethod
    def clean_input(cls, info, data):
        return data

    @classmethod
    def save(cls, info, data):
        return data
'''

MUTATIONS = '''\
from .core import BaseMutation, ModelMutation


class OrderCancel(BaseMutation):
    @classmethod
    def perform_mutation(cls, root, info, **data):
        return data


class OrderCreate(ModelMutation):
    @classmethod
    def clean_input(cls, info, data):
        return data


class OrderUpdate(ModelMutation):
    @classmethod
    def perform_mutation(cls, root, info, **data):
        return super().perform_mutation(root, info, **data)

    @classmethod
    def clean_input(cls, info, data):
        return data


class OrderNote(BaseMutation):
    @classmethod
    def mutate(cls, root, info, **data):
        return cls.perform_mutation(root, info)

    @classmethod
    def perform_mutation(cls, root, info, **data):
        return None


class Helper:
    def run(self):
        return self.perform_mutation()

    def perform_mutation(self):
        return None
'''

SCHEMA = '''\
import graphene

from .mutations import OrderCancel, OrderCreate, OrderNote, OrderUpdate


class OrderQueries(graphene.ObjectType):
    order = graphene.String()

    @staticmethod
    def resolve_order(_root, info):
        return None


class OrderMutations(graphene.ObjectType):
    order_cancel = OrderCancel.Field()
    order_create = OrderCreate.Field()
    order_note = OrderNote.Field()
    order_update = OrderUpdate.Field()


class Order(graphene.ObjectType):
    number = graphene.String()

    def resolve_number(root, info):
        return "1"


class Shared(graphene.ObjectType):
    def resolve_total(root, info):
        return 0
'''

API = '''\
import graphene

from .schema import OrderMutations, OrderQueries, Shared


class Query(OrderQueries, Shared):
    pass


class Mutation(OrderMutations, Shared):
    pass


schema = graphene.Schema(query=Query, mutation=Mutation)
'''


BASE = '''\
from graphene.types.objecttype import ObjectType


class BaseObjectType(ObjectType):
    pass


class ModelObjectType(BaseObjectType):
    pass


class NotAType:
    pass
'''

TYPES = '''\
import graphene

from .base import ModelObjectType, NotAType


class Product(ModelObjectType):
    name = graphene.String()

    @staticmethod
    def resolve_name(root, info):
        return root.name


class ProductVariant(ModelObjectType["Variant"]):
    def resolve_sku(root, info):
        return root.sku


class Node(graphene.Interface):
    @classmethod
    def resolve_type(cls, instance, info):
        return Product


class Sale(ModelObjectType):
    @staticmethod
    def resolve_type(root, info):
        return root.kind


class Resolver(NotAType):
    def resolve_host(self, name):
        return name
'''


def _exposes(db: Path) -> list[tuple[str, str]]:
    return sorted((src.split(":", 1)[1], dst.removeprefix("endpoint:")) for kind, src, dst, *_ in dump(db)["edges"]
                  if kind == "EXPOSES")


def test_types_whose_graphene_base_is_inherited_from_another_file(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, {"gql/__init__.py": "", "gql/base.py": BASE, "gql/types.py": TYPES})
    try:
        # Resolver.resolve_host: its lineage names no Graphene type, so it is no resolver;
        # Node.resolve_type (a class method of an interface) is no field's
        assert _exposes(ws.db) == [
            ("gql/types.Product.resolve_name(2)", "FIELD Product.name"),
            ("gql/types.ProductVariant.resolve_sku(1)", "FIELD ProductVariant.sku"),
            # a static resolve_type resolves a field `type`; Node's class method resolves Node's concrete types
            ("gql/types.Sale.resolve_type(2)", "FIELD Sale.type"),
        ]
        # the base stops being a Graphene type: its subclasses' resolvers go
        ws.edit({"gql/base.py": BASE.replace("class BaseObjectType(ObjectType)", "class BaseObjectType")})
        assert _exposes(ws.db) == []
    finally:
        ws.close()


def test_merged_roots_and_inherited_dispatch(tmp_path: Path) -> None:
    files = {"gql/__init__.py": "", "gql/core.py": CORE, "gql/mutations.py": MUTATIONS, "gql/schema.py": SCHEMA,
             "gql/api.py": API}
    ws = Workspace(tmp_path, files)
    try:
        assert _exposes(ws.db) == sorted([
            # the inherited mutate, and the override its `cls.perform_mutation` runs
            ("gql/core.BaseMutation.mutate(3)", "MUTATION Mutation.orderCancel"),
            # two steps down: the inherited ModelMutation.perform_mutation calls cls.clean_input
            ("gql/core.BaseMutation.mutate(3)", "MUTATION Mutation.orderCreate"),
            ("gql/core.ModelMutation.perform_mutation(3)", "MUTATION Mutation.orderCreate"),
            ("gql/mutations.OrderCancel.perform_mutation(3)", "MUTATION Mutation.orderCancel"),
            ("gql/mutations.OrderCreate.clean_input(2)", "MUTATION Mutation.orderCreate"),
            # its own mutate: nothing inherited, so no dispatch edge from perform_mutation
            ("gql/mutations.OrderNote.mutate(3)", "MUTATION Mutation.orderNote"),
            # its override calls super().perform_mutation: ModelMutation's (a CALLS edge already) calls
            # cls.clean_input, which is OrderUpdate's
            ("gql/core.BaseMutation.mutate(3)", "MUTATION Mutation.orderUpdate"),
            ("gql/mutations.OrderUpdate.clean_input(2)", "MUTATION Mutation.orderUpdate"),
            ("gql/mutations.OrderUpdate.perform_mutation(3)", "MUTATION Mutation.orderUpdate"),
            ("gql/schema.Order.resolve_number(1)", "FIELD Order.number"),  # no root inherits Order
            ("gql/schema.OrderQueries.resolve_order(2)", "QUERY Query.order"),  # merged into Query
            ("gql/schema.Shared.resolve_total(1)", "FIELD Shared.total"),  # inherited by two roots: left
        ])
        assert not any("Helper" in src or "OrderNote.perform_mutation" in src for src, _ in _exposes(ws.db))
        # the root stops inheriting the queries: the field is its own type's again
        ws.edit({"gql/api.py": API.replace("class Query(OrderQueries, Shared)", "class Query(Shared)")})
        assert ("gql/schema.OrderQueries.resolve_order(2)", "FIELD OrderQueries.order") in _exposes(ws.db)
        assert ("gql/schema.OrderQueries.resolve_order(2)", "QUERY Query.order") not in _exposes(ws.db)
    finally:
        ws.close()
