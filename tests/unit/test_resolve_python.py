"""Python call resolution: every hard case of the core issue, one named test each."""

from tests.resolution_harness import check, edges, resolve_fixture


def test_absolute_import_of_function_and_module():
    check(
        """
        # --- path: app/__init__.py ---
        # --- path: app/util.py ---
        def helper(x):
            return x
        # --- path: app/main.py ---
        import app.util
        from app.util import helper as h

        def run():
            h(1)
            app.util.helper(2)
        """,
        [
            "app/main.run(0) -> app/util.helper(1) [exact]",
        ],
    )


def test_relative_imports_including_from_dot_import_module():
    check(
        """
        # --- path: pkg/__init__.py ---
        # --- path: pkg/models.py ---
        def load():
            pass
        # --- path: pkg/sub/__init__.py ---
        from .. import models

        def init():
            models.load()
        # --- path: pkg/sub/views.py ---
        from . import init
        from ..models import load

        def view():
            init()
            load()
        """,
        [
            "pkg/sub/__init__.init(0) -> pkg/models.load(0) [exact]",
            "pkg/sub/views.view(0) -> pkg/sub/__init__.init(0) [exact]",
            "pkg/sub/views.view(0) -> pkg/models.load(0) [exact]",
        ],
    )


def test_self_calls_and_constructor():
    check(
        """
        # --- path: svc.py ---
        class Service:
            def __init__(self, repo):
                self.repo = repo

            def save(self, item):
                self.validate(item)

            def validate(self, item):
                pass

        def make():
            return Service(None)
        """,
        [
            "svc.Service.save(1) -> svc.Service.validate(1) [exact]",
            "svc.make(0) -> svc.Service.__init__(1) [exact]",
        ],
    )


def test_receiver_types_from_annotation_constructor_and_field():
    check(
        """
        # --- path: repo.py ---
        class Repo:
            def find(self, key):
                pass
        # --- path: svc.py ---
        from repo import Repo

        class Service:
            def __init__(self, backup: Repo):
                self.repo = Repo()
                self.backup = backup

            def get(self):
                self.repo.find(1)
                self.backup.find(2)

        def by_param(r: Repo):
            r.find(3)

        def by_constructor():
            r = Repo()
            r.find(4)
        """,
        [
            # Repo has no __init__: instantiation binds to the class itself.
            "svc.Service.__init__(1) -> repo.Repo [exact]",
            "svc.by_constructor(0) -> repo.Repo [exact]",
            "svc.Service.get(0) -> repo.Repo.find(1) [inferred]",
            "svc.Service.get(0) -> repo.Repo.find(1) [exact]",
            "svc.by_param(1) -> repo.Repo.find(1) [exact]",
            "svc.by_constructor(0) -> repo.Repo.find(1) [inferred]",
        ],
    )


def test_inherited_method_through_self_in_subclass():
    check(
        """
        # --- path: m.py ---
        class Base:
            def audit(self):
                pass

        class Child(Base):
            def run(self):
                self.audit()
        """,
        ["m.Child.run(0) -> m.Base.audit(0) [inferred]"],
    )


def test_call_through_base_type_reaches_overrides():
    check(
        """
        # --- path: shapes.py ---
        class Shape:
            def area(self):
                raise NotImplementedError

        class Square(Shape):
            def area(self):
                return 4

        class Circle(Shape):
            def area(self):
                return 3

        def total(s: Shape):
            return s.area()
        """,
        [
            "shapes.total(1) -> shapes.Circle.area(0) [inferred]",
            "shapes.total(1) -> shapes.Shape.area(0) [exact]",
            "shapes.total(1) -> shapes.Square.area(0) [inferred]",
        ],
    )


def test_super_call_binds_to_base_method():
    check(
        """
        # --- path: m.py ---
        class Base:
            def save(self):
                pass

        class Child(Base):
            def save(self):
                super().save()
        """,
        ["m.Child.save(0) -> m.Base.save(0) [inferred]"],
    )


