"""Python call resolution for the code people write (issue 16, items 1-7): one named test per
pattern, each with the exact edges expected and the ones that must not bind."""

from tests.resolution_harness import check


def test_class_attribute_set_by_cls_in_a_base_classmethod_types_self_attr_in_subclasses():
    # Django's SimpleTestCase: `client_class = Client`, `cls.client = cls.client_class()` in the
    # classmethod `_pre_setup`; test cases in other files call `self.client.force_login(...)`.
    check(
        """
        # --- path: fw/__init__.py ---
        # --- path: fw/client.py ---
        class Client:
            def force_login(self, user):
                pass
        class Other:
            def force_login(self, user):
                pass
        # --- path: fw/cases.py ---
        from fw.client import Client

        class SimpleTestCase:
            client_class = Client

            @classmethod
            def _pre_setup(cls):
                cls.client = cls.client_class()

            def not_a_classmethod(cls):
                cls.other = Client()
        # --- path: tests/test_views.py ---
        from fw.cases import SimpleTestCase

        class ViewTests(SimpleTestCase):
            def test_login(self):
                self.client.force_login(None)
                self.other.force_login(None)
        """,
        [
            "fw/cases.SimpleTestCase._pre_setup(0) -> fw/client.Client [exact]",
            "fw/cases.SimpleTestCase.not_a_classmethod(0) -> fw/client.Client [exact]",
            # through the class attribute set in the base's classmethod; Other.force_login never
            "tests/test_views.ViewTests.test_login(0) -> fw/client.Client.force_login(1) [inferred]",
        ],
    )


def test_loop_and_comprehension_variables_typed_by_the_iterables_element_annotation():
    check(
        """
        # --- path: m.py ---
        from typing import Iterable, Optional

        class Item:
            def save(self):
                pass
        class Key:
            def norm(self):
                pass
        class Other:
            def save(self):
                pass
            def norm(self):
                pass

        class Basket:
            items: list[Item]

            def save_all(self):
                for it in self.items:
                    it.save()

        def by_param(items: Iterable[Item], maybe: Optional[list[Item]]):
            for a in items:
                a.save()
            [b.save() for b in maybe]

        def by_mapping(index: dict[Key, Item]):
            for k, v in index.items():
                k.norm()
                v.save()
            for w in index.values():
                w.save()
            for k2 in index:
                k2.norm()

        def by_local():
            found: list[Item] = []
            for c in found:
                c.save()

        def untyped(items, pairs: dict):
            for d in items:
                d.save()
            for e in pairs.values():
                e.norm()

        def over_a_display():
            for f in [Item(), Item()]:
                f.save()
            for g in [Item(), Other()]:   # two classes: no single type, nothing binds
                g.norm()
        """,
        [
            "m.Basket.save_all(0) -> m.Item.save(0) [exact]",
            "m.by_param(2) -> m.Item.save(0) [exact]",
            "m.by_mapping(1) -> m.Key.norm(0) [exact]",
            "m.by_mapping(1) -> m.Item.save(0) [exact]",
            "m.by_local(0) -> m.Item.save(0) [exact]",
            "m.over_a_display(0) -> m.Item [exact]",
            "m.over_a_display(0) -> m.Other [exact]",
            "m.over_a_display(0) -> m.Item.save(0) [inferred]",
            # untyped containers: two `save` and two `norm` methods, nothing binds
        ],
    )


