"""A FastAPI dependency alias (``CurrentUser = Annotated[User, Depends(get_current_user)]``, as
full-stack-fastapi-template's ``api/deps.py`` writes it) is a type: a parameter annotated with it
holds a ``User``, so its method calls bind ``exact`` (not by name) and ``session.add(current_user)``
writes ``User``'s table. Negative cases: an alias of a library type (``Session``) types nothing of
the repository, and a name annotated with a plain function is no instance of anything."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

FIXTURE = """
# --- path: app/__init__.py ---
# --- path: app/models.py ---
from sqlmodel import Field, SQLModel


class User(SQLModel, table=True):
    id: int = Field(primary_key=True)
    email: str

    def greet(self):
        return self.email


class Other:
    def greet(self):
        return 1
# --- path: app/deps.py ---
from typing import Annotated

from fastapi import Depends
from sqlmodel import Session

from app.models import User


def get_db():
    yield Session()


def get_current_user(session: Annotated[Session, Depends(get_db)]) -> User:
    return User()


def helper():
    return 1


SessionDep = Annotated[Session, Depends(get_db)]
CurrentUser = Annotated[User, Depends(get_current_user)]
# --- path: app/routes.py ---
from app.deps import CurrentUser, SessionDep, helper


def me(current_user: CurrentUser):
    return current_user.greet()


def delete_me(session: SessionDep, current_user: CurrentUser):
    session.delete(current_user)
    session.commit()


def odd(x: helper):
    return x.greet()
"""


def test_alias_annotation_is_its_type() -> None:
    result = resolve_fixture(FIXTURE)
    calls = [e for e in edges(result) if e.startswith("app/routes.")]
    assert calls == [
        "app/routes.me(1) -> app/models.User.greet(0) [exact]",  # not Other.greet
    ]  # odd: `x: helper` is no type, x.greet() two candidates: unbound
    assert edges(result, "WRITES") == ["app/routes.delete_me(2) -> table:t:.user"]
