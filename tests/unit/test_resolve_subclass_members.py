"""Python and JavaScript: a method calling on ``self`` / ``this`` what only its class's subclasses provide (a mixin calling
what the class it is mixed into inherits from a sibling base, a template method's hook, a field a
subclass sets to a bound method: PyCG's ``classes/base_class_calls_child``). Exact edges, the ones
that must not bind, and the index kept equal to a full one while the subclasses come and go."""

from __future__ import annotations

from pathlib import Path

from tests.resolution_harness import check
from tests.index_dump import calls, unresolved
from tests.unit.test_incremental import Workspace


def test_a_mixin_reaches_what_each_class_it_is_mixed_into_provides():
    check(
        """
        # --- path: views.py ---
        class DetailView:
            def get_object(self):
                pass

            def render(self):
                pass

        class OwnerMixin:
            def dispatch(self):
                obj = self.get_object()
                self.check(obj)
                self.audit(1, 2)
                return self.render()

        class PostView(OwnerMixin, DetailView):
            def check(self, obj):
                pass

        class TeamView(OwnerMixin):
            def get_object(self):
                pass

            def check(self, obj):
                pass

            def audit(self):
                pass

        class Unrelated:
            def get_object(self):
                pass

        def direct():
            m = OwnerMixin()
            m.get_object()
        """,
        [
            # PostView inherits DetailView's get_object and render; TeamView has its own
            "views.OwnerMixin.dispatch(0) -> views.DetailView.get_object(0) [inferred]",
            "views.OwnerMixin.dispatch(0) -> views.TeamView.get_object(0) [inferred]",
            "views.OwnerMixin.dispatch(0) -> views.PostView.check(1) [inferred]",
            "views.OwnerMixin.dispatch(0) -> views.TeamView.check(1) [inferred]",
            "views.OwnerMixin.dispatch(0) -> views.DetailView.render(0) [inferred]",
            # `self.audit(1, 2)`: TeamView's audit takes no arguments, so it is no target;
            # Unrelated.get_object is no subclass's; an OwnerMixin built directly is exactly one
            # (`m.get_object()` binds nothing below it)
            "views.direct(0) -> views.OwnerMixin [exact]",
        ],
    )


def test_a_template_method_reaches_each_subclass_hook_and_a_field_holding_a_bound_method():
    check(
        """
        # --- path: base.py ---
        class Job:
            def run(self):
                self.prepare()
                self.child()
                return self.finish()

            def finish(self):
                pass
        # --- path: jobs.py ---
        from base import Job

        class Export(Job):
            def __init__(self):
                self.child = self.write

            def prepare(self):
                pass

            def write(self):
                pass

        class Deep(Export):
            def prepare(self):
                pass
        """,
        [
            "base.Job.run(0) -> base.Job.finish(0) [exact]",
            "base.Job.run(0) -> jobs.Export.prepare(0) [inferred]",
            "base.Job.run(0) -> jobs.Deep.prepare(0) [inferred]",
            "base.Job.run(0) -> jobs.Export.write(0) [inferred]",
        ],
    )


def test_a_receiver_each_subclass_gives_a_value_reaches_each_values_method():
    check(
        """
        # --- path: models.py ---
        class Store:
            def flush(self):
                pass

        class Post:
            store = Store()

            def publish(self):
                pass

        class Note:
            def publish(self):
                pass

        class Other:
            def publish(self):
                pass
        # --- path: services.py ---
        from models import Post, Note

        class Service:
            model = None

            def run(self):
                self.model.publish(self)
                self.model()
                self.repo.publish()
                self.repo.store.flush()

        class Posts(Service):
            model = Post
            repo = Post()

        class Notes(Service):
            model = Note

        class Plain(Service):
            pass

        def direct():
            s = Service()
            s.model()
        """,
        [
            # `model = None` is a placeholder: the subclasses' classes are what `self.model` holds
            "services.Service.run(0) -> models.Post.publish(0) [inferred]",
            "services.Service.run(0) -> models.Note.publish(0) [inferred]",
            "services.Service.run(0) -> models.Post [inferred]",
            "services.Service.run(0) -> models.Note [inferred]",
            # `self.repo.store`: the `store` of the `Post` a subclass's `repo` holds
            "services.Service.run(0) -> models.Store.flush(0) [inferred]",
            "models.Post -> models.Store [exact]",
            "services.Posts -> models.Post [exact]",
            # `Other` is no subclass's value; a Service built directly has its own `None`
            "services.direct(0) -> services.Service [exact]",
        ],
    )