def test_nested_class_caller_is_outer_inner_method():
    check(
        """
        # --- path: m.py ---
        def helper():
            pass

        class Outer:
            class Inner:
                def method(self):
                    helper()
        """,
        ["m.Outer.Inner.method(0) -> m.helper(0) [exact]"],
    )


def test_calls_in_lambdas_and_comprehensions_belong_to_enclosing_function():
    check(
        """
        # --- path: m.py ---
        def target(x):
            return x

        def outer(items):
            fn = lambda v: target(v)
            return [target(i) for i in items]
        """,
        ["m.outer(1) -> m.target(1) [exact]"],
    )


def test_known_receiver_type_never_binds_unrelated_same_name_method():
    result = check(
        """
        # --- path: m.py ---
        class Invoice:
            def save(self):
                pass

        class Order:
            def submit(self):
                pass

        def run(o: Order):
            o.save()
        """,
        [],
    )
    unresolved = [u.name for f in result.files for u in f.unresolved]
    assert unresolved == ["save"]


def test_unknown_receiver_falls_back_to_unique_name_and_arity():
    check(
        """
        # --- path: m.py ---
        class Ledger:
            def reconcile_entries(self, a, b=None):
                pass

        class Other:
            def post(self):
                pass

        class Third:
            def post(self):
                pass

        def run(ledger, x):
            ledger.reconcile_entries(1)
            x.post()
        """,
        ["m.run(2) -> m.Ledger.reconcile_entries(2) [name]"],
    )


def test_alias_assignment_and_nested_function():
    check(
        """
        # --- path: m.py ---
        def f():
            pass

        g = f

        def outer():
            def inner():
                g()
            inner()
        """,
        [
            "m.outer(0) -> m.outer.inner(0) [exact]",
            "m.outer.inner(0) -> m.f(0) [exact]",
        ],
    )


def test_reexport_through_package_init_and_external_calls_are_not_unresolved():
    result = check(
        """
        # --- path: lib/__init__.py ---
        from lib.core import Engine
        # --- path: lib/core.py ---
        class Engine:
            def start(self):
                pass
        # --- path: app.py ---
        import os
        from lib import Engine

        def main():
            e = Engine()
            e.start()
            os.path.join("a", "b")
            len([])
        """,
        [
            "app.main(0) -> lib/core.Engine [exact]",
            "app.main(0) -> lib/core.Engine.start(0) [inferred]",
        ],
    )
    assert result.call_outcomes == {"exact": 1, "inferred": 1, "external": 2}


def test_structure_edges_extends_overrides_contains():
    result = resolve_fixture(
        """
        # --- path: m.py ---
        class Base:
            def run(self):
                pass

        class Child(Base):
            def run(self):
                pass
        """
    )
    assert edges(result, "EXTENDS") == ["m.Child -> m.Base"]
    assert edges(result, "OVERRIDES") == ["m.Child.run(0) -> m.Base.run(0)"]
    assert edges(result, "CONTAINS") == [
        "m.Base -> m.Base.run(0)",
        "m.Child -> m.Child.run(0)",
        "m.py -> m.Base",
        "m.py -> m.Child",
    ]


def test_with_as_binds_context_manager_instance():
    # requests src/requests/api.py: `with sessions.Session() as session: return session.request(...)`
    check(
        """
        # --- path: requests/__init__.py ---
        # --- path: requests/sessions.py ---
        class Session:
            def request(self, method, url):
                pass
        # --- path: requests/api.py ---
        from . import sessions

        def request(method, url):
            with sessions.Session() as session:
                return session.request(method, url)
        """,
        [
            "requests/api.request(2) -> requests/sessions.Session [exact]",
            "requests/api.request(2) -> requests/sessions.Session.request(2) [inferred]",
        ],
    )


def test_overload_stubs_leave_one_node():
    result = check(
        """
        # --- path: m.py ---
        from typing import overload

        @overload
        def f(x: int) -> int: ...
        @overload
        def f(x: str) -> str: ...
        def f(x):
            return x

        def main():
            f(1)
        """,
        ["m.main(0) -> m.f(1) [exact]"],
    )
    assert [n.id for f in result.files for n in f.nodes if n.label == "Function"] == ["t:m.f(1)", "t:m.main(0)"]


