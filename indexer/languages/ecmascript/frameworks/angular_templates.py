"""Angular component templates written inline: the component methods their bindings call.

In a file importing ``Component`` from ``@angular/core``, a class decorated ``@Component({template:
`...`})`` (a string or a template literal without substitutions) renders that template, whose
expressions run against the component instance: event bindings ``(click)="toggle($event)"``, property
bindings ``[disabled]="isBusy()"``, two-way ``[(x)]``'s source, structural directives
``*ngIf="canEdit()"``, block control flow ``@if (canEdit()) {``, ``@for (a of items(); ...)``,
``@switch (kind())``, and interpolations ``{{ title() }}``. Each call of a bare name in them
(``toggle(...)``) is a call site ``this.toggle(...)`` from the component class, at the name's place
in the file; a call on a dotted name (``form.reset()``) is ``this.form.reset()``. Names a template
declares (``let item``, ``#ref``, ``@for (x of ...)``, ``as y``) and ``$event`` are no component
members: a call on one is not recorded (nor are pipes, which are not called with parentheses).

Not read: a ``templateUrl`` file (another file, which an edit could change without this one: its
bindings would go stale in an incremental run), and a child component's ``@Output()`` bound in the
parent (``(toggle)="onToggle($event)"`` is read as the parent's call of ``onToggle``, the emit in the
child is not linked to it).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import CallSite, FileExtraction

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "template_calls"]

LANGUAGES = ("typescript", "javascript")

_BOUND = re.compile(r"""(?:\(\s*[\w.$-]+\s*\)|\[\(?\s*[@\w.$-]+\s*\)?\]|\*\w+|\bbind-[\w-]+|\bon-[\w-]+)\s*=\s*(["'])""")
"""The start of a bound attribute's value (``(event)=``, ``[prop]=``, ``[(x)]=``, ``*ngIf=``), ending at the quote."""
_BLOCK = re.compile(r"@(?:if|else\s+if|for|switch|case|defer\s+when|let)\b\s*\(?")
_INTERPOLATION = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
_CALL = re.compile(r"(?<![\w$.?])((?:[A-Za-z_$][\w$]*\s*\.\s*)*[A-Za-z_$][\w$]*)\s*\(")
_DECLARED = re.compile(r"(?:\blet\s+|#|\bas\s+|@for\s*\(\s*)([A-Za-z_$][\w$]*)")
_KEYWORDS = frozenset({"if", "for", "switch", "case", "let", "of", "as", "track", "when", "else", "typeof", "new"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the calls of component methods in the inline templates of the file's components."""
    if not any(i.module == "@angular/core" and i.name == "Component" for i in out.imports):
        return
    classes = {(d.name_line, d.name_col): d.qualname for d in out.definitions if d.kind == "class"}
    found: list[CallSite] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in ("class_declaration", "class", "abstract_class_declaration"):
            name = n.child_by_field_name("name")
            owner = classes.get((src.line(name), src.col(name))) if name is not None else None
            template = _inline_template(n, src)
            if owner is not None and template is not None:
                found += template_calls(src.text(template)[1:-1], owner, src.line(template), src.col(template) + 1)
        stack.extend(n.named_children)
    out.calls.extend(sorted(found, key=lambda c: (c.line, c.col)))


def _inline_template(cls: Node, src: SourceText) -> Node | None:
    """The string node of ``template:`` in the ``@Component({...})`` decorating ``cls``, if any
    (decorators are the class's children, or its export statement's)."""
    holders = [cls, *([cls.parent] if cls.parent is not None and cls.parent.type == "export_statement" else [])]
    for holder in holders:
        for dec in holder.children:
            if dec.type != "decorator":
                continue
            call = next((c for c in dec.named_children if c.type == "call_expression"), None)
            fn = call.child_by_field_name("function") if call is not None else None
            args = call.child_by_field_name("arguments") if call is not None else None
            if fn is None or src.text(fn) != "Component" or args is None or not args.named_children:
                continue
            config = args.named_children[0]
            for pair in config.named_children if config.type == "object" else ():
                key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
                if pair.type == "pair" and key is not None and src.text(key).strip("'\"") == "template" \
                        and value is not None and value.type in ("string", "template_string") \
                        and not any(c.type == "template_substitution" for c in value.children):
                    return value
    return None


def template_calls(text: str, owner: str, line: int, col: int) -> list[CallSite]:
    """The call sites of component members in a template's ``text`` (as written in the file, from
    ``line`` / ``col``: where its first character is), from the class ``owner``."""
    declared = {m.group(1) for m in _DECLARED.finditer(text)}
    out: list[CallSite] = []
    for start, end in _expressions(text):
        for m in _CALL.finditer(text, start, end):
            dotted = re.sub(r"\s+", "", m.group(1))
            head, _, name = dotted.rpartition(".")
            root = (head or name).split(".", 1)[0]
            if root in declared or root in _KEYWORDS or root.startswith("$"):
                continue
            at = m.start(1) + len(m.group(1)) - len(name)
            before = text[:at]
            row = before.count("\n")
            c = (col if row == 0 else 0) + len(before) - (before.rfind("\n") + 1)
            receiver = f"this.{head}" if head else "this"
            out.append(CallSite(owner, name, receiver, _arity(text, m.end(), end), line + row, c))
    return out


def _expressions(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each binding expression in ``text``: bound attributes' values, block
    parameters (to the closing parenthesis) and interpolations."""
    spans = []
    for m in _BOUND.finditer(text):
        close = text.find(m.group(1), m.end())
        spans.append((m.end(), close if close >= 0 else len(text)))
    for m in _BLOCK.finditer(text):
        spans.append((m.end(), _closing(text, m.end() - 1) if text[m.end() - 1] == "(" else m.end()))
    spans += [(m.start(1), m.end(1)) for m in _INTERPOLATION.finditer(text)]
    return sorted(spans)


def _closing(text: str, open_at: int) -> int:
    """The index of the parenthesis closing the one at ``open_at`` (the text's end if none)."""
    depth = 0
    for i in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return len(text)


def _arity(text: str, open_end: int, limit: int) -> int:
    """The arguments of the call whose ``(`` ends at ``open_end``: top-level commas + 1, 0 when empty."""
    close = min(_closing(text, open_end - 1), limit)
    inner = text[open_end:close]
    if not inner.strip():
        return 0
    depth, commas = 0, 0
    for ch in inner:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        commas += ch == "," and depth == 0
    return commas + 1

