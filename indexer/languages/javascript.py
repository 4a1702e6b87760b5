"""The JavaScript extractor (``.js``, ``.jsx``, ``.mjs``, ``.cjs``; JSX parses in every one of them).

Queries live in ``indexer/queries/javascript/``; assembly is shared with TypeScript in
:mod:`indexer.languages.ecmascript`. JavaScript has no type annotations, so no ``type_uses`` query.
"""

from __future__ import annotations

from indexer.languages.ecmascript import EcmaScriptExtractor

__all__ = ["EXTRACTOR"]

EXTRACTOR = EcmaScriptExtractor(
    language="javascript",
    extensions=(".js", ".jsx", ".mjs", ".cjs"),
    folder="javascript",
    default_grammar="javascript",
)
