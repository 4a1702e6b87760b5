"""Python: what iterating a generator's call or an iterable instance yields (PyCG's
``generators`` category): ``for f in handlers(): f()`` calls what ``handlers`` yields; ``for f in
Pipeline(): f()`` what the class's ``__next__`` returns. Exact edges, and the ones that must not bind."""

from tests.resolution_harness import check


def test_generator_yielding_one_function_binds_the_loop_variables_call():
    check(
        """
        # --- path: hooks.py ---
        def on_start():
            pass

        def on_stop():
            pass

        def handlers(n):
            i = 0
            while i < n:
                yield on_start
                i += 1

        def two_kinds():
            yield on_start
            yield on_stop

        def delegating():
            yield from handlers(2)
        # --- path: main.py ---
        from hooks import handlers, two_kinds, delegating

        def run():
            for h in handlers(3):
                h()

        def run_two():
            for h in two_kinds():
                h()

        def run_delegating():
            for h in delegating():
                h()
        """,
        [
            "hooks.delegating(0) -> hooks.handlers(1) [exact]",
            "main.run(0) -> hooks.handlers(1) [exact]",
            # what the generator yields, called through the loop variable
            "main.run(0) -> hooks.on_start(0) [inferred]",
            # two names yielded: one value cannot stand for both, so neither (and never by name)
            "main.run_two(0) -> hooks.two_kinds(0) [exact]",
            # `yield from` hands out another generator's elements: not followed
            "main.run_delegating(0) -> hooks.delegating(0) [exact]",
        ],
    )


def test_generator_yielding_a_class_types_the_loop_variable_and_a_method_generator():
    check(
        """
        # --- path: m.py ---
        class Job:
            def run(self):
                pass

        class Other:
            def run(self):
                pass

        class Queue:
            def jobs(self):
                yield Job

            def drain(self):
                for kind in self.jobs():
                    kind().run()
        """,
        [
            # the class yielded is called; its instance's method bound, Other.run never
            "m.Queue.drain(0) -> m.Job [exact]",
            "m.Queue.drain(0) -> m.Queue.jobs(0) [exact]",
            "m.Queue.drain(0) -> m.Job.run(0) [exact]",
        ],
    )


def test_iterating_an_instance_follows_its_iter_and_next():
    check(
        """
        # --- path: m.py ---
        def step():
            pass

        def other():
            pass

        class Steps:
            def __iter__(self):
                return self

            def __next__(self):
                return step

        class Gen:
            def __iter__(self):
                yield other

        class Plain:
            def items(self):
                return step

        for s in Steps():
            s()

        for g in Gen():
            g()

        for p in Plain():
            p()
        """,
        [
            "m.py -> m.Gen [exact]",
            "m.py -> m.Gen.__iter__(0) [exact]",
            "m.py -> m.Plain [exact]",
            "m.py -> m.Steps [exact]",
            "m.py -> m.Steps.__iter__(0) [exact]",
            "m.py -> m.Steps.__next__(0) [exact]",
            # the element: what __next__ returns; a generator __iter__'s yield
            "m.py -> m.step(0) [inferred]",
            "m.py -> m.other(0) [inferred]",
            # Plain defines no __iter__: p() binds nothing (and never `items`' return)
        ],
    )


def test_yielded_refs_are_extracted_for_names_only():
    from indexer.languages import extractor_for_path

    src = b"""
import lib

def f():
    pass

def gen(x):
    yield f
    yield x
    yield f()
    yield lib.handler
    yield from other()
    yield f

def plain():
    return f
"""
    defs = {d.name: d for d in extractor_for_path("m.py").extract("m.py", src).definitions}
    # a parameter, a call and `yield from` are no names handed out; repeats kept once
    assert defs["gen"].yielded_refs == ["f", "lib.handler"]
    assert defs["plain"].yielded_refs == []
    assert defs["plain"].returned_refs == ["f"]


def test_iterating_what_an_annotated_function_or_property_returns_types_the_loop_variable():
    # healthchecks (newcomer round 45): `for ch in flip.select_channels(): ch.notify(flip)` with
    # `def select_channels(self) -> list[Channel]`, and `for channel in self.channel.group_channels`
    # with a `@property` returning `QuerySet[Channel]`
    check(
        """
        # --- path: models.py ---
        from __future__ import annotations
        from typing import Iterator
        from django.db.models import QuerySet

        class Channel:
            def notify(self, flip):
                pass

            @property
            def group_channels(self) -> QuerySet[Channel]:
                return Channel.objects.filter(kind="group")

            @property
            def name(self) -> str:
                return "c"

        class Other:
            def notify(self, flip):
                pass

        class Flip:
            def select_channels(self) -> list[Channel]:
                return []

            def pairs(self) -> dict[str, Channel]:
                return {}

            def mixed(self) -> tuple[Channel, Other]:
                return Channel(), Other()

            def some(self) -> Iterator[Channel]:
                return iter([])

            def unannotated(self):
                return []
        # --- path: alerts.py ---
        from models import Channel, Flip

        def send(flip: Flip):
            for ch in flip.select_channels():
                ch.notify(flip)

        def send_later(flip: Flip):
            channels = flip.select_channels()
            for ch in channels:
                ch.notify(flip)

        def send_some(flip: Flip):
            for ch in flip.some():
                ch.notify(flip)

        def group(channel: Channel, flip: Flip):
            for c in channel.group_channels:
                c.notify(flip)

        class Transport:
            def __init__(self, channel: Channel):
                self.channel = channel

            def notify(self, flip):
                channels = self.channel.group_channels
                for c in channels:
                    c.notify(flip)

        def not_these(flip: Flip, channel: Channel):
            for key in flip.pairs():
                key.notify(flip)
            for x in flip.mixed():
                x.notify(flip)
            for y in flip.unannotated():
                y.notify(flip)
            for ch in channel.name:
                ch.notify(flip)
        """,
        [
            "alerts.send(1) -> models.Flip.select_channels(0) [exact]",
            "alerts.send(1) -> models.Channel.notify(1) [inferred]",
            "alerts.send_later(1) -> models.Flip.select_channels(0) [exact]",
            "alerts.send_later(1) -> models.Channel.notify(1) [inferred]",
            "alerts.send_some(1) -> models.Flip.some(0) [exact]",
            "alerts.send_some(1) -> models.Channel.notify(1) [inferred]",
            "alerts.group(2) -> models.Channel.group_channels(0) [exact]",
            "alerts.group(2) -> models.Channel.notify(1) [inferred]",
            "alerts.Transport.notify(1) -> models.Channel.group_channels(0) [exact]",
            "alerts.Transport.notify(1) -> models.Channel.notify(1) [inferred]",
            # a dict's keys are strings, a tuple of two types has no one element type, an unannotated
            # list nothing, a str property's characters no class: none binds notify (nor Other's, by name)
            "alerts.not_these(2) -> models.Flip.pairs(0) [exact]",
            "alerts.not_these(2) -> models.Flip.mixed(0) [exact]",
            "alerts.not_these(2) -> models.Flip.unannotated(0) [exact]",
            "alerts.not_these(2) -> models.Channel.name(0) [exact]",
            "models.Flip.mixed(0) -> models.Channel [exact]",
            "models.Flip.mixed(0) -> models.Other [exact]",
        ],
    )