def test_constructed_receiver_does_not_dispatch_to_subclass_overrides():
    # django tests/backends/base/test_operations.py: `self.ops = BaseDatabaseOperations(...)` then
    # `self.ops.adapt_datetimefield_value(None)` runs the base method, never the Oracle override.
    # A receiver typed by annotation or `self`, or built through `cls()`, may still be a subclass.
    check(
        """
        # --- path: ops.py ---
        class BaseOps:
            def adapt(self, value):
                return value

            @classmethod
            def build(cls):
                return cls().adapt(0)

        class OracleOps(BaseOps):
            def adapt(self, value):
                return str(value)

        def by_constructor():
            ops = BaseOps()
            ops.adapt(1)

        def by_annotation(ops: BaseOps):
            ops.adapt(2)
        """,
        [
            "ops.by_constructor(0) -> ops.BaseOps [exact]",
            "ops.by_constructor(0) -> ops.BaseOps.adapt(1) [inferred]",
            "ops.by_annotation(1) -> ops.BaseOps.adapt(1) [exact]",
            "ops.by_annotation(1) -> ops.OracleOps.adapt(1) [inferred]",
            "ops.BaseOps.build(0) -> ops.BaseOps.adapt(1) [exact]",
            "ops.BaseOps.build(0) -> ops.OracleOps.adapt(1) [inferred]",
        ],
    )


def test_inherited_method_dispatch_reaches_only_overrides_below_the_receiver_class():
    # django/db/models/expressions.py: `self.copy()` in Lookup / OrderBy (inheriting
    # BaseExpression.copy) never runs Case.copy, which overrides it in a sibling branch.
    check(
        """
        # --- path: expr.py ---
        class BaseExpression:
            def copy(self):
                return self

        class Case(BaseExpression):
            def copy(self):
                return self

        class Lookup(BaseExpression):
            def resolve(self):
                return self.copy()

        class Exact(Lookup):
            def copy(self):
                return self

        def clone(e: BaseExpression):
            return e.copy()
        """,
        [
            "expr.Lookup.resolve(0) -> expr.BaseExpression.copy(0) [inferred]",
            "expr.Lookup.resolve(0) -> expr.Exact.copy(0) [inferred]",
            "expr.clone(1) -> expr.BaseExpression.copy(0) [exact]",
            "expr.clone(1) -> expr.Case.copy(0) [inferred]",
            "expr.clone(1) -> expr.Exact.copy(0) [inferred]",
        ],
    )


def test_class_body_names_are_invisible_from_its_methods():
    # django/contrib/gis/gdal/geometries.py: `def tuple(self): return tuple(...)` inside a class
    # calls the builtin, not the method itself (class scope is not an enclosing scope in Python).
    check(
        """
        # --- path: geom.py ---
        def helper():
            pass

        class Polygon:
            def helper(self):
                pass

            def tuple(self):
                helper()
                return tuple(self.helper())

            class Ring:
                pass

            def ring(self, r: Ring):
                return r
        """,
        [
            "geom.Polygon.tuple(0) -> geom.helper(0) [exact]",
            "geom.Polygon.tuple(0) -> geom.Polygon.helper(0) [exact]",
        ],
    )


