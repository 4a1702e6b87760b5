"""Python names and returns annotated as containers of a repository class (``list[User]``,
``Iterator[User]``, ``Mapped[list["Address"]]``): a loop or comprehension over one takes its element
class; a mapping is none (its iteration hands out keys); what must stay unlinked."""

from __future__ import annotations

from indexer.languages.python.modules import container_element
from tests.resolution_harness import resolve_fixture

APP = '''
# --- path: app/__init__.py ---
# --- path: app/models.py ---
class User:
    def activate(self): pass


class Group:
    def activate(self): pass
# --- path: app/svc.py ---
from typing import Iterator
from app.models import User


def load() -> list[User]:
    return []


def stream() -> Iterator[User]:
    return iter([])


def by_id() -> dict[int, User]:
    return {}


def names() -> list[str]:
    return []


def run():
    for v in load():
        v.activate()
    [y.activate() for y in stream()]
    by_id().get(1).activate()
    for n in names():
        n.activate()
    for k in by_id():
        k.activate()
'''


def test_loops_over_annotated_containers_take_the_element_class() -> None:
    resolved = resolve_fixture(APP)
    calls = sorted((e.line, e.dst.removeprefix("t:app/"), e.resolution) for f in resolved.files for e in f.edges
                   if e.kind == "CALLS" and "svc.run" in e.src and "models" in e.dst)
    assert calls == [
        (23, "models.User.activate(0)", "inferred"),  # for v in load(): list[User]
        (24, "models.User.activate(0)", "inferred"),  # a comprehension over an Iterator[User]
        (25, "models.User.activate(0)", "inferred"),  # by_id().get(1): a dict[int, User]'s value
        # negative: list[str]'s elements are no class of the repository (`n.activate()` stays
        # unlinked, neither User's nor Group's); a dict[int, User] is no container of Users: its
        # iteration hands out the int keys (`k.activate()`)
    ]


def test_the_element_type_of_an_annotation() -> None:
    assert [container_element(t) for t in (
        "list[User]", 'List["User"]', 'Mapped[list["Address"]]', "Optional[list[User]]",
        "tuple[User, ...]", "Generator[User, None, None]", "typing.Sequence[app.User]", "list[User] | None",
    )] == ["User", "User", "Address", "User", "User", "User", "app.User", "User"]
    assert [container_element(t) for t in ("tuple[A, B]", "list", "Callable[[A], B]",
                                           "User", "Union[A, B]", "dict[int, User]",
                                           "list[A] | list[B]")] == [None] * 7
    # a subscripted element is kept as written: the resolver nests (`QueryV.inner`, gen48)
    assert container_element("list[list[User]]") == "list[User]"


OPTIONAL_ELEMENTS = '''
# --- path: app/__init__.py ---
# --- path: app/models.py ---
class Incident:
    @property
    def last_report(self):
        return None

    def close(self): pass


class Team:
    def close(self): pass
# --- path: app/service.py ---
from typing import Optional
from app.models import Incident, Team


def get_all() -> list[Incident | None]:
    return []


def by_name() -> dict[str, Optional[Incident]]:
    return {}


def mixed() -> list[Incident | Team]:
    return []
# --- path: app/jobs.py ---
from app import service as incident_service


def remind():
    for incident in incident_service.get_all():
        if incident.last_report:
            incident.close()
    incidents = incident_service.get_all()
    [i.close() for i in incidents]
    incident_service.by_name()["a"].close()
    for m in incident_service.mixed():
        m.close()
'''


def test_elements_annotated_with_a_none_alternative_take_the_class() -> None:
    # Netflix dispatch: `def get_all_by_status(...) -> list[Incident | None]`, then
    # `for incident in incidents: if incident.last_tactical_report:` (a hybrid property).
    resolved = resolve_fixture(OPTIONAL_ELEMENTS)
    calls = sorted((e.line, e.dst.removeprefix("t:app/"), e.resolution) for f in resolved.files for e in f.edges
                   if e.kind == "CALLS" and "jobs.remind" in e.src and "models" in e.dst)
    assert calls == [
        (6, "models.Incident.last_report(0)", "inferred"),  # a property read on list[Incident | None]'s element
        (7, "models.Incident.close(0)", "inferred"),
        (9, "models.Incident.close(0)", "inferred"),  # a comprehension over the same
        (10, "models.Incident.close(0)", "inferred"),  # dict[str, Optional[Incident]]'s value
        # negative: list[Incident | Team]'s element is no one class (`m.close()` links neither
        # Incident.close nor Team.close)
    ]


def test_an_element_without_its_none_alternative() -> None:
    assert [container_element(t) for t in (
        "list[Incident | None]", "list[None | Incident]", "list[Optional[Incident]]", 'List["Incident" | None]',
        "typing.Sequence[typing.Optional[app.Incident]]", "list[Optional[list[Incident]]]",
    )] == ["Incident", "Incident", "Incident", "Incident", "app.Incident", "list[Incident]"]
    assert [container_element(t) for t in ("list[Incident | Team]", "list[Optional[A, B]]", "list[int | str]")] == [None] * 3
