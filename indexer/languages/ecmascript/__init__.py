"""ECMAScript: JavaScript and TypeScript, one family (extractor, queries, framework detectors).

The two grammars are near-identical: the shared rules are in ``queries/``, each dialect adds its own
in ``queries/javascript/`` and ``queries/typescript/``. ``EXTRACTORS`` is what the language registry
(:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.ecmascript.javascript import EXTRACTOR as JAVASCRIPT
from indexer.languages.ecmascript.typescript import EXTRACTOR as TYPESCRIPT

__all__ = ["EXTRACTORS", "JAVASCRIPT", "TYPESCRIPT"]

EXTRACTORS = (TYPESCRIPT, JAVASCRIPT)
