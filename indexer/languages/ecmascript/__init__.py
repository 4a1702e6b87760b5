"""ECMAScript: JavaScript and TypeScript, one family (extractor, queries, framework detectors).

The two grammars are near-identical: the shared rules are in ``queries/``, each dialect adds its own
in ``queries/javascript/`` and ``queries/typescript/``. Vue single-file components (``vue.py``) are
their script blocks read by one of the two, plus the component and its template's event handlers. ``EXTRACTORS`` is what the language registry
(:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.ecmascript.javascript import EXTRACTOR as JAVASCRIPT
from indexer.languages.ecmascript.typescript import EXTRACTOR as TYPESCRIPT
from indexer.languages.ecmascript.vue import EXTRACTOR as VUE

__all__ = ["EXTRACTORS", "JAVASCRIPT", "TYPESCRIPT", "VUE"]

EXTRACTORS = (TYPESCRIPT, JAVASCRIPT, VUE)
