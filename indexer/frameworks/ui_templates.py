"""Component templates (Angular's syntax): the component methods their bindings call, and the events
a child component emits to the handlers its parent's template binds.

Two users. The ECMAScript detector :mod:`indexer.languages.ecmascript.frameworks.angular_templates`
reads an inline ``@Component({template})`` with :func:`template_calls` (call sites of the file) and
records every component as a :class:`~indexer.model.UiComponent` fact. The linker
(:func:`link_components`, called from :mod:`indexer.frameworks.link`) joins those facts across
files:

* a ``templateUrl`` component: the template file (read by :func:`load_templates` into
  :attr:`~indexer.frameworks.link_options.LinkOptions.templates`, found relative to the component's
  file) calls the component's members as an inline template would (:func:`template_calls`, each site
  bound by the resolver core as ``this.name(...)`` from the class). CALLS edges from the class, owned
  by the component's file at the ``templateUrl`` string, ``props["template"]`` the ``path:line:col``
  of the call in the template;
* an event of a child component (``<app-child (toggle)="onToggle($event)">`` in a parent's template,
  inline or a file, ``app-child`` the element selector of a component whose ``outputs`` hold
  ``toggle``; of several components with that selector, those nearest the parent's file: most
  leading folders shared, since which one a module declares is not read): every ``this.toggle.emit(...)`` of the child (a call site of one of its methods, or of
  its own inline template) calls what the binding calls, bound in the parent as the template's calls
  are. CALLS edges ``inferred`` from the emitting method (or class) to the parent's handler, owned
  by the child's file at the ``emit``, ``props["template"]`` where the parent binds it.

Template rules (:func:`template_calls`): expressions are event bindings ``(click)="toggle($event)"``,
property bindings ``[disabled]="isBusy()"``, two-way ``[(x)]``'s source, structural directives
``*ngIf="canEdit()"``, block control flow ``@if (canEdit()) {``, ``@for (a of items(); ...)``,
``@switch (kind())`` and interpolations ``{{ title() }}``. A call of a bare name (``toggle(...)``) is a
call site ``this.toggle(...)``; a call on a dotted name (``form.reset()``) is ``this.form.reset()``.
Names a template declares (``let item``, ``#ref``, ``@for (x of ...)``, ``as y``) and ``$event`` are
no component members: a call on one is not recorded (nor are pipes, which are not called with
parentheses). Template files are bounded like every file read outside discovery
(:mod:`indexer.fsguard`: inside the root, regular files, :data:`MAX_FILE_BYTES`; not UTF-8: skipped).
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.fsguard import SkipFile, inside_root, read_regular
from indexer.model import CallSite
from indexer.resolve.context import shared_parts
from stores.contracts import Edge

if TYPE_CHECKING:
    from indexer.model import UiComponent
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup
    from indexer.resolve.values import Def

__all__ = ["CODE_SUFFIXES", "MAX_FILE_BYTES", "MAX_FILES", "TEMPLATE_SUFFIX", "element_events", "folder_templates", "is_template_path", "link_components",
           "load_templates", "read_template", "template_calls", "TemplateText"]

MAX_FILE_BYTES = 1_000_000
"""A template file larger than this is not read."""
MAX_FILES = 10_000
"""At most this many template files are read per repository."""
TEMPLATE_SUFFIX = ".html"
_SKIP_DIRS = frozenset({"node_modules", "dist", "build", "out", "target", "coverage", "vendor", "__pycache__"})
CODE_SUFFIXES = (".ts", ".js", ".mts")
"""The code files whose folder's ``.html`` files may be component templates."""

