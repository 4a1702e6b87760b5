"""Stable node identifiers (FQNs) and graph labels for extracted definitions.

The FQN format is the design's ``repo:path/to/module.Class.method(sig)``: the repository name, the
file path without its suffix, the definition's qualname, and for callables a signature part that tells
overloads apart — the erased parameter types in Java (``save(Owner,int)``), the parameter count
elsewhere (``save(2)``). A qualname defined twice in one file (conditional definitions) gets ``#2``,
``#3`` … in source order, so every id is unique per repository and stable while the file is unchanged.
"""

from __future__ import annotations

from indexer.model import CALLABLE_KINDS, Definition, FileExtraction, base_type

__all__ = ["LABELS", "file_id", "module_path", "definition_ids", "signature_part"]

LABELS = {
    "class": "Class",
    "interface": "Interface",
    "enum": "Enum",
    "method": "Method",
    "function": "Function",
    "constructor": "Constructor",
    "field": "Field",
}
"""Extraction kind -> graph node label."""


def file_id(repo: str, path: str) -> str:
    """The id of a File node: ``repo:path`` (path repository-relative, POSIX, with suffix)."""
    return f"{repo}:{path}"


def module_path(path: str) -> str:
    """``pkg/mod.py`` -> ``pkg/mod``; a path without a suffix is returned unchanged."""
    slash = path.rfind("/")
    dot = path.rfind(".")
    return path[:dot] if dot > slash + 1 else path


def signature_part(language: str, d: Definition) -> str:
    """The parenthesised part that separates overloads: Java erases each parameter type to its simple
    name (``List<Owner>`` -> ``List``, varargs ``String...`` -> ``String...``); other languages give
    the parameter count."""
    if language == "java":
        types = []
        for p in d.params:
            t = base_type(p.type) or "?"
            t = t.rsplit(".", 1)[-1]
            types.append(t + ("..." if p.variadic else ""))
        return "(" + ",".join(types) + ")"
    return f"({len(d.params)})"


def definition_ids(repo: str, extraction: FileExtraction) -> list[str]:
    """Ids for ``extraction.definitions``, in the same order."""
    prefix = f"{repo}:{extraction.id_path or module_path(extraction.path)}."
    seen: dict[str, int] = {}
    out = []
    for d in extraction.definitions:
        base = prefix + d.qualname
        if d.kind in CALLABLE_KINDS:
            base += signature_part(extraction.language, d)
        n = seen.get(base, 0) + 1
        seen[base] = n
        out.append(base if n == 1 else f"{base}#{n}")
    return out
