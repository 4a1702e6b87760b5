"""Calls on the language's own objects (issue 19's newcomer report: ``", ".join(parts)`` bound by name
to a repository's ``URL.join``): a literal, a name bound to one, a variadic parameter or what a builtin
class builds is :data:`~indexer.resolve.values.BUILTIN`. Its methods are external (never matched by
name); what they hand back (``kwargs.get("queryset")``) stays unknown, so calls on that still fall
back to a name match as before."""

from indexer.model import LITERAL_RECEIVER
from tests.resolution_harness import check, resolve_fixture

URL = """
# --- path: app/__init__.py ---
# --- path: app/url.py ---
class URL:
    def join(self, other):
        return other

    def pop(self):
        return 1

    def update(self, other):
        return other

    def select_related(self, name):
        return self
"""


def test_methods_of_literals_builtin_objects_and_variadic_parameters_bind_to_no_repository_method():
    result = check(
        URL + """
# --- path: app/use.py ---
from app.url import URL


def build(parts, *args, **kwargs):
    ", ".join(parts)
    f"{parts}".join(parts)
    ("a" "b").join(parts)
    [1, 2].pop()
    {}.update(kwargs)
    {x for x in parts}.pop()
    sep = "-"
    sep.join(parts)
    opts = {}
    opts.update(kwargs)
    seen = set()
    seen.pop()
    kept = dict(kwargs)
    kept.pop()
    args.pop()
    kwargs.pop()
    ", ".join(parts).join(parts)


def taken_out(**kwargs):
    qs = kwargs.get("queryset")
    qs.select_related("x")


def unknown(u):
    u.join("x")


def typed(u: URL):
    u.join("y")
""",
        [
            # what is taken out of a builtin object is unknown: matched by name, as before
            "app/use.taken_out(1) -> app/url.URL.select_related(1) [name]",
            # a receiver nothing is known of: matched by name
            "app/use.unknown(1) -> app/url.URL.join(1) [name]",
            # a typed receiver: exact
            "app/use.typed(1) -> app/url.URL.join(1) [exact]",
            # `", ".join(parts).join(parts)`: the first call hands back an unknown value
            "app/use.build(3) -> app/url.URL.join(1) [name]",
        ],
    )
    assert result.call_outcomes == {"external": 16, "name": 3, "exact": 1}


def test_statement_order_and_branches_decide_between_a_literal_and_a_repository_object():
    check(
        URL + """
# --- path: app/order.py ---
from app.url import URL


def later():
    fields = []
    fields.pop()
    fields = URL()
    fields.pop()


def branches(flag):
    if flag:
        c = URL()
    else:
        c = {}
    c.update(1)
""",
        [
            "app/order.later(0) -> app/url.URL [exact]",
            "app/order.later(0) -> app/url.URL.pop(0) [inferred]",
            "app/order.branches(1) -> app/url.URL [exact]",
            # either branch may run: the repository's class is kept, the literal does not hide it
            "app/order.branches(1) -> app/url.URL.update(1) [inferred]",
        ],
    )


def test_a_name_the_repository_binds_is_not_the_builtin():
    check(
        URL + """
# --- path: app/shadow.py ---
from app.url import URL as list
from app import url as connections


def own():
    made = list()
    made.pop()


def local_list_shadows_the_import():
    connections = []
    connections.pop()
""",
        [
            "app/shadow.own(0) -> app/url.URL [exact]",
            "app/shadow.own(0) -> app/url.URL.pop(0) [inferred]",
        ],
    )


def test_the_receiver_of_a_call_on_a_literal_is_the_literal_marker():
    result = resolve_fixture("# --- path: m.py ---\ndef f(xs):\n    return ', '.join(xs).strip()\n")
    assert LITERAL_RECEIVER == "<literal>"
    assert result.call_outcomes == {"external": 1, "unresolved": 1}


def test_data_model_attributes_are_builtin_objects_whatever_holds_them():
    # flask's _AppCtxGlobals.pop: `self.__dict__.pop(name, default)` was bound by name to itself
    result = check(
        URL + """
# --- path: app/ns.py ---
from app.url import URL


class Globals:
    def pop(self, name, default=None):
        return self.__dict__.pop(name, default)


def names(obj, other):
    obj.__dict__.update(other)
    type(obj).__name__.join([])
    other.pop()
""",
        [
            # `other` is of unknown type: the name match stays
            "app/ns.names(2) -> app/url.URL.pop(0) [name]",
        ],
    )
    # __dict__.pop, __dict__.update, type(obj) (a builtin), __name__.join: the language's own
    assert result.call_outcomes == {"external": 4, "name": 1}
