"""``Session.get(M, ident)`` / ``get_one`` (SQLAlchemy 1.4+, SQLModel) read ``M``'s table, as
full-stack-fastapi-template's routes do (``item = session.get(Item, id)``). Negative cases: an HTTP
session's ``get(url)``, a class that is no mapped model, a dictionary's ``get`` (no session)."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

FIXTURE = """
# --- path: app/__init__.py ---
# --- path: app/models.py ---
from sqlmodel import Field, SQLModel


class Item(SQLModel, table=True):
    id: int = Field(primary_key=True)
    title: str


class ItemPublic(SQLModel):
    title: str
# --- path: app/routes.py ---
import requests
from sqlmodel import Session

from app import models
from app.models import Item, ItemPublic


def read_item(session: Session, id: int):
    return session.get(Item, id)


def read_one(db_session: Session, id: int):
    return db_session.get_one(models.Item, ident=id)


def fetch(url: str):
    session = requests.Session()
    return session.get(url, timeout=3)


def not_a_model(session: Session, id: int):
    return session.get(ItemPublic, id)


def plain(cache: dict, key: str):
    return cache.get(Item, key)
"""


def test_session_get_reads_the_model_table() -> None:
    result = resolve_fixture(FIXTURE)
    assert edges(result, "READS") == [
        "app/routes.read_item(2) -> table:t:.item",
        "app/routes.read_one(2) -> table:t:.item",
    ]  # not fetch (a URL), not_a_model (no table=True), plain (no session)
    assert edges(result, "WRITES") == []