def test_names_bound_by_tuple_nested_and_starred_unpacking():
    check(
        """
        # --- path: m.py ---
        class A:
            def ping(self):
                pass
        class B:
            def pong(self):
                pass
        class C:
            def pang(self):
                pass
            def pong(self):
                pass

        def f():
            a, (b, c) = A(), (B(), C())
            a.ping()
            b.pong()
            c.pang()
            b.ping()  # B has no ping: a known type never falls back to A.ping by name
            [x, y] = [B(), A()]
            x.pong()
            y.ping()
            y.pang()  # A has no pang

        def starred():
            first, *rest, last = C(), B(), B(), A()
            first.pang()
            last.ping()
            rest.pong()  # a list: no type, and two `pong` methods: no binding
        """,
        [
            "m.f(0) -> m.A [exact]",
            "m.f(0) -> m.B [exact]",
            "m.f(0) -> m.C [exact]",
            "m.f(0) -> m.A.ping(0) [inferred]",
            "m.f(0) -> m.B.pong(0) [inferred]",
            "m.f(0) -> m.C.pang(0) [inferred]",
            "m.starred(0) -> m.A [exact]",
            "m.starred(0) -> m.B [exact]",
            "m.starred(0) -> m.C [exact]",
            "m.starred(0) -> m.C.pang(0) [inferred]",
            "m.starred(0) -> m.A.ping(0) [inferred]",
        ],
    )


def test_with_iteration_operators_and_subscripts_reach_dunder_methods_of_a_known_type():
    check(
        """
        # --- path: m.py ---
        class Lock:
            def __enter__(self):
                return self
            def __exit__(self, *exc):
                pass
        class Bag:
            def __iter__(self):
                return self
            def __next__(self):
                raise StopIteration
            def __len__(self):
                return 0
            def __getitem__(self, k):
                pass
            def __contains__(self, x):
                return False
        class Money:
            def __add__(self, other):
                pass
            def __eq__(self, other):
                return True

        def use(lock: Lock, bag: Bag, m: Money, unknown):
            with lock:
                pass
            for x in bag:
                pass
            m + m
            m == 1
            1 in bag
            bag[0]
            len(bag)
            unknown + 1      # unknown type: never bound by name to Money.__add__
            with unknown:    # nor to Lock.__enter__
                pass
            for y in Bag:    # iterating the class runs its metaclass's __iter__
                pass
        """,
        [
            "m.use(4) -> m.Lock.__enter__(0) [exact]",
            "m.use(4) -> m.Lock.__exit__(1) [exact]",
            "m.use(4) -> m.Bag.__iter__(0) [exact]",
            "m.use(4) -> m.Bag.__next__(0) [exact]",
            "m.use(4) -> m.Money.__add__(1) [exact]",
            "m.use(4) -> m.Money.__eq__(1) [exact]",
            "m.use(4) -> m.Bag.__contains__(1) [exact]",
            "m.use(4) -> m.Bag.__getitem__(1) [exact]",
            "m.use(4) -> m.Bag.__len__(0) [exact]",
        ],
    )


def test_instantiation_reaches_new_and_post_init_and_calling_an_instance_reaches_call():
    check(
        """
        # --- path: m.py ---
        from dataclasses import dataclass

        class Singleton:
            def __new__(cls):
                return super().__new__(cls)
            def __init__(self):
                pass

        @dataclass
        class Point:
            x: int
            def __post_init__(self):
                pass

        class Handler:
            def __call__(self, request):
                pass

        class Plain:
            pass

        def make(h: Handler, p: Plain):
            Singleton()
            Point(1)
            h(None)
            p(None)     # Plain has no __call__
            Handler()(None)
        """,
        [
            "m.make(2) -> m.Singleton.__init__(0) [exact]",
            "m.make(2) -> m.Singleton.__new__(0) [exact]",
            "m.make(2) -> m.Point [exact]",
            "m.make(2) -> m.Point.__post_init__(0) [exact]",
            "m.make(2) -> m.Handler [exact]",
            "m.make(2) -> m.Handler.__call__(1) [exact]",
        ],
    )


def test_super_follows_the_c3_mro_in_a_diamond():
    check(
        """
        # --- path: m.py ---
        class A:
            def save(self):
                pass
        class B(A):
            def other(self):
                pass
        class C(A):
            def save(self):
                super().save()
        class D(B, C):
            def save(self):
                super().save()   # MRO D, B, C, A: C.save, not A.save through B
        class E(B):
            def save(self):
                super().save()   # no diamond: A.save through B
        """,
        [
            "m.C.save(0) -> m.A.save(0) [inferred]",
            "m.D.save(0) -> m.C.save(0) [inferred]",
            "m.E.save(0) -> m.A.save(0) [inferred]",
        ],
    )


