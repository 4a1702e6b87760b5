"""The TypeScript extractor (``.ts``, ``.tsx``, ``.mts``, ``.cts``; ``.d.ts`` too).

Queries live in ``indexer/languages/ecmascript/queries/typescript/``; they compile for both the ``typescript`` grammar and
its superset ``tsx`` (used for ``.tsx`` files). Assembly is shared with JavaScript in
:mod:`indexer.languages.ecmascript.extractor`.
"""

from __future__ import annotations

from indexer.languages.ecmascript.extractor import EcmaScriptExtractor

__all__ = ["EXTRACTOR"]

EXTRACTOR = EcmaScriptExtractor(
    language="typescript",
    extensions=(".ts", ".tsx", ".mts", ".cts"),
    folder="ecmascript/queries/typescript",
    default_grammar="typescript",
    grammars={".tsx": "tsx"},
    typed=True,
)
