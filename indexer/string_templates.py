"""Strings as the code builds them: the :class:`Template` of a URL, topic, SQL text or constant, in
literal, constant-reference and unknown pieces, and the :class:`StringConstant` records a reference
piece is resolved through across files (part of the extraction IR; :mod:`indexer.model` re-exports
both).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from indexer.model_pickling import pickle_records

__all__ = ["CALL_REF", "MAX_JOINED", "StringConstant", "Template", "call_ref", "is_call_ref", "read_call_ref"]

MAX_JOINED = 65_536
"""Characters a concatenation (``a + b``) keeps: the text is cut there and ends in ``\u2026`` (the mark
the linker's cut ends in), its later pieces dropped. An extractor that inlines a file's constants builds
one by joining the templates of the constants it names, so 60 lines of ``const string S1 = S0 + S0;``
(C#) were 2**60 characters: 3 GB and a ``MemoryError`` by the 30th. A SQL text or URL written in the
source is never this long from one file's constants."""


@dataclass(frozen=True, slots=True)
class Template:
    """A string as the code builds it, in pieces. ``parts`` is a tuple of ``(kind, text)``:

    * ``("lit", "/owners/")``: literal text;
    * ``("ref", "Paths.OWNERS")``: a constant named by an expression, resolved across files through
      :class:`StringConstant` (Java ``static final`` fields, Python / JS module-level constants);
    * ``("hole", "ownerId")``: a value not known statically (a variable, a call); in a URL path it
      becomes a path variable ``{}``; the text is the expression, for display only.

    Spring ``${a.b:default}`` placeholders stay inside ``lit`` text; the linker resolves them from
    ``application.yml`` / ``.properties``. ``Template.of("/x")`` builds a literal-only template.
    """

    parts: tuple[tuple[str, str], ...] = ()

    @staticmethod
    def of(*literals: str) -> Template:
        """A template of literal pieces only."""
        return Template(tuple(("lit", t) for t in literals if t))

    @staticmethod
    def merged(parts: Iterable[tuple[str, str]]) -> Template:
        """A template of ``parts`` with adjacent literal pieces joined and empty literals dropped
        (the one normal form every detector builds)."""
        out: list[tuple[str, str]] = []
        for kind, text in parts:
            if kind == "lit":
                if not text:
                    continue
                if out and out[-1][0] == "lit":
                    out[-1] = ("lit", out[-1][1] + text)
                    continue
            out.append((kind, text))
        return Template(tuple(out))

    def __add__(self, other: Template) -> Template:
        """The concatenation, cut at :data:`MAX_JOINED` characters of its pieces' text (a hole's or a
        reference's text counts: ``S1 = S0 + S0`` doubles those too). Where it is cut, a literal keeps
        its first characters, a reference or hole stays unknown (a hole of its first characters: an
        expression of 100,000 terms, Go's ``"http://svc" + "p" + ...``, is not a known empty text);
        then ``\u2026``. A template cut already (longer than :data:`MAX_JOINED`) stays as it is: what is
        added after the cut is not appended behind its mark (``…pppp`` was read as a URL path)."""
        if sum(len(t) for _, t in self.parts) > MAX_JOINED:
            return self
        joined = Template.merged(self.parts + other.parts)
        if sum(len(t) for _, t in joined.parts) <= MAX_JOINED:
            return joined
        kept: list[tuple[str, str]] = []
        room = MAX_JOINED
        for kind, text in joined.parts:
            if len(text) > room:
                kept.append(("lit" if kind == "lit" else "hole", text[:room]))
                break
            kept.append((kind, text))
            room -= len(text)
        kept.append(("lit", "\u2026"))
        return Template.merged(kept)

    def literal(self) -> str | None:
        """The whole text when every part is literal, else ``None``."""
        if all(k == "lit" for k, _ in self.parts):
            return "".join(t for _, t in self.parts)
        return None


@dataclass(slots=True)
class StringConstant:
    """A string constant other files may name: ``qualname`` is ``Class.NAME`` (Java ``static final``
    fields, class attributes) or ``NAME`` (module-level Python / JS / TS constants)."""

    qualname: str
    value: Template


CALL_REF = "call:"
"""The head of a ``ref`` piece standing for a call of a function of the application that builds a string from
its arguments (``this.config.getEndpointFor('api/users')``): :func:`call_ref` writes it, the linker reads it
(:mod:`indexer.frameworks.built_urls`) and gives it the value the function's :class:`~indexer.model.UrlBuilder`
returns for those arguments, or leaves it unknown. Any other reader takes it for an unknown piece."""


def call_ref(callee: str, args: Iterable[Template | None]) -> str:
    """The ``ref`` text of a call of ``callee`` (a dotted name) with ``args`` (each a template, ``None``
    for one that is no string): ``call:<callee>`` then the arguments' pieces as JSON."""
    return CALL_REF + callee + json.dumps([list(a.parts) if a is not None else None for a in args],
                                          separators=(",", ":"))


def is_call_ref(text: str) -> bool:
    """Whether a ``ref`` piece's text is a call (:func:`call_ref`)."""
    return text.startswith(CALL_REF)


def read_call_ref(text: str) -> tuple[str, tuple[Template | None, ...]] | None:
    """``(callee, arguments)`` of a :func:`call_ref` text; ``None`` for any other text or a damaged one."""
    if not text.startswith(CALL_REF):
        return None
    cut = text.find("[", len(CALL_REF))
    if cut < 0:
        return None
    try:
        raw = json.loads(text[cut:])
    except ValueError:
        return None
    if not isinstance(raw, list):
        return None
    args: list[Template | None] = []
    for a in raw:
        if a is None:
            args.append(None)
        elif isinstance(a, list) and all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                                         for p in a):
            args.append(Template(tuple((k, t) for k, t in a)))
        else:
            return None
    return text[len(CALL_REF):cut], tuple(args)


pickle_records(globals(), __name__)