_BOUND = re.compile(r"""(?:\(\s*[\w.$-]+\s*\)|\[\(?\s*[@\w.$-]+\s*\)?\]|\*\w+|\bbind-[\w-]+|\bon-[\w-]+)\s*=\s*(["'])""")
"""The start of a bound attribute's value (``(event)=``, ``[prop]=``, ``[(x)]=``, ``*ngIf=``), ending at the quote."""
_BLOCK = re.compile(r"@(?:if|else\s+if|for|switch|case|defer\s+when|let)\b\s*\(?")
_BRACKETS = re.compile(r"[()\[\]{},]")
_NEWLINE = re.compile(r"\n")
_NONBLANK = re.compile(r"\S")
_SPACES = re.compile(r"\s+")
_CALL = re.compile(r"(?<![\w$.?])((?:[A-Za-z_$][\w$]*\s*\.\s*)*[A-Za-z_$][\w$]*)\s*\(")
_DECLARED = re.compile(r"(?:\blet\s+|#|\bas\s+|@for\s*\(\s*)([A-Za-z_$][\w$]*)")
_KEYWORDS = frozenset({"if", "for", "switch", "case", "let", "of", "as", "track", "when", "else", "typeof", "new"})
_TAG_START = re.compile(r"<([A-Za-z][\w-]*)")
_TAG_MARK = re.compile(r"""[>"']""")
_EVENT = re.compile(r"""(?:\(\s*([\w.$-]+)\s*\)|\bon-([\w-]+))\s*=\s*(["'])""")
_ELEMENT = re.compile(r"^\s*([A-Za-z][\w-]*)")


# -- templates --------------------------------------------------------------------------------------

def template_calls(text: str, owner: str, line: int, col: int, span: tuple[int, int] | None = None) -> list[CallSite]:
    """The call sites of component members in a template's ``text`` (whose first character is at
    ``line`` / ``col`` of its file), from the class ``owner``, in text order; ``span``: only the
    expressions within ``(start, end)`` of ``text`` (one binding's value). Linear in ``text``'s
    length plus the sites (:class:`TemplateText`; several spans of one text: build it once)."""
    return TemplateText(text).calls(owner, line, col, span)


