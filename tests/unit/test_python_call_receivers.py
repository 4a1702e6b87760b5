"""Receiver texts and argument reads of Python call sites (the extractor's ``receiver_text`` and
``arguments``): a plain attribute chain is its own text; anything else is walked link by link."""

from __future__ import annotations

from indexer.languages.python import EXTRACTOR
from indexer.model import LITERAL_RECEIVER, LONG_RECEIVER, NamedArgument

SRC = b'''\
def f(a, items):
    a.b.c.save(1)
    a . b.run()
    a.b  .  c.go()
    (a.b).kick()
    a.b().c.push(x=1)
    super().init()
    True.real.conjugate()
    None.x.y()
    Truthy.x.z()
    "-".join(items)
    a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q()
    a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s()
    a.\\
        b.step()
'''


def calls():
    return [(c.receiver, c.name, c.arity, c.line) for c in EXTRACTOR.extract("m.py", SRC).calls]


def test_receivers_plain_and_walked():
    assert calls() == [
        ("a.b.c", "save", 1, 2),
        ("a.b", "run", 0, 3),  # spaces dropped by the walk
        ("a.b.c", "go", 0, 4),
        ("a.b", "kick", 0, 5),
        ("a", "b", 0, 6),
        ("a.b().c", "push", 1, 6),
        (None, "super", 0, 7),
        ("super", "init", 0, 7),
        (LITERAL_RECEIVER + ".real", "conjugate", 0, 8),  # `True` is a literal, not a name
        ("None.x", "y", 0, 9),
        ("Truthy.x", "z", 0, 10),  # a name that starts like one is a name
        (LITERAL_RECEIVER, "join", 1, 11),
        ("a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p", "q", 0, 12),
        (LONG_RECEIVER, "s", 0, 13),  # 17 attribute links (MAX_RECEIVER_LINKS is 16): too long to follow
        ("a.b", "step", 0, 15),  # a line continuation is no part of the name
    ]


ARGS = b'''\
def g(h, k):
    run()
    run(h, k.on_done, cb=self.x, key=make(1), *rest)
    run(self, cls, 1, "s", f(h), h.m()(2))
    run(  # comment
        h,  # another
        other=k,
    )
    run(x for x in h)
    run(**kw)
'''


def test_arity_and_handed_from_one_read():
    out = [(c.arity, c.handed) for c in EXTRACTOR.extract("m.py", ARGS).calls if c.name == "run"]
    assert out == [
        (0, ()),
        (-1, (NamedArgument("0", "h", 3, 8), NamedArgument("1", "k.on_done", 3, 11),
              NamedArgument("cb", "self.x", 3, 25), NamedArgument("key", "make()", 3, 37))),
        (6, (NamedArgument("4", "f()", 4, 27),)),  # self / cls, literals and a call of a call: not handed
        (2, (NamedArgument("0", "h", 6, 8), NamedArgument("other", "k", 7, 14))),  # comments are no argument
        (1, ()),  # a generator argument: one, nothing handed
        (-1, ()),
    ]