def test_functions_held_in_containers_and_attributes_called_through_subscripts_and_attributes():
    check(
        """
        # --- path: m.py ---
        import functools

        def on_create(x):
            pass
        def on_delete(x):
            pass
        def unused(x):
            pass

        HANDLERS = {"create": on_create, "delete": on_delete}
        PIPELINE = [on_create]

        def dispatch(kind, x):
            HANDLERS[kind](x)
            PIPELINE[0](x)
            OTHER[0](x)            # unknown container: nothing

        class Worker:
            def __init__(self, strategy):
                self.routes = {"a": self.run_a, "b": self.run_b}
                self.strategy = on_delete
                self.bound = functools.partial(on_create, 1)

            def run_a(self):
                pass
            def run_b(self):
                pass

            def handle(self, key):
                self.routes[key]()
                self.strategy(1)
                self.bound()
        """,
        [
            "m.dispatch(2) -> m.on_create(1) [inferred]",
            "m.dispatch(2) -> m.on_delete(1) [inferred]",
            "m.Worker.handle(1) -> m.Worker.run_a(0) [inferred]",
            "m.Worker.handle(1) -> m.Worker.run_b(0) [inferred]",
            "m.Worker.handle(1) -> m.on_delete(1) [exact]",
            "m.Worker.handle(1) -> m.on_create(1) [exact]",
        ],
    )


def test_statement_order_decides_which_binding_a_rebound_name_has():
    check(
        """
        # --- path: m.py ---
        class A:
            def go(self):
                pass
        class B:
            def go(self):
                pass

        def first():
            pass
        def second():
            pass

        def f():
            x = A()
            x.go()
            x = B()
            x.go()
            g = first
            g()
            g = second
            g()

        def only_b():
            y = A()
            y = B()
            y.go()
        """,
        [
            "m.f(0) -> m.A [exact]",
            "m.f(0) -> m.B [exact]",
            "m.f(0) -> m.A.go(0) [inferred]",
            "m.f(0) -> m.B.go(0) [inferred]",
            "m.f(0) -> m.first(0) [exact]",
            "m.f(0) -> m.second(0) [exact]",
            "m.only_b(0) -> m.A [exact]",
            "m.only_b(0) -> m.B [exact]",
            "m.only_b(0) -> m.B.go(0) [inferred]",   # never A.go: y was re-bound before the call
        ],
    )


def test_a_binding_written_after_the_use_never_types_it_when_the_one_before_is_unknown():
    # Django's csrf_failure: `t = loader.get_template(n); t.render(...)` in `try`, `t =
    # Engine().from_string(s)` in `except`: the first `render` is not Template.render
    check(
        """
        # --- path: m.py ---
        class Template:
            def close(self):
                pass
            def only_here(self):
                pass

        class Other:
            def close(self):
                pass

        class Engine:
            def from_string(self, s) -> Template:
                return Template()

        def f(loader, name):
            try:
                t = loader.get_template(name)
                t.close()
                t.__class__.__name__.only_here()
            except KeyError:
                t = Engine().from_string(name)
            t.only_here()
        """,
        [
            "m.Engine.from_string(1) -> m.Template [exact]",
            "m.f(2) -> m.Engine [exact]",
            "m.f(2) -> m.Engine.from_string(1) [exact]",
            "m.f(2) -> m.Template.only_here(0) [inferred]",  # after both: the later one may hold
        ],
    )


def test_a_parameter_shadows_an_imported_module_of_the_same_name():
    check(
        """
        # --- path: pkg/__init__.py ---
        # --- path: pkg/utils.py ---
        def load(x):
            pass
        # --- path: pkg/main.py ---
        from pkg import utils

        def uses_module():
            utils.load(1)

        def shadowed(utils):
            utils.load(2)   # the parameter, not the module

        def typed(utils: "Loader"):
            utils.load(3)

        class Loader:
            def load(self, x):
                pass
        """,
        [
            "pkg/main.uses_module(0) -> pkg/utils.load(1) [exact]",
            "pkg/main.typed(1) -> pkg/main.Loader.load(1) [exact]",
            # an untyped receiver: the only method `load` by name, never the module's function
            "pkg/main.shadowed(1) -> pkg/main.Loader.load(1) [name]",
        ],
    )


