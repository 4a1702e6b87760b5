"""pydantic's builders (``Item.model_validate(data)``, ``model_construct``, v1's ``parse_obj`` /
``from_orm``...) return an instance of the class they are called on, so SQLModel's
``item = Item.model_validate(item_in); session.add(item)`` (full-stack-fastapi-template's
``create_item``) writes ``item``. Negative cases: the same name on a class of another library, a
builder-like name pydantic does not give, and a model's own ``model_validate`` (its return decides)."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

FIXTURE = """
# --- path: app/__init__.py ---
# --- path: app/models.py ---
from sqlmodel import Field, SQLModel


class ItemBase(SQLModel):
    title: str


class Item(ItemBase, table=True):
    id: int = Field(primary_key=True)

    def describe(self):
        return self.title


class Note(SQLModel, table=True):
    id: int = Field(primary_key=True)

    @classmethod
    def model_validate(cls, data):
        return None
# --- path: app/schemas.py ---
from marshmallow import Schema


class Other(Schema):
    def describe(self):
        return 2
# --- path: app/routes.py ---
from sqlmodel import Session

from app.models import Item, Note
from app.schemas import Other


def create_item(session: Session, data: dict):
    item = Item.model_validate(data, update={"owner_id": 1})
    session.add(item)
    return item.describe()


def construct(session: Session, data: dict):
    session.merge(Item.model_construct(**data))


def other(session: Session, data: dict):
    o = Other.model_validate(data)
    session.add(o)
    return o.describe()


def unknown(session: Session, data: dict):
    x = Item.build_from(data)
    session.add(x)


def own(session: Session, data: dict):
    n = Note.model_validate(data)
    session.add(n)
"""


def test_builders_make_an_instance() -> None:
    result = resolve_fixture(FIXTURE)
    assert edges(result, "WRITES") == [
        "app/routes.construct(2) -> table:t:.item",
        "app/routes.create_item(2) -> table:t:.item",
    ]  # not other (marshmallow), unknown (no such builder), own (Note's model_validate returns None)
    assert [e for e in edges(result) if "describe" in e] == ["app/routes.create_item(2) -> app/models.Item.describe(0) [inferred]"]
