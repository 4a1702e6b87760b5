"""Tests written as callbacks (JavaScript and TypeScript): each test, suite and hook a function of its own.

Mocha, Jest, Vitest, Jasmine and Playwright write a test as a callback handed to a global function:
``describe(title, fn)`` (a suite; mocha's ``context`` / ``suite``), ``it(title, fn)`` / ``test(title, fn)``
/ ``specify(title, fn)`` (a test), ``beforeEach(fn)`` / ``afterEach`` / ``beforeAll`` / ``afterAll`` /
mocha's ``before`` / ``after`` (hooks), with their modifiers (``it.only``, ``describe.skip``,
``test.concurrent``, jasmine's ``xit`` / ``fdescribe``, Playwright's ``test.describe`` /
``test.beforeEach``) and tables (``test.each(rows)(title, fn)``). The framework calls the callback, so
the code in it is the test's: an inline callback (arrow or function expression) becomes a definition of
its own (:meth:`JsFile.inline_function`), kind ``function``, named after the call: ``it <title>``,
``describe <title>``, ``beforeEach hook`` (the title's text, a string's value, dots and brackets made spaces
so that the qualname keeps its shape, at most :data:`MAX_TITLE` characters; ``#2`` ... when repeated in
one scope). A test nested in a suite is a function of the suite's, so the calls in it, the HTTP requests
of a ``supertest`` agent and the inline handlers it registers belong to the test (as a pytest test
function owns its calls), where before they were the file's. This detector runs first
(``DETECTOR_MODULES``), so every detector after it sees the tests as the scopes their code is in.

A callback given by name (``it("x", checkLogin)``) is already a function; nothing else is emitted.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import FUNCTION_TYPES, arguments, js_file, unwrap

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "MAX_TITLE", "detect"]

LANGUAGES = ("javascript", "typescript")

MAX_TITLE = 60
"""Characters of a test's title kept in its name."""
_HOOKS = frozenset({"beforeEach", "afterEach", "beforeAll", "afterAll", "before", "after"})
_MODIFIERS = frozenset({"only", "skip", "todo", "concurrent", "serial", "failing", "fails", "sequential", "parallel",
                        "fixme", "slow", "each"})
_UNSAFE = re.compile(r"(?:[.()\[\]{}`\"\\\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]|\s)+")
"""What a title's name replaces by a space: separators of qualnames, quotes, C0 / C1 control characters (a
title written `"only first \\0 ..."` holds a NUL once its escapes are read), and the invisible format
characters: zero-width ones, the BOM and the bidirectional embeddings, overrides and isolates (a title
holding U+202E showed a name whose text reads backwards in an agent's answer, CVE-2021-42574's trick)."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Make the file's inline test, suite and hook callbacks definitions of their own, outer first."""
    jf = js_file(root, src, out)
    for caps in jf.matches("test_callbacks"):
        parts = [p for p in jf.text(caps["callee"][0]).split(".") if p not in _MODIFIERS]
        if not parts:
            continue
        word = parts[-1]
        args = arguments(caps["first"][0].parent)
        if word in _HOOKS:  # `beforeEach(fn)`; mocha and Playwright also take a title first
            fn = next((a for a in args[:2] if (unwrap(a) or a).type in FUNCTION_TYPES), None)
            name = f"{word} hook"  # never the bare word: the call `beforeEach(...)` would bind to it
        else:
            if len(args) < 2 or (unwrap(args[1]) or args[1]).type not in FUNCTION_TYPES:
                continue
            fn, title = args[1], jf.string(args[0])
            title = title if title is not None else jf.flat(args[0])
            name = f"{word} {_UNSAFE.sub(' ', title).strip()[:MAX_TITLE].rstrip()}".rstrip()
        if fn is not None:
            jf.inline_function(unwrap(fn) or fn, name)
