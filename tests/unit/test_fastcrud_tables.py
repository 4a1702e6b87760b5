"""FastCRUD objects read and write their model's table (session 67, r67e;
:mod:`indexer.languages.python.frameworks.fastcrud`): ``crud_users = CRUDUser(User)`` in one module,
``await crud_users.get(db=db, username=u)`` in another reads ``user``, ``create`` / ``update`` / ``delete`` write it;
a receiver that is no FastCRUD object, or a call without a session, links nothing."""

from __future__ import annotations

import json

from indexer.languages import extractor_for_path
from tests.golden.harness import edge_rows

APP = {
    "app/models.py": '''
from sqlalchemy import String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "user"
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(20))


class Post(Base):
    __tablename__ = "post"
    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(20))
''',
    "app/crud.py": '''
from fastcrud import FastCRUD

from app.models import Post, User

CRUDUser = FastCRUD[User, None, None, None, None, None]
crud_users = CRUDUser(User)


class CRUDPost(FastCRUD[Post, None, None, None, None, None]):
    pass


crud_posts = CRUDPost(model=Post)
''',
    "app/views.py": '''
from app.crud import crud_posts, crud_users
from app import cache


async def show(db, username):
    cached = cache.get(db=db, key=username)  # no FastCRUD object: nothing
    found = {}.get(username)  # no session: nothing
    return cached or found or await crud_users.get(db=db, username=username, schema_to_select=None)


async def rename(db, username, values):
    if await crud_users.exists(db, username__ilike=username):
        await crud_users.update(db=db, object=values, username=username)


async def publish(session, values):
    await crud_posts.create(session, object=values)
    await crud_posts.delete(db=session, id=values.id)
''',
    "app/cache.py": '''
def get(db, key):
    return None
''',
}


def test_fastcrud_calls_read_and_write_the_model_of_their_object(tmp_path) -> None:
    rows = []
    for kind in ("READS", "WRITES"):
        for src, dst, line, props in edge_rows(tmp_path / kind, APP, kind):
            p = json.loads(props)
            rows.append((kind, src.split(":", 1)[1], dst.rsplit(":", 1)[1], line, p.get("columns", []), p["framework"]))
    assert sorted(rows) == [
        ("READS", "app/views.rename(3)", ".user", 13, ["username"], "fastcrud"),
        ("READS", "app/views.show(2)", ".user", 9, ["username"], "fastcrud"),
        ("WRITES", "app/views.publish(2)", ".post", 18, [], "fastcrud"),
        ("WRITES", "app/views.publish(2)", ".post", 19, [], "fastcrud"),
        ("WRITES", "app/views.rename(3)", ".user", 14, [], "fastcrud"),
    ]


def test_the_object_facts_and_no_orm_misreading_of_the_same_call() -> None:
    ex = extractor_for_path("app/crud.py").extract("app/crud.py", APP["app/crud.py"].encode())
    assert [(u.role, u.receiver, u.entity, u.owner) for u in ex.table_uses if u.framework == "fastcrud"] == [
        ("repository", "crud_users", "User", None), ("repository", "crud_posts", "Post", None)]
    ex = extractor_for_path("app/views.py").extract("app/views.py", APP["app/views.py"].encode())
    # `crud_users.update(...)` / `crud_posts.delete(...)` are FastCRUD's, not SQLAlchemy / Django writes of `crud_*`
    # (`cache.get(db=db, ...)` is a candidate too: the linker drops it, cache being no FastCRUD object)
    assert sorted((u.framework, u.role, u.line, u.receiver) for u in ex.table_uses) == [
        ("fastcrud", "reads", 7, "cache"), ("fastcrud", "reads", 9, "crud_users"), ("fastcrud", "reads", 13, "crud_users"),
        ("fastcrud", "writes", 14, "crud_users"), ("fastcrud", "writes", 18, "crud_posts"),
        ("fastcrud", "writes", 19, "crud_posts")]
    # `cache.get(db=db, ...)` is a candidate the linker drops: cache is no FastCRUD object
    ex = extractor_for_path("app/other.py").extract("app/other.py", b"def f(db):\n    return cache.get(db=db)\n")
    assert [(u.receiver, u.role) for u in ex.table_uses] == [("cache", "reads")]