def test_unannotated_function_returning_a_constructor_call_types_its_result():
    # django/urls/base.py: `get_resolver(urlconf).resolve(path)`, where `get_resolver` returns
    # `_get_cached_resolver(urlconf)`, which returns `URLResolver(...)`; neither is annotated.
    # The chain ends on a class: an inferred, concrete instance (no dispatch to subclasses). A
    # function returning its own result (through another) resolves to nothing and terminates.
    check(
        """
        # --- path: django/__init__.py ---
        # --- path: django/urls/__init__.py ---
        # --- path: django/urls/resolvers.py ---
        import functools

        class URLResolver:
            def __init__(self, pattern, urlconf_name=None):
                self.pattern = pattern

            def resolve(self, path):
                pass

        class LocaleResolver(URLResolver):
            def resolve(self, path):
                pass

        def get_resolver(urlconf=None):
            if urlconf is None:
                urlconf = settings.ROOT_URLCONF
            return _get_cached_resolver(urlconf)

        @functools.cache
        def _get_cached_resolver(urlconf=None):
            return URLResolver(r"^/", urlconf)

        def ping():
            return pong()

        def pong():
            return ping()
        # --- path: django/urls/base.py ---
        from .resolvers import get_resolver, ping

        def resolve(path, urlconf=None):
            return get_resolver(urlconf).resolve(path)

        def reverse(viewname, urlconf=None):
            resolver = get_resolver(urlconf)
            return resolver.resolve(viewname)

        def cycle():
            return ping().lookup()
        """,
        [
            "django/urls/base.resolve(2) -> django/urls/resolvers.get_resolver(1) [exact]",
            "django/urls/base.resolve(2) -> django/urls/resolvers.URLResolver.resolve(1) [inferred]",
            "django/urls/base.reverse(2) -> django/urls/resolvers.get_resolver(1) [exact]",
            "django/urls/base.reverse(2) -> django/urls/resolvers.URLResolver.resolve(1) [inferred]",
            "django/urls/base.cycle(0) -> django/urls/resolvers.ping(0) [exact]",
            "django/urls/resolvers.get_resolver(1) -> django/urls/resolvers._get_cached_resolver(1) [exact]",
            "django/urls/resolvers._get_cached_resolver(1) -> django/urls/resolvers.URLResolver.__init__(2) [exact]",
            "django/urls/resolvers.ping(0) -> django/urls/resolvers.pong(0) [exact]",
            "django/urls/resolvers.pong(0) -> django/urls/resolvers.ping(0) [exact]",
        ],
    )


def test_or_default_and_conditional_constructor_bind_the_attribute():
    # django/db/migrations/autodetector.py: `self.questioner = questioner or MigrationQuestioner()`,
    # then `self.questioner.ask_rename(...)` in another method.
    check(
        """
        # --- path: questioner.py ---
        class MigrationQuestioner:
            def ask_rename(self, model_name, old_name):
                return False

        class Loader:
            def load(self):
                pass
        # --- path: autodetector.py ---
        from questioner import Loader, MigrationQuestioner

        class MigrationAutodetector:
            def __init__(self, questioner=None, loader=None):
                self.questioner = questioner or MigrationQuestioner()
                self.loader = loader if loader is not None else Loader()

            def detect(self):
                if self.questioner.ask_rename("m", "old"):
                    self.loader.load()
        """,
        [
            "autodetector.MigrationAutodetector.__init__(2) -> questioner.MigrationQuestioner [exact]",
            "autodetector.MigrationAutodetector.__init__(2) -> questioner.Loader [exact]",
            "autodetector.MigrationAutodetector.detect(0) -> questioner.MigrationQuestioner.ask_rename(2) [inferred]",
            "autodetector.MigrationAutodetector.detect(0) -> questioner.Loader.load(0) [inferred]",
        ],
    )


def test_namespace_subpackage_inside_a_package():
    # flask 3.1: src/flask/sansio/ has no __init__.py; flask/app.py does `from .sansio.app import App`.
    check(
        """
        # --- path: src/flask/__init__.py ---
        from .app import Flask as Flask
        # --- path: src/flask/sansio/app.py ---
        class App:
            def register_blueprint(self, bp):
                pass
        # --- path: src/flask/app.py ---
        from .sansio.app import App

        class Flask(App):
            pass
        # --- path: examples/flaskr/__init__.py ---
        from flask import Flask

        def create_app():
            app = Flask()
            app.register_blueprint(None)
        """,
        [
            "examples/flaskr/__init__.create_app(0) -> src/flask/app.Flask [exact]",
            "examples/flaskr/__init__.create_app(0) -> src/flask/sansio/app.App.register_blueprint(1) [inferred]",
        ],
    )


