"""Python generic repositories (session 68, acc68a): ``class UserRepo(BaseRepository[User])`` whose base's methods
query ``self.model``; a call on such a repository reads or writes its model's table, owned by the caller (``via`` the
base's method), as C#'s ``Repository<T>`` and FastCRUD do. Negatives: another model's repository, a receiver that
names no repository, a base with a type variable only, a method of the base that does not read ``self.model``."""

from __future__ import annotations

from indexer.languages.python.frameworks.generic_repositories import names_a_repository
from tests.resolution_harness import REPO, edges, resolve_fixture

FIXTURE = '''
# --- path: app/models.py ---
from sqlalchemy import Column, Integer, String
from sqlalchemy.orm import declarative_base
Base = declarative_base()
class User(Base):
    __tablename__ = "users"
    id = Column(Integer, primary_key=True)
    email = Column(String)
class Item(Base):
    __tablename__ = "items"
    id = Column(Integer, primary_key=True)
# --- path: app/crud/base.py ---
from typing import Generic, TypeVar, Type
from sqlalchemy.orm import Session
from app.models import Base
ModelType = TypeVar("ModelType", bound=Base)
class CRUDBase(Generic[ModelType]):
    def __init__(self, model: Type[ModelType]):
        self.model = model
    def get(self, db: Session, id: int):
        return db.query(self.model).filter(self.model.id == id).first()
    def create(self, db: Session, obj_in: dict):
        db_obj = self.model(**obj_in)
        db.add(db_obj)
        db.commit()
        return db_obj
    def name(self):
        return "crud"
# --- path: app/crud/crud_user.py ---
from app.crud.base import CRUDBase
from app.models import User
class CRUDUser(CRUDBase[User]):
    pass
user = CRUDUser(User)
# --- path: app/crud/crud_item.py ---
from app.crud.base import CRUDBase
from app.models import Item
item = CRUDBase(Item)
# --- path: app/repo.py ---
from typing import Generic, TypeVar
from sqlalchemy import select
from app.models import User, Item
M = TypeVar("M")
class BaseRepository(Generic[M]):
    model: type[M]
    def __init__(self, session):
        self.session = session
    async def get(self, id):
        return await self.session.get(self.model, id)
    async def list(self):
        return (await self.session.execute(select(self.model))).scalars().all()
    async def remove(self, id):
        await self.session.delete(await self.session.get(self.model, id))
    async def rename(self, id, name):
        row = await self.get(id)
        row.name = name
        await self.session.commit()
    async def count_twice(self):
        return len(await self.list()) * 2
class UserRepo(BaseRepository[User]):
    pass
class ItemRepository(BaseRepository):
    model = Item
class AnyRepository(BaseRepository[M]):
    pass
class PlainRepository:
    def __init__(self, model, session):
        self.model = model
        self.session = session
    async def first(self):
        return (await self.session.execute(select(self.model))).scalars().first()
class ItemsRepo(PlainRepository):
    def __init__(self, session):
        super().__init__(Item, session)
class UsersRepo(PlainRepository):
    def __init__(self, session):
        super().__init__(session=session, model=User)
# --- path: app/services.py ---
from app.crud.crud_user import user
from app.crud.crud_item import item
from app.repo import UserRepo, ItemRepository, AnyRepository, ItemsRepo, UsersRepo
class Cache:
    def get(self, key):
        return key
class UserService:
    def __init__(self, session):
        self.user_repo = UserRepo(session)
        self.items_repository = ItemRepository(session)
        self.any_repo = AnyRepository(session)
        self.report = UserRepo(session)
        self.cache = Cache()
    async def show(self, id):
        return await self.user_repo.get(id)
    async def drop_item(self, id):
        await self.items_repository.remove(id)
    async def rename_user(self, id):
        await self.user_repo.rename(id, "x")
    async def twice(self):
        return await self.user_repo.count_twice()
    async def anything(self, id):
        return await self.any_repo.get(id)
    async def reported(self, id):
        return await self.report.get(id)
    def cached(self, id):
        return self.cache.get(id)
async def list_users(session):
    return await UserRepo(session).list()
def read_user(db, id):
    return user.get(db, id)
def make_user(db, data):
    return user.create(db, data)
def read_item(db, id):
    return item.get(db, id)
def label(db):
    return user.name()
async def first_item(session):
    return await ItemsRepo(session).first()
async def first_user(session):
    repo: UsersRepo = UsersRepo(session)
    return await repo.first()
'''


def test_calls_on_generic_repositories_access_their_models_tables() -> None:
    r = resolve_fixture(FIXTURE)
    assert edges(r, "READS") == [
        "app/services.UserService.show(1) -> table:t:.users",
        "app/services.UserService.twice(0) -> table:t:.users",
        "app/services.first_item(1) -> table:t:.items",
        "app/services.first_user(1) -> table:t:.users",
        "app/services.list_users(1) -> table:t:.users",
        "app/services.read_item(2) -> table:t:.items",
        "app/services.read_user(2) -> table:t:.users",
    ]
    assert edges(r, "WRITES") == [
        "app/services.UserService.drop_item(1) -> table:t:.items",
        "app/services.UserService.rename_user(1) -> table:t:.users",
        "app/services.make_user(2) -> table:t:.users",
    ]
    props = {f"{e.src.removeprefix(REPO + ':')} -> {e.dst}": dict(e.props)
             for f in r.files for e in f.edges if e.kind in ("READS", "WRITES")}
    assert props["app/services.UserService.show(1) -> table:t:.users"]["via"] == "BaseRepository.get"
    assert props["app/services.make_user(2) -> table:t:.users"]["via"] == "CRUDBase.create"
    assert props["app/services.read_item(2) -> table:t:.items"]["via"] == "CRUDBase.get"  # `item = CRUDBase(Item)`
    # not linked: `anything` (a type variable, no model), `reported` (`self.report` names no repository),
    # `cached` (no repository), `label` (`name` does not read self.model); nothing counted unlinked for them: the two
    # unlinked uses are the SQLAlchemy detector's own in the bases (`select(self.model)` in `list` and `first`,
    # `session.delete(...)` in `remove`)
    assert r.link_outcomes.get("unlinked_table_use") == 3  # (and `first`'s `select(self.model)`)
    assert (r.link_outcomes["reads"], r.link_outcomes["writes"]) == (7, 3)


def test_repository_names() -> None:
    assert [n for n in ("repo", "user_repo", "crud_users", "UserRepository", "userRepo", "CRUDUser", "repos",
                        "dao", "report", "repost", "crude", "Repository_x", "cache", "CRUD")
            if names_a_repository(n)] == ["repo", "user_repo", "crud_users", "UserRepository", "userRepo", "CRUDUser",
                                          "repos", "dao", "Repository_x", "CRUD"]