def test_celery_delay_and_apply_async_reach_the_task_function():
    check(
        """
        # --- path: shop/__init__.py ---
        # --- path: shop/tasks.py ---
        from celery import shared_task

        @shared_task
        def send_mail(order_id):
            pass

        def plain(order_id):
            pass
        # --- path: shop/views.py ---
        from shop.tasks import send_mail, plain

        def checkout(order_id):
            send_mail.delay(order_id)
            send_mail.apply_async(args=[order_id])
            plain.delay(order_id)      # no decorator: no task, nothing binds
        """,
        [
            "shop/views.checkout(1) -> shop/tasks.send_mail(1) [inferred]",
        ],
    )


def test_decorator_edges_are_credited_to_the_decorated_function_and_calls_reach_its_body():
    check(
        """
        # --- path: app/__init__.py ---
        # --- path: app/deco.py ---
        import functools

        def login_required(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                return fn(*args, **kwargs)
            return wrapper

        def cache(timeout):
            def decorate(fn):
                return fn
            return decorate

        def timeout_default():
            return 5
        # --- path: app/views.py ---
        from app.deco import cache, login_required, timeout_default
        from abc import abstractmethod

        @login_required
        def profile(request):
            pass

        class Views:
            @cache(timeout_default())
            def index(self, request):
                pass

            @abstractmethod
            def hook(self):
                pass

        def caller():
            profile(None)                # reaches the decorated function's own body
            Views().index(None)
        """,
        [
            # `fn(...)` in the wrapper calls the parameter of login_required: the decorated
            # function handed to it; abstractmethod: no site
            "app/views.profile(1) -> app/deco.login_required(1) [exact]",
            "app/deco.login_required.wrapper(2) -> app/views.profile(1) [inferred]",
            "app/views.Views.index(1) -> app/deco.cache(1) [exact]",
            "app/views.Views.index(1) -> app/deco.cache.decorate(1) [exact]",  # what cache(...) returns
            "app/views.Views.index(1) -> app/deco.timeout_default(0) [exact]",
            "app/views.caller(0) -> app/views.profile(1) [exact]",
            # and the wrapper login_required returns runs first
            "app/views.caller(0) -> app/deco.login_required.wrapper(2) [inferred]",
            "app/views.caller(0) -> app/views.Views [exact]",
            "app/views.caller(0) -> app/views.Views.index(1) [exact]",
        ],
    )


def test_submodule_import_src_layout_and_the_importers_own_copy_of_a_module():
    check(
        """
        # --- path: pkg/__init__.py ---
        # --- path: pkg/tools.py ---
        def f():
            pass
        # --- path: pkg/use.py ---
        from pkg import tools

        def run():
            tools.f()
        # --- path: billing/src/shop/orders/api.py ---
        class Order:
            def total(self):
                pass
        # --- path: billing/src/shop/views.py ---
        from shop.orders.api import Order

        def show():
            Order().total()
        # --- path: shipping/src/shop/orders/api.py ---
        class Order:
            def total(self):
                pass
        # --- path: shipping/src/shop/views.py ---
        from shop.orders.api import Order

        def show():
            Order().total()
        """,
        [
            "pkg/use.run(0) -> pkg/tools.f(0) [exact]",
            # namespace folders under src/ keep their package path; each service binds its own copy
            "billing/src/shop/views.show(0) -> billing/src/shop/orders/api.Order [exact]",
            "billing/src/shop/views.show(0) -> billing/src/shop/orders/api.Order.total(0) [exact]",
            "shipping/src/shop/views.show(0) -> shipping/src/shop/orders/api.Order [exact]",
            "shipping/src/shop/views.show(0) -> shipping/src/shop/orders/api.Order.total(0) [exact]",
        ],
    )


