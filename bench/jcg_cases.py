"""Read the test cases of JCG, the call-graph suite of Reif et al. (ISSTA 2019), from its markdown files.

JCG (``opalj/JCG``, not part of this repository) keeps its cases in
``jcg_testcases/src/main/resources/<language>/<Category>.md``, one markdown file a category, in one
format for Java, JavaScript and Python::

    ## VC1
    [//]: # (MAIN: vc.Class)          or (LIBRARY) for a partial program
    One or more lines of description.
    ```json                            (JavaScript and Python: the expected edges)
    {"directLinks": [["<global>", "CL1.inner"], ...], "indirectLinks": [...]}
    ```
    ```java                            (one fenced block a source file; its first line names the
    // vc/Class.java                    file: "// path" in Java and JavaScript, "# path" in Python)
    ...
    ```
    [//]: # (END)

Java's expected edges are not a JSON block: they are annotations on the calling method inside the
sources (``@DirectCall(name = "target", line = 12, resolvedTargets = "Lvc/Class;")``), read by the
Java scorer, not here.

:func:`read_cases` returns every case of one file; :func:`write_case` writes a case's sources into a
folder. Neither imports the product: the scorers (``bench/jcg_*.py``) index what this writes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

_HEADING = re.compile(r"^## (\S+)\s*$")
_DIRECTIVE = re.compile(r"^\[//\]: # \((MAIN: (?P<main>[^)]*)|LIBRARY|END)\)\s*$")
_FENCE = re.compile(r"^```(?P<lang>\w*)\s*$")
_TRAILING_COMMA = re.compile(r",(\s*[\]}])")
_PATH_LINE = re.compile(r"^\s*(?://|#)\s*(?P<path>[\w./-]+\.\w+)\s*$")


@dataclass
class JcgCase:
    """One JCG test case.

    ``name`` is the heading (``VC1``), ``category`` the markdown file's stem (``VirtualCalls``),
    ``main`` the ``MAIN:`` directive's value (``vc.Class``, ``global``) or ``None`` for a
    ``LIBRARY`` case, ``description`` the prose between the directive and the first block,
    ``expected`` the parsed JSON block (``{"directLinks": [[caller, callee], ...],
    "indirectLinks": [...]}``) or ``None`` when the case has none (Java), and ``files`` maps each
    source file's relative POSIX path to its text, its ``// path`` line kept as line 1 (JCG's Java
    annotations count lines without it: ``bench/jcg_java.py`` drops it before writing).
    """

    name: str
    category: str
    main: str | None
    description: str = ""
    expected: dict | None = None
    files: dict[str, str] = field(default_factory=dict)


def read_cases(markdown: Path) -> list[JcgCase]:
    """Every case of one JCG markdown file, in file order.

    Args:
        markdown: a ``<Category>.md`` file of JCG's ``jcg_testcases/src/main/resources/<lang>/``.

    Returns:
        The cases closed by an ``END`` directive with at least one named source file. A listing whose
        first line names no file, and a case without ``END`` (JCG's Classloading cases, which it runs
        outside its infrastructure), are left out.

    Raises:
        ValueError: a path that leaves the case's folder, or a JSON block that is not JSON (the
            message names the file and case).
        OSError: the file cannot be read.
    """
    category = markdown.stem
    cases: list[JcgCase] = []
    case: JcgCase | None = None
    block: list[str] | None = None
    block_lang = ""
    for line in markdown.read_text(encoding="utf-8").splitlines():
        if block is not None:
            if _FENCE.match(line) and not _FENCE.match(line).group("lang"):
                _close_block(markdown, case, block_lang, block)
                block = None
            else:
                block.append(line)
            continue
        heading = _HEADING.match(line)
        if heading:
            case = JcgCase(heading.group(1), category, main=None)
            continue
        directive = _DIRECTIVE.match(line)
        if directive and case is not None:
            text = directive.group(1)
            if text == "END":
                if case.files:
                    cases.append(case)
                case = None
            elif text.startswith("MAIN"):
                case.main = directive.group("main").strip()
            continue
        fence = _FENCE.match(line)
        if fence and case is not None:
            block, block_lang = [], fence.group("lang")
            continue
        if case is not None and not case.files and case.expected is None:
            case.description = (case.description + " " + line.strip()).strip()
    return cases


def _close_block(markdown: Path, case: JcgCase | None, lang: str, lines: list[str]) -> None:
    """File one fenced block into ``case``: the JSON of expected links, or a source file."""
    if case is None:
        return
    if lang == "json":
        try:
            # Some blocks carry a trailing comma ("[...],\n  ]"); JSON5 would read them, json does not.
            case.expected = json.loads(_TRAILING_COMMA.sub(r"\1", "\n".join(lines)))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{markdown.name} {case.name}: expected links are not JSON: {exc}") from exc
        return
    first = next((line for line in lines if line.strip()), "")
    match = _PATH_LINE.match(first)
    if not match:
        return  # a listing without a path line: JCG's "infrastructure incompatible" cases (Classloading)
    path = PurePosixPath(match.group("path"))
    if path.is_absolute() or ".." in path.parts:
        raise ValueError(f"{markdown.name} {case.name}: {path} leaves the case's folder")
    case.files[str(path)] = "\n".join(lines) + "\n"


def write_case(case: JcgCase, folder: Path) -> list[Path]:
    """Write ``case``'s source files under ``folder`` (created if missing); returns their paths."""
    written = []
    for rel, text in case.files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


def language_files(resources: Path, language: str) -> list[Path]:
    """The category files of one language: ``resources/<language>/*.md`` sorted by name.

    Args:
        resources: JCG's ``jcg_testcases/src/main/resources`` folder.
        language: ``java``, ``js`` or ``python``.

    Raises:
        FileNotFoundError: the folder has no ``<language>/`` markdown files.
    """
    files = sorted((resources / language).glob("*.md"))
    if not files:
        raise FileNotFoundError(f"no JCG {language} cases under {resources / language}")
    return files