class TemplateText:
    """One template's text with what every query of it reads, computed once, each in one pass (so
    that a 1 MB template of unclosed parentheses, tags or interpolations costs linear time, brk44):
    the names it declares, its line starts, each parenthesis's closing one and top-level commas, and
    its binding expressions (overlapping ones merged: a call is one site)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.declared = {m.group(1) for m in _DECLARED.finditer(text)}
        self._newlines = [m.start() for m in _NEWLINE.finditer(text)]
        self._close: dict[int, int] = {}  # "(" index -> its ")" index (unclosed: len(text))
        self._commas: dict[int, list[int]] = {}  # "(" index -> commas directly inside it
        nest: list[tuple[str, int]] = []  # open brackets of every kind, innermost last
        parens: list[int] = []
        for m in _BRACKETS.finditer(text):
            ch, at = m.group(), m.start()
            if ch == ",":
                if nest and nest[-1][0] == "(":
                    self._commas.setdefault(nest[-1][1], []).append(at)
            elif ch in "([{":
                nest.append((ch, at))
                if ch == "(":
                    parens.append(at)
            else:
                if nest:
                    nest.pop()
                if ch == ")" and parens:
                    self._close[parens.pop()] = at
        for at in parens:
            self._close[at] = len(text)
        self._spans: list[tuple[int, int]] | None = None

    def calls(self, owner: str, line: int, col: int, span: tuple[int, int] | None = None) -> list[CallSite]:
        """:func:`template_calls` of this text."""
        text, out = self.text, []
        for start, end in [span] if span is not None else self.expressions():
            for m in _CALL.finditer(text, start, end):
                dotted = _SPACES.sub("", m.group(1))
                head, _, name = dotted.rpartition(".")
                root = (head or name).split(".", 1)[0]
                if root in self.declared or root in _KEYWORDS or root.startswith("$"):
                    continue
                at = m.start(1) + len(m.group(1)) - len(name)
                row = bisect.bisect_left(self._newlines, at)
                c = (col if row == 0 else 0) + at - (self._newlines[row - 1] + 1 if row else 0)
                receiver = f"this.{head}" if head else "this"
                out.append(CallSite(owner, name, receiver, self._arity(m.end(), end), line + row, c))
        return out

    def expressions(self) -> list[tuple[int, int]]:
        """``(start, end)`` of each binding expression: bound attributes' values, block parameters (to
        the closing parenthesis) and interpolations, in order, overlapping ones merged."""
        if self._spans is None:
            text, spans = self.text, []
            for m in _BOUND.finditer(text):
                close = text.find(m.group(1), m.end())
                spans.append((m.end(), close if close >= 0 else len(text)))
            for m in _BLOCK.finditer(text):
                spans.append((m.end(), self._close[m.end() - 1] if text[m.end() - 1] == "(" else m.end()))
            at = 0
            while (open_at := text.find("{{", at)) >= 0 and (close := text.find("}}", open_at + 2)) >= 0:
                spans.append((open_at + 2, close))
                at = close + 2
            merged: list[tuple[int, int]] = []
            for start, end in sorted(spans):
                if merged and start < merged[-1][1]:
                    merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
                else:
                    merged.append((start, end))
            self._spans = merged
        return self._spans

    def _arity(self, open_end: int, limit: int) -> int:
        """The arguments of the call whose ``(`` ends at ``open_end``, up to ``limit``: the commas
        directly inside it (brackets of every kind nest) + 1, 0 when empty."""
        close = min(self._close.get(open_end - 1, len(self.text)), limit)
        if _NONBLANK.search(self.text, open_end, close) is None:
            return 0
        commas = self._commas.get(open_end - 1, ())
        return bisect.bisect_left(commas, close) + 1


def element_events(text: str) -> list[tuple[str, str, int, int]]:
    """``(element, event, start, end)`` of each event binding on an element of ``text``
    (``<app-child (toggle)="onToggle($event)">``: ``("app-child", "toggle", start, end)`` with
    ``text[start:end]`` the bound expression); element names in lower case. Linear in ``text``'s
    length (:func:`_tags`)."""
    out = []
    for name, attrs_start, tag_end in _tags(text):
        for ev in _EVENT.finditer(text, attrs_start, tag_end):
            close = text.find(ev.group(3), ev.end(), tag_end + 1)
            out.append((name.lower(), ev.group(1) or ev.group(2), ev.end(), close if close >= 0 else tag_end + 1))
    return out


def _tags(text: str) -> Iterator[tuple[str, int, int]]:
    """``(name, attributes start, index of the closing >)`` of each start tag of ``text``: ``<name``
    then, outside quotes, up to the first ``>`` (a tag with no such ``>`` is none; the search goes on
    after its ``<``). The outcome of reading from each quote or ``>`` on is computed once, from the
    text's end (a regular expression tried at each ``<`` reads to the end each time it fails)."""
    marks = [(m.start(), m.group()) for m in _TAG_MARK.finditer(text)]
    ends = [-1] * (len(marks) + 1)  # from mark k outside quotes: the index of the closing ">", -1: none
    next_quote = {'"': len(marks), "'": len(marks)}
    for k in range(len(marks) - 1, -1, -1):
        at, ch = marks[k]
        if ch == ">":
            ends[k] = at
        else:  # a quote: the tag goes on after the next same quote
            ends[k] = ends[next_quote[ch] + 1] if next_quote[ch] < len(marks) else -1
            next_quote[ch] = k
    positions = [at for at, _ in marks]
    resume = 0
    for m in _TAG_START.finditer(text):
        if m.start() < resume:
            continue
        end = ends[bisect.bisect_left(positions, m.end())]
        if end >= 0:
            yield m.group(1), m.end(), end
            resume = end + 1


# -- template files ---------------------------------------------------------------------------------

def is_template_path(root: str | Path, rel: str) -> bool:
    """Whether the repository-relative ``rel`` may be a component's template file: an ``.html`` file
    in a folder that holds a TypeScript or JavaScript file (where Angular keeps a component's), under
    no hidden or dependency folder (as :func:`load_templates` walks)."""
    if not rel.lower().endswith(TEMPLATE_SUFFIX):
        return False
    folder = posixpath.dirname(rel)
    return _walked(folder) and _holds_code(Path(root) / folder)


def folder_templates(root: str | Path, folder: str) -> list[str]:
    """The repository-relative paths of the template files in the repository-relative ``folder``
    (``""``: the root) as :func:`load_templates` finds them (none when the folder holds no code file,
    is hidden or a dependency folder, or is gone), sorted. What an incremental run reads again when a
    file of that folder changed: a code file coming or going makes its ``.html`` neighbours templates
    or not."""
    real_root = os.path.realpath(root)
    base = Path(root) / folder
    if not _walked(folder) or not _holds_code(base):
        return []
    names = sorted(n for n in _file_names(base) if n.lower().endswith(TEMPLATE_SUFFIX))
    return [posixpath.join(folder, n) if folder else n for n in names if inside_root(real_root, base / n)]


def _walked(folder: str) -> bool:
    """Whether :func:`load_templates`' walk enters the repository-relative ``folder``."""
    return not any(part in _SKIP_DIRS or part.startswith(".") for part in folder.split("/") if part)


def _holds_code(folder: Path) -> bool:
    """Whether ``folder`` holds a TypeScript or JavaScript file (``False`` when it cannot be read)."""
    return any(n.endswith(CODE_SUFFIXES) for n in _file_names(folder))


def _file_names(folder: Path) -> list[str]:
    """The names in ``folder`` that are no folders, as :func:`os.walk` sorts them (an entry whose
    kind cannot be read, a symbolic link loop, counts as a file); none when it cannot be read."""
    out = []
    try:
        with os.scandir(folder) as entries:
            for e in entries:
                try:
                    is_dir = e.is_dir()
                except OSError:
                    is_dir = False
                if not is_dir:
                    out.append(e.name)
    except OSError:
        return []
    return out


def read_template(root: str | Path, rel: str) -> str | None:
    """The text of the template file ``rel`` (repository-relative), ``None`` when it cannot be read
    under the rules of :mod:`indexer.fsguard` (outside the root, not a regular file, over
    :data:`MAX_FILE_BYTES`) or is not UTF-8."""
    real_root = os.path.realpath(root)
    try:
        return read_regular(Path(root) / rel, MAX_FILE_BYTES, real_root).decode("utf-8")
    except (SkipFile, OSError, UnicodeDecodeError):
        return None


def _template_files(root: Path) -> Iterator[str]:
    real_root = os.path.realpath(root)
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        if not any(f.endswith(CODE_SUFFIXES) for f in files):
            continue
        for name in sorted(files):
            if name.lower().endswith(TEMPLATE_SUFFIX):
                seen += 1
                if seen > MAX_FILES:
                    return
                path = Path(folder) / name
                if inside_root(real_root, path):
                    yield path.relative_to(root).as_posix()


def load_templates(root: str | Path) -> dict[str, str]:
    """``{repository-relative path: text}`` of every template file under ``root``
    (:func:`is_template_path`; hidden and dependency folders skipped, at most :data:`MAX_FILES`;
    unreadable ones left out, :func:`read_template`). Never raises."""
    out = {}
    for rel in _template_files(Path(root)):
        text = read_template(root, rel)
        if text is not None:
            out[rel] = text
    return out


# -- linking ----------------------------------------------------------------------------------------

def link_components(r: Lookup, ctxs: Sequence[FileCtx], edges: dict[str, list[Edge]], outcomes: Counter[str],
                    templates: Mapping[str, str]) -> None:
    """Append the CALLS edges of component templates read from files and of child events bound in
    parent templates (module docstring) to ``edges`` (per owning path); count what was not linked in
    ``outcomes`` (``unlinked_template``: a ``templateUrl`` no template file answers)."""
    comps = [(fc, comp) for fc in ctxs for comp in fc.ex.components]
    if not comps:
        return
    by_element: dict[str, list[tuple[FileCtx, UiComponent]]] = defaultdict(list)
    for fc, comp in comps:
        for element in _elements(comp.selector):
            by_element[element].append((fc, comp))
    emitters: dict[tuple[str, str, int, str], list[tuple[Def, CallSite]]] = {}
    for fc, comp in comps:
        text, where, line, col = _template_of(fc, comp, templates)
        if text is None:
            outcomes["unlinked_template"] += 1
            continue
        cls = fc.def_at(comp.owner, comp.line)
        if cls is None:
            continue
        parsed = TemplateText(text)
        if comp.template_url is not None:  # an inline template's calls are the file's own call sites
            seen: set[str] = set()
            for cs in parsed.calls(comp.owner, 1, 0):
                for target, how in r.call_targets(fc, _at(cs, comp)):
                    if target.id not in seen:
                        seen.add(target.id)
                        edges.setdefault(fc.path, []).append(Edge("CALLS", cls.id, target.id, fc.repo, fc.path, comp.line, comp.col, how,
                                                   {"template": f"{where}:{cs.line}:{cs.col}"}))
                        outcomes["template_calls"] += 1
        for element, event, start, end in element_events(text):
            handlers: list[tuple[Def, CallSite]] | None = None
            for cfc, child in _nearest(fc.path, by_element.get(element, ())):
                for field in (f for e, f in child.outputs if e == event):
                    if handlers is None:
                        handlers = [(t, cs) for cs in parsed.calls(comp.owner, line, col, (start, end))
                                    for t, _ in r.call_targets(fc, _at(cs, comp))]
                    key = (cfc.path, child.owner, child.line, field)
                    if key not in emitters:
                        emitters[key] = _emitters(cfc, child, field)
                    _emits(cfc, emitters[key], handlers, where, edges, outcomes)


def _emitters(cfc: FileCtx, child: UiComponent, field: str) -> list[tuple[Def, CallSite]]:
    """``(method, call site)`` of each ``this.<field>.emit(...)`` of ``child`` (the output's field)."""
    receiver, out = f"this.{field}", []
    for cs in cfc.ex.calls:
        if cs.name != "emit" or cs.receiver != receiver or cs.caller is None \
                or not (cs.caller == child.owner or cs.caller.startswith(child.owner + ".")):
            continue
        src = cfc.def_at(cs.caller, cs.line)
        if src is not None:
            out.append((src, cs))
    return out


def _emits(cfc: FileCtx, emitters: list[tuple[Def, CallSite]], handlers: list[tuple[Def, CallSite]], where: str,
           edges: dict[str, list[Edge]], outcomes: Counter[str]) -> None:
    """Edges from each of a child's ``emitters`` (:func:`_emitters`) to the parent's ``handlers``."""
    for src, cs in emitters:
        for target, at in handlers:
            edges.setdefault(cfc.path, []).append(Edge("CALLS", src.id, target.id, cfc.repo, cfc.path, cs.line, cs.col, "inferred",
                                        {"template": f"{where}:{at.line}:{at.col}"}))
            outcomes["template_events"] += 1


def _nearest(path: str, found: Sequence[tuple[FileCtx, UiComponent]]) -> list[tuple[FileCtx, UiComponent]]:
    """The components of ``found`` (one selector's) nearest to the file ``path``: most leading folders
    shared (two applications of one repository each declare their ``app-star``)."""
    if len(found) < 2:
        return list(found)
    best = max(shared_parts(path, cfc.path) for cfc, _ in found)
    return [(cfc, c) for cfc, c in found if shared_parts(path, cfc.path) == best]


def _at(cs: CallSite, comp: UiComponent) -> CallSite:
    """``cs`` placed where the component's template is named (the resolver reads scopes by line)."""
    return CallSite(cs.caller, cs.name, cs.receiver, cs.arity, comp.line, comp.col)


def _template_of(fc: FileCtx, comp: UiComponent, templates: Mapping[str, str]) -> tuple[str | None, str, int, int]:
    """``(text, path, line, col)`` of a component's template: the inline text where it starts in
    ``fc``, or the file ``template_url`` names (relative to ``fc``'s folder) from its start;
    ``(None, ...)`` when the file is not among ``templates``."""
    if comp.template is not None:
        return comp.template, fc.path, comp.line, comp.col
    url = comp.template_url or ""
    rel = posixpath.normpath(posixpath.join(posixpath.dirname(fc.path), url)) if not url.startswith("/") else url
    return templates.get(rel), rel, 1, 0


def _elements(selector: str | None) -> list[str]:
    """The element names of a component selector (``"app-a, [appB], app-c.x"`` -> ``["app-a", "app-c"]``)."""
    out = []
    for part in (selector or "").split(","):
        m = _ELEMENT.match(part)
        if m:
            out.append(m.group(1).lower())
    return out