def test_functions_returned_by_calls_and_bound_methods_used_as_values_are_called():
    check(
        """
        # --- path: m.py ---
        def make_handler():
            def handle(event):
                pass
            return handle

        def pick(flag):
            return on_a if flag else on_b

        def on_a():
            pass
        def on_b():
            pass

        class Repo:
            def save(self, x):
                pass

        def run(repo: Repo):
            h = make_handler()
            h(1)
            p = pick(True)       # two functions may come back: no binding
            p()
            store = repo.save    # a bound method as a value
            store(2)
        """,
        [
            "m.run(1) -> m.make_handler(0) [exact]",
            "m.run(1) -> m.make_handler.handle(1) [inferred]",
            "m.run(1) -> m.pick(1) [exact]",
            "m.run(1) -> m.Repo.save(1) [exact]",
        ],
    )


def test_a_function_re_bound_to_a_partial_of_itself_still_calls_the_imported_function():
    # django/contrib/gis/gdal/prototypes/raster.py: `const_string_output = partial(const_string_output,
    # cpl=True)` after importing it; the module's prototypes are built by calling it.
    check(
        """
        # --- path: gen.py ---
        def const_string_output(func, cpl=False):
            return func
        # --- path: raster.py ---
        from functools import partial
        from gen import const_string_output

        const_string_output = partial(const_string_output, cpl=True)
        get_description = const_string_output(None)

        def describe():
            const_string_output(None)
        """,
        [
            "raster.py -> gen.const_string_output(2) [exact]",
            "raster.describe(0) -> gen.const_string_output(2) [exact]",
        ],
    )


def test_class_attributes_read_through_cls_and_self_class_level_callables_and_instances():
    # `cls.x` set in a classmethod is read back through `cls` / the class name; a class-level
    # attribute holding an instance, a class or a function is read through `self` and `cls`. An
    # instance attribute (`self.x = ...` in `__init__`) is no attribute of the class.
    check(
        """
        # --- path: m.py ---
        class Engine:
            def start(self):
                pass
        class Other:
            def start(self):
                pass

        def default_hook(x):
            pass

        class Car:
            engine = Engine()
            hook = default_hook
            factory = Engine

            def __init__(self):
                self.spare = Other()

            @classmethod
            def setup(cls):
                cls.registry = Engine()

            @classmethod
            def run_cls(cls):
                cls.engine.start()
                cls.registry.start()
                cls.hook(1)
                cls.factory().start()
                cls.spare.start()        # set on instances only: nothing

            def run_self(self):
                self.engine.start()
                self.hook()
                self.registry.start()
                self.factory().start()

        def outside():
            Car.registry.start()
            Car.spare.start()            # nothing
        """,
        [
            "m.Car -> m.Engine [exact]",
            "m.Car.__init__(0) -> m.Other [exact]",
            "m.Car.setup(0) -> m.Engine [exact]",
            "m.Car.run_cls(0) -> m.Engine [exact]",
            "m.Car.run_cls(0) -> m.Engine.start(0) [exact]",
            "m.Car.run_cls(0) -> m.Engine.start(0) [inferred]",
            "m.Car.run_cls(0) -> m.default_hook(1) [exact]",
            "m.Car.run_self(0) -> m.Engine [exact]",
            "m.Car.run_self(0) -> m.Engine.start(0) [exact]",
            "m.Car.run_self(0) -> m.Engine.start(0) [inferred]",
            "m.Car.run_self(0) -> m.default_hook(1) [exact]",
            "m.outside(0) -> m.Engine.start(0) [inferred]",
        ],
    )


def test_raising_a_class_builds_it():
    # `raise E` runs E's __init__ (PyCG's exceptions/raise, raise_attr); the `from` cause is no call
    result = check(
        """
        # --- path: app/__init__.py ---
        # --- path: app/errors.py ---
        class AppError(Exception):
            def __init__(self, msg="x"):
                super().__init__(msg)

        class Errors:
            class Missing(Exception):
                def __init__(self):
                    pass
        # --- path: app/use.py ---
        from app.errors import AppError, Errors

        def f(x):
            if x:
                raise AppError
            try:
                pass
            except KeyError as exc:
                raise AppError from exc
            raise Errors.Missing

        def g(err):
            raise ValueError
            raise err
        """,
        [
            "app/use.f(1) -> app/errors.AppError.__init__(1) [exact]",
            "app/use.f(1) -> app/errors.Errors.Missing.__init__(0) [exact]",
        ],
    )
    assert result.call_outcomes == {"exact": 3, "external": 3, "unresolved": 1}  # `raise err`: a parameter


