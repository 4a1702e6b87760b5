"""Python names annotated ``type[X]`` / ``Type[X]`` hold the class ``X`` or a subclass of it, not an
instance (``ClassV``, dynamic): calling one builds an instance, a classmethod read on one is the class's; through a generic
base, ``Type[ModelT]`` is the class the subclass binds (:mod:`indexer.resolve.generics`)."""

from __future__ import annotations

from tests.resolution_harness import resolve_fixture

APP = '''
# --- path: app/__init__.py ---
# --- path: app/models.py ---
class User:
    @classmethod
    def create(cls, name):
        return cls()

    def activate(self):
        pass


class Admin(User):
    @classmethod
    def create(cls, name):
        return cls()


class Group:
    @classmethod
    def create(cls, name):
        return cls()

    def activate(self):
        pass
# --- path: app/crud.py ---
from typing import Generic, Optional, Type, TypeVar

from app.models import Group, User

ModelT = TypeVar("ModelT")


class CRUDBase(Generic[ModelT]):
    def model_class(self) -> Type[ModelT]:
        ...


class CRUDUser(CRUDBase[User]):
    pass


def build(model: type[User], maybe: Optional[type[Group]], name: "type[User] | None", many: list[type[User]]):
    model.create("a")
    model("b").activate()
    maybe.create("c")
    name.create("d")
    many.create("e")


def through_generics(crud: CRUDUser):
    crud.model_class().create("f")
'''


def _calls(resolved, caller: str) -> list[tuple[int, str, str]]:
    return sorted((e.line, e.dst.split(":", 1)[1], e.resolution) for f in resolved.files for e in f.edges
                  if e.kind == "CALLS" and e.src.endswith(caller) and "models." in e.dst)


def test_a_class_annotation_holds_the_class_or_a_subclass() -> None:
    resolved = resolve_fixture(APP)
    assert _calls(resolved, "crud.build(4)") == [
        (18, "app/models.User.create(1)", "exact"),  # type[User]: the class, its classmethod
        (19, "app/models.User", "exact"),  # calling the class builds an instance
        (19, "app/models.User.activate(0)", "exact"),
        (20, "app/models.Group.create(1)", "exact"),  # Optional[type[Group]]
        (21, "app/models.User.create(1)", "exact"),  # "type[User] | None"
        # negative: a list of classes (22) is no class: its `create` is the list's, never by name
    ]
    assert _calls(resolved, "crud.through_generics(1)") == [
        (26, "app/models.User.create(1)", "exact"),  # Type[ModelT] bound to User by CRUDUser
    ]
