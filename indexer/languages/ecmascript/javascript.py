"""The JavaScript extractor (``.js``, ``.jsx``, ``.mjs``, ``.cjs``; JSX parses in every one of them).

Queries live in ``indexer/languages/ecmascript/queries/javascript/``; assembly is shared with TypeScript in
:mod:`indexer.languages.ecmascript.extractor`. JavaScript has no type annotations, so no ``type_uses`` query.
"""

from __future__ import annotations

from indexer.languages.ecmascript.extractor import EcmaScriptExtractor

__all__ = ["EXTRACTOR"]

EXTRACTOR = EcmaScriptExtractor(
    language="javascript",
    extensions=(".js", ".jsx", ".mjs", ".cjs"),
    folder="ecmascript/queries/javascript",
    default_grammar="javascript",
)