def test_a_local_built_or_named_from_what_subclasses_provide_reaches_each_subclass_value():
    # session 47: `obj = self.model(...)` holds an instance of each class the subclasses give `model`
    check(
        """
        # --- path: models.py ---
        class Post:
            def save(self):
                pass

            def publish(self, when):
                pass

        class Note:
            def save(self):
                pass

            def publish(self):
                pass

        class Other:
            def save(self):
                pass
        # --- path: services.py ---
        from models import Post, Note, Other

        class Service:
            model = None
            label = make_label()

            def create(self, **kw):
                held = self.label
                held.save()
                obj = self.model(**kw)
                obj.save()
                obj.publish(1)

            def named(self):
                kind = self.model
                kind().save()
                kind.publish(kind(), 1)

            def mixed(self, flag):
                made = self.model()
                made = Other()
                made.save()

        class Posts(Service):
            model = Post
            label = Other()

        class Notes(Service):
            model = Note

        def direct():
            s = Service()
            held = s.model()
            held.save()
        """,
        [
            "services.Service.create(1) -> models.Post [inferred]",
            "services.Service.create(1) -> models.Note [inferred]",
            # obj.save(): each subclass's class; obj.publish(1) only where `publish` takes one argument
            "services.Service.create(1) -> models.Post.save(0) [inferred]",
            "services.Service.create(1) -> models.Note.save(0) [inferred]",
            "services.Service.create(1) -> models.Post.publish(1) [inferred]",
            # `kind = self.model`: the classes themselves; `kind.publish(kind(), 1)` on a class, with
            # an explicit self (Note.publish takes none besides self: no)
            "services.Service.named(0) -> models.Post.save(0) [inferred]",
            "services.Service.named(0) -> models.Note.save(0) [inferred]",
            "services.Service.named(0) -> models.Post.publish(1) [inferred]",
            # made = Other() after made = self.model(): statement order, Other's own
            "services.Service.mixed(1) -> models.Post [inferred]",
            "services.Service.mixed(1) -> models.Note [inferred]",
            "services.Service.mixed(1) -> models.Other [exact]",
            "services.Service.mixed(1) -> models.Other.save(0) [inferred]",
            "services.direct(0) -> services.Service [exact]",
            "services.Posts -> models.Other [exact]",
            # never: Note.publish(0) (arity), Other.save from the base's `label`, which the class body
            # gives a value (unknown, but no placeholder), a Service built directly (`held`)
        ],
    )


def test_no_subclass_provides_it_leaves_the_call_unresolved_and_java_binds_nothing_below():
    result = check(
        """
        # --- path: svc.py ---
        class Service:
            def run(self):
                self.missing()

        class Child(Service):
            def other(self):
                pass
        # --- path: Base.java ---
        public class Base {
            void run() { hook(); }
        }
        # --- path: Sub.java ---
        public class Sub extends Base {
            void hook() { }
        }
        """,
        [],
    )
    assert sorted(u.name for f in result.files for u in f.unresolved) == ["hook", "missing"]


def test_javascript_and_typescript_base_classes_reach_their_subclasses_hooks():
    result = check(
        """
        # --- path: client.js ---
        class Client {
          init() {
            this.driver = this._driver();
            return this.stream(1);
          }
          stream(q) {
            return this._stream(q, 2);
          }
        }
        class PgClient extends Client {
          _driver() { return 1; }
          _stream(q, opts) { return q; }
        }
        class MyClient extends Client {
          _driver() { return 2; }
        }
        module.exports = { Client, PgClient, MyClient };
        # --- path: base.ts ---
        export class Repo {
          save(): void {
            this.flush();
          }
        }
        export class SqlRepo extends Repo {
          flush(): void {}
        }
        """,
        [
            "client.Client.init(0) -> client.Client.stream(1) [exact]",
            "client.Client.init(0) -> client.PgClient._driver(0) [inferred]",
            "client.Client.init(0) -> client.MyClient._driver(0) [inferred]",
            "client.Client.stream(1) -> client.PgClient._stream(2) [inferred]",
            # TypeScript rejects `this.flush()` on a Repo that declares none; the same shape binds the
            # same way (one module system for both languages), and a subclass's own override is reached
            "base.Repo.save(0) -> base.SqlRepo.flush(0) [inferred]",
        ],
    )
    assert [u.name for f in result.files for u in f.unresolved] == []


def test_what_no_subclass_provides_but_a_library_base_may_is_the_librarys_not_unresolved():
    result = check(
        """
        # --- path: tests.py ---
        import unittest

        class CheckMixin:
            def check_total(self, x):
                self.assertEqual(x, 3)
                self.helper()

        class OrderTests(CheckMixin, unittest.TestCase):
            def helper(self):
                pass

        class Loose:
            def run(self):
                self.assertEqual(1, 1)

        class LooseChild(Loose):
            pass
        """,
        ["tests.CheckMixin.check_total(1) -> tests.OrderTests.helper(0) [inferred]"],
    )
    # `assertEqual` may be TestCase's through OrderTests: external; Loose's subclasses are all the
    # repository's, so its `self.assertEqual` stays unresolved
    assert [(u.caller.rsplit(".", 2)[-2], u.name) for f in result.files for u in f.unresolved] == [("Loose", "assertEqual")]


MIXIN = "class Mixin:\n    def go(self):\n        return self.get_object()\n"
PROVIDER = "class Provider:\n    def get_object(self):\n        return 1\n"
VIEW = "from app.mixin import Mixin\nfrom app.provider import Provider\n\n\nclass View(Mixin, Provider):\n    pass\n"


def test_a_subclass_coming_and_going_in_another_file_rebinds_the_mixins_call(tmp_path: Path) -> None:
    # neither the mixin's file nor the provider's changes: only a third file names them as bases
    ws = Workspace(tmp_path, {"app/__init__.py": "", "app/mixin.py": MIXIN, "app/provider.py": PROVIDER})
    try:
        assert calls(ws.db) == []
        assert unresolved(ws.db) == ["app/mixin.py:3 get_object"]
        ws.edit({"app/view.py": VIEW})
        assert calls(ws.db) == ["app/mixin.Mixin.go(0) -> app/provider.Provider.get_object(0) [inferred]"]
        ws.edit({"app/view.py": VIEW.replace("(Mixin, Provider)", "(Mixin)")})
        assert calls(ws.db) == []
        ws.edit({"app/view.py": VIEW})
        ws.edit({"app/view.py": None})
        assert calls(ws.db) == []
        assert unresolved(ws.db) == ["app/mixin.py:3 get_object"]
    finally:
        ws.close()