def test_calling_what_a_call_returns():
    # `func()()` calls the function func returns (PyCG's direct_calls, returns/return_complex); the
    # inner call is a call of its own; a call of what a class builds is its __call__
    check(
        """
        # --- path: app/__init__.py ---
        # --- path: app/make.py ---
        def return_func():
            def nested():
                pass
            return nested

        def func():
            return return_func

        class Handler:
            def __call__(self, x):
                return x

        def other():
            return 1
        # --- path: app/use.py ---
        from app.make import func, return_func, Handler, other

        def run():
            func()()
            return_func()()
            Handler()(1)
            other()()
        """,
        [
            "app/use.run(0) -> app/make.func(0) [exact]",
            "app/use.run(0) -> app/make.return_func(0) [exact]",
            "app/use.run(0) -> app/make.return_func.nested(0) [exact]",
            "app/use.run(0) -> app/make.Handler [exact]",
            "app/use.run(0) -> app/make.Handler.__call__(1) [exact]",
            "app/use.run(0) -> app/make.other(0) [exact]",
        ],
    )


def test_a_returned_bound_method_is_what_calling_the_result_calls():
    # `return self.on_done`: the method, called later through the name or the call's result;
    # `return self.count` (no function) and `return self` bind nothing
    check(
        """
        # --- path: m.py ---
        class Job:
            count = 0
            def on_done(self):
                pass
            def callback(self):
                return self.on_done
            def counter(self):
                return self.count
            def me(self):
                return self

        def go(job: Job):
            cb = job.callback()
            cb()
            job.callback()()
            n = job.counter()
            n()
            job.me()()
        """,
        [
            "m.go(1) -> m.Job.callback(0) [exact]",
            "m.go(1) -> m.Job.counter(0) [exact]",
            "m.go(1) -> m.Job.me(0) [exact]",
            "m.go(1) -> m.Job.on_done(0) [exact]",
            "m.go(1) -> m.Job.on_done(0) [inferred]",
        ],
    )


def test_containers_hold_what_is_stored_into_them_and_calls_take_the_literal_keys_they_name():
    # PyCG's dicts / lists and JCG's Containers: stores after the display, container methods, keys,
    # nested displays, values taken out by get / pop and by a local.
    check(
        """
        # --- path: m.py ---
        def a(): pass
        def b(): pass
        def c(): pass
        def x(): pass
        def y(): pass
        def e(): pass
        def f(): pass
        def g(): pass
        def p(): pass
        def fallback(): pass
        def never(): pass

        REGISTRY = {}
        REGISTRY["a"] = a
        HOOKS = []
        HOOKS.append(b)
        HOOKS.extend([c])
        TABLE = {"x": x, "y": y}
        NESTED = {"k": {"j": e}, "z": [f]}
        QUEUE = [g]
        LIST = [p, g]

        def register(name, fn):
            REGISTRY[name] = fn       # a parameter: nothing known is held

        def run(kind):
            REGISTRY["a"]()           # a
            HOOKS[1]()                # b and c: appended, positions not known
            TABLE.get("x")()          # x only
            handler = TABLE[kind]
            handler()                 # x and y
            NESTED["k"]["j"]()        # e only: f is under "z"
            QUEUE.pop()()             # g
            LIST[0]()                 # p only
            OTHER["a"]()              # no container of that name: nothing
            TABLE.get(kind, fallback)()   # x, y and the fallback
            session.get(kind, never)()    # no container of that name: not even its fallback
        """,
        [
            "m.run(1) -> m.a(0) [inferred]",
            "m.run(1) -> m.b(0) [inferred]",
            "m.run(1) -> m.c(0) [inferred]",
            "m.run(1) -> m.x(0) [inferred]",
            "m.run(1) -> m.y(0) [inferred]",
            "m.run(1) -> m.e(0) [inferred]",
            "m.run(1) -> m.fallback(0) [inferred]",
            "m.run(1) -> m.g(0) [inferred]",
            "m.run(1) -> m.p(0) [inferred]",
        ],
    )


