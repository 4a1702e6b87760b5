"""The Aura markup extractor: one ``.cmp`` / ``.app`` file -> :class:`~indexer.model.FileExtraction`.

Rules: the first ``<aura:component ...>`` or ``<aura:application ...>`` start tag (XML comments
skipped) is the bundle's root; its ``controller`` attribute names the Apex controller class
(``AccountController``, or ``ns.AccountController`` in a managed package's namespace: the class is
the last segment). It is recorded as one :class:`~indexer.model.Import` with ``local`` =
:data:`SERVER_ACTIONS` (``c``, the value provider of server actions in Aura) and ``module`` = the
class name, on the line of the attribute. A root without a controller, a value that is no Apex
class name (an expression ``{!...}``, empty) or markup with no root tag records nothing; nothing
raises.

The root tag's ``extends="c:Base"`` (the default namespace ``c``, or an org's own) names the component
the bundle inherits from: one :class:`~indexer.model.Import` with ``local`` = :data:`EXTENDS` and
``module`` = the base component's name (``Base``; the bundle of that name beside this one is the base,
:mod:`indexer.languages.aura.modules`). A sub-component inherits its base's helper, client-side
controller actions and Apex controller.

An action expression ``{!c.handleClick}`` (``onclick="{!c.handleClick}"``, ``<aura:handler ...
action="{!c.doInit}"/>``; ``{#c.x}`` too) names the bundle's client-side controller action: a
:class:`~indexer.model.CallSite` of ``handleClick`` from the markup (no caller: the component's
markup itself) on the receiver :data:`ACTIONS`, which one import binds to the bundle's controller
(:mod:`indexer.languages.aura.modules`). In markup, ``c`` is the JavaScript controller (the Apex
controller's ``c`` is the JavaScript's ``component.get("c.x")``); ``{!v.x}`` reads an attribute and is
no call, nor is any other expression (``{!c.x + 1}``, ``{!v.c.x}``). Not read: ``implements``,
attributes, child components, other expressions.
"""

from __future__ import annotations

import re

from indexer.model import CallSite, FileExtraction, Import

__all__ = ["ACTIONS", "EXTENDS", "EXTRACTOR", "SERVER_ACTIONS", "AuraExtractor", "action_calls", "controller_of",
           "extends_of"]

SERVER_ACTIONS = "c"
"""The local name of the controller import: in ``component.get("c.name")`` the value provider ``c``."""
ACTIONS = "aura$actions"
"""The receiver of a markup action expression's call site, bound to the bundle's client-side controller
(a name no markup writes)."""
EXTENDS = "aura$extends"
"""The local name of the import naming the component a bundle extends."""
_EXPRESSION = re.compile(r"\{[!#]\s*c\.([A-Za-z_]\w*)\s*\}")
MAX_ACTIONS = 2_000
"""Most action expressions read from one markup file."""

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


def _root_attribute(blanked: str, name: str) -> tuple[str, int] | None:
    """``(value, 1-based line)`` of the attribute ``name`` (case-insensitive) of the root tag in the
    comment-blanked markup, or ``None``."""
    opened = _OPEN.search(blanked)
    root = _TAG.match(blanked, opened.end(), opened.end() + MAX_TAG) if opened is not None else None
    if root is None:
        return None
    for a in _ATTR.finditer(root.group(1)):
        if a.group(1).lower() == name:
            value = (a.group(2) if a.group(2) is not None else a.group(3) or "").strip()
            return value, blanked.count("\n", 0, root.start(1) + a.start()) + 1
    return None


def controller_of(text: str) -> tuple[str, int] | None:
    """``(Apex class name, 1-based line)`` of the root tag's ``controller`` attribute in markup
    ``text``, or ``None`` (no root tag, no controller, not a class name). Never raises; linear in the
    text (the first :data:`MAX_SCAN` characters; the root tag read once, at most :data:`MAX_TAG`)."""
    found = _root_attribute(_without_comments(text[:MAX_SCAN]), "controller")
    m = _CLASS.fullmatch(found[0]) if found is not None else None
    return (m.group(1), found[1]) if m is not None and found is not None else None


def extends_of(text: str) -> tuple[str, int] | None:
    """``(base component name, 1-based line)`` of the root tag's ``extends="ns:Name"`` in markup
    ``text`` (``c:Base`` -> ``Base``), or ``None`` (none, or no ``ns:Name`` value). Linear, as
    :func:`controller_of`."""
    found = _root_attribute(_without_comments(text[:MAX_SCAN]), "extends")
    m = re.fullmatch(r"[A-Za-z]\w*:([A-Za-z]\w*)", found[0]) if found is not None else None
    return (m.group(1), found[1]) if m is not None and found is not None else None


def action_calls(text: str) -> list[CallSite]:
    """The call sites of the action expressions ``{!c.name}`` of markup ``text`` (comments skipped,
    the first :data:`MAX_SCAN` characters, at most :data:`MAX_ACTIONS`): caller ``None``, receiver
    :data:`ACTIONS`, arity unknown (``-1``), at ``name`` (1-based line, 0-based column)."""
    blanked = _without_comments(text[:MAX_SCAN])
    out: list[CallSite] = []
    line, at = 1, 0
    for m in _EXPRESSION.finditer(blanked):
        if len(out) >= MAX_ACTIONS:
            break
        line += blanked.count("\n", at, m.start(1))
        at = m.start(1)
        col = at - (blanked.rfind("\n", 0, at) + 1)
        out.append(CallSite(None, m.group(1), ACTIONS, -1, line, col))
    return out


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
        base = extends_of(text)
        if base is not None:
            out.imports.append(Import(EXTENDS, base[0], None, line=base[1]))
        calls = action_calls(text)
        if calls:
            out.imports.append(Import(ACTIONS, ACTIONS, None, line=calls[0].line))
            out.calls.extend(calls)
        return out


EXTRACTOR = AuraExtractor()
