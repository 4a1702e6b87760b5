"""Token counts of agent answers: the bundled embedding model's tokenizer, or an estimate when it
cannot load.

An agent's budget (``max_tokens``) is counted in model tokens. The tokenizer counted with is the one
that ships with the bundled all-MiniLM-L6-v2 (``tokenizer.json`` in
:data:`stores.embedder.BUNDLED_MODEL_DIR`: BERT WordPiece, lowercasing), run by the ``tokenizers``
library without truncation or padding and without the ``[CLS]`` / ``[SEP]`` markers, so a text's
count is the number of word pieces it is cut into. On code and English it gives about 2.5 characters
a token (median of the 20 answers of ``bench/token_economy.py`` on Django; whole source files 3.5), well under the 4 characters a
token often assumed for the BPE tokenizers of current chat models; counting with it keeps answers
inside the budget of any of them.

When the tokenizer cannot load (the file is missing or damaged, or the library is absent) counts fall
back to an estimate, :data:`CHARS_PER_TOKEN` characters a token, and :attr:`TokenCounter.method`
says so (answers report it in their ``budget``). Nothing is downloaded.
"""

from __future__ import annotations

import functools
import logging
import math
from pathlib import Path

from stores.embedder import BUNDLED_MODEL_DIR

__all__ = ["TokenCounter", "token_counter", "count_tokens", "CHARS_PER_TOKEN", "TOKENIZER_FILE", "BUNDLED_METHOD"]

log = logging.getLogger(__name__)

CHARS_PER_TOKEN = 4
"""Characters a token when the tokenizer cannot load (the usual estimate for current BPE tokenizers)."""
TOKENIZER_FILE = BUNDLED_MODEL_DIR / "tokenizer.json"
"""The bundled model's tokenizer definition."""
BUNDLED_METHOD = "bundled tokenizer (all-MiniLM-L6-v2 WordPiece)"
""":attr:`TokenCounter.method` when counts come from the bundled tokenizer."""


class TokenCounter:
    """Counts tokens with the tokenizer in ``path`` (default :data:`TOKENIZER_FILE`); when it cannot
    load, estimates ``ceil(len / CHARS_PER_TOKEN)``. ``method`` says which (a sentence naming the
    tokenizer, or the estimate and why the tokenizer is not used); ``exact`` is ``True`` for real
    counts. Thread-safe (the ``tokenizers`` library's encode is)."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else TOKENIZER_FILE
        self._tokenizer = None
        try:
            from tokenizers import Tokenizer

            tok = Tokenizer.from_file(str(self.path))
            tok.no_truncation()
            tok.no_padding()
            self._tokenizer = tok
            self.method = BUNDLED_METHOD if self.path == TOKENIZER_FILE else f"tokenizer {self.path.name}"
        except Exception as exc:  # missing file, damaged JSON, library absent: all mean "estimate"
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            log.warning("token counts are estimated: cannot load the tokenizer %s (%s)", self.path, reason)
            self.method = (f"estimate: {CHARS_PER_TOKEN} characters a token (the tokenizer {self.path} cannot "
                           f"load: {reason})")

    @property
    def exact(self) -> bool:
        """Whether counts come from a tokenizer (not the character estimate)."""
        return self._tokenizer is not None

    def count(self, text: str) -> int:
        """Tokens of ``text`` (0 for an empty string); raises :class:`TypeError` for a non-string."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a string, not {type(text).__name__}")
        if self._tokenizer is None:
            return math.ceil(len(text) / CHARS_PER_TOKEN)
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)

    def within(self, text: str, budget: int) -> bool:
        """Whether ``text`` costs at most ``budget`` tokens. With the tokenizer, a text no longer than
        ``budget`` characters is within it without being tokenized (a word piece covers at least one
        character)."""
        if self._tokenizer is not None and len(text) <= budget:
            return True
        return self.count(text) <= budget


@functools.cache
def token_counter() -> TokenCounter:
    """The process's counter over the bundled tokenizer (loaded once, about 50 ms)."""
    return TokenCounter()


def count_tokens(text: str) -> int:
    """Tokens of ``text`` by :func:`token_counter`."""
    return token_counter().count(text)