def test_a_lambda_bound_to_a_name_is_a_function_of_that_name_and_its_calls_are_its_own():
    # PyCG's lambdas: `x = lambda ...` is a function (a method in a class body); a lambda in an
    # expression has no node and its calls stay the enclosing function's.
    check(
        """
        # --- path: m.py ---
        def func1(): pass
        def func2(): pass
        def func3(): pass

        apply = lambda fn: fn()
        pick = lambda: func2
        a = b = lambda: func3()       # not a statement of its own: no definition

        class C:
            label = lambda self: self.fmt()
            def fmt(self): pass

        def run():
            apply(func1)
            pick()()
            C().label()
            sorted([], key=lambda v: func3())
        """,
        [
            "m.C.label(0) -> m.C.fmt(0) [exact]",
            "m.apply(1) -> m.func1(0) [inferred]",  # the parameter it calls, handed func1
            "m.py -> m.func3(0) [exact]",  # `a = b = lambda: func3()`: the module's code
            "m.run(0) -> m.C [exact]",
            "m.run(0) -> m.C.label(0) [exact]",
            "m.run(0) -> m.apply(1) [exact]",
            "m.run(0) -> m.func2(0) [exact]",  # what pick returns, called
            "m.run(0) -> m.func3(0) [exact]",  # in the sort key's lambda: run's own call
            "m.run(0) -> m.pick(0) [exact]",
        ],
    )


def test_calls_through_a_generated_registry_are_bounded_per_call_and_per_file():
    # Handlers stored under many keys, called through an unknown key: each call reaches the first
    # MAX_ELEMENT_TARGETS stored (f64..f69 never), and a file makes at most MAX_ELEMENT_SITES.
    from indexer.languages.python.containers import MAX_ELEMENT_SITES, MAX_ELEMENT_TARGETS
    from indexer.languages.python.extractor import PythonExtractor
    from tests.resolution_harness import edges, resolve_fixture

    def registry(handlers: int, calls: int) -> str:
        return "\n".join([f"def f{i}(): pass" for i in range(handlers)] + ["D = {}"]
                         + [f"D[{i}] = f{i}" for i in range(handlers)] + ["def run(k):"] + ["    D[k]()"] * calls) + "\n"

    found = edges(resolve_fixture("# --- path: m.py ---\n" + registry(70, 2)))
    assert found == sorted(f"m.run(1) -> m.f{i}(0) [inferred]" for i in range(MAX_ELEMENT_TARGETS))
    ex = PythonExtractor().extract("m.py", registry(100, 200).encode())
    sites = [c for c in ex.calls if c.via == "element"]
    assert len(sites) == 156 * 64 == (MAX_ELEMENT_SITES // MAX_ELEMENT_TARGETS) * MAX_ELEMENT_TARGETS
    assert sorted({c.line for c in sites}) == list(range(203, 203 + 156))  # the first 156 calls, in order


def test_a_module_imported_by_a_literal_name_at_run_time_binds_like_an_import():
    check(
        """
        # --- path: pkg/__init__.py ---
        # --- path: pkg/plugins.py ---
        def load(x): pass
        # --- path: top.py ---
        def load(x): pass
        # --- path: main.py ---
        import importlib
        from importlib import import_module

        def run(name):
            a = importlib.import_module("pkg.plugins")
            a.load(1)
            b = __import__("top")
            b.load(2)
            c = import_module(name)      # built at run time: nothing
            c.load(3)
            d = importlib.import_module(".plugins", "pkg")   # relative: nothing
            d.load(4)
        """,
        [
            "main.run(1) -> pkg/plugins.load(1) [exact]",
            "main.run(1) -> top.load(1) [exact]",
        ],
    )