def test_regular_package_below_a_namespace_folder_keeps_the_whole_package_path():
    # Netflix dispatch: dispatch/feedback/ has no __init__.py, dispatch/feedback/incident/ has one, and
    # dispatch/api.py does `from dispatch.feedback.incident.views import router`; dispatch/incident/ is a
    # namesake package whose function of the same name must not be bound.
    result = check(
        """
        # --- path: src/dispatch/__init__.py ---
        # --- path: src/dispatch/incident/__init__.py ---
        # --- path: src/dispatch/incident/views.py ---
        def get_feedback():
            pass
        # --- path: src/dispatch/feedback/incident/__init__.py ---
        # --- path: src/dispatch/feedback/incident/views.py ---
        def get_feedback():
            pass
        # --- path: src/dispatch/feedback/incident/service.py ---
        from .views import get_feedback

        def load():
            get_feedback()
        # --- path: src/dispatch/api.py ---
        from dispatch.feedback.incident.views import get_feedback
        from dispatch.feedback.incident import service

        def run():
            get_feedback()
            service.load()
        """,
        [
            "src/dispatch/api.run(0) -> src/dispatch/feedback/incident/views.get_feedback(0) [exact]",
            "src/dispatch/api.run(0) -> src/dispatch/feedback/incident/service.load(0) [exact]",
            "src/dispatch/feedback/incident/service.load(0) -> src/dispatch/feedback/incident/views.get_feedback(0) [exact]",
        ],
    )
    assert "src/dispatch/incident/views.get_feedback(0)" not in " ".join(edges(result))


def test_a_top_level_folder_without_init_is_also_a_namespace_package_from_the_root():
    # A Flask / FastAPI application whose app/ has no __init__.py, run from the repository root:
    # `from app.models import Post` (PEP 420). Its files keep their script-style keys too (a script's
    # sibling import `from util import helper`); a namesake module elsewhere is not bound, and a folder
    # below the root (NetBox's scripts/packaging/) does not shadow the library of its name.
    result = check(
        """
        # --- path: app/models.py ---
        class Post:
            def publish(self):
                return 1

        def make_post():
            return Post()
        # --- path: app/routes.py ---
        from app.models import make_post
        import app.models

        def show():
            make_post().publish()
            return app.models.Post()
        # --- path: app/views.py ---
        from .models import Post

        def view():
            Post().publish()
        # --- path: scripts/util.py ---
        def helper():
            return 2
        # --- path: scripts/run.py ---
        from util import helper
        from other.models import make_post

        def main():
            helper()
            make_post()
        # --- path: scripts/packaging/build.py ---
        def build():
            pass
        # --- path: app/jobs.py ---
        from packaging import version
        from scripts.packaging.build import build

        def check():
            version.parse("1.0")
            build()
        """,
        [
            "app/models.make_post(0) -> app/models.Post [exact]",
            "app/routes.show(0) -> app/models.make_post(0) [exact]",
            "app/routes.show(0) -> app/models.Post.publish(0) [inferred]",
            "app/routes.show(0) -> app/models.Post [exact]",
            "app/views.view(0) -> app/models.Post [exact]",
            "app/views.view(0) -> app/models.Post.publish(0) [exact]",
            "scripts/run.main(0) -> scripts/util.helper(0) [exact]",
            "app/jobs.check(0) -> scripts/packaging/build.build(0) [exact]",
        ],
    )
    assert "scripts/run.main(0) -> app/models.make_post(0)" not in " ".join(edges(result))
    # `packaging` is the library (scripts/ is not on sys.path): its call is no unbound name of the repository
    assert [u.name for f in result.files for u in f.unresolved] == []


def test_name_fallback_never_binds_a_method_call_to_a_free_function():
    # Flask: `rv.update(processor())` on a dict must not become a call of flaskr.blog.update.
    check(
        """
        # --- path: blog.py ---
        def update(id):
            return id
        # --- path: app.py ---
        def make_shell_context(processor):
            rv = {}
            rv.update(processor())
            return rv
        """,
        [],
    )
