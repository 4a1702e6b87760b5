"""The Aura markup extractor: one ``.cmp`` / ``.app`` file -> :class:`~indexer.model.FileExtraction`.

Rules: the first ``<aura:component ...>`` or ``<aura:application ...>`` start tag (XML comments
skipped) is the bundle's root; its ``controller`` attribute names the Apex controller class
(``AccountController``, or ``ns.AccountController`` in a managed package's namespace: the class is
the last segment). It is recorded as one :class:`~indexer.model.Import` with ``local`` =
:data:`SERVER_ACTIONS` (``c``, the value provider of server actions in Aura) and ``module`` = the
class name, on the line of the attribute. A root without a controller, a value that is no Apex
class name (an expression ``{!...}``, empty) or markup with no root tag records nothing; nothing
raises. Not read: ``extends`` (a sub-component inheriting its parent's controller), ``implements``,
attributes, child components and expressions.
"""

from __future__ import annotations

import re

from indexer.model import FileExtraction, Import

__all__ = ["EXTRACTOR", "SERVER_ACTIONS", "AuraExtractor", "controller_of"]

SERVER_ACTIONS = "c"
"""The local name of the controller import: in ``component.get("c.name")`` the value provider ``c``."""

_OPEN = re.compile(r"<aura:(?:component|application)\b", re.I)
_TAG = re.compile(r"((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")
_ATTR = re.compile(r"(?<![\w:.-])([\w:.-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_CLASS = re.compile(r"(?:[A-Za-z]\w*\.)?([A-Za-z]\w*)")
MAX_SCAN = 200_000
"""Characters of a markup file searched for the root tag (a real root is in the first few lines)."""
MAX_TAG = 20_000
"""Characters the root tag may span (its attributes)."""


def _without_comments(text: str) -> str:
    """``text`` with every ``<!-- ... -->`` comment (an unclosed one: to the end) blanked, line breaks
    kept; linear in the text (each comment is found once, from where the last one ended)."""
    out, at = [], 0
    while True:
        start = text.find("<!--", at)
        if start < 0:
            out.append(text[at:])
            return "".join(out)
        end = text.find("-->", start + 4)
        stop = len(text) if end < 0 else end + 3
        out.append(text[at:start])
        out.append("".join(c if c == "\n" else " " for c in text[start:stop]))
        at = stop


def controller_of(text: str) -> tuple[str, int] | None:
    """``(Apex class name, 1-based line)`` of the root tag's ``controller`` attribute in markup
    ``text``, or ``None`` (no root tag, no controller, not a class name). Never raises; linear in the
    text (the first :data:`MAX_SCAN` characters; the root tag read once, at most :data:`MAX_TAG`)."""
    blanked = _without_comments(text[:MAX_SCAN])
    opened = _OPEN.search(blanked)
    root = _TAG.match(blanked, opened.end(), opened.end() + MAX_TAG) if opened is not None else None
    if root is None:
        return None
    for a in _ATTR.finditer(root.group(1)):
        if a.group(1).lower() != "controller":
            continue
        value = (a.group(2) if a.group(2) is not None else a.group(3) or "").strip()
        m = _CLASS.fullmatch(value)
        if m is None:
            return None
        return m.group(1), blanked.count("\n", 0, root.start(1) + a.start()) + 1
    return None


class AuraExtractor:
    """The :class:`~indexer.languages.base.Extractor` of Aura markup (``.cmp``, ``.app``)."""

    language = "aura"
    extensions = (".cmp", ".app")

    def extract(self, path: str, source: bytes | str) -> FileExtraction:
        """The Apex controller one markup file names (module docstring); never raises on bad input
        (undecodable bytes are replaced)."""
        out = FileExtraction(path=path, language=self.language)
        text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
        found = controller_of(text)
        if found is not None:
            out.imports.append(Import(SERVER_ACTIONS, found[0], None, line=found[1]))
        return out


EXTRACTOR = AuraExtractor()
